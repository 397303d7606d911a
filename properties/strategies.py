"""Hypothesis strategies that know the URL Standard's grammar and its corners.

https://url.spec.whatwg.org/

Every strategy mixes uniform random text with edge cases sampled from the Standard (IPv4 in
octal and hex with one to five parts, IPv6 with '::' anywhere and an embedded IPv4, IDNA mapped
and ignored code points, `xn--` labels, dot segments in every spelling, Windows drive letters,
C0 controls, tabs and newlines, lone surrogates). All are built once, at import.

The spellings the Standard treats specially are listed in ``properties/spellings.py``, whose
alphabets the strategies draw from; ``tests/workbench/test_spellings.py`` checks that each strategy
reaches every spelling that concerns it.

``ipv4_cases`` and ``ipv6_cases`` also carry the answer fixed by their construction (the
address, or None where the parser must fail), so a property can test the parser against it.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import string

from hypothesis import HealthCheck, Phase, given, seed, settings, strategies as st

from properties import spellings as sp
from properties.invariants import SEARCH_PARAMS_METHODS, SETTERS

# -- building blocks -------------------------------------------------------------------------

#: https://url.spec.whatwg.org/#forbidden-host-code-point
FORBIDDEN_HOST_CODE_POINTS = sp.FORBIDDEN_HOST_CODE_POINTS
#: https://url.spec.whatwg.org/#forbidden-domain-code-point (beyond the host ones)
FORBIDDEN_DOMAIN_EXTRA = "".join(map(chr, range(1, 0x20))) + "%\x7f"
#: https://url.spec.whatwg.org/#ascii-tab-or-newline and C0 control or space
TAB_OR_NEWLINE = "\t\n\r"
C0_OR_SPACE = "".join(map(chr, range(0x21)))
LONE_SURROGATES = ("\ud800", "\udbff", "\udc00", "\udfff")
SURROGATE_PAIR = "\ud83d\ude00"  # U+1F600 as a JavaScript string would hold it
#: U+3002, U+FF0E, U+FF61: IDNA maps each to '.'
IDEOGRAPHIC_DOTS = ("\u3002", "\uff0e", "\uff61")
FULLWIDTH_DIGITS = {str(d): chr(0xFF10 + d) for d in range(10)}

_scalar_text = st.text(max_size=12)  # any scalar values (Hypothesis never draws surrogates)
_url_ascii = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x7F), max_size=12)


def _sometimes(strategy, otherwise=""):
    return st.one_of(st.just(otherwise), strategy)


@st.composite
def _sprinkle(draw, base, alphabet: tuple[str, ...] | st.SearchStrategy, max_inserts: int = 3,
              min_inserts: int = 0):
    """``base`` with ``min_inserts`` to ``max_inserts`` code points from ``alphabet`` inserted
    anywhere."""
    text = draw(base)
    chars = st.sampled_from(alphabet) if isinstance(alphabet, tuple) else alphabet
    for _ in range(draw(st.integers(min_inserts, max_inserts))):
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(chars) + text[i:]
    return text


def _kinds(*strategies):
    """One of ``strategies``, each as likely as the others. (``st.one_of`` flattens a ``one_of``
    among its arguments into that one's branches, each as likely as any other argument.)"""
    return st.integers(0, len(strategies) - 1).flatmap(lambda i: strategies[i])


@st.composite
def _percent_encode_some(draw, base):
    """``base`` with some of its code points percent-encoded (UTF-8, random hex case)."""
    text = draw(base)
    out = []
    for c in text:
        if draw(st.integers(0, 3)) == 0:
            hexes = "".join(f"%{b:02X}" for b in c.encode("utf-8", "surrogatepass"))
            out.append(hexes.lower() if draw(st.booleans()) else hexes)
        else:
            out.append(c)
    return "".join(out)


_high_surrogate = st.sampled_from(sp.HIGH_SURROGATES)
_low_surrogate = st.sampled_from(sp.LOW_SURROGATES)
_lone_surrogate = st.one_of(_high_surrogate, _low_surrogate)


@st.composite
def _with_lone_surrogates(draw, base):
    """A lone surrogate, high or low, as the whole string; or ``base`` with lone surrogates at
    its start, at its end, inside it, or a low one before a high one (a reversed pair, two lone
    ones): https://infra.spec.whatwg.org/#javascript-string-convert makes each U+FFFD."""
    if draw(st.integers(0, 3)) == 0:
        return draw(_lone_surrogate)
    text = draw(base) or "a"
    start, end = draw(st.one_of(st.just(""), _lone_surrogate)), draw(_lone_surrogate)
    inside = draw(st.one_of(st.just(""), _lone_surrogate,
                            st.tuples(_low_surrogate, _high_surrogate).map("".join)))
    i = draw(st.integers(0, len(text)))
    return start + text[:i] + inside + text[i:] + end


@st.composite
def _random_case(draw, base):
    text = draw(base)
    return "".join(c.upper() if draw(st.booleans()) else c.lower() for c in text)


# -- IPv4 ------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class IPv4Case:
    """A host string written as an IPv4 address and the outcome its construction fixes:
    ``value`` is the address the host parser must give, or None where it must fail."""
    text: str
    value: int | None


_IPV4_BOUNDARY_VALUES = (0, 1, 7, 8, 9, 10, 16, 127, 255, 256, 0xFFFF, 0x10000, 0xFFFFFF,
                         0x1000000, 0xFFFFFFFF, 0x100000000, 10**20)
_ipv4_number = st.one_of(st.integers(0, 255), st.sampled_from(_IPV4_BOUNDARY_VALUES),
                         st.sampled_from(_IPV4_BOUNDARY_VALUES[-6:]), st.integers(0, 2**32 + 1))
#: strings the IPv4 number parser rejects (https://url.spec.whatwg.org/#ipv4-number-parser)
_IPV4_NON_NUMBERS = ("09", "08", "018", "0779", "0x1g", "0xg", "1a", "x", "-1", "+1", "1e1", "0b1",
                     " 1")


@st.composite
def _ipv4_part(draw, number=_ipv4_number, kinds=("dec",) * 6 + ("oct",) * 3 + ("hex",) * 3
               + ("0x", "bad", "bad", "empty", "empty")):
    """(text, value) for one IPv4 part: a ``number`` in decimal, octal or hex, '0x' alone, or
    (value None) a part the IPv4 number parser rejects or an empty part."""
    kind = draw(st.sampled_from(kinds))
    if kind == "bad":
        return draw(st.sampled_from(_IPV4_NON_NUMBERS)), None
    if kind == "empty":
        return "", None
    if kind == "0x":
        return draw(st.sampled_from(("0x", "0X"))), 0
    n = draw(number)
    zeros = "0" * draw(st.integers(0, 2))
    if kind == "dec":
        return str(n), n
    if kind == "oct":
        return "0" + zeros + format(n, "o"), n
    digits = format(n, "x")
    digits = digits.upper() if draw(st.booleans()) else digits
    return draw(st.sampled_from(("0x", "0X"))) + zeros + digits, n


def _ipv4_value(parts: list[tuple[str, int | None]]) -> int | None:
    """https://url.spec.whatwg.org/#concept-ipv4-parser on parts that end in a number."""
    numbers = [v for _, v in parts]
    if len(numbers) > 4 or None in numbers or any(n > 255 for n in numbers[:-1]):
        return None
    if numbers[-1] >= 256 ** (5 - len(numbers)):
        return None
    return numbers[-1] + sum(n * 256 ** (3 - i) for i, n in enumerate(numbers[:-1]))


#: a part at the limit of a part before the last (255), or one past it
_ipv4_byte_edge = _ipv4_part(st.sampled_from((255, 256)), kinds=("dec", "dec", "oct", "hex"))


def _ipv4_last_edge(count: int):
    """The last part at its limit for ``count`` parts (256 ** (5 - count) - 1), or one past."""
    limit = 256 ** (5 - min(count, 4))
    return _ipv4_part(st.sampled_from((limit - 1, limit)), kinds=("dec", "dec", "oct", "hex"))


@st.composite
def _ipv4_case(draw, decorate: bool):
    count = draw(st.sampled_from((1, 2, 3, 4, 4, 4, 5)))
    parts = [draw(st.one_of(_ipv4_part(), _ipv4_byte_edge)) for _ in range(count - 1)]
    # The last part ends in a number, so the host parser must take the IPv4 path: a decimal,
    # octal or hex number, or "09"-like digits the IPv4 parser then rejects.
    last = draw(st.one_of(
        _ipv4_part().filter(lambda p: p[1] is not None or p[0][:1] == "0" and p[0].isdigit()),
        _ipv4_last_edge(count)))
    parts.append(last)
    value = _ipv4_value(parts)
    text = ".".join(t for t, _ in parts) + draw(st.sampled_from(("", "", "", ".")))
    if decorate:
        how = draw(st.sampled_from(("plain", "plain", "plain", "fullwidth", "dots", "percent")))
        if how == "fullwidth":  # UTS46 maps full-width digits and letters to ASCII
            text = "".join(FULLWIDTH_DIGITS.get(c, c) for c in text)
        elif how == "dots":
            text = text.replace(".", draw(st.sampled_from(IDEOGRAPHIC_DOTS)))
        elif how == "percent":  # the host parser percent-decodes before IDNA
            text = draw(_percent_encode_some(st.just(text)))
    return IPv4Case(text, value)


#: IPv4 hosts in every form the parser knows, with the answer: plain ASCII (for the IPv4 parser
#: itself) or decorated with full-width digits, ideographic dots or percent-encoding.
ipv4_cases_ascii = _ipv4_case(decorate=False)
ipv4_cases = _ipv4_case(decorate=True)
ipv4_texts = st.one_of(ipv4_cases.map(lambda c: c.text), st.from_regex(r"[0-9xX.]{1,16}",
                                                                         fullmatch=True))
ipv4_addresses = st.one_of(st.integers(0, 2**32 - 1), st.sampled_from(_IPV4_BOUNDARY_VALUES[:15]))


# -- IPv6 ------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class IPv6Case:
    """The text between the brackets of an IPv6 host and the outcome its construction fixes:
    ``pieces`` the address the IPv6 parser must give, or None where it must fail."""
    text: str
    pieces: tuple[int, ...] | None


_ipv6_piece = st.one_of(st.just(0), st.just(0), st.sampled_from((1, 0xFF, 0x100, 0xFFFF)),
                        st.integers(0, 0xFFFF))
ipv6_addresses = st.one_of(
    st.tuples(*[_ipv6_piece] * 8),
    st.lists(st.sampled_from((0, 0, 1)), min_size=8, max_size=8).map(tuple),
)


@st.composite
def _ipv6_piece_text(draw, piece: int) -> str:
    digits = format(piece, "x")
    digits = digits.upper() if draw(st.booleans()) else digits
    return "0" * draw(st.integers(0, 4 - len(digits))) + digits


#: ways to break a valid IPv6 text, each making the IPv6 parser fail
_IPV6_BREAKS = ("too-many-pieces", "too-many-pieces-around-compression", "too-few-pieces",
                "multiple-compression", "leading-colon", "trailing-colon", "five-digits",
                "five-digits", "invalid-code-point", "ipv4-leading-zero", "ipv4-three-parts",
                "ipv4-out-of-range", "ipv4-too-late")


@st.composite
def _ipv6_case(draw):
    """An IPv6 text: eight pieces, or '::' after any number of pieces (0 to 7) with any number
    after it (eight in all, around '::', is one too many), the last two pieces sometimes an
    embedded IPv4; a third of the others broken."""
    pieces = list(draw(ipv6_addresses))
    compress = None
    if draw(st.booleans()):
        before = draw(st.sampled_from(range(8)))
        after = draw(st.sampled_from(range(9 - before)))
        pieces[before:8 - after] = [0] * (8 - after - before)
        compress = (before, 8 - after)
    embed = draw(st.booleans()) and (compress is None or compress[1] <= 6)
    hex_texts = [draw(_ipv6_piece_text(p)) for p in pieces]
    texts = list(hex_texts)
    if embed:
        p6, p7 = pieces[6], pieces[7]
        texts[6:8] = [f"{p6 >> 8}.{p6 & 255}.{p7 >> 8}.{p7 & 255}"]
    if compress is None:
        text = ":".join(texts)
    else:
        i, j = compress
        text = ":".join(texts[:i]) + "::" + ":".join(texts[j:])
    if compress is not None and compress[0] == compress[1]:
        return IPv6Case(text, None)  # IPv6-too-many-pieces
    if draw(st.integers(0, 2)):
        return IPv6Case(text, tuple(pieces))
    return _break_ipv6(draw, text, hex_texts)


def _break_ipv6(draw, text: str, hex_texts: list[str]) -> IPv6Case:
    """``text`` (or its eight pieces, ``hex_texts``) broken one way of ``_IPV6_BREAKS``."""
    how = draw(st.sampled_from(_IPV6_BREAKS))
    if how == "too-many-pieces":
        text = ":".join(hex_texts + [draw(_ipv6_piece_text(1))])
    elif how == "too-many-pieces-around-compression":  # eight pieces and a '::' among them
        k = draw(st.integers(1, 7))
        text = ":".join(hex_texts[:k]) + "::" + ":".join(hex_texts[k:])
    elif how == "too-few-pieces":
        text = ":".join(hex_texts[:draw(st.integers(1, 7))])
    elif how == "multiple-compression":
        text = "1::2::" + text.lstrip(":")
    elif how == "leading-colon":
        text = ":" + text.lstrip(":")
    elif how == "trailing-colon":
        text += ":"
    elif how == "five-digits":
        text = "12345:" + text
    elif how == "invalid-code-point":
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(st.sampled_from(("g", " ", "%", "[", "\u0661", "/"))) + text[i:]
    elif how.startswith("ipv4"):
        bad = {"ipv4-leading-zero": "1.02.3.4", "ipv4-three-parts": "1.2.3",
               "ipv4-out-of-range": "1.2.3.256", "ipv4-too-late": "1.2.3.4"}[how]
        prefix = "1:2:3:4:5:6:7:" if how == "ipv4-too-late" else draw(
            st.sampled_from(("::", "1::", "::ffff:")))
        text = prefix + bad
    return IPv6Case(text, None)


def _ipv6_reference(text: str) -> IPv6Case:
    """An edge case with its answer as Python's ipaddress reads it (RFC 4291 text)."""
    n = int(ipaddress.IPv6Address(text))
    return IPv6Case(text, tuple((n >> (16 * (7 - i))) & 0xFFFF for i in range(8)))


#: the RFC 4291 and RFC 5952 corner texts
IPV6_EDGE_TEXTS = ("::", "::1", "1::", "::ffff:1.2.3.4", "::0.0.0.0", "0:0:0:0:0:0:0:0",
                   "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "1:0:0:2::3", "0:0:1::", "FFFF::")
#: IPv6 host texts (between the brackets), valid and broken, with the answer.
ipv6_cases = st.one_of(_ipv6_case(), _ipv6_case(), _ipv6_case(),
                       st.sampled_from(IPV6_EDGE_TEXTS).map(_ipv6_reference))
ipv6_texts = st.one_of(ipv6_cases.map(lambda c: c.text),
                       st.from_regex(r"[0-9a-fA-F:.]{0,24}", fullmatch=True))


# -- domains and opaque hosts ----------------------------------------------------------------

#: labels that meet the corners of UTS46 and the domain parser, by kind
XN_LABELS = (
    "xn--8i7caa",  # decodes to full-width "www", whose code points are mapped: invalid
    "xn--", "xn--a", "xn--zz", "xn--abc-", "XN--53H", "xn--53h", "xn--ls8h", "xn--nxa",
    "xn--bcher-kva", "xn--ss-", "xn--1ug", "xn--zca", "xn--a-ecp",
)
#: xn-- labels that decode to code points UTS46 disallows (unassigned, noncharacter, line
#: separator, a tag, a C1 control), to a mapped code point (upper case, full width), or that
#: decode to ASCII only
XN_DISALLOWED_LABELS = tuple("xn--" + c.encode("punycode").decode("ascii") for c in (
    "\u0378", "\ufdd0", "\u2028", "\U000e0001", "\x85", "aÉ", "ｗ", "ab"))
MAPPED_LABELS = ("ｅｘａｍｐｌｅ", "ＥＸＡＭＰＬＥ",  # full width
                 "ß", "ς", "ẞ", "İ", "ﬀ", "ǅ", "Ⅻ", "①", "\u3002")
IGNORED_AND_JOINER_LABELS = ("\u00ad", "a\u00adb", "\u200d", "a\u200db", "a\u200cb",
                             "\u0915\u094d\u200d")
OTHER_UNICODE_LABELS = ("☕", "💩", "إختبار", "例子", "ꭰ", "a\u05d0", "\u0660", "\u0378",
                        "\ufffd", "\u0301a")
ASCII_EDGE_LABELS = ("-a", "a-", "ab--c", "a" * 63, "a" * 64, "0x1", "1", "09", "0x", "123",
                     "localhost", "LOCALHOST")
EDGE_LABELS = (XN_LABELS + XN_DISALLOWED_LABELS + MAPPED_LABELS + IGNORED_AND_JOINER_LABELS
               + OTHER_UNICODE_LABELS + ASCII_EDGE_LABELS)
_edge_label = st.one_of(*map(st.sampled_from, (
    XN_LABELS, XN_DISALLOWED_LABELS, MAPPED_LABELS, IGNORED_AND_JOINER_LABELS,
    OTHER_UNICODE_LABELS,
    ASCII_EDGE_LABELS)))
_ldh_label = st.from_regex(r"[a-zA-Z0-9]([a-zA-Z0-9-]{0,14}[a-zA-Z0-9])?", fullmatch=True)
_unicode_label = st.text(
    alphabet=st.characters(categories=("Ll", "Lu", "Lo", "Mn", "Nd", "So"), max_codepoint=0x2FFFF),
    min_size=1, max_size=8)
_punycode_label = _unicode_label.map(lambda s: "xn--" + s.encode("punycode").decode("ascii"))


#: what comes before and after a joiner: a virama, letters that join (L or D, then R or D,
#: some with a transparent mark between), other code points, nothing
_joiner_context = st.one_of(
    st.tuples(st.sampled_from(sp.VIRAMA_EXAMPLES), st.sampled_from(("", "\u0937", "a"))),
    st.sampled_from(sp.JOINING_CONTEXT_EXAMPLES),
    st.tuples(st.sampled_from(("a", "\u05d0", "1", "\u0915")), st.sampled_from(("", "b"))),
    st.tuples(st.just(""), st.sampled_from(("a", "\u0628", ""))),
)


@st.composite
def _joiner_label(draw):
    """A label with one to three ZWJ or ZWNJ, each in one of the contexts CheckJoiners tells
    apart (https://www.rfc-editor.org/rfc/rfc5892#appendix-A)."""
    label = ""
    for _ in range(draw(st.integers(1, 3))):
        before, after = draw(_joiner_context)
        label += before + draw(st.sampled_from((sp.ZWJ, sp.ZWNJ))) + after
    return label


_bidi_example = st.sampled_from(tuple(c for cs in sp.BIDI_CLASS_EXAMPLES.values() for c in cs))
_rtl_example = st.sampled_from(sp.BIDI_CLASS_EXAMPLES["R"] + sp.BIDI_CLASS_EXAMPLES["AL"]
                               + sp.BIDI_CLASS_EXAMPLES["AN"])


@st.composite
def _bidi_label(draw):
    """A label that makes its domain a Bidi domain name (a code point of class R, AL or AN, first
    or not) among code points of every class RFC 5893's rules name
    (https://www.rfc-editor.org/rfc/rfc5893#section-2: CheckBidi)."""
    rest = draw(st.lists(_bidi_example, max_size=4))
    i = draw(st.one_of(st.just(0), st.integers(0, len(rest))))
    return "".join(rest[:i]) + draw(_rtl_example) + "".join(rest[i:])


# (st.one_of flattens _edge_label into its six branches)
_label = st.one_of(_ldh_label, _ldh_label, _unicode_label, _punycode_label, _edge_label,
                   _joiner_label(), _joiner_label(), _bidi_label(), _bidi_label())
_dot = st.sampled_from((".", ".", ".", ".") + IDEOGRAPHIC_DOTS)


@st.composite
def _domain(draw):
    labels = draw(st.lists(_label, min_size=1, max_size=4))
    text = labels[0]
    for label in labels[1:]:
        text += draw(_dot) + label
    return text + draw(st.sampled_from(("", "", "", ".", "\u3002", "..")))


#: domains: LDH, Unicode, punycode and edge labels, any of the four dots, trailing dots; some in
#: random case, some percent-encoded, some with a forbidden (host or domain) code point.
domains = st.one_of(
    _domain(), _domain(),
    _random_case(_domain()),
    _percent_encode_some(_domain()),
    _sprinkle(_domain(), tuple(FORBIDDEN_HOST_CODE_POINTS + FORBIDDEN_DOMAIN_EXTRA), 1),
    st.sampled_from(("exam%70le.org", "%zz", "a%", "%ff.com", "%C3%A9.fr", "xn--8i7caa.com",
                     "example.com.", ".", "..", "a..b", ".a", "1.2.3.4.example")),
)
#: opaque-host text: URL code points, '%' with or without hex, non-ASCII, forbidden code points
opaque_hosts = st.one_of(
    st.from_regex(r"[a-zA-Z0-9!$&'()*+,;=._~-]{1,12}", fullmatch=True),
    _sprinkle(st.from_regex(r"[a-z0-9.-]{0,10}", fullmatch=True),
              ("%", "%2", "%41", "%zz", "é", "\x7f", "\x01", " ", "#", "^", "|", "{", "`",
               "\ud800", "\u00a0"), 3),
)


#: https://url.spec.whatwg.org/#forbidden-domain-code-point (the forbidden host code points
#: are among them), each raw and percent-encoded: the host parser percent-decodes a domain
#: before it looks for them, an opaque host keeps the escapes
_FORBIDDEN_SPELLED = tuple(v for c in sp.FORBIDDEN_DOMAIN_CODE_POINTS
                           for v in (c, sp.percent_encoded(c)))


@st.composite
def _forbidden_run(draw, max_size: int):
    """One to ``max_size`` forbidden code points, raw and percent-encoded in turn, from any
    place in the list, forwards or backwards; escapes in either case. Hypothesis draws most
    examples as variations of earlier ones, near the start of a range: one code point per host
    meets about half the list in a hundred hosts; runs of up to half of it from either end
    meet all of it."""
    spelled = _FORBIDDEN_SPELLED if draw(st.booleans()) else _FORBIDDEN_SPELLED[::-1]
    start = draw(st.integers(0, len(spelled) - 1))
    size = draw(st.integers(1, max_size))
    run = "".join((spelled * 2)[start:start + size])
    return run.lower() if draw(st.booleans()) else run


@st.composite
def _insert(draw, base, inserted):
    text, piece = draw(base), draw(inserted)
    i = draw(st.integers(0, len(text)))
    return text[:i] + piece + text[i:]


#: every kind of host text the host parser may meet
_any_host = st.one_of(
    domains, ipv4_texts, ipv6_texts.map(lambda t: f"[{t}]"), opaque_hosts, st.text(max_size=10),
    st.sampled_from(("[", "]", "[::1", "::1]", "[]", "[::1]:80")),
)
#: hosts of every kind: half of them as they are, a sixth with one forbidden code point (raw
#: or percent-encoded), a sixth with a run of them, a sixth with lone surrogates
hosts = _kinds(_any_host, _any_host, _any_host, _insert(_any_host, _forbidden_run(1)),
               _insert(_any_host, _forbidden_run(len(_FORBIDDEN_SPELLED) // 2)),
               _with_lone_surrogates(_any_host))


# -- percent-encoding and encodings ----------------------------------------------------------

PERCENT_ENCODE_SET_NAMES = ("c0-control", "fragment", "query", "special-query", "path",
                            "userinfo", "component", "application/x-www-form-urlencoded")
percent_encode_set_names = st.sampled_from(PERCENT_ENCODE_SET_NAMES)
_ascii_printable_and_controls = st.characters(min_codepoint=0, max_codepoint=0x7F)
#: strings that meet every percent-encode set: all of ASCII, '%' in valid and broken escapes,
#: 2-, 3- and 4-byte UTF-8, noncharacters, lone surrogates and a surrogate pair
# (' ' and '~' twice: only the application/x-www-form-urlencoded set encodes them)
_percent_sprinkled = _sprinkle(
    st.text(alphabet=_ascii_printable_and_controls, max_size=8),
    ("%", "%41", "%zz", "%2", "é", "€", "𝌆", "\ufffe", "\uffff", " ", "+", "~", "\x7f", "\x00",
     " ", "~") + LONE_SURROGATES + (SURROGATE_PAIR,), 4)
percent_texts = st.one_of(
    st.text(alphabet=_ascii_printable_and_controls, max_size=16),
    st.text(max_size=10),
    _percent_sprinkled,
    _with_lone_surrogates(_percent_sprinkled),
)
#: percent-decoding input: random bytes, and bytes thick with '%' escapes
percent_bytes = st.one_of(
    st.binary(max_size=16),
    _sprinkle(st.text(alphabet=_ascii_printable_and_controls, max_size=8),
              ("%", "%4", "%41", "%4g", "%%", "%ff", "%FF", "%c3%a9"), 4).map(
        lambda s: s.encode("latin-1")),
)
#: WHATWG encoding labels, of every family (https://encoding.spec.whatwg.org/#names-and-labels)
ENCODING_LABELS = (
    "utf-8", "UTF8", "shift_jis", "sjis", "euc-jp", "iso-2022-jp", "big5", "euc-kr",
    "gb18030", "gbk", "windows-1252", "latin1", "iso-8859-2", "iso-8859-8-i", "koi8-r",
    "koi8-u", "windows-1251", "windows-874", "macintosh", "x-mac-cyrillic", "ibm866",
)
encoding_labels = st.sampled_from(ENCODING_LABELS)
#: text for legacy encoders: ASCII, the ISO-2022-JP escapes, yen and overline, kana, hanzi,
#: hangul, Cyrillic, and code points no legacy encoding has
encoding_texts = st.one_of(
    percent_texts,
    st.text(alphabet=st.sampled_from(
        tuple("aZ0 %+'#\x0e\x0f\x1b¥‾≡ｱアあ漢字한글Жж€‽😀é\u00a0")),
            max_size=10),
)


# -- application/x-www-form-urlencoded -------------------------------------------------------

_form_text = st.one_of(
    st.text(max_size=6),
    _sprinkle(st.text(alphabet="ab ", max_size=4),
              ("&", "=", "+", "%", "%20", "%zz", "é", "~", "*", "\ufeff", "\x00")
              + LONE_SURROGATES[:1], 3),
    _with_lone_surrogates(st.text(max_size=4)),
)
form_pairs = st.lists(st.tuples(_form_text, _form_text), max_size=5)
#: urlencoded bytes: separators and escapes among random bytes, invalid UTF-8, a BOM
form_bytes = st.one_of(
    st.binary(max_size=20),
    _sprinkle(st.sampled_from((b"", b"a=b", b"a", b"=b")).map(lambda b: b.decode("latin-1")),
              ("&", "=", "+", "%", "%2", "%3D", "%26", "%C3%A9", "%ff", "\xff", "\xef\xbb\xbf",
               "&&", "=="), 5).map(lambda s: s.encode("latin-1")),
)


# -- URLs ------------------------------------------------------------------------------------

SPECIAL_SCHEMES = ("http", "https", "ws", "wss", "ftp", "file")
_scheme = st.one_of(
    st.sampled_from(SPECIAL_SCHEMES), st.sampled_from(SPECIAL_SCHEMES),
    st.sampled_from(("HTTP", "hTTps", "foo", "web+demo", "a-b.c+d", "blob", "data", "mailto",
                     "javascript", "about", "non-spec", "sc")),
    st.from_regex(r"[a-zA-Z][a-zA-Z0-9+.-]{0,6}", fullmatch=True),
    st.sampled_from(("1a", "a b", "", "+a", "a%3a", "é")),
)
# "//" most often; the backslash and mixed spellings of the confusion classes sampled directly.
_slashes = st.one_of(st.just("//"), st.just("//"), st.sampled_from(("\\\\", "/\\", "\\/")),
                     st.text(alphabet="/\\", max_size=4))
_userinfo = st.one_of(
    st.just(""),
    st.sampled_from(("user:pass@", "a:b:c@", "a@b@", "::@", ":@", "@", "@@", "u%40:p%3A@")),
    _sprinkle(st.text(alphabet="ab", max_size=3), ("@", ":", "%40", "%zz", " ", "é", "/",
                                                   "\\", "#", "?", "[", "|", "\x00"), 3)
    .map(lambda s: s + "@"),
)
PORTS = ("", "0", "1", "21", "80", "443", "8080", "65535", "65536", "080", "00000000080",
         "4294967296", "99999999999999999999", "-1", "+1", "7z", " 1", "1 ", "１")
_port = st.one_of(st.just(""), st.sampled_from(("0", "65535", "65536")).map(lambda p: ":" + p),
                  st.sampled_from(PORTS[1:]).map(lambda p: ":" + p), st.just(":"))
#: https://url.spec.whatwg.org/#single-dot-path-segment and double-dot, in every spelling
DOT_SEGMENTS = sp.DOT_SEGMENT_SPELLINGS
#: other path segments: Windows drive letters, near-dots, code points to encode
PATH_SEGMENTS = (
    "...", ".%2", "C:", "c|", "C%3A", "C%7C", "Z:", "a:", "C:.", "ab:", "|", "a b", "é", "%",
    "%zz", "?", "^", "{}", "`", "\"", "<>", "'", "@", ";", "=", "\x00", "\x7f", "\ud800",
    SURROGATE_PAIR,
)
_segment = st.one_of(st.sampled_from(DOT_SEGMENTS), st.sampled_from(PATH_SEGMENTS),
                     st.text(max_size=4), st.from_regex(r"[a-z0-9]{1,4}", fullmatch=True))
_path = st.lists(st.tuples(st.sampled_from(("/", "/", "\\")), _segment), max_size=4).map(
    lambda parts: "".join(sep + seg for sep, seg in parts))
_query = st.one_of(st.just(""), _sprinkle(st.text(max_size=4), (
    "'", "\"", "#", "&", "=", "+", " ", "%", "%zz", "`", "<", ">", "é", "\ud800", "?"), 3)
    .map(lambda q: "?" + q))
_fragment = st.one_of(st.just(""), _sprinkle(st.text(max_size=4), (
    "#", " ", "`", "<", ">", "\"", "%", "é", "\x00", "\udfff"), 3).map(lambda f: "#" + f))
_url_host = st.one_of(st.just(""), domains, ipv4_texts, ipv6_texts.map(lambda t: f"[{t}]"),
                      opaque_hosts, st.sampled_from(("localhost", "LOCALHOST", "C:", "c|",
                                                     "x%41", "[::1", "h:80")))
_edge_space = st.one_of(st.just(""), st.text(alphabet=C0_OR_SPACE, min_size=1, max_size=2))


@st.composite
def _structured_url(draw):
    scheme = draw(_scheme)
    colon = ":" if scheme or draw(st.booleans()) else ""
    text = (scheme + colon + draw(_slashes) + draw(_userinfo) + draw(_url_host) + draw(_port)
            + draw(_path) + draw(_query) + draw(_fragment))
    return text


#: https://url.spec.whatwg.org/#windows-drive-letter: an ASCII alpha, then ':' or '|'
_drive_letter = st.tuples(st.sampled_from(string.ascii_letters), st.sampled_from(":|")).map(
    "".join)
#: a drive letter followed by what may follow one (a slash, '?', '#', nothing), or by a code
#: point that makes it no drive letter
_drive_letter_and_after = st.tuples(
    _drive_letter, st.sampled_from(("", "/", "\\", "?", "#", "b"))).map("".join)


#: a file URL's authority: none (no slashes, one, or three or more: the host is empty), two
#: slashes and a host, two slashes and a drive letter (https://url.spec.whatwg.org/#file-host-state
#: reads it as the path's), or any run of slashes and a host
_file_authority = st.one_of(
    st.sampled_from(("", "/", "///", "\\", "\\\\\\", "////")),
    st.sampled_from(("", "/", "///")),
    st.tuples(st.sampled_from(("//", "\\\\", "/\\")),
              st.sampled_from(("localhost", "host", "[::1]", "xn--8i7caa", "1.2.3.4")),
              st.sampled_from(("/", "\\"))).map("".join),
    st.sampled_from(("//host/", "//localhost/")),
    st.tuples(st.sampled_from(("//", "\\\\")), _drive_letter).map("".join),
    st.tuples(_slashes, st.sampled_from(("", "host", "C:"))).map("".join),
)


@st.composite
def _file_url(draw):
    """file: URLs without a host, with one, or with a drive letter as the host; then a drive
    letter ('X:' or 'X|', either case, followed by a slash, '?', '#' or nothing) or a near miss
    first in the path."""
    scheme = draw(st.sampled_from(("file:", "file:", "FILE:", "file", "")))
    drive = draw(st.one_of(st.just(""), _drive_letter_and_after, _drive_letter_and_after,
                           st.sampled_from(("C%3A", "a:b", "/C:"))))
    return (scheme + draw(_file_authority) + drive + draw(_path) + draw(_query)
            + draw(_fragment))


def _decorate_url(base):
    """Tabs and newlines anywhere, C0 controls and spaces at the edges, lone surrogates."""
    return st.tuples(
        _edge_space, _sprinkle(base, tuple(TAB_OR_NEWLINE) + LONE_SURROGATES, 2), _edge_space,
    ).map("".join)


#: URL strings: structured (special and non-special schemes, slashes and backslashes, userinfo
#: with several '@' and ':', ports at the limits, dot segments, drive letters, query, fragment),
#: file URLs, relative references, and random text; decorated with tabs, newlines, C0 controls,
#: spaces and lone surrogates.
urls = st.one_of(
    _structured_url(), _structured_url(), _structured_url(), _file_url(),
    _decorate_url(_structured_url()), _decorate_url(_file_url()),
    _with_lone_surrogates(_structured_url()), st.text(max_size=20), _url_ascii,
)
#: bases: a fixed set that covers every kind of base (special, file with a drive, opaque path,
#: non-special with and without host, the "/." path prefix), and generated ones
BASES = (
    "http://example.org/foo/bar?q#f", "https://u:p@example.org:8080/a/b/c", "http://[::1]/",
    "file:///C:/dir/file", "file://host/dir/file", "file:///", "sc://h/a/b?q", "sc:/a/b",
    "sc:opaque?q#f", "about:blank", "data:text/plain,x", "web+demo:/.//not-a-host/",
    "non-spec:/..//p", "ws://h", "ftp://h/d/", "blob:https://example.org/uuid", "mailto:a@b",
)
bases = st.one_of(st.sampled_from(BASES), _structured_url())
FILE_BASES = tuple(b for b in BASES if b.startswith("file:")) + ("file:///c:/", "file://h/D:/a/b")
#: relative references the file state reads against a file base
#: (https://url.spec.whatwg.org/#file-state): a drive letter first ('X:' would be a scheme),
#: after one slash or two, a path-absolute reference, '..' and path-relative references
_file_reference = st.one_of(
    st.tuples(st.sampled_from(("", "/", "\\", "//", "\\\\", "/\\")), _drive_letter_and_after,
              _path).map("".join),
    st.tuples(st.sampled_from(("", "/", "\\", "//", "\\\\", "/\\")), _drive_letter_and_after,
              _path).map("".join),
    st.tuples(st.sampled_from(("/", "/", "\\", "..", "../..", "%2e%2E/..", "x", "")), _path).map(
        "".join),
)
_file_reference_and_base = st.tuples(_file_reference, st.sampled_from(FILE_BASES))
#: (URL string, base or None) as the URL properties take them: any URL with or without any
#: base, file URLs (the quirkiest part of the parser), and relative references against file
#: bases
_some_base = st.one_of(st.none(), bases)
urls_and_bases = st.one_of(
    st.tuples(urls, _some_base), st.tuples(urls, _some_base), st.tuples(urls, _some_base),
    st.tuples(_file_url(), _some_base), _file_reference_and_base,
    st.tuples(_with_lone_surrogates(_structured_url()), _some_base))
#: (URL string, base): the same, always with a base
urls_against_bases = st.one_of(st.tuples(urls, bases), st.tuples(urls, bases),
                               st.tuples(_file_url(), bases), _file_reference_and_base)


# -- setters and search params ---------------------------------------------------------------

_SETTER_EDGES = {
    "protocol": ("http", "https:", "file", "foo", "HTTP:", "a+b", "1x", "http:foo", "", "ws",
                 "javascript", "mailto:", "f\too"),
    "username": ("", "user", "a@b", "a:b", "é", "%", " ", "\x00"),
    "password": ("", "pass", "a@b", "a:b", "é", "%zz", "#"),
    "host": ("", "example.com", "EXAMPLE.com:81", "[::1]:80", "a:b:c", "h/p", "h?q", "h#f",
             "1.2.3.4:0", "xn--8i7caa", "h:", "h:65536", "\u3002", "@", "a%20b"),
    "hostname": ("", "example.com", "[::1]", "h:80", "0x7f.1", "h/p", "exa mple", "a.b."),
    "port": ("", "0", "80", "443", "8080", "65535", "65536", "8080abc", " 1", "\t1", "-1",
             "1\n2"),
    "pathname": ("", "/", "a/b", "/../x", "%2e%2e/a", "C:/x", "\\x", "//x", "/a b?c#d",
                 "/.//p"),
    "search": ("", "?", "q", "?a=b", "a b", "??", "#", "'", "é"),
    "hash": ("", "#", "f", "#a b", "##", "`", "é", "\x00"),
    "href": ("http://example.org/", "foo:bar", "file:///C:/", "relative", "", "sc://h",
             "http://[::1", "https://a.b/c?d#e"),
}
_setter_generated = {
    "protocol": st.one_of(_scheme, _scheme.map(lambda s: s + ":")),
    "username": _userinfo.map(lambda s: s[:-1]),
    "password": _userinfo.map(lambda s: s[:-1]),
    "host": st.tuples(_url_host, _port).map("".join),
    "hostname": _url_host,
    "port": st.one_of(st.integers(0, 70000).map(str), st.text(max_size=4)),
    "pathname": _path,
    "search": _query,
    "hash": _fragment,
    "href": urls,
}
#: (setter name, value) pairs: each setter with its edge values and generated ones
setter_steps = st.sampled_from(SETTERS).flatmap(
    lambda name: st.tuples(st.just(name), st.one_of(
        st.sampled_from(_SETTER_EDGES[name]), _setter_generated[name], st.text(max_size=6))))

#: names that collide often and sort differently by code unit and by code point
SEARCH_PARAM_NAMES = ("a", "b", "A", "", "é", "\U0001f600", "\uff46", "a b", "+", "%", "=",
                      "&", "\ud800")
#: above U+FFFF and in U+E000-U+FFFF: these sort in one order by code point, the other by code unit
CODE_UNIT_ORDER_NAMES = ("\U0001f600", "\U00010000", "\uff46", "\ue000", "\uffff")
search_param_names = st.one_of(st.sampled_from(SEARCH_PARAM_NAMES), st.text(max_size=3),
                               st.sampled_from(CODE_UNIT_ORDER_NAMES),
                               _with_lone_surrogates(st.text(max_size=2)))
_param_value = st.one_of(st.sampled_from(("", "1", "2", "x y", "é", "&=", "%zz", "\t", "x\ny")),
                         st.text(max_size=3))


def _op(method: str, arity: int):
    return st.tuples(st.just(method), *(search_param_names, _param_value)[:arity])


#: URLSearchParams operations, as (method, *args) tuples; every method and arity
search_params_ops = st.one_of(*[
    _op(method, arity) for method, arities in SEARCH_PARAMS_METHODS.items() for arity in arities
])
#: URLSearchParams init strings: form bytes as text, with and without a leading '?'
search_params_inits = st.one_of(
    st.tuples(st.sampled_from(("", "?", "??")), st.lists(
        st.tuples(search_param_names, _param_value).map("=".join), max_size=4).map("&".join)).map(
        "".join),
    form_bytes.map(lambda b: b.decode("utf-8", "replace")),
)


# -- public suffixes -------------------------------------------------------------------------

#: suffixes that exercise every kind of Public Suffix List rule: plain, multi-label, wildcard
#: (*.ck, *.kawasaki.jp), exception (!www.ck, !city.kawasaki.jp), private (github.io), IDN,
#: and names on no list (implicit "*")
PSL_SUFFIXES = ("com", "co.uk", "uk", "ck", "www.ck", "kawasaki.jp", "city.kawasaki.jp",
                "github.io", "xn--kgbechtv", "إختبار", "example", "localhost", "COM", "co.UK")
sampled_psl_hosts = st.tuples(
    st.lists(st.one_of(_ldh_label, st.sampled_from(("www", "city", "a", "ß"))), max_size=3),
    st.sampled_from(PSL_SUFFIXES), st.sampled_from(("", "", "."))).map(
    lambda t: ".".join([*t[0], t[1]]) + t[2])


# -- the engine's fast path ------------------------------------------------------------------

_printable = st.characters(min_codepoint=0x21, max_codepoint=0x7E)
#: inputs at the edge of the engine's fast path (simple absolute special URLs): plain domains
#: that end in numbers or dots, ports up to 6 digits, dot segments in every spelling, and the
#: printable ASCII each component's percent-encode set holds
fast_path_urls = st.tuples(
    st.sampled_from(("http", "https", "ws", "wss", "ftp", "HTTP", "HTTPS", "WSS", "FTP", "Http")),
    st.sampled_from(("://", "://", ":/", ":///")),
    st.one_of(st.from_regex(r"[A-Za-z0-9_.-]{1,12}", fullmatch=True),
              st.sampled_from(("a.1", "a.0x", "1.2.3.4", "a.", ".", "..", "XN--8I7CAA", "_"))),
    st.one_of(st.just(""), st.from_regex(r":[0-9]{0,6}", fullmatch=True)),
    st.one_of(st.just(""), st.lists(st.one_of(st.sampled_from(DOT_SEGMENTS),
                                              st.sampled_from(DOT_SEGMENTS),
                                              st.text(_printable, max_size=4)), max_size=4)
              .map(lambda segs: "".join("/" + seg for seg in segs))),
    st.one_of(st.just(""), st.text(_printable, max_size=6).map(lambda q: "?" + q)),
    st.one_of(st.just(""), st.text(_printable, max_size=6).map(lambda f: "#" + f)),
).map("".join)


# -- examples for reach tests ---------------------------------------------------------------------

def independent_examples(strategy, runs: int, first_seed: int = 0) -> list:
    """Examples of ``strategy`` from ``runs`` runs of two examples, seeded ``first_seed`` on:
    each run's simplest example, then one drawn at random; the same on every machine and in any
    test order. For the tests that show a strategy reaches each form it should: in one long run,
    Hypothesis follows each random example with mutations of it, and what it draws depends on
    more than the seed (the whole suite before it, or the machine's load, gave a 600-example run
    of ``urls`` no "wss:" at all where a run alone gives 30), so such a sample would measure the
    run more than the strategy."""
    out: list = []
    for i in range(first_seed, first_seed + runs):
        @seed(i)
        @settings(max_examples=2, database=None, deadline=None, derandomize=False,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(strategy)
        def collect(example):
            out.append(example)

        collect()
    return out
