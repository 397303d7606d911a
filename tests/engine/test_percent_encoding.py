"""Percent-encoding: the sets (tables vs the Standard's literal definitions), decode, encode,
percent-encode after encoding (WPT's percent-encoding.json and the Standard's examples).

https://url.spec.whatwg.org/#percent-encoded-bytes
"""

from __future__ import annotations

import pytest

import engine
import engine.reference
from wpt_data import load_wpt
from engine.url import basic_url_parse


# The Standard's definitions, written out literally (not from the engine's tables).
def _c0(cp): return cp <= 0x1F or cp > 0x7E
def _fragment(cp): return _c0(cp) or cp in (0x20, 0x22, 0x3C, 0x3E, 0x60)
def _query(cp): return _c0(cp) or cp in (0x20, 0x22, 0x23, 0x3C, 0x3E)
def _special_query(cp): return _query(cp) or cp == 0x27
def _path(cp): return _query(cp) or cp in (0x3F, 0x5E, 0x60, 0x7B, 0x7D)
def _userinfo(cp): return _path(cp) or cp in (0x2F, 0x3A, 0x3B, 0x3D, 0x40, 0x5B, 0x5C, 0x5D, 0x7C)
def _component(cp): return _userinfo(cp) or 0x24 <= cp <= 0x26 or cp in (0x2B, 0x2C)
def _form(cp): return _component(cp) or cp == 0x21 or 0x27 <= cp <= 0x29 or cp == 0x7E


LITERAL = {
    "c0-control": _c0, "fragment": _fragment, "query": _query, "special-query": _special_query,
    "path": _path, "userinfo": _userinfo, "component": _component,
    "application/x-www-form-urlencoded": _form,
}


@pytest.mark.parametrize("name", LITERAL)
def test_set_tables_agree_with_the_standard(name):
    encode_set = engine.PERCENT_ENCODE_SETS[name]
    for cp in range(0x110000 if name == "c0-control" else 0x100):
        assert (cp in encode_set) == LITERAL[name](cp), hex(cp)
        assert (chr(cp) in encode_set) == LITERAL[name](cp), hex(cp)
    for b in range(256):
        want = f"%{b:02X}" if LITERAL[name](b) else chr(b)
        assert encode_set.table[b] == want
    assert chr(0x10FFFF) in encode_set


def test_form_urlencoded_set_is_all_but_alphanumerics_and_four():
    keep = {c for c in range(0x80) if chr(c).isalnum()} | {0x2A, 0x2D, 0x2E, 0x5F}
    for cp in range(0x80):
        assert (cp in engine.FORM_URLENCODED_PERCENT_ENCODE_SET) == (cp not in keep)


@pytest.mark.parametrize(
    "data,expected",
    [(b"%25%s%1G", b"%%s%1G"), (b"", b""), (b"%", b"%"), (b"%4", b"%4"), (b"%41%4a%4A", b"AJJ"),
     (b"%%41", b"%A"), (b"%ZZ%20", b"%ZZ ")],
)
def test_percent_decode(data, expected):
    assert engine.percent_decode(data) == expected


def test_percent_decode_string():
    assert engine.percent_decode_string("‽%25%2E") == b"\xe2\x80\xbd%."


@pytest.mark.parametrize(
    "input,encode_set,expected",
    [
        ("\u2261", "userinfo", "%E2%89%A1"), ("\u203d", "userinfo", "%E2%80%BD"),
        ("Say what\u203d", "userinfo", "Say%20what%E2%80%BD"),
        ("a b+c", "application/x-www-form-urlencoded", "a+b%2Bc"),
        ("\ud800", "component", "%EF%BF%BD"), ("\U0001f4a9", "path", "%F0%9F%92%A9"),
        ("abc", "c0-control", "abc"),
    ],
)
def test_utf8_percent_encode(input, encode_set, expected):
    assert engine.utf8_percent_encode(input, engine.PERCENT_ENCODE_SETS[encode_set]) == expected


@pytest.mark.parametrize(
    "encoding,input,encode_set,expected",
    [
        # The Standard's examples.
        ("shift_jis", " ", "special-query", "%20"),
        ("shift_jis", "\u2261", "special-query", "%81%DF"),
        ("shift_jis", "\u203d", "special-query", "%26%238253%3B"),
        ("iso-2022-jp", "\u00a5", "special-query", "%1B(J\\%1B(B"),
        ("shift_jis", "1+1 \u2261 2%20\u203d", "application/x-www-form-urlencoded",
         "1%2B1+%81%DF+2%2520%26%238253%3B"),
        ("utf-8", "\u2261", "special-query", "%E2%89%A1"),
    ],
)
def test_percent_encode_after_encoding(encoding, input, encode_set, expected):
    got = engine.percent_encode_after_encoding(encoding, input, engine.PERCENT_ENCODE_SETS[encode_set])
    assert got == expected


PERCENT_ENCODING = [
    (encoding, case["input"], output, case["output"]["utf-8"])
    for case in load_wpt("percent-encoding.json")
    for encoding, output in case["output"].items()
]


def test_percent_encoding_json_count():
    assert len(PERCENT_ENCODING) == 16


@pytest.mark.parametrize("encoding,input,output,utf8", PERCENT_ENCODING,
                         ids=[f"{e}:{i!r}" for e, i, _, _ in PERCENT_ENCODING])
def test_percent_encoding_json(encoding, input, output, utf8):
    """As WPT's percent-encoding.window.js: the query in the document's encoding, the fragment in
    UTF-8."""
    url = basic_url_parse("https://doesnotmatter.invalid/?" + input + "#" + input, encoding=encoding)
    assert url.query == output
    assert url.fragment == utf8


def test_non_special_query_is_always_utf8():
    url = basic_url_parse("foo://x/?\u2261", encoding="shift_jis")
    assert url.query == "%E2%89%A1"
    url = basic_url_parse("wss://x/?\u2261", encoding="shift_jis")
    assert url.query == "%E2%89%A1"


def test_get_encoding():
    assert engine.get_encoding(" Shift_JIS\n") == "Shift_JIS"
    assert engine.get_encoding("latin1") == "windows-1252"
    with pytest.raises(engine.Failure):
        engine.get_encoding("no-such-encoding")
    assert engine.get_output_encoding("UTF-16LE") == "UTF-8"


def test_urlencoded():
    assert engine.form_urlencoded_parse(b"a=b&&c+d=%41=&e") == [("a", "b"), ("c d", "A="), ("e", "")]
    assert engine.form_urlencoded_parse(b"%FF=1") == [("\ufffd", "1")]
    assert engine.form_urlencoded_serialize([("a b", "\u2261&"), ("~", "")]) == "a+b=%E2%89%A1%26&%7E="
    assert engine.form_urlencoded_serialize([("\u2261", "x")], "shift_jis") == "%81%DF=x"


@pytest.mark.parametrize("parse", [basic_url_parse, engine.reference.basic_url_parse], ids=["fast", "reference"])
def test_the_query_of_a_url_not_special_or_ws_is_utf8_whatever_the_encoding(parse):
    # https://url.spec.whatwg.org/#query-state step 1
    # encodings whose names sort before and after "UTF-8"
    for encoding in ("windows-1252", "Shift_JIS", "Big5", "EUC-KR", "gb18030", "ISO-8859-2"):
        for url in ("ws://h/?\u00e9", "wss://h/?\u00e9", "foo://h/?\u00e9"):
            assert parse(url, encoding=encoding).query == "%C3%A9", (url, encoding)
    assert parse("http://h/?\u00e9", encoding="windows-1252").query == "%E9"
