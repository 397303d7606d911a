"""The engine's promise about argument types (README, "The engine"): given any ``str`` every
function returns or raises ``engine.Failure``; an argument of a wrong type raises ``TypeError``,
never ``AttributeError``, ``ValueError`` or a silent answer."""

from __future__ import annotations

import inspect
import types

import pytest

import engine

RECORD = engine.basic_url_parse("http://a/")
#: Arguments of the right types, per function (default: one str per required parameter).
GOOD = {
    "percent_encode": [0x41],
    "percent_encode_after_encoding": ["utf-8", "a", engine.PATH_PERCENT_ENCODE_SET],
    "utf8_percent_encode": ["a", engine.PATH_PERCENT_ENCODE_SET],
    "percent_decode": [b"a"],
    "form_urlencoded_parse": [b"a=b"],
    "form_urlencoded_serialize": [[("a", "b")]],
    "hosts_equal": [engine.parse_host("a"), engine.parse_host("a")],
    "urls_equal": [RECORD, RECORD],
    "serialize_url": [RECORD],
    "serialize_path": [RECORD],
    "url_origin": [RECORD],
    "serialize_origin": [engine.url_origin(RECORD)],
    "serialize_host": [engine.parse_host("a")],
    "serialize_ipv4": [1],
    "serialize_ipv6": [(0,) * 8],
    "basic_url_parse": ["http://a/"],
    "parse_ipv4": ["1.2.3.4"],
    "parse_ipv6": ["::1"],
    "get_encoding": ["utf-8"],
    "get_output_encoding": ["UTF-8"],
}
WRONG = [None, 5, 3.5, b"x", ["a"], object()]
#: (function, parameter index): wrong values that are legitimately accepted there
ACCEPTED = {("percent_decode", 0): (b"x",), ("form_urlencoded_parse", 0): (b"x",),
            ("serialize_ipv4", 0): (5,), ("percent_encode", 0): (5,), ("public_suffix", 0): (None,),
            ("registrable_domain", 0): (None,)}
FUNCTIONS = [name for name in engine.__all__
             if inspect.isfunction(getattr(engine, name))]


def _required(function) -> int:
    return sum(1 for p in inspect.signature(function).parameters.values()
               if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


CASES = [(name, i, value) for name in FUNCTIONS
         for i in range(_required(getattr(engine, name))) for value in WRONG
         if value not in ACCEPTED.get((name, i), ())]


@pytest.mark.parametrize("name,index,value", CASES,
                         ids=[f"{n}-arg{i}-{type(v).__name__}" for n, i, v in CASES])
def test_a_wrong_argument_type_raises_type_error(name, index, value):
    function = getattr(engine, name)
    args = list(GOOD.get(name, ["a"] * _required(function)))
    function(*args)  # the right types work
    args[index] = value
    with pytest.raises(TypeError):
        function(*args)


def test_percent_encode_takes_a_byte_only():
    assert [engine.percent_encode(b) for b in (0, 0x7F, 255)] == ["%00", "%7F", "%FF"]
    for not_a_byte in (300, -1, True):
        with pytest.raises(TypeError):
            engine.percent_encode(not_a_byte)


def test_serialize_ipv6_takes_eight_16_bit_pieces_only():
    assert engine.serialize_ipv6((0,) * 7 + (0xFFFF,)) == "::ffff"
    for bad in ((1, 2, 3), (0,) * 7 + (0x10000,), (0,) * 7 + (-1,), (0,) * 9):
        with pytest.raises(TypeError):
            engine.serialize_ipv6(bad)


def test_the_api_names_no_submodule():
    assert engine.__all__ and not any(isinstance(getattr(engine, n), types.ModuleType)
                                      for n in engine.__all__)
    assert {"URL", "URLSearchParams", "basic_url_parse", "Failure"} <= set(engine.__all__)
