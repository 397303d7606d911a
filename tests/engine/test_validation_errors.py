"""Validation errors: each input with the exact, ordered list of validation errors the URL parser
reports (repeats kept), and whether it fails. Most inputs are the examples of the Standard's
validation error table. Every test runs on both parsers: the fast one (``engine.url``) and the
reference (``engine.reference``).

https://url.spec.whatwg.org/#writing
"""

from __future__ import annotations

import pytest

import engine
from wpt_data import PARSERS, SERIALIZERS

# (input, base, errors in order, fails)
TABLE = [
    ("https://exa%23mple.org", None, ["domain-percent-encoded", "domain-to-ASCII"], True),
    ("https://exa_mple.org", None, ["domain-to-ASCII"], False),
    ("https://exam%70le.org", None, ["domain-percent-encoded"], False),
    ("foo://exa[mple.org", None, ["host-invalid-code-point"], True),
    ("foo://ex%zample", None, ["invalid-URL-unit"], False),
    ("foo://a`b", None, ["invalid-URL-unit"], False),
    # the URL code points' edges: U+D7FF and U+E000 beside the surrogates, U+10FFFD
    ("https://h/\ud7ff\ue000\U0010fffd?\ud7ff#\ud7ff", None, [], False),
    ("https://h/\ufdd0", None, ["invalid-URL-unit"], False),
    ("https://127.0.0.1./", None, ["IPv4-empty-part"], False),
    ("https://1.2.3/", None, ["IPv4-too-few-parts"], False),
    ("https://1.2.3.4.5/", None, ["IPv4-too-many-parts"], True),
    ("https://test.42", None, ["IPv4-too-few-parts", "IPv4-non-numeric-part"], True),
    ("https://127.0.0x0.1", None, ["IPv4-non-decimal-part"], False),
    ("https://0x7f.0.0.01", None, ["IPv4-non-decimal-part", "IPv4-non-decimal-part"], False),
    ("https://255.255.4000.1", None, ["IPv4-out-of-range-part"], True),
    ("https://1.4000", None, ["IPv4-too-few-parts", "IPv4-out-of-range-part"], False),
    ("https://[::1", None, ["IPv6-unclosed"], True),
    ("https://[:1]", None, ["IPv6-invalid-compression"], True),
    ("https://[1:2:3:4:5:6:7:8:9]", None, ["IPv6-too-many-pieces"], True),
    ("https://[1::1::1]", None, ["IPv6-multiple-compression"], True),
    ("https://[1:2:3!:4]", None, ["IPv6-invalid-code-point"], True),
    ("https://[1:2:3:]", None, ["IPv6-invalid-code-point"], True),
    ("https://[1:2:3]", None, ["IPv6-too-few-pieces"], True),
    ("https://[::01]", None, ["IPv6-piece-leading-zero"], False),
    ("https://[00::01:0002]", None, ["IPv6-piece-leading-zero"] * 3, False),
    ("https://[10:ff::]", None, [], False),  # two digits, no leading zero (0x10 ** 1 is the bound)
    ("https://[1:1:1:1:1:1:1:127.0.0.1]", None, ["IPv4-in-IPv6-too-many-pieces"], True),
    ("https://[ffff::.0.0.1]", None, ["IPv4-in-IPv6-invalid-code-point"], True),
    # "." after seven pieces with no digits: the code point, before the piece count
    ("https://[1:2:3:4:5:6:7:.1]", None, ["IPv4-in-IPv6-invalid-code-point"], True),
    ("https://[ffff::127.0.xyz.1]", None, ["IPv4-in-IPv6-invalid-code-point"], True),
    ("https://[ffff::127.0xyz]", None, ["IPv4-in-IPv6-invalid-code-point"], True),
    ("https://[ffff::127.00.0.1]", None, ["IPv4-in-IPv6-invalid-code-point"], True),
    ("https://[ffff::127.0.0.1.2]", None, ["IPv4-in-IPv6-invalid-code-point"], True),
    ("https://[ffff::127.0.0.4000]", None, ["IPv4-in-IPv6-out-of-range-part"], True),
    ("https://[ffff::127.0.0]", None, ["IPv4-in-IPv6-too-few-parts"], True),
    ("https://example.org/>", None, ["invalid-URL-unit"], False),
    (" https://example.org ", None, ["invalid-URL-unit"], False),
    ("ht\ntps://example.org", None, ["invalid-URL-unit"], False),
    ("https://example.org/%s", None, ["invalid-URL-unit"], False),
    # Only a "%" not followed by two hex digits is one; "%41" before it is not (an earlier
    # version searched onwards from every "%", and counted the "%41" too).
    ("https://example.org/%41%", None, ["invalid-URL-unit"], False),
    ("sc:%41%zz?%41#%41%", None, ["invalid-URL-unit"] * 2, False),
    ("https://example.org/?a=<b>#c d", None, ["invalid-URL-unit"] * 3, False),
    ("file:c:/my-secret-folder", None, ["special-scheme-missing-following-solidus"], False),
    ("https:example.org", None, ["special-scheme-missing-following-solidus"], False),
    ("https:foo.html", "https://example.org/", ["special-scheme-missing-following-solidus"], False),
    ("https:///example.org", None, ["special-scheme-missing-following-solidus"], False),
    ("\U0001f4a9", None, ["missing-scheme-non-relative-URL"], True),
    ("\U0001f4a9", "mailto:user@example.org", ["missing-scheme-non-relative-URL"], True),
    ("https://example.org\\path\\to\\file", None, ["invalid-reverse-solidus"] * 3, False),
    ("https://user@example.org", None, ["invalid-credentials"], False),
    ("ssh://user@example.org", None, ["invalid-credentials"], False),
    ("https://a@b@c/", None, ["invalid-credentials", "invalid-credentials"], False),
    ("https://#fragment", None, ["host-missing"], True),
    ("https://:443", None, ["host-missing"], True),
    ("https://user:pass@", None, ["invalid-credentials", "host-missing"], True),
    ("https://example.org:70000", None, ["port-out-of-range"], True),
    ("https://example.org:7z", None, ["port-invalid"], True),
    # U+007C (|) is not a URL code point: the path state reports it too.
    ("c|/path", "file:///c:/", ["file-invalid-Windows-drive-letter", "invalid-URL-unit"], False),
    ("file://c:", None, ["file-invalid-Windows-drive-letter-host"], False),
    (
        " https://user@exa%70le.org:0443\\x ",
        None,
        ["invalid-URL-unit", "invalid-credentials", "domain-percent-encoded", "invalid-reverse-solidus"],
        False,
    ),
]


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("input,base,expected,fails", TABLE, ids=[repr(t[0]) for t in TABLE])
def test_validation_errors(input, base, expected, fails, parser):
    basic_url_parse = PARSERS[parser]
    errors: list[str] = []
    parsed_base = basic_url_parse(base) if base is not None else None
    if fails:
        with pytest.raises(engine.Failure) as info:
            basic_url_parse(input, parsed_base, errors=errors)
        # The failure carries the name of the last validation error before it, if any.
        assert info.value.validation_error == (expected[-1] if expected else None)
    else:
        basic_url_parse(input, parsed_base, errors=errors)
    assert errors == expected


@pytest.mark.parametrize("parser", PARSERS)
def test_listening_changes_nothing(parser):
    basic_url_parse, serialize_url = PARSERS[parser], SERIALIZERS[parser]
    for input, base, _, fails in TABLE:
        parsed_base = basic_url_parse(base) if base is not None else None
        try:
            quiet = serialize_url(basic_url_parse(input, parsed_base))
        except engine.Failure:
            quiet = None
        try:
            loud = serialize_url(basic_url_parse(input, parsed_base, errors=[]))
        except engine.Failure:
            loud = None
        assert quiet == loud, input


def test_every_validation_error_is_covered():
    """Meta-test: every validation error the Standard names is produced by a table case."""
    covered = {name for _, _, errors, _ in TABLE for name in errors}
    assert set(engine.VALIDATION_ERRORS) - covered == set()
    assert covered <= set(engine.VALIDATION_ERRORS)


def test_names_are_the_standards():
    assert len(engine.VALIDATION_ERRORS) == len(set(engine.VALIDATION_ERRORS)) == 30
