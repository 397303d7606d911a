"""The engine against independent implementations of the same algorithms, area by area.

https://url.spec.whatwg.org/

An invariant (properties/invariants.py) holds between the engine's own answers; a check here
holds the engine's answer to another implementation's, written by other people from the same
specification: Python's ``punycode`` codec (RFC 3492), ``ipaddress`` (RFC 4291 text),
``urllib.parse`` (percent-decoding and -encoding, application/x-www-form-urlencoded), ada's
``URLSearchParams`` and IDNA functions (C++), ``idna`` (IDNA2008), ``publicsuffixlist`` (the
PSL algorithm) and the Encoding Standard's encoders as properties/reference_encoding.py writes
them. Each check compares only where the peer implements what the Standard says; where a peer
deviates on purpose, or is known to be wrong, the case is left out at the place it is, with its
reason. Like the invariants, each ``check_*`` raises AssertionError naming the input, both
answers and the peer; ``engine.Failure`` is the engine's "failure".
"""

from __future__ import annotations

import functools
import ipaddress
import itertools
import json
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import unicodedata
import urllib.parse
from importlib import resources

import engine
from engine.encoding import encode_or_fail
from engine.idna import assigned_after_unicodedata, assigned_after_unicodedata_in
from engine.punycode import punycode_decode, punycode_encode
from properties.invariants import (apply_search_params_op, spec_percent_encode_set_contains,
                                   to_usv)
from properties.invariants.common import Failed, fail, outcome

#: the peers that are not installed, each with the one line that says so: the checks that need one
#: return without a verdict, and say_what_is_missing() tells the user (the fuzz targets call it as
#: they start; ``make test`` and the kill suite install every peer, the ``oracles`` extra)
MISSING: dict[str, str] = {}


def _missing(module: str, error: ImportError, checks: str) -> None:
    how = "run from a checkout" if module == "reference_encoding" else "pip install 'url-workbench[oracles]'"
    MISSING[module] = f"{module} cannot be imported ({error}): {checks} are off ({how})"


# (Plain imports, not importlib: PyInstaller, which OSS-Fuzz builds the targets with, follows them.)
try:
    import ada_url
except ImportError as e:
    ada_url = _missing("ada_url", e, "the checks against ada's URLSearchParams, setters and IDNA")
try:
    import idna
except ImportError as e:
    idna = _missing("idna", e, "the checks against IDNA2008 (idna.encode)")
try:
    import publicsuffixlist
except ImportError as e:
    publicsuffixlist = _missing("publicsuffixlist", e, "the checks against publicsuffixlist")
try:
    from properties import reference_encoding
except OSError as e:  # its indexes are vendored in tests/data/encoding, in a checkout
    reference_encoding = _missing("reference_encoding", e, "the checks against the reference encoder")


def say_what_is_missing(target: str) -> None:
    """One line on stderr per peer that is not installed, so that no check is off silently."""
    for line in MISSING.values():
        print(f"{target}: {line}", file=sys.stderr)


__all__ = [
    "MISSING", "say_what_is_missing",
    "check_punycode_encode", "check_punycode_decode", "check_ipv4_against_ipaddress",
    "check_ipv6_against_ipaddress", "check_ipv6_serializer_against_ipaddress",
    "check_percent_encode_against_urllib", "check_urlencoded_against_parse_qsl",
    "check_search_params_against_ada", "check_search_params_against_node",
    "node_search_params_unavailable", "NODE_SEARCH_PARAMS_IMPLS", "node_truncates_code_units", "check_domain_to_ascii_against_ada",
    "check_domain_to_unicode_against_ada", "check_domain_against_idna2008",
    "check_public_suffix_against_publicsuffixlist", "check_encoding_against_reference",
    "check_every_encoder_against_reference", "check_ipv4_against_inet_aton",
    "check_punycode_on_every_code_point", "check_ipv4_on_every_short_string",
    "check_setter_pairs_against_ada", "check_every_code_point_in_a_domain_against_ada",
    "check_ipv6_on_every_short_string",
    "check_every_rule_against_publicsuffixlist", "bidi_domain",
    "assigned_after_unicodedata",
]


# -- Punycode: RFC 3492, against Python's codec ---------------------------------------------------

#: How long a label the codec is asked about: it is quadratic in a label's distinct code points
#: (the engine has its own encoder because of that), still fast at this length, which takes in
#: the engine's paths for long labels (over 64 code points to encode, 512 insertions to decode).
PUNYCODE_LONGEST = 1200


def check_punycode_encode(label: str) -> None:
    """https://www.rfc-editor.org/rfc/rfc3492#section-6.3

    The engine's encoder gives the codec's output on any label (of scalar values), and its
    decoder reads that output back as the label."""
    label = to_usv(label)[:PUNYCODE_LONGEST]
    expected = label.encode("punycode").decode("ascii")
    got = punycode_encode(label)
    if got != expected:
        fail(f"punycode_encode({label!r}) = {got!r}, Python's punycode codec: {expected!r}")
    back = outcome(_decode, expected)
    if back != label:
        fail(f"punycode_decode({expected!r}) = {back!r}, expected {label!r}")


def check_punycode_on_every_code_point() -> None:
    """https://www.rfc-editor.org/rfc/rfc3492#section-6.1

    Labels of an ASCII letter and two non-ASCII code points, the first of them every BMP scalar
    value in turn: their first deltas take every value up to 0xFF7F, so every bias adaptation
    (and so the encoding of the second code point) is tried against the codec's, which random
    labels leave to chance for the one delta in 700 where a constant off by one shows."""
    for cp in range(0x80, 0x10000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        label = "a" + chr(cp) + chr(0x80 + (cp * 7919) % 0xD700)
        expected = label.encode("punycode").decode("ascii")
        got = punycode_encode(label)
        if got != expected or punycode_decode(expected) != label:
            fail(f"punycode_encode({label!r}) = {got!r}, Python's punycode codec: {expected!r} "
                  f"(decoded back: {_decode(expected)!r})")


def _decode(encoded: str) -> str | Failed:
    try:
        return punycode_decode(encoded)
    except ValueError:
        return Failed(None)


def check_punycode_decode(encoded: str) -> None:
    """https://www.rfc-editor.org/rfc/rfc3492#section-6.2

    On any ASCII string the engine's decoder fails exactly where the codec does, and otherwise
    gives the same code points. Left out: a last delimiter with nothing before it ("-59d"), which
    the codec consumes though RFC 3492 consumes it only "if more than zero code points were
    consumed" (the README's finding): there the engine must fail (a '-' is no digit) and does
    whatever the codec says."""
    encoded = encoded[:PUNYCODE_LONGEST]
    if not encoded.isascii():
        return
    got = _decode(encoded)
    if encoded.rfind("-") == 0:
        if not isinstance(got, Failed):
            fail(f"punycode_decode({encoded!r}) = {got!r}: RFC 3492 leaves the leading '-' in "
                  f"the digits, where it is no digit")
        return
    try:
        expected = encoded.encode("ascii").decode("punycode")
    except UnicodeError:
        expected = Failed(None)
    if got != expected:
        fail(f"punycode_decode({encoded!r}) = {got!r}, Python's punycode codec: {expected!r}")


# -- IPv4 and IPv6: against ipaddress -------------------------------------------------------------

_DOTTED_QUAD = re.compile(r"(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*)){3}")


def check_ipv4_against_ipaddress(text: str) -> None:
    """https://url.spec.whatwg.org/#concept-ipv4-parser

    On four decimal numbers without leading zeros (where the Standard and RFC 791 text agree:
    a number over 255 is failure in the Standard too, as the last of four), the host parser
    gives an IPv4 address exactly when ``ipaddress`` reads one, the same one."""
    if _DOTTED_QUAD.fullmatch(text) is None:
        return
    try:
        expected = int(ipaddress.IPv4Address(text))
    except ValueError:
        expected = None
    host = outcome(engine.parse_host, text)
    got = int(host) if isinstance(host, engine.IPv4Address) else None
    if got != expected or (expected is None and not isinstance(host, Failed)):
        fail(f"parse_host({text!r}) = {host!r}, ipaddress: {expected!r}")


_LEGACY_IPV4 = re.compile(r"[0-9A-Fa-fXx]+(\.[0-9A-Fa-fXx]+){0,3}")
_BARE_HEX_PREFIX = re.compile(r"(?:^|\.)0[xX](?:\.|$)")


def check_ipv4_against_inet_aton(text: str) -> None:
    """https://url.spec.whatwg.org/#concept-ipv4-parser

    The IPv4 parser reads the legacy forms (one to four parts, each decimal, "0x" hexadecimal or
    "0" octal, the last part filling the bytes left) as the C library's ``inet_aton`` does
    (``socket.inet_aton``; the Standard took the forms from it): the same address, or failure
    where it fails. Left out, where the Standard differs on purpose: a trailing dot or an empty
    part (the Standard allows one trailing dot), and a bare "0x" part (0 in the Standard)."""
    if _LEGACY_IPV4.fullmatch(text) is None or _BARE_HEX_PREFIX.search(text):
        return
    try:
        expected = int.from_bytes(socket.inet_aton(text), "big")
    except OSError:
        expected = None
    got = outcome(engine.parse_ipv4, text)
    got = int(got) if isinstance(got, engine.IPv4Address) else None
    if got != expected:
        fail(f"parse_ipv4({text!r}) = {got!r}, inet_aton: {expected!r}")


#: The code points that make the legacy IPv4 forms: digits of every radix, the prefixes, a digit
#: no radix takes alone ("9" is not octal), the separator.
IPV4_ALPHABET = "019afxX."


def check_ipv4_on_every_short_string(longest: int = 5) -> None:
    """https://url.spec.whatwg.org/#concept-ipv4-parser

    check_ipv4_against_inet_aton and check_ipv4_against_ipaddress on every string of up to
    ``longest`` code points of IPV4_ALPHABET (37,448 of them for 5): every radix, prefix and
    part count meets every other, which random strings leave to chance."""
    for size in range(1, longest + 1):
        for chars in itertools.product(IPV4_ALPHABET, repeat=size):
            text = "".join(chars)
            check_ipv4_against_inet_aton(text)
            check_ipv4_against_ipaddress(text)


def check_ipv6_against_ipaddress(text: str) -> None:
    """https://url.spec.whatwg.org/#concept-ipv6-parser

    The IPv6 parser accepts exactly the texts ``ipaddress`` accepts, with the same pieces. Left
    out: text with '%', which ``ipaddress`` reads as a scope (zone) ID and the Standard has no
    place for."""
    if "%" in text:
        return
    try:
        reference = int(ipaddress.IPv6Address(text))
    except ValueError:
        expected = None
    else:
        expected = tuple((reference >> (16 * (7 - i))) & 0xFFFF for i in range(8))
    got = outcome(engine.parse_ipv6, text)
    got = tuple(got) if isinstance(got, engine.IPv6Address) else None
    if got != expected:
        fail(f"parse_ipv6({text!r}) = {got!r}, ipaddress: {expected!r}")


#: The code points of IPv6 text: a zero (leading zeros), hex digits, the separators and the
#: embedded IPv4 address's dot.
IPV6_ALPHABET = "01f:."


def check_ipv6_on_every_short_string(longest: int = 7) -> None:
    """check_ipv6_against_ipaddress on every string of up to ``longest`` code points of
    IPV6_ALPHABET (97,655 of them for 7): every compression position, piece count and short
    embedded IPv4 address ("::1.1.1" has too few numbers), which random text leaves to chance."""
    for size in range(1, longest + 1):
        for chars in itertools.product(IPV6_ALPHABET, repeat=size):
            check_ipv6_against_ipaddress("".join(chars))


def check_ipv6_serializer_against_ipaddress(pieces: tuple[int, ...]) -> None:
    """https://url.spec.whatwg.org/#concept-ipv6-serializer

    An address serializes as ``ipaddress`` compresses it (RFC 5952: the first longest run of two
    or more zero pieces), unless ``ipaddress`` writes an embedded IPv4 address in dotted form
    (Python 3.13 and later, for IPv4-mapped addresses), which the Standard never does."""
    pieces = tuple(pieces)
    expected = ipaddress.IPv6Address(b"".join(p.to_bytes(2, "big") for p in pieces)).compressed
    if "." in expected:
        return
    got = engine.serialize_ipv6(pieces)
    if got != expected:
        fail(f"serialize_ipv6({pieces}) = {got!r}, ipaddress: {expected!r}")


# -- percent-encoding and application/x-www-form-urlencoded: against urllib.parse -------------

def _kept_ascii(set_name: str) -> str:
    return "".join(c for c in map(chr, range(0x20, 0x7F))
                   if not spec_percent_encode_set_contains(set_name, c))


def check_percent_encode_against_urllib(s: str, set_name: str) -> None:
    """https://url.spec.whatwg.org/#string-utf-8-percent-encode

    UTF-8 percent-encoding gives what ``urllib.parse.quote`` gives when told to keep the
    printable ASCII code points outside the set (``quote_plus`` for the form set, whose spaces
    become '+'); ``quote`` never encodes '~', which the form set holds, hence its one fix-up."""
    usv = to_usv(s)
    kept = _kept_ascii(set_name)
    if set_name == "application/x-www-form-urlencoded":
        expected = urllib.parse.quote_plus(usv, safe=kept)
    else:
        expected = urllib.parse.quote(usv, safe=kept)
    if "~" not in kept:
        expected = expected.replace("~", "%7E")
    got = engine.utf8_percent_encode(s, engine.PERCENT_ENCODE_SETS[set_name])
    if got != expected:
        fail(f"utf8_percent_encode({s!r}, {set_name}) = {got!r}, urllib.parse: {expected!r}")


def check_urlencoded_against_parse_qsl(s: str) -> None:
    """https://url.spec.whatwg.org/#concept-urlencoded-string-parser

    Parsing a string as application/x-www-form-urlencoded (the parser, and URLSearchParams on a
    string not starting with '?') gives ``urllib.parse.parse_qsl``'s pairs, blank values kept,
    '&' the only separator, UTF-8 decoded with replacement."""
    usv = to_usv(s)
    expected = urllib.parse.parse_qsl(usv, keep_blank_values=True, encoding="utf-8",
                                      errors="replace", separator="&")
    got = engine.form_urlencoded_parse(usv.encode("utf-8"))
    if [tuple(p) for p in got] != expected:
        fail(f"form_urlencoded_parse({usv.encode()!r}) = {got!r}, parse_qsl: {expected!r}")
    if not usv.startswith("?"):
        listed = [tuple(p) for p in engine.URLSearchParams(s)]
        if listed != expected:
            fail(f"URLSearchParams({s!r}) lists {listed!r}, parse_qsl: {expected!r}")


# -- URLSearchParams: against ada ----------------------------------------------------------------

def _ada_answer(params, op: tuple):
    """Apply ``op`` (as properties.invariants.apply_search_params_op takes it) to an
    ``ada_url.URLSearchParams``; its answer in the engine's terms."""
    method, args = op[0], [to_usv(a) for a in op[1:]]
    if method == "get":
        # ada's binding returns "" for a missing name; the Standard's null is None here.
        return params.get(args[0]) if params.has(args[0]) else None
    if method == "get_all":
        return list(params.get_all(args[0]))
    if method == "has":
        return params.has(*args)
    if method == "size":
        return params.size
    if method == "iter":
        return list(params.items())
    if method == "str":
        return str(params)
    getattr(params, method)(*args)
    return None


def check_search_params_against_ada(init: str, ops: list[tuple]) -> None:
    """https://url.spec.whatwg.org/#interface-urlsearchparams

    ``URLSearchParams(init)`` and ada's, given the same operations (every method, ``sort``
    included), give the same answers and hold the same list and string after each. Left out:
    inputs whose percent-decoded bytes are not UTF-8, which ada keeps as such (the binding cannot
    decode them) where the Standard decodes with replacement."""
    if ada_url is None:
        return
    ours = engine.URLSearchParams(init)
    theirs = ada_url.URLSearchParams(to_usv(init))
    where = f"URLSearchParams({init!r})"
    try:
        for op in [None, *ops]:
            if op is not None:
                where += f".{op[0]}({', '.join(map(repr, op[1:]))})"
                got, _ = apply_search_params_op(ours, [], op)
                expected = _ada_answer(theirs, op)
                if got != expected:
                    fail(f"{where} = {got!r}, ada_url: {expected!r}")
            listed, expected = [tuple(p) for p in ours], list(theirs.items())
            if listed != expected or str(ours) != str(theirs) or ours.size != theirs.size:
                fail(f"{where}: the engine holds {listed!r} ({str(ours)!r}), ada_url {expected!r} "
                      f"({str(theirs)!r})")
    except UnicodeDecodeError:
        return


# -- URLSearchParams: against Node's and whatwg-url's ----------------------------------------------

NODE_SEARCH_PARAMS = pathlib.Path(__file__).resolve().parent.parent / "urlwb" / "oracles" / "node" / "search_params.js"
#: the JavaScript URLSearchParams urlwb/oracles/node/search_params.js runs: Node's own (not ada's)
#: and npm whatwg-url's, the Standard's reference code
NODE_SEARCH_PARAMS_IMPLS = ("node", "whatwg-url")


def node_search_params_unavailable(impl: str) -> str | None:
    """Why ``impl`` cannot run here (one line), or None."""
    if shutil.which("node") is None:
        return "node is not on PATH"
    if impl == "whatwg-url" and not (NODE_SEARCH_PARAMS.parent / "node_modules" / "whatwg-url").is_dir():
        return "npm whatwg-url is not installed (make setup runs npm ci in urlwb/oracles/node)"
    return None


_VALID_ESCAPE = re.compile(b"%[0-9A-Fa-f]{2}")


def node_truncates_code_units(init: str) -> bool:
    """Node's own deviation (Node 20: lib/internal/url.js): a name or value of the string given
    to ``new URLSearchParams`` that holds an escape is decoded with ``decodeURIComponent``, and
    where that throws (a '%' without two hex digits, or percent-decoded bytes that are not
    UTF-8) with ``querystring.unescapeBuffer``, which writes each
    UTF-16 code unit that is not part of an escape as one byte, its low 8 bits: a non-ASCII code
    point beside such an escape is lost ('=%A9é' gives '\ufffd\ufffd', '=%A9中' gives
    '\ufffd-'; the Standard: '\ufffdé', '\ufffd中'), and its look for an escape takes '%f+f' for
    one. tests/test_independent.py pins it."""
    text = init[1:] if init.startswith("?") else init
    for sequence in text.split("&"):
        for part in sequence.split("=", 1):
            if part.isascii():
                continue
            raw = part.replace("+", " ").encode("utf-8", "surrogatepass")
            if _VALID_ESCAPE.search(part.replace("+", "").encode("utf-8", "surrogatepass")) is None:
                continue  # (Node's look for an escape skips '+': it takes '%f+f' for one)
            if raw.count(b"%") != len(_VALID_ESCAPE.findall(raw)):
                return True  # decodeURIComponent throws on a '%' without two hex digits
            try:
                urllib.parse.unquote_to_bytes(raw).decode("utf-8")
            except UnicodeDecodeError:
                return True
    return False


def _engine_steps(init: str, ops: list[tuple]) -> list[dict]:
    ours = engine.URLSearchParams(init)
    steps = []
    for op in [None, *ops]:
        answer = None if op is None else apply_search_params_op(ours, [], op)[0]
        if isinstance(answer, list):
            answer = [list(a) if isinstance(a, tuple) else a for a in answer]
        steps.append({"answer": answer, "pairs": [list(p) for p in ours], "string": str(ours),
                      "size": ours.size})
    return steps


def check_search_params_against_node(cases: list[tuple[str, list[tuple]]], impl: str = "node",
                                     leave_out_known: bool = True) -> None:
    """https://url.spec.whatwg.org/#interface-urlsearchparams

    For each ``(init, ops)``, ``URLSearchParams(init)`` and the JavaScript one ``impl`` names
    give the same answer to every operation (every method, ``sort`` included) and hold the same
    pairs, string and size after each. One Node process answers the whole batch. Nothing left
    out (unless ``leave_out_known`` is false): for Node, the strings node_truncates_code_units
    names (its bug); nothing for whatwg-url."""
    why = node_search_params_unavailable(impl)
    if why is not None:
        raise RuntimeError(f"{impl}: {why}")
    if impl == "node" and leave_out_known:
        cases = [(init, ops) for init, ops in cases if not node_truncates_code_units(to_usv(init))]
    requests = "".join(json.dumps({"id": i, "init": to_usv(init), "ops": [list(op) for op in ops]}) + "\n"
                       for i, (init, ops) in enumerate(cases))
    proc = subprocess.run(["node", str(NODE_SEARCH_PARAMS), impl], input=requests.encode("utf-8"),
                          capture_output=True, timeout=120, cwd=NODE_SEARCH_PARAMS.parent)
    if proc.returncode != 0:
        raise RuntimeError(f"search_params.js {impl} exited {proc.returncode}: {proc.stderr.decode(errors='replace')[-500:]}")
    answers = {a["id"]: a for a in map(json.loads, proc.stdout.decode("utf-8").split("\n")[:-1])}
    for i, (init, ops) in enumerate(cases):
        theirs = answers.get(i, {"error": "no answer"})
        if "error" in theirs:
            fail(f"URLSearchParams({init!r}) with {ops!r}: {impl} threw {theirs['error']!r}")
        for step, (ours, expected) in enumerate(zip(_engine_steps(init, ops), theirs["steps"])):
            if ours != expected:
                where = f"URLSearchParams({init!r})" + "".join(
                    f".{op[0]}({', '.join(map(repr, op[1:]))})" for op in ops[:step])
                fail(f"{where}: the engine {ours!r}, {impl}: {expected!r}")


#: URLs of every kind a setter treats apart: special with and without credentials and port,
#: file with and without a host, non-special with a host, an empty host, no host, an opaque path
SETTER_PAIR_URLS = ("http://h/p?q#f", "https://u:pw@h:8080/", "file:///C:/d", "file://h/d",
                    "a://h/x", "a:///x", "a:/x", "a:x", "blob:x")
#: each setter's values: across the special/non-special line and back, schemes that sort either
#: side of "file", empty values, a host with a port, a Windows drive letter
SETTER_PAIR_VALUES = {
    "protocol": ("file", "http", "ws", "a", "b", "zz"), "username": ("u", ""), "password": ("p",),
    "host": ("g:99", ""), "hostname": ("g", ""), "port": ("99", ""), "pathname": ("/x", "c|"),
    "search": ("?s", ""), "hash": ("#g",), "href": ("b:/y",),
}


def check_setter_pairs_against_ada() -> None:
    """https://url.spec.whatwg.org/#urlutils-members

    Every pair of setter calls (each setter with each of its SETTER_PAIR_VALUES) on each of
    SETTER_PAIR_URLS leaves the engine's URL with ada's href: a setter's effect depends on
    what an earlier one left (a scheme made "file" can no longer have credentials), which the
    setter machine's random runs meet by chance."""
    if ada_url is None:
        return
    # (Here, not above: the machines bring Hypothesis's stateful machinery, which the fuzz targets
    # that import this module do without.)
    from properties.machines import ada_replay

    steps = [(name, value) for name, values in SETTER_PAIR_VALUES.items() for value in values]
    for href in SETTER_PAIR_URLS:
        for first in steps:
            for second in steps:
                ours, theirs = ada_replay(href, [first, second])
                if ours != theirs:
                    fail(f"URL({href!r}); .{first[0]} = {first[1]!r}; .{second[0]} = "
                          f"{second[1]!r}: the engine's href {ours!r}, ada_url's {theirs!r}")


# -- domains: against ada's IDNA, idna (IDNA2008) -------------------------------------------------

_BIDI_RTL = frozenset(("R", "AL", "AN"))
#: https://url.spec.whatwg.org/#forbidden-domain-code-point
_FORBIDDEN_DOMAIN = frozenset("\x00\t\n\r #/:<>?@[\\]^|%\x7f") | frozenset(map(chr, range(0x20)))
_CONTROL = re.compile("[\x00-\x1f\x7f]")
_JOINER = re.compile("[\u200c\u200d]")


#: the label separators UTS46 maps to "." (https://www.unicode.org/reports/tr46/#Notation)
_LABEL_SEPARATORS = re.compile("[.\u3002\uff0e\uff61]")


def _u_label(label: str) -> str:
    """An A-label as Python's ``punycode`` codec decodes it (an independent decoder); any other
    label, or one the codec refuses, as it is."""
    if label[:4].lower() != "xn--" or not label.isascii():
        return label
    try:
        return label[4:].lower().encode("ascii").decode("punycode")
    except (UnicodeError, ValueError, IndexError):
        return label


def bidi_domain(text: str) -> bool:
    """A Bidi domain name (RFC 5893 section 1.4): one with a right-to-left or Arabic-number code
    point in a U-label, so also one with an A-label whose decoded form has one (``a.0.xn--epb``
    is one: ``xn--epb`` is U+075A, Arabic)."""
    return any(unicodedata.bidirectional(c) in _BIDI_RTL
               for label in _LABEL_SEPARATORS.split(text) for c in _u_label(label))


#: Why ``idna`` (IDNA2008) and the Standard (UTS46) differ on Bidi domain names: a known deviation
#: of the peer, not an engine bug. RFC 5891 section 5.4 tests the Bidi rule on a label "if the
#: proposed label contains any characters from scripts that are written from right to left", one
#: label at a time, as a registry does; UTS46's CheckBidi (https://www.unicode.org/reports/tr46/
#: #Validity_Criteria, step 8) holds every label of a Bidi domain name to RFC 5893's six rules,
#: as a lookup of the whole name does, so "a.0.xn--epb" fails in the Standard (the label "0" breaks
#: rule 1) and passes ``idna.encode``. Both follow their own specification: the verdict is
#: "documented deviation" (idna's README: "IDNA 2008 ... not UTS 46" unless uts46=True).
IDNA2008_BIDI_PER_LABEL = (
    "idna (IDNA2008, RFC 5891 section 5.4) tests the Bidi rule only on labels holding a "
    "right-to-left code point; UTS46's CheckBidi, which the Standard uses, on every label of a "
    "Bidi domain name")


@functools.cache
def _unicode_versions_differ(text: str) -> bool:
    """Newer code points than Python's ``unicodedata`` knows, written out or in an A-label
    (:func:`engine.idna.assigned_after_unicodedata_in`): disallowed in ada 4's older UTS46 data
    ("π.xn--x30s", fuzz_idna on ClusterFuzzLite, 2026-12-02), a difference of Unicode versions."""
    return assigned_after_unicodedata_in(text)


def _ada_to_ascii(domain: str) -> str | Failed:
    try:
        out = ada_url.idna.encode(domain).decode("ascii")
    except (ValueError, UnicodeError):
        return Failed(None)
    return out if out else Failed(None)


def check_domain_to_ascii_against_ada(domain: str) -> None:
    """https://url.spec.whatwg.org/#concept-domain-to-ascii

    On a non-ASCII domain (an ASCII one is only lowercased) the domain parser gives ada's
    Unicode ToASCII, or failure where ada fails or its result is empty or holds a forbidden
    domain code point (the Standard's steps after ToASCII). A C0 control or U+007F in the input
    is failure whatever ada says: UTS46 maps neither to anything else and NFC composes neither,
    so it reaches the result, where it is forbidden (ada 4 drops U+0000: "\\uff3f\\x00" is "_"
    there, "\\x00\\u00a1" "xn--"). Left out: Bidi domain names (ada 4 skips CheckBidi, the
    README's finding), joiners (ada 4 lets a ZWJ or ZWNJ through where CheckJoiners fails, as
    in "\\u0915\\u094d\\u200da\\u200d") and code points newer than the engine's Unicode data."""
    if ada_url is None:
        return
    usv = to_usv(domain)
    if usv.isascii() or bidi_domain(usv) or _JOINER.search(usv) or _unicode_versions_differ(usv):
        return
    expected = Failed(None) if _CONTROL.search(usv) else _ada_to_ascii(usv)
    if isinstance(expected, str) and set(expected) & _FORBIDDEN_DOMAIN:
        expected = Failed(None)
    if isinstance(expected, str) and bidi_domain(ada_url.idna.decode(expected)):
        return
    got = outcome(engine.domain_to_ascii, domain)
    if isinstance(got, Failed) != isinstance(expected, Failed) or (
            isinstance(got, str) and got != expected):
        fail(f"domain_to_ascii({domain!r}) = {got!r}, ada_url.idna: {expected!r}")


def check_every_code_point_in_a_domain_against_ada() -> None:
    """check_domain_to_ascii_against_ada on "a" + c + "b.example" for every non-ASCII BMP
    scalar value c: its UTS46 status, mapping, normalization and validity against ada's, which
    random domains meet a few code points at a time."""
    for cp in range(0x80, 0x10000):
        if not 0xD800 <= cp <= 0xDFFF:
            check_domain_to_ascii_against_ada("a" + chr(cp) + "b.example")


def check_domain_to_unicode_against_ada(domain: str) -> None:
    """https://url.spec.whatwg.org/#concept-domain-to-unicode

    For a domain the domain parser gives, domain to Unicode gives ada's Unicode ToUnicode where
    ToUnicode records no error (every "xn--" label decodes and encodes back to itself). Left
    out, as for ToASCII: Bidi domain names, joiners and newer code points; and domains with an
    error, where the Standard returns the domain unchanged and ada converts the labels it can."""
    if ada_url is None:
        return
    ascii_domain = outcome(engine.domain_to_ascii, domain)
    if isinstance(ascii_domain, Failed):
        return
    expected = ada_url.idna.decode(ascii_domain)
    if (bidi_domain(expected) or _JOINER.search(expected) or _unicode_versions_differ(expected)
            or "xn--" in expected.lower()
            or _ada_to_ascii(expected) != ascii_domain):
        return
    got = engine.domain_to_unicode(ascii_domain)
    if got != expected:
        fail(f"domain_to_unicode({ascii_domain!r}) = {got!r}, ada_url.idna: {expected!r}")


def check_domain_against_idna2008(domain: str) -> None:
    """https://url.spec.whatwg.org/#concept-domain-to-ascii

    Where ``idna.encode`` (IDNA2008, RFC 5891, no UTS46 mapping) takes a domain, it is made of
    IDNA2008-valid labels, for which UTS46 (and so the domain parser, strict or not) gives the
    same A-labels, lowercased (IDNA2008 leaves an ASCII label's case alone), and ``idna.decode``
    of them is what domain to Unicode gives. Left out: newer code points than the engine's, and
    Bidi domain names, U-labels or A-labels (:data:`IDNA2008_BIDI_PER_LABEL`: "\u0620.0" and
    "a.0.xn--epb", where the all-digit label fails rule 1)."""
    usv = to_usv(domain)
    if idna is None or _unicode_versions_differ(usv) or bidi_domain(usv):
        return
    try:
        expected = idna.encode(usv, uts46=False).decode("ascii").lower()
    except (idna.IDNAError, UnicodeError, ValueError):
        return
    for be_strict in (False, True):
        got = outcome(engine.domain_to_ascii, domain, be_strict)
        if got != expected:
            fail(f"domain_to_ascii({domain!r}, be_strict={be_strict}) = {got!r}, "
                  f"idna.encode: {expected!r}")
    try:
        unicode = idna.decode(expected)
    except (idna.IDNAError, UnicodeError, ValueError):
        return
    got = engine.domain_to_unicode(expected)
    if got != unicode:
        fail(f"domain_to_unicode({expected!r}) = {got!r}, idna.decode: {unicode!r}")


# -- public suffix: against publicsuffixlist ------------------------------------------------------

@functools.cache
def _psl():
    return publicsuffixlist.PublicSuffixList()  # the list the package ships, as the engine reads it


@functools.cache
def _wildcard_parents() -> frozenset[str]:
    """"kawasaki.jp" for the rule "*.kawasaki.jp": the domains of the list's wildcard rules."""
    text = resources.files("publicsuffixlist").joinpath("public_suffix_list.dat").read_text("utf-8")
    return frozenset(line.split()[0][2:] for line in text.splitlines() if line.startswith("*."))


def check_public_suffix_against_publicsuffixlist(host: str) -> None:
    """https://url.spec.whatwg.org/#host-public-suffix

    For a domain, the public suffix and registrable domain are ``publicsuffixlist``'s (its own
    implementation of the PSL algorithm, over the same list: private rules and the implicit "*"
    included), the host's trailing dot, which the package drops, kept on both. Left out: a
    domain with an empty label, on which the PSL algorithm is silent (the engine says null for
    both, check_public_suffix holds it to that); and the domain of a wildcard rule itself
    ("kawasaki.jp" of "*.kawasaki.jp"), which publicsuffixlist takes for a public suffix on
    purpose (publicsuffix/list#1989) where the PSL's formal algorithm matches only "jp"."""
    parsed = outcome(engine.parse_host, host)
    if publicsuffixlist is None or not isinstance(parsed, engine.Domain):
        return
    h = engine.serialize_host(parsed)
    body, dot = (h[:-1], ".") if h.endswith(".") else (h, "")
    if "" in body.split(".") or body in _wildcard_parents():
        return
    ps, rd = _psl().publicsuffix(body), _psl().privatesuffix(body)
    expected = (None if ps is None else ps + dot, None if rd is None else rd + dot)
    got = (engine.public_suffix(parsed), engine.registrable_domain(parsed))
    if got != expected:
        fail(f"host {host!r} ({h!r}): public suffix and registrable domain {got!r}, "
              f"publicsuffixlist: {expected!r}")


def check_every_rule_against_publicsuffixlist() -> None:
    """check_public_suffix_against_publicsuffixlist on every rule of the list (a wildcard's
    label made "w", an exception's "!" dropped) alone, under one and two more labels, and with a
    trailing dot: every rule, wildcard and exception meets its hosts, which random hosts leave to
    chance."""
    if publicsuffixlist is None:
        return
    text = resources.files("publicsuffixlist").joinpath("public_suffix_list.dat").read_text("utf-8")
    for line in text.splitlines():
        if line.strip() and not line.startswith("//"):
            rule = line.split()[0].lstrip("!").replace("*", "w")
            for host in (rule, "x." + rule, "y.x." + rule, "x." + rule + "."):
                check_public_suffix_against_publicsuffixlist(host)


# -- legacy encodings: against the reference encoder ----------------------------------------------

def _reference_percent_encode(name: str, text: str, set_name: str) -> str:
    """https://url.spec.whatwg.org/#string-percent-encode-after-encoding, over the reference
    encoder's "encode or fail" loop and the prose's percent-encode sets."""
    if name == "ISO-2022-JP":
        items = reference_encoding.ref_iso_2022_jp_percent_encode_loop(text)
    else:
        items = reference_encoding.ref_stateless(name, text)
    space_as_plus = set_name == "application/x-www-form-urlencoded"
    out = []
    for item in items:
        if isinstance(item, int):
            out.append(f"%26%23{item}%3B")
            continue
        for byte in item:
            if space_as_plus and byte == 0x20:
                out.append("+")
            elif spec_percent_encode_set_contains(set_name, chr(byte)):
                out.append(f"%{byte:02X}")
            else:
                out.append(chr(byte))
    return "".join(out)


def check_encoding_against_reference(label: str, text: str, set_name: str) -> None:
    """https://url.spec.whatwg.org/#string-percent-encode-after-encoding

    A label names the encoding the Encoding Standard's table says; with it, "encode or fail"
    gives the reference encoder's bytes and errors, and percent-encoding after encoding gives
    the reference's string."""
    if reference_encoding is None:
        return
    key = label.strip("\t\n\f\r ").lower()
    expected_name = reference_encoding.LABELS.get(key) if key.isascii() else None
    name = outcome(engine.get_encoding, label)
    if (name if isinstance(name, str) else None) != expected_name:
        fail(f"get_encoding({label!r}) = {name!r}, the Encoding Standard: {expected_name!r}")
    if expected_name not in reference_encoding.WITH_ENCODER:
        return
    usv = to_usv(text)
    expected = (reference_encoding.ref_iso_2022_jp_percent_encode_loop(usv)
                if expected_name == "ISO-2022-JP" else reference_encoding.ref_stateless(expected_name, usv))
    got = encode_or_fail(expected_name, usv)
    if got != expected:
        fail(f"encode_or_fail({expected_name!r}, {usv!r}) = {got!r}, reference: {expected!r}")
    got = engine.percent_encode_after_encoding(label, text, engine.PERCENT_ENCODE_SETS[set_name])
    expected = _reference_percent_encode(expected_name, usv, set_name)
    if got != expected:
        fail(f"percent_encode_after_encoding({label!r}, {text!r}, {set_name}) = {got!r}, "
              f"reference: {expected!r}")


#: Every BMP scalar value, and a sample of the supplementary ones (each plane's first and last 256,
#: and every 61st), in code point order.
_EVERY_CODE_POINT = "".join(chr(cp) for cp in [
    *range(0xD800), *range(0xE000, 0x10000),
    *sorted({cp for start in range(0x10000, 0x110000, 0x10000)
             for cp in (*range(start, start + 256), *range(start, start + 0x10000, 61),
                        *range(start + 0x10000 - 256, start + 0x10000))})])


#: ISO-2022-JP's three states, each entered from any state by one code point: U+005C (the ASCII
#: state: from Roman, a switch), U+00A5 (Roman) and U+6F22 (jis0208).
_ISO_2022_JP_STATE_OPENERS = ("\\", "\u00a5", "\u6f22")


def check_every_encoder_against_reference() -> None:
    """https://encoding.spec.whatwg.org/#encode-or-fail

    Every encoder the URL Standard can use, on every BMP scalar value (and a sample of the
    others), gives the reference encoder's bytes and errors; ISO-2022-JP, which has state, on
    every one of them in each of its states (each code point after the one that enters the
    state). tests/engine/test_encoding.py does more (every supplementary code point too); this is the
    part that runs in seconds. Every label first: as listed, in upper case, and between ASCII
    whitespace, it names the Standard's encoding."""
    if reference_encoding is None:
        return
    for label, name in reference_encoding.LABELS.items():
        for spelled in (label, label.upper(), f"\t\n\f\r {label}\r\n "):
            got = outcome(engine.get_encoding, spelled)
            if got != name:
                fail(f"get_encoding({spelled!r}) = {got!r}, the Encoding Standard: {name!r}")
    for name in reference_encoding.WITH_ENCODER:
        texts = ([opener + opener.join(_EVERY_CODE_POINT) for opener in _ISO_2022_JP_STATE_OPENERS]
                 if name == "ISO-2022-JP" else [_EVERY_CODE_POINT])
        for text in texts:
            expected = (reference_encoding.ref_iso_2022_jp_percent_encode_loop(text)
                        if name == "ISO-2022-JP" else reference_encoding.ref_stateless(name, text))
            got = encode_or_fail(name, text)
            if got != expected:
                first = next(i for i, (a, b) in enumerate(zip(got, expected)) if a != b) \
                    if len(got) == len(expected) else min(len(got), len(expected))
                fail(f"encode_or_fail({name!r}, every code point, after {text[0]!r})"
                      f": item {first} is {got[first:first + 1]!r}, the reference's "
                      f"{expected[first:first + 1]!r}")
