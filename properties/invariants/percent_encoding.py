"""https://url.spec.whatwg.org/#percent-encoded-bytes

Invariants of percent-encoding: the eight percent-encode sets restated from the
Standard's prose, each from the previous one, and checked against the engine's tables.
"""

from __future__ import annotations

import re
import urllib.parse

import engine
from engine import Failure
from properties.invariants.common import PERCENT_ENCODED_BYTE, fail, to_usv


C0_CONTROL_ASCII = frozenset(map(chr, range(0x20)))


_SPEC_SET_ASCII: dict[str, frozenset[str]] = {"c0-control": C0_CONTROL_ASCII}


_SPEC_SET_ASCII["fragment"] = _SPEC_SET_ASCII["c0-control"] | frozenset(' "<>`')


_SPEC_SET_ASCII["query"] = _SPEC_SET_ASCII["c0-control"] | frozenset(' "#<>')


_SPEC_SET_ASCII["special-query"] = _SPEC_SET_ASCII["query"] | {"'"}


_SPEC_SET_ASCII["path"] = _SPEC_SET_ASCII["query"] | frozenset("?^`{}")


_SPEC_SET_ASCII["userinfo"] = _SPEC_SET_ASCII["path"] | frozenset("/:;=@[\\]|")


_SPEC_SET_ASCII["component"] = _SPEC_SET_ASCII["userinfo"] | frozenset("$%&+,")


_SPEC_SET_ASCII["application/x-www-form-urlencoded"] = (
    _SPEC_SET_ASCII["component"] | frozenset("!'()~"))


_FORM = "application/x-www-form-urlencoded"


def spec_percent_encode_set_contains(set_name: str, c: str) -> bool:
    """https://url.spec.whatwg.org/#percent-encoded-bytes

    Whether the code point ``c`` is in the named percent-encode set, as the prose defines it:
    every set holds the C0 controls and all code points above U+007E.
    """
    return ord(c) > 0x7E or c in _SPEC_SET_ASCII[set_name]


def _spec_set_member_pattern(set_name: str) -> re.Pattern:
    """A pattern matching a run of members of the named set, from the prose sets above: its ASCII
    members and every code point above U+007E."""
    ascii_members = "".join(sorted(_SPEC_SET_ASCII[set_name]))
    return re.compile("[" + re.escape(ascii_members) + "\x7f-\U0010ffff]+")


_SPEC_SET_RUN = {name: _spec_set_member_pattern(name) for name in _SPEC_SET_ASCII}


# Each byte as the Standard percent-encodes it; spaces as "+" for the form set.
_PERCENT_ENCODED = tuple(f"%{b:02X}" for b in range(256))


_PERCENT_ENCODED_PLUS = _PERCENT_ENCODED[:0x20] + ("+",) + _PERCENT_ENCODED[0x21:]


# A code point the encoder must not leave in its output: a member of the set other than "%" (the
# output's own %XX) and, for the form set, "+" (its spaces); and a "%" not starting a %XX.
_SPEC_SET_LEFT_OVER = {
    name: re.compile(
        "[" + re.escape("".join(sorted(members - {"%", "+" if name == _FORM else "%"})))
        + "\x7f-\U0010ffff]" + ("|%(?![0-9A-F]{2})" if "%" in members else ""))
    for name, members in _SPEC_SET_ASCII.items()
}


def expected_percent_encoding(s: str, set_name: str) -> str:
    """UTF-8 percent-encode ``s`` (a scalar value string) per the Standard's definition: each run
    of the set's members (as the prose defines them) replaced by its UTF-8 bytes as %XX."""
    table = _PERCENT_ENCODED_PLUS if set_name == _FORM else _PERCENT_ENCODED

    def encode_run(m: re.Match) -> str:
        return "".join(map(table.__getitem__, m.group().encode("utf-8")))

    return _SPEC_SET_RUN[set_name].sub(encode_run, s)


def _check_no_set_members(out: str, set_name: str, where: str) -> None:
    """Percent-encoded output holds no code point of its set, bar the '%' of a %XX (and the '+'
    of a space, for the form set)."""
    m = _SPEC_SET_LEFT_OVER[set_name].search(out)
    if m is not None:
        fail(f"{where}: output {out!r} holds {m.group()!r} at {m.start()}, which the "
              f"{set_name} set should have encoded")


def check_percent_roundtrip(s: str, set_name: str) -> None:
    """https://url.spec.whatwg.org/#string-utf-8-percent-encode

    UTF-8 percent-encoding ``s`` with the named set gives exactly the Standard's output (each
    code point in the set as its UTF-8 bytes in %XX, space as '+' for the form set); the output
    holds no member of the set; and percent-decoding it gives back the UTF-8 of ``s`` for the
    component and form sets (which encode '%'), and for every set when ``s`` holds no '%'.
    (That the engine's ``c in SET`` agrees with the prose on every code point is a unit test,
    tests/engine/test_percent_encoding.py: a property of the sets, not of the input.)
    """
    encode_set = engine.PERCENT_ENCODE_SETS[set_name]
    usv = to_usv(s)
    out = engine.utf8_percent_encode(s, encode_set)
    expected = expected_percent_encoding(usv, set_name)
    where = f"utf8_percent_encode({s!r}, {set_name})"
    if out != expected:
        fail(f"{where} = {out!r}, expected {expected!r}")
    _check_no_set_members(out, set_name, where)
    if set_name in ("component", _FORM) or "%" not in usv:
        encoded = out.replace("+", " ") if set_name == _FORM else out
        decoded = engine.percent_decode_string(encoded)
        if decoded != usv.encode("utf-8"):
            fail(f"{where} = {out!r} percent-decodes to {decoded!r}, not {usv.encode()!r}")


def check_percent_decode(data: bytes) -> None:
    """https://url.spec.whatwg.org/#percent-decode

    Percent-decoding bytes agrees with ``urllib.parse.unquote_to_bytes`` (the same rule: '%'
    and two ASCII hex digits become one byte, anything else is kept), and percent-decoding a
    string is percent-decoding its UTF-8 encoding.
    """
    out = engine.percent_decode(data)
    expected = urllib.parse.unquote_to_bytes(data)
    if out != expected:
        fail(f"percent_decode({data!r}) = {out!r}, expected {expected!r}")
    if len(out) != len(data) - 2 * len(PERCENT_ENCODED_BYTE.findall(data.decode("latin-1"))):
        fail(f"percent_decode({data!r}) = {out!r}: wrong length")
    text = data.decode("utf-8", "replace")
    out_s = engine.percent_decode_string(text)
    if out_s != engine.percent_decode(text.encode("utf-8")):
        fail(f"percent_decode_string({text!r}) = {out_s!r} differs from percent_decode of its "
              f"UTF-8")


def check_percent_encode_after_encoding(encoding: str, s: str, set_name: str) -> None:
    """https://url.spec.whatwg.org/#string-percent-encode-after-encoding

    With any encoding, the output is ASCII and holds no member of the set (bar %XX, and '+' for
    spaces with the form set); with UTF-8 it equals UTF-8 percent-encode; on ASCII input (other
    than ISO-2022-JP's escape code points) every encoding gives the UTF-8 answer; and with a
    stateless encoder, encoding a concatenation is concatenating the encodings.
    The Standard asserts UTF-8 or the special-query or form set: other combinations are skipped.
    """
    try:
        name = engine.get_encoding(encoding)
    except Failure:  # not an encoding label
        return
    if name != "UTF-8" and set_name not in ("special-query", _FORM):
        return
    encode_set = engine.PERCENT_ENCODE_SETS[set_name]
    usv = to_usv(s)
    where = f"percent_encode_after_encoding({encoding!r}, {s!r}, {set_name})"
    out = engine.percent_encode_after_encoding(encoding, s, encode_set)
    if not out.isascii():
        fail(f"{where} = {out!r} is not ASCII")
    _check_no_set_members(out, set_name, where)
    utf8 = engine.utf8_percent_encode(usv, encode_set)
    if name == "UTF-8" and out != utf8:
        fail(f"{where} = {out!r}, but with UTF-8 it must equal utf8_percent_encode: {utf8!r}")
    if usv.isascii() and not (name == "ISO-2022-JP" and set(usv) & {"\x0e", "\x0f", "\x1b"}):
        if out != utf8:
            fail(f"{where} = {out!r}, but ASCII input encodes as in UTF-8: {utf8!r}")
    if name != "ISO-2022-JP" and len(usv) >= 2:
        k = len(usv) // 2
        parts = (engine.percent_encode_after_encoding(encoding, usv[:k], encode_set)
                 + engine.percent_encode_after_encoding(encoding, usv[k:], encode_set))
        if parts != out:
            fail(f"{where} = {out!r}, but its halves {usv[:k]!r} + {usv[k:]!r} give {parts!r}")
