"""Host parsing through the URL parser, as WPT runs toascii.json and IdnaTestV2.json: parse
``"https://" + input + "/x"``; ``output: null`` means failure, otherwise host and hostname equal
output and pathname is "/x".

https://url.spec.whatwg.org/#host-parsing
"""

from __future__ import annotations

import pytest

import engine
from wpt_data import check_with_expected_failures, load_expected_failures, load_wpt

TOASCII = load_wpt("toascii.json")
# As WPT's IdnaTestV2.window.js: the empty input cannot be tested through new URL().
IDNA = [c for c in load_wpt("IdnaTestV2.json") if c["input"] != ""]
IDNA_EXPECTED_FAILURES = load_expected_failures("IdnaTestV2")


def _check(case):
    if case["output"] is None:
        with pytest.raises(engine.Failure):
            engine.URL("https://" + case["input"] + "/x")
        return
    url = engine.URL("https://" + case["input"] + "/x")
    assert url.host == case["output"]
    assert url.hostname == case["output"]
    assert url.pathname == "/x"


def test_counts():
    assert len(TOASCII) == 87
    assert len(IDNA) > 2600


@pytest.mark.parametrize("case", TOASCII, ids=[repr(c["input"]) for c in TOASCII])
def test_toascii(case):
    _check(case)


@pytest.mark.parametrize("case", IDNA, ids=[repr(c["input"]) for c in IDNA])
def test_idna_v2(case):
    check_with_expected_failures(IDNA_EXPECTED_FAILURES, case["input"], lambda: _check(case))


def test_expected_failures_name_real_cases():
    inputs = {c["input"] for c in IDNA}
    assert set(IDNA_EXPECTED_FAILURES) <= inputs


@pytest.mark.parametrize(
    "input,is_opaque,expected",
    [
        # The Standard's host parsing example table.
        ("EXAMPLE.COM", False, "example.com"), ("EXAMPLE.COM", True, "EXAMPLE.COM"),
        ("example%2Ecom", False, "example.com"), ("example%2Ecom", True, "example%2Ecom"),
        ("faß.example", False, "xn--fa-hia.example"), ("faß.example", True, "fa%C3%9F.example"),
        ("0", False, "0.0.0.0"), ("0", True, "0"), ("%30", False, "0.0.0.0"), ("%30", True, "%30"),
        ("0x", False, "0.0.0.0"), ("0x", True, "0x"),
        ("0xffffffff", False, "255.255.255.255"), ("0xffffffff", True, "0xffffffff"),
        ("[0:0::1]", False, "[::1]"), ("[0:0::1]", True, "[::1]"),
        ("[0:0::1%5D", False, None), ("[0:0::1%5D", True, None),
        ("[0:0::%31]", False, None), ("[0:0::%31]", True, None),
        ("09", False, None), ("09", True, "09"),
        ("example.255", False, None), ("example.255", True, "example.255"),
        ("example^example", False, None), ("example^example", True, None),
        ("☕.example", False, "xn--53h.example"),
    ],
)
def test_host_parsing_examples(input, is_opaque, expected):
    if expected is None:
        with pytest.raises(engine.Failure):
            engine.parse_host(input, is_opaque)
    else:
        assert engine.serialize_host(engine.parse_host(input, is_opaque)) == expected


def test_host_kinds_are_types():
    assert isinstance(engine.parse_host("example.com"), engine.Domain)
    assert isinstance(engine.parse_host("1.2.3.4"), engine.IPv4Address)
    assert isinstance(engine.parse_host("[::1]"), engine.IPv6Address)
    assert isinstance(engine.parse_host("a b".replace(" ", ""), True), engine.OpaqueHost)
    assert isinstance(engine.parse_host("", True), engine.EmptyHost)
    assert engine.parse_ipv4("1.2.3.4") == 0x01020304
    assert engine.parse_ipv6("1::") == (1, 0, 0, 0, 0, 0, 0, 0)
    assert engine.hosts_equal(engine.parse_host("A.com"), engine.parse_host("a.COM"))
    assert not engine.hosts_equal(engine.parse_host("0", True), engine.parse_host("0"))


@pytest.mark.parametrize(
    "address,expected",
    [
        ((0, 0, 0, 0, 0, 0, 0, 0), "::"), ((0, 0, 0, 0, 0, 0, 0, 1), "::1"),
        ((1, 0, 0, 0, 0, 0, 0, 0), "1::"), ((1, 0, 1, 0, 0, 1, 0, 0), "1:0:1::1:0:0"),
        ((1, 0, 2, 3, 4, 5, 6, 7), "1:0:2:3:4:5:6:7"), ((0x2001, 0xdb8, 0, 0, 1, 0, 0, 1), "2001:db8::1:0:0:1"),
    ],
)
def test_ipv6_serializer_compresses_first_longest_run(address, expected):
    assert engine.serialize_ipv6(address) == expected


@pytest.mark.parametrize(
    "input,expected",
    [("1.2.3", True), ("1.2.3.", True), ("a.0x", True), ("a.0xG", False), ("a.09", True),
     ("a.b", False), ("0x1.b", False), ("a..", False), (".", False)],
)
def test_ends_in_a_number(input, expected):
    assert engine.ends_in_a_number(input) is expected


def test_domain_to_unicode():
    assert engine.domain_to_unicode("xn--53h.example") == "☕.example"
    assert engine.domain_to_unicode("xn--8i7caa") == "xn--8i7caa"  # an error: the domain returns
    assert engine.domain_to_ascii("☕.example") == "xn--53h.example"
    assert engine.domain_to_ascii("xn--8i7caa") == "xn--8i7caa"
    with pytest.raises(engine.Failure):
        engine.domain_to_ascii("xn--8i7caa", True)


def test_ends_in_a_number_search_is_the_checker():
    """The host parser asks ends-in-a-number with one regex search: it answers as the
    Standard's steps (engine.ends_in_a_number) on every string up to length 5 over an alphabet
    of the code points that matter (digits, hex letters, x/X, ".", a non-hex letter, a
    non-ASCII digit)."""
    import itertools

    from engine.host import ends_in_a_number_search

    alphabet = "09afxX.g\u0663"
    checked = 0
    for length in range(6):
        for chars in itertools.product(alphabet, repeat=length):
            s = "".join(chars)
            assert (ends_in_a_number_search(s) is not None) is engine.ends_in_a_number(s), s
            checked += 1
    assert checked == sum(len(alphabet) ** k for k in range(6))


@pytest.mark.parametrize("domain", ["\u200c\u1820.example", "\u200c\u0628.example", "a\u200c\u0628.example",
                                    "\u0628\u200d.example"])
def test_a_joiner_out_of_its_context_fails(domain):
    # RFC 5892 A.1/A.2 (CheckJoiners): a ZWNJ first in its label (before a Mongolian letter, of
    # joining type D and left to right: no Bidi rule fails it instead), or after a code point of no
    # joining type, and a ZWJ not after a virama
    with pytest.raises(engine.Failure):
        engine.domain_to_ascii(domain)
    assert engine.domain_to_ascii("\u0628\u200c\u0628.example") == "xn--ngba799q.example"
