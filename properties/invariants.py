"""The invariants of the URL Standard, as plain checks shared by fuzz targets and properties.

https://url.spec.whatwg.org/

Each ``check_*`` function takes any input (of its documented type), runs the engine on it and
raises ``AssertionError`` with a message naming the input, the expected and the actual value
when an invariant does not hold. ``engine.Failure`` is the Standard's "failure" and is caught
where failure is a legitimate outcome; nothing else is caught, so any other exception escaping
the engine reaches the caller (a fuzzer's crash, a property's error) as the finding it is.

The oracles used here are independent of the engine: Python's ``ipaddress`` (dotted-decimal IPv4
and RFC 4291 IPv6 text), ``urllib.parse`` (percent-decoding, form quoting), and the spec's own
definitions restated literally (percent-encode sets, the IPv6 compression rule, sort order).
"""

from __future__ import annotations

import ipaddress
import re
import urllib.parse

import engine
from engine import Failure

__all__ = [
    "check_url_idempotence",
    "check_can_parse",
    "check_base_resolution",
    "check_host_idempotence",
    "HOST_IDEMPOTENCE_PARTS",
    "check_ipv4",
    "check_ipv6",
    "check_ipv4_address",
    "check_ipv6_address",
    "check_percent_roundtrip",
    "check_percent_decode",
    "check_percent_encode_after_encoding",
    "check_domain_roundtrip",
    "check_public_suffix",
    "check_urlencoded_parse",
    "check_urlencoded_roundtrip",
    "check_setters",
    "check_search_params",
    "check_search_setter",
    "check_search_params_on_url",
    "check_hosts_together",
    "check_url_object",
    "check_search_params_state",
    "apply_search_params_op",
    "SETTERS",
    "GETTERS",
    "SEARCH_PARAMS_METHODS",
    "spec_percent_encode_set_contains",
    "to_usv",
    "urlencoded_parse_model",
    "urlencoded_serialize_model",
    "code_unit_key",
]

#: URL API attributes with a setter, as named on engine.URL.
SETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
           "search", "hash")
#: URL API attributes with a getter.
GETTERS = ("href", "origin", "protocol", "username", "password", "host", "hostname", "port",
           "pathname", "search", "hash")
#: URLSearchParams operations understood by check_search_params: name -> accepted arities.
SEARCH_PARAMS_METHODS = {
    "append": (2,), "delete": (1, 2), "get": (1,), "get_all": (1,), "has": (1, 2),
    "set": (2,), "sort": (0,), "size": (0,), "iter": (0,), "str": (0,),
}

# https://url.spec.whatwg.org/#special-scheme
_SPECIAL_SCHEMES = {"ftp": 21, "file": None, "http": 80, "https": 443, "ws": 80, "wss": 443}

# https://url.spec.whatwg.org/#forbidden-host-code-point
_FORBIDDEN_HOST = frozenset("\x00\t\n\r #/:<>?@[\\]^|")
# https://url.spec.whatwg.org/#forbidden-domain-code-point
_FORBIDDEN_DOMAIN = _FORBIDDEN_HOST | frozenset(map(chr, range(0x20))) | {"%", "\x7f"}

_PERCENT_ENCODED_BYTE = re.compile("%[0-9A-Fa-f]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _fail(message: str) -> None:
    raise AssertionError(message)


def to_usv(s: str) -> str:
    """https://infra.spec.whatwg.org/#javascript-string-convert

    The scalar value string a JavaScript string converts to: a surrogate pair is one code point,
    any other surrogate becomes U+FFFD.
    """
    if _SURROGATE.search(s) is None:
        return s
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


# -- percent-encode sets, restated from the Standard's prose, each from the previous one --------

_C0_CONTROL_ASCII = frozenset(map(chr, range(0x20)))
_SPEC_SET_ASCII: dict[str, frozenset[str]] = {"c0-control": _C0_CONTROL_ASCII}
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


def _expected_percent_encoding(s: str, set_name: str) -> str:
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
        _fail(f"{where}: output {out!r} holds {m.group()!r} at {m.start()}, which the "
              f"{set_name} set should have encoded")


def check_percent_roundtrip(s: str, set_name: str) -> None:
    """https://url.spec.whatwg.org/#string-utf-8-percent-encode

    UTF-8 percent-encoding ``s`` with the named set gives exactly the Standard's output (each
    code point in the set as its UTF-8 bytes in %XX, space as '+' for the form set); the output
    holds no member of the set; and percent-decoding it gives back the UTF-8 of ``s`` for the
    component and form sets (which encode '%'), and for every set when ``s`` holds no '%'.
    (That the engine's ``c in SET`` agrees with the prose on every code point is a unit test,
    tests/test_percent_encoding.py: a property of the sets, not of the input.)
    """
    encode_set = engine.PERCENT_ENCODE_SETS[set_name]
    usv = to_usv(s)
    out = engine.utf8_percent_encode(s, encode_set)
    expected = _expected_percent_encoding(usv, set_name)
    where = f"utf8_percent_encode({s!r}, {set_name})"
    if out != expected:
        _fail(f"{where} = {out!r}, expected {expected!r}")
    _check_no_set_members(out, set_name, where)
    if set_name in ("component", _FORM) or "%" not in usv:
        encoded = out.replace("+", " ") if set_name == _FORM else out
        decoded = engine.percent_decode_string(encoded)
        if decoded != usv.encode("utf-8"):
            _fail(f"{where} = {out!r} percent-decodes to {decoded!r}, not {usv.encode()!r}")


def check_percent_decode(data: bytes) -> None:
    """https://url.spec.whatwg.org/#percent-decode

    Percent-decoding bytes agrees with ``urllib.parse.unquote_to_bytes`` (the same rule: '%'
    and two ASCII hex digits become one byte, anything else is kept), and percent-decoding a
    string is percent-decoding its UTF-8 encoding.
    """
    out = engine.percent_decode(data)
    expected = urllib.parse.unquote_to_bytes(data)
    if out != expected:
        _fail(f"percent_decode({data!r}) = {out!r}, expected {expected!r}")
    if len(out) != len(data) - 2 * len(_PERCENT_ENCODED_BYTE.findall(data.decode("latin-1"))):
        _fail(f"percent_decode({data!r}) = {out!r}: wrong length")
    text = data.decode("utf-8", "replace")
    out_s = engine.percent_decode_string(text)
    if out_s != engine.percent_decode(text.encode("utf-8")):
        _fail(f"percent_decode_string({text!r}) = {out_s!r} differs from percent_decode of its "
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
        _fail(f"{where} = {out!r} is not ASCII")
    _check_no_set_members(out, set_name, where)
    utf8 = engine.utf8_percent_encode(usv, encode_set)
    if name == "UTF-8" and out != utf8:
        _fail(f"{where} = {out!r}, but with UTF-8 it must equal utf8_percent_encode: {utf8!r}")
    if usv.isascii() and not (name == "ISO-2022-JP" and set(usv) & {"\x0e", "\x0f", "\x1b"}):
        if out != utf8:
            _fail(f"{where} = {out!r}, but ASCII input encodes as in UTF-8: {utf8!r}")
    if name != "ISO-2022-JP" and len(usv) >= 2:
        k = len(usv) // 2
        parts = (engine.percent_encode_after_encoding(encoding, usv[:k], encode_set)
                 + engine.percent_encode_after_encoding(encoding, usv[k:], encode_set))
        if parts != out:
            _fail(f"{where} = {out!r}, but its halves {usv[:k]!r} + {usv[k:]!r} give {parts!r}")


# -- hosts -----------------------------------------------------------------------------------

def _host_repr(host: object) -> str:
    return f"{type(host).__name__}({host!r})"


class _Failed:
    """Stands for a Failure raised, comparing by its validation error name."""

    __slots__ = ("validation_error",)

    def __init__(self, validation_error: str | None):
        self.validation_error = validation_error

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Failed) and other.validation_error == self.validation_error

    def __repr__(self) -> str:
        return f"Failure({self.validation_error!r})"


def _outcome(fn, *args, **kwargs):
    """The result of ``fn``, or a _Failed for the Failure it raised."""
    try:
        return fn(*args, **kwargs)
    except Failure as exc:
        return _Failed(exc.validation_error)


def _check_errors_list(fn, args: tuple, kwargs: dict, plain, where: str) -> None:
    """Listening for validation errors changes nothing: same result or same failure, and every
    recorded name is one of the Standard's."""
    errors: list[str] = []
    listened = _outcome(fn, *args, errors=errors, **kwargs)
    if type(listened) is not type(plain) or listened != plain:
        _fail(f"{where}: with errors=[] the result is {listened!r}, without it {plain!r}")
    unknown = [e for e in errors if e not in engine.VALIDATION_ERRORS]
    if unknown:
        _fail(f"{where}: unknown validation error names {unknown!r}")
    _check_failure_names_its_error(plain, errors, where)


def _check_failure_names_its_error(outcome, errors: list[str], where: str) -> None:
    """A failure names a validation error of the Standard's, the last one recorded: the
    algorithms say "<name> validation error, return failure"."""
    if not isinstance(outcome, _Failed) or outcome.validation_error is None:
        return
    if outcome.validation_error not in engine.VALIDATION_ERRORS:
        _fail(f"{where}: Failure names unknown validation error {outcome.validation_error!r}")
    if errors[-1:] != [outcome.validation_error]:
        _fail(f"{where}: Failure({outcome.validation_error!r}), but the last validation errors "
              f"recorded are {errors[-3:]!r}")


def _host_types() -> tuple[type, ...]:
    return (engine.Domain, engine.IPv4Address, engine.IPv6Address, engine.OpaqueHost,
            engine.EmptyHost)


def _same_host(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b


HOST_IDEMPOTENCE_PARTS = ("reparse", "errors")


def check_host_idempotence(input: str, is_opaque: bool = False, *,
                           parts: tuple[str, ...] = HOST_IDEMPOTENCE_PARTS) -> None:
    """https://url.spec.whatwg.org/#concept-host-parser

    Given any input the host parser accepts, serializing the host and parsing the serialization
    gives the same host (same kind, same value), which serializes to the same ASCII string.
    A domain serializes lowercase, without forbidden domain code points, and not ending in a
    number; an opaque host without forbidden host code points, C0 controls or non-ASCII.
    ``parts`` picks some of the checks (a fuzz target checks one per input, to keep executions
    cheap): "reparse" is the above; "errors" that listening for validation errors changes
    nothing (same host or same failure) and a failure names the error it recorded last. By
    default both are checked.
    """
    where = f"parse_host({input!r}, is_opaque={is_opaque})"
    host = _outcome(engine.parse_host, input, is_opaque)
    if "errors" in parts:
        _check_errors_list(engine.parse_host, (input, is_opaque), {}, host, where)
    if isinstance(host, _Failed) or "reparse" not in parts:
        return
    if not isinstance(host, _host_types()):
        _fail(f"{where} returned {_host_repr(host)}, not a host")
    if isinstance(host, engine.OpaqueHost) and not is_opaque:
        _fail(f"{where} returned an opaque host though is_opaque is false")
    if isinstance(host, engine.Domain) and is_opaque:
        _fail(f"{where} returned a domain though is_opaque is true")
    serialized = engine.serialize_host(host)
    where = f"{where} = {_host_repr(host)}, serialized {serialized!r}"
    if not isinstance(serialized, str) or not serialized.isascii():
        _fail(f"{where}: the serialization is not an ASCII string")
    if isinstance(host, engine.EmptyHost):
        if serialized != "":
            _fail(f"{where}: an empty host serializes to the empty string")
        return
    if isinstance(host, engine.Domain):
        if serialized != serialized.lower() or not serialized:
            _fail(f"{where}: a domain serializes non-empty and lowercase")
        bad = sorted(set(serialized) & _FORBIDDEN_DOMAIN)
        if bad:
            _fail(f"{where}: the domain holds forbidden domain code points {bad!r}")
        if engine.ends_in_a_number(serialized):
            _fail(f"{where}: a domain that ends in a number should have been an IPv4 address")
    if isinstance(host, engine.OpaqueHost):
        bad = sorted(set(serialized) & (_FORBIDDEN_HOST | _C0_CONTROL_ASCII | {"\x7f"}))
        if bad:
            _fail(f"{where}: the opaque host holds {bad!r}")
    again = _outcome(engine.parse_host, serialized, is_opaque)
    if not _same_host(again, host):
        _fail(f"{where}: reparsing gives {_host_repr(again)}")
    if not engine.hosts_equal(host, again):
        _fail(f"{where}: hosts_equal({_host_repr(host)}, {_host_repr(again)}) is false")
    if engine.serialize_host(again) != serialized:
        _fail(f"{where}: the reparsed host serializes to {engine.serialize_host(again)!r}")


def check_ipv4(input: str) -> None:
    """https://url.spec.whatwg.org/#concept-ipv4-parser

    For any input to the host parser: the host is idempotent (check_host_idempotence); an ASCII
    input without '%' that ends in a number gives an IPv4 address or failure, never a domain,
    and an IPv4 address only comes from such input, where the IPv4 parser gives the same
    address; a strict dotted-decimal address (as ``ipaddress`` reads it) parses to that very
    number; and the address serializes and reparses to itself (check_ipv4_address).
    """
    check_host_idempotence(input)
    host = _outcome(engine.parse_host, input)
    where = f"parse_host({input!r}) = {_host_repr(host)}"
    plain = input.isascii() and "%" not in input and input != ""
    if plain and not set(input) & _FORBIDDEN_DOMAIN:
        numeric = engine.ends_in_a_number(input.lower())
        if numeric and isinstance(host, engine.Domain):
            _fail(f"{where}: the input ends in a number, so the host is IPv4 or failure")
        if isinstance(host, engine.IPv4Address) and not numeric:
            _fail(f"{where}: an IPv4 address from input that does not end in a number")
        if isinstance(host, engine.IPv4Address):
            direct = _outcome(engine.parse_ipv4, input.lower())
            if not _same_host(direct, host):
                _fail(f"{where}: parse_ipv4 gives {_host_repr(direct)}")
    try:
        strict = int(ipaddress.IPv4Address(input))
    except ValueError:
        strict = None
    if strict is not None and not (isinstance(host, engine.IPv4Address) and int(host) == strict):
        _fail(f"{where}: {input!r} is the dotted-decimal address {strict}")
    if isinstance(host, engine.IPv4Address):
        check_ipv4_address(int(host))


def check_ipv4_address(n: int) -> None:
    """https://url.spec.whatwg.org/#concept-ipv4-serializer

    An IPv4 address serializes as four decimal numbers 0-255 joined by '.', most significant
    first (as ``ipaddress`` writes it), and both the host parser and the IPv4 parser read that
    back as the same address.
    """
    assert 0 <= n < 2**32, n
    serialized = engine.serialize_ipv4(n)
    expected = str(ipaddress.IPv4Address(n))
    if serialized != expected:
        _fail(f"serialize_ipv4({n}) = {serialized!r}, expected {expected!r}")
    host = _outcome(engine.parse_host, serialized)
    if not (isinstance(host, engine.IPv4Address) and int(host) == n):
        _fail(f"parse_host({serialized!r}) = {_host_repr(host)}, expected IPv4Address({n})")
    direct = _outcome(engine.parse_ipv4, serialized)
    if not (isinstance(direct, engine.IPv4Address) and int(direct) == n):
        _fail(f"parse_ipv4({serialized!r}) = {_host_repr(direct)}, expected IPv4Address({n})")
    if engine.serialize_host(host) != serialized:
        _fail(f"serialize_host({_host_repr(host)}) = {engine.serialize_host(host)!r}")


def _expected_ipv6_text(pieces: tuple[int, ...]) -> str:
    """The IPv6 serializer's output, written from its rule: pieces in shortest lowercase hex,
    the first longest run of two or more zero pieces replaced by '::', nothing else compressed."""
    best_start, best_len = None, 1
    i = 0
    while i < 8:
        if pieces[i] == 0:
            j = i
            while j < 8 and pieces[j] == 0:
                j += 1
            if j - i > best_len:
                best_start, best_len = i, j - i
            i = j
        else:
            i += 1
    hexes = [format(p, "x") for p in pieces]
    if best_start is None:
        return ":".join(hexes)
    return ":".join(hexes[:best_start]) + "::" + ":".join(hexes[best_start + best_len:])


def check_ipv6(input: str) -> None:
    """https://url.spec.whatwg.org/#concept-ipv6-parser

    ``input`` is the text between the brackets. The IPv6 parser and the host parser (on
    ``[input]``) agree; an address ``ipaddress`` reads (RFC 4291 text, no zone) is accepted with
    that value; and a parsed address serializes and reparses to itself (check_ipv6_address).
    """
    direct = _outcome(engine.parse_ipv6, input)
    where = f"parse_ipv6({input!r}) = {_host_repr(direct)}"
    _check_errors_list(engine.parse_ipv6, (input,), {}, direct, where)
    via_host = _outcome(engine.parse_host, f"[{input}]")
    if isinstance(direct, engine.IPv6Address) != isinstance(via_host, engine.IPv6Address) or (
            isinstance(direct, engine.IPv6Address) and tuple(direct) != tuple(via_host)):
        _fail(f"{where}, but parse_host('[{input}]') = {_host_repr(via_host)}")
    if "%" not in input:
        try:
            reference = int(ipaddress.IPv6Address(input))
        except ValueError:
            reference = None
        if reference is not None:
            expected = tuple((reference >> (16 * (7 - i))) & 0xFFFF for i in range(8))
            if not isinstance(direct, engine.IPv6Address) or tuple(direct) != expected:
                _fail(f"{where}, expected the pieces {expected} (as ipaddress reads it)")
    if isinstance(direct, engine.IPv6Address):
        check_ipv6_address(tuple(direct))


def check_ipv6_address(pieces: tuple) -> None:
    """https://url.spec.whatwg.org/#concept-ipv6-serializer

    An IPv6 address serializes with each piece in shortest lowercase hex and the first longest
    run of two or more zero pieces (and nothing else) compressed to '::'; the host serializer
    brackets it; and the IPv6 parser reads the serialization back as the same pieces.
    """
    pieces = tuple(pieces)
    assert len(pieces) == 8 and all(0 <= p <= 0xFFFF for p in pieces), pieces
    serialized = engine.serialize_ipv6(pieces)
    expected = _expected_ipv6_text(pieces)
    if serialized != expected:
        _fail(f"serialize_ipv6({pieces}) = {serialized!r}, expected {expected!r}")
    again = _outcome(engine.parse_ipv6, serialized)
    if not isinstance(again, engine.IPv6Address) or tuple(again) != pieces:
        _fail(f"parse_ipv6({serialized!r}) = {_host_repr(again)}, expected {pieces}")
    host_text = engine.serialize_host(again)
    if host_text != f"[{serialized}]":
        _fail(f"serialize_host({_host_repr(again)}) = {host_text!r}, expected '[{serialized}]'")


def check_domain_roundtrip(domain: str) -> None:
    """https://url.spec.whatwg.org/#concept-domain-to-unicode

    If domain to ASCII accepts ``domain``, its result ``a`` is a non-empty lowercase ASCII
    string without forbidden domain code points; domain to ASCII of ``a`` is ``a``; domain to
    ASCII of domain to Unicode of ``a`` is ``a``; with beStrict the result is failure or ``a``
    itself, LDH labels of 1 to 63 octets, no hyphen at either end or in positions 3-4 (bar
    xn--), at most 253 octets; and the host parser gives the domain ``a`` when ``domain``
    holds no '%' and ``a`` does not end in a number.
    """
    a = _outcome(engine.domain_to_ascii, domain)
    where = f"domain_to_ascii({domain!r}) = {a!r}"
    _check_errors_list(engine.domain_to_ascii, (domain,), {}, a, where)
    if isinstance(a, _Failed):
        return
    if not (isinstance(a, str) and a and a.isascii() and a == a.lower()):
        _fail(f"{where}: not a non-empty lowercase ASCII string")
    bad = sorted(set(a) & _FORBIDDEN_DOMAIN)
    if bad:
        _fail(f"{where}: holds forbidden domain code points {bad!r}")
    again = _outcome(engine.domain_to_ascii, a)
    if again != a:
        _fail(f"{where}, but domain_to_ascii({a!r}) = {again!r}")
    u = _outcome(engine.domain_to_unicode, a)
    _check_errors_list(engine.domain_to_unicode, (a,), {}, u, f"domain_to_unicode({a!r})")
    if isinstance(u, _Failed):
        _fail(f"{where}, but domain_to_unicode({a!r}) failed: {u!r}")
    back = _outcome(engine.domain_to_ascii, u)
    if back != a:
        _fail(f"{where}; domain_to_unicode gives {u!r}, whose domain_to_ascii is {back!r}")
    strict = _outcome(engine.domain_to_ascii, domain, True)
    if not isinstance(strict, _Failed):
        if strict != a:
            _fail(f"{where}, but with beStrict it is {strict!r}: stricter checks, same result")
        labels = strict.removesuffix(".").split(".")
        if (len(strict.removesuffix(".")) > 253 or any(not 1 <= len(x) <= 63 for x in labels)
                or not re.fullmatch(r"[a-z0-9.-]+", strict)
                or any(x.startswith("-") or x.endswith("-") for x in labels)
                or any(x[2:4] == "--" and not x.startswith("xn--") for x in labels)):
            _fail(f"domain_to_ascii({domain!r}, be_strict=True) = {strict!r} breaks "
                  f"CheckHyphens, UseSTD3ASCIIRules or VerifyDnsLength")
    if "%" not in domain and not domain.startswith("[") and not engine.ends_in_a_number(a):
        host = _outcome(engine.parse_host, domain)
        if not (isinstance(host, engine.Domain) and str(host) == a):
            _fail(f"{where}, but parse_host({domain!r}) = {_host_repr(host)}")


def check_public_suffix(host: str) -> None:
    """https://url.spec.whatwg.org/#host-public-suffix

    For the host ``host`` parses to: a non-domain has neither public suffix nor registrable
    domain; a domain's public suffix is a suffix of it on a label boundary; its registrable
    domain is null exactly when the public suffix is null or equals the host, and otherwise is
    one label followed by '.' and the public suffix, itself a suffix of the host on a label
    boundary; a trailing dot of the host is kept on both; the host object and its serialization
    give the same answers. A domain with an empty label may have neither (the PSL algorithm is
    silent on empty labels).
    """
    parsed = _outcome(engine.parse_host, host)
    if isinstance(parsed, _Failed):
        return
    h = engine.serialize_host(parsed)
    ps = engine.public_suffix(parsed)
    rd = engine.registrable_domain(parsed)
    where = f"host {host!r} -> {_host_repr(parsed)}: public suffix {ps!r}, registrable {rd!r}"
    if (engine.public_suffix(h) if isinstance(parsed, engine.Domain) else ps) != ps:
        _fail(f"{where}; public_suffix({h!r}) = {engine.public_suffix(h)!r}")
    if isinstance(parsed, engine.Domain) and engine.registrable_domain(h) != rd:
        _fail(f"{where}; registrable_domain({h!r}) = {engine.registrable_domain(h)!r}")
    if not isinstance(parsed, engine.Domain):
        if ps is not None or rd is not None:
            _fail(f"{where}: only a domain has a public suffix")
        return
    if ps is None and "" in (h[:-1] if h.endswith(".") else h).split("."):
        # The PSL algorithm has no answer for a domain with an empty label; the engine says
        # null for both (a documented deviation in engine/public_suffix.py).
        if rd is not None:
            _fail(f"{where}: a registrable domain without a public suffix")
        return
    if ps is None or not (ps == h or h.endswith("." + ps)) or not ps.isascii():
        _fail(f"{where}: the public suffix is not a suffix of the host on a label boundary")
    if h.endswith(".") != ps.endswith("."):
        _fail(f"{where}: the public suffix keeps the host's trailing dot, and only that")
    if (rd is None) != (ps == h):
        _fail(f"{where}: the registrable domain is null exactly when the suffix is the host")
    if rd is not None:
        label, dot, rest = rd.partition(".")
        if not dot or rest != ps or not (rd == h or h.endswith("." + rd)):
            _fail(f"{where}: the registrable domain is one label, '.', the public suffix, and "
                  f"a suffix of the host")


# -- application/x-www-form-urlencoded ------------------------------------------------------

def urlencoded_parse_model(data: bytes) -> list[tuple[str, str]]:
    """https://url.spec.whatwg.org/#concept-urlencoded-parser, written with urllib's decoder."""
    pairs = []
    for sequence in data.split(b"&"):
        if not sequence:
            continue
        name, _, value = sequence.partition(b"=")
        pairs.append(tuple(
            urllib.parse.unquote_to_bytes(part.replace(b"+", b" ")).decode("utf-8", "replace")
            for part in (name, value)))
    return pairs


def _form_quote(s: str) -> str:
    # quote_plus keeps ALPHA DIGIT "_.-~" always; the form set keeps "*-._" and alphanumerics.
    return urllib.parse.quote_plus(to_usv(s), safe="*").replace("~", "%7E")


def urlencoded_serialize_model(pairs) -> str:
    """https://url.spec.whatwg.org/#concept-urlencoded-serializer (UTF-8), written with urllib."""
    return "&".join(f"{_form_quote(n)}={_form_quote(v)}" for n, v in pairs)


def check_urlencoded_parse(data: bytes) -> None:
    """https://url.spec.whatwg.org/#concept-urlencoded-parser

    Parsing any bytes gives the pairs of the Standard's algorithm (split on '&', drop empty
    sequences, split on the first '=', '+' to space, percent-decode, UTF-8 decode with
    replacement); serializing those pairs and parsing again gives the same pairs.
    """
    pairs = engine.form_urlencoded_parse(data)
    expected = urlencoded_parse_model(data)
    if [tuple(p) for p in pairs] != expected:
        _fail(f"form_urlencoded_parse({data!r}) = {pairs!r}, expected {expected!r}")
    check_urlencoded_roundtrip(expected)


def check_urlencoded_roundtrip(pairs: list[tuple[str, str]]) -> None:
    """https://url.spec.whatwg.org/#concept-urlencoded-serializer

    Serializing name-value pairs gives the Standard's string (form percent-encode set, space as
    '+', '=' and '&' between), and parsing it gives the same pairs (lone surrogates read as
    U+FFFD, as a JavaScript string would convert).
    """
    out = engine.form_urlencoded_serialize(pairs)
    expected = urlencoded_serialize_model(pairs)
    if out != expected:
        _fail(f"form_urlencoded_serialize({pairs!r}) = {out!r}, expected {expected!r}")
    back = [tuple(p) for p in engine.form_urlencoded_parse(out.encode("ascii"))]
    usv_pairs = [(to_usv(n), to_usv(v)) for n, v in pairs]
    if back != usv_pairs:
        _fail(f"form_urlencoded_serialize({pairs!r}) = {out!r} parses back to {back!r}")


# -- URLs ------------------------------------------------------------------------------------

def _reparse(href: str, where: str):
    """``URL(href)`` without a base, which must give ``href`` again."""
    try:
        again = engine.URL(href)
    except Failure as exc:
        _fail(f"{where}: href {href!r} does not parse again, without a base "
              f"({exc.validation_error})")
    if again.href != href:
        _fail(f"{where}: href {href!r} reparses as {again.href!r}")
    return again


def check_url_object(url, where: str) -> None:
    """Every getter agrees with the href: the href is ASCII without C0 controls or DEL, parses
    again to the same href and the same getters, and the getters fit together (protocol
    prefix, hash suffix, host = hostname[:port], port a decimal up to 65535 and never the
    scheme's default, the origin: scheme and host of a
    special non-file URL, of a blob URL's inner http(s) URL, else opaque, "null")."""
    href = url.href
    values = {name: getattr(url, name) for name in GETTERS}
    again = _reparse(href, where)
    # The getters are functions of the URL record: an equal record has the same getters (and
    # the getters of the two are compared only where the records differ, to say which).
    if again.record != url.record:
        for name in GETTERS:
            if getattr(again, name) != values[name]:
                _fail(f"{where}: .{name} is {values[name]!r} but URL({href!r}).{name} is "
                      f"{getattr(again, name)!r}")
        _fail(f"{where}: URL({href!r}) has another record, {again.record!r}, with the same "
              f"getters")
    if not href.isascii() or re.search("[\x00-\x1f\x7f]", href):
        _fail(f"{where}: href {href!r} holds a non-ASCII code point, a C0 control or DEL, all "
              f"of which the serializer's components percent-encode")
    protocol, host, hostname, port = (values[k] for k in ("protocol", "host", "hostname", "port"))
    if not (protocol.endswith(":") and href.startswith(protocol)):
        _fail(f"{where}: href {href!r} does not start with protocol {protocol!r}")
    if values["hash"] and not (values["hash"].startswith("#") and href.endswith(values["hash"])):
        _fail(f"{where}: href {href!r} does not end with hash {values['hash']!r}")
    if values["search"] and not (values["search"].startswith("?") and values["search"] in href):
        _fail(f"{where}: href {href!r} does not hold search {values['search']!r}")
    if host != (hostname + ":" + port if port else hostname):
        _fail(f"{where}: host {host!r} is not hostname {hostname!r} and port {port!r}")
    scheme = protocol[:-1]
    if port and not (port.isascii() and port.isdigit() and str(int(port)) == port
                     and int(port) <= 65535 and _SPECIAL_SCHEMES.get(scheme) != int(port)):
        _fail(f"{where}: port {port!r} is not a decimal 0-65535 other than the default")
    if scheme in _SPECIAL_SCHEMES and scheme != "file":
        expected_origin = f"{protocol}//{host}"
    elif scheme == "blob":  # https://url.spec.whatwg.org/#concept-url-origin ("blob")
        try:
            inner = engine.URL(values["pathname"])
        except Failure:
            inner = None
        expected_origin = (inner.origin if inner is not None and inner.protocol in
                           ("http:", "https:", "file:") else "null")
    else:  # file, and every non-special scheme: an opaque origin
        expected_origin = "null"
    if values["origin"] != expected_origin:
        _fail(f"{where}: origin {values['origin']!r}, expected {expected_origin!r}")
    if host and not href[len(protocol):].startswith("//"):
        _fail(f"{where}: href {href!r} has a host but no '//' after the scheme")


URL_IDEMPOTENCE_PARTS = ("reparse", "getters", "parsers")


def check_url_idempotence(input: str, base: str | None = None, *,
                          parts: tuple[str, ...] = URL_IDEMPOTENCE_PARTS) -> None:
    """https://url.spec.whatwg.org/#concept-url-serializer

    If ``input`` parses (against ``base``):
    - "reparse": its href parses again, without a base, to an equal record that serializes to
      the same href;
    - "getters": the href parses again to the same href and getters (check_url_object);
    - "parsers": the basic URL parser listening for validation errors (which turns its shortcuts
      off) gives an equal record, serialized as that href, and only the Standard's error names;
      excluding the fragment cuts the href at its first '#'; if it fails, the basic URL parser
      fails too, naming the validation error it recorded last.
    ``parts`` picks some of these (a fuzz target checks one per input, to keep executions cheap);
    by default all are checked.
    """
    where = f"URL({input!r}" + ("" if base is None else f", {base!r}") + ")"
    try:
        url = engine.URL(input, base)
    except Failure as exc:
        if "parsers" not in parts:
            return
        base_record = _outcome(engine.basic_url_parse, to_usv(base)) if base is not None else None
        if isinstance(base_record, _Failed):
            return
        errors: list[str] = []
        failed = _outcome(engine.basic_url_parse, to_usv(input), base_record, errors=errors)
        if not isinstance(failed, _Failed):
            _fail(f"{where} failed ({exc.validation_error}) but basic_url_parse succeeds")
        if exc.validation_error is None:
            _fail(f"{where}: a failure that names no validation error")
        _check_failure_names_its_error(failed, errors, where)
        return
    if "reparse" in parts:
        href = url.href
        reparsed = _outcome(engine.basic_url_parse, href)
        if isinstance(reparsed, _Failed):
            _fail(f"{where}.href = {href!r} does not parse again: {reparsed!r}")
        if engine.serialize_url(reparsed) != href:
            _fail(f"{where}.href = {href!r} reserializes as {engine.serialize_url(reparsed)!r}")
        if reparsed != url.record:
            _fail(f"{where}: the record of href {href!r} differs from the record it came from")
    if "getters" in parts:
        check_url_object(url, where)
    if "parsers" not in parts:
        return
    # The state machine step by step (listening turns off the parser's shortcuts) gives the
    # same URL record, serialized; and only names of the Standard's errors.
    base_record = None if base is None else engine.basic_url_parse(to_usv(base))
    errors: list[str] = []
    listened = _outcome(engine.basic_url_parse, to_usv(input), base_record, errors=errors)
    if isinstance(listened, _Failed):
        _fail(f"{where} = {url.href!r}, but basic_url_parse with errors=[] failed: {listened!r}")
    serialized = engine.serialize_url(listened)
    if serialized != url.href:
        _fail(f"{where}.href = {url.href!r}, but with errors=[] basic_url_parse gives "
              f"{serialized!r}")
    if listened != url.record:
        _fail(f"{where}: with errors=[] the record differs: {listened!r}, {url.record!r}")
    unknown = [e for e in errors if e not in engine.VALIDATION_ERRORS]
    if unknown:
        _fail(f"{where}: unknown validation error names {unknown!r}")
    cut = engine.serialize_url(url.record, exclude_fragment=True)
    if cut != url.href.split("#", 1)[0]:
        _fail(f"{where}: serialize_url(exclude_fragment=True) = {cut!r}, href {url.href!r}")


def check_can_parse(input: str, base: str | None = None) -> None:
    """https://url.spec.whatwg.org/#dom-url-canparse

    ``URL.can_parse`` is true exactly when ``URL.parse`` returns a URL. (That ``URL.parse``
    returns None exactly when the constructor fails, with the same href otherwise, is the same
    code path in the engine, the API URL parser: tests/test_api.py checks it on WPT's inputs.)
    """
    where = f"({input!r}" + ("" if base is None else f", {base!r}") + ")"
    can = engine.URL.can_parse(input, base)
    parsed = engine.URL.parse(input, base)
    if can is not (parsed is not None):
        _fail(f"URL.can_parse{where} = {can!r}, URL.parse{where} = "
              f"{None if parsed is None else parsed.href!r}")


def check_base_resolution(input: str, base: str) -> None:
    """https://url.spec.whatwg.org/#concept-base-url

    Resolving against the base's href gives the same URL as resolving against the base string.
    (That a URL resolved against a base needs no base any more, ``URL(URL(x, base).href).href ==
    URL(x, base).href``, is check_url_idempotence's "reparse" part, with the same base.)
    """
    where = f"URL({input!r}, {base!r})"
    try:
        resolved = engine.URL(input, base)
    except Failure:
        return
    href = resolved.href
    base_href = engine.URL(base).href
    via_href = _outcome(engine.URL, input, base_href)
    if isinstance(via_href, _Failed) or via_href.href != href:
        shown = via_href if isinstance(via_href, _Failed) else via_href.href
        _fail(f"{where}.href = {href!r}, but against the base's href {base_href!r}: {shown!r}")


def check_setters(href: str, steps: list[tuple[str, str]]) -> None:
    """https://url.spec.whatwg.org/#urlutils-members

    After any sequence of setter calls on ``URL(href)`` the URL stays coherent after every step
    (check_url_object: ``URL(u.href).href == u.href`` and every getter agrees with the href),
    and each setter did what the Standard says (_check_setter_effect);
    only the href setter may fail, and then it changes nothing; setting an attribute to its own
    non-empty value changes nothing (an empty getter is excluded: "" stands for null or empty,
    e.g. the null host of "a:/", which .host = "" turns into an empty host).
    """
    try:
        url = engine.URL(href)
    except Failure:
        return
    where = f"URL({href!r})"
    check_url_object(url, where)
    for name, value in steps:
        if name not in SETTERS:
            raise ValueError(f"unknown setter {name!r}")
        where += f"; .{name} = {value!r}"
        before = url.href
        before_values = {g: getattr(url, g) for g in GETTERS}
        try:
            setattr(url, name, value)
        except Failure as exc:
            if name != "href":
                _fail(f"{where}: the {name} setter raised Failure({exc.validation_error!r}); "
                      f"only the href setter may throw")
            if url.href != before:
                _fail(f"{where}: the href setter failed but changed href {before!r} to "
                      f"{url.href!r}")
            continue
        check_url_object(url, where)
        _check_setter_effect(name, value, before_values, url, where)
        current = url.href
        own = getattr(url, name)
        if own:
            setattr(url, name, own)
            if url.href != current:
                _fail(f"{where}: then .{name} = {own!r} (its own value) changed href "
                      f"{current!r} to {url.href!r}")


def _check_setter_effect(name: str, value: str, before: dict, url, where: str) -> None:
    """https://url.spec.whatwg.org/#urlutils-members: what each setter must have done.

    href: the URL ``value`` parses to; protocol: the old scheme or the value's, never across
    the special/non-special line; username and password: the value UTF-8 percent-encoded with
    the userinfo set, or nothing where the URL cannot have credentials; port: null for "",
    the value's leading digits as a number (null for the default port), or nothing where
    there is no such number up to 65535 or the URL cannot have a port.
    """
    value = to_usv(value)
    cannot_have_credentials = before["hostname"] == "" or before["protocol"] == "file:"
    if name == "href":
        expected = engine.URL(value).href  # the setter did not throw, so this parses
        if url.href != expected:
            _fail(f"{where}: href is {url.href!r}, but URL({value!r}).href is {expected!r}")
    elif name == "protocol":
        scheme = re.sub("[\t\n\r]", "", value).split(":", 1)[0].lower() + ":"
        if url.protocol not in (before["protocol"], scheme):
            _fail(f"{where}: protocol became {url.protocol!r}, neither {before['protocol']!r} "
                  f"nor {scheme!r}")
        special = {s + ":" for s in _SPECIAL_SCHEMES}
        if (url.protocol in special) != (before["protocol"] in special):
            _fail(f"{where}: protocol {before['protocol']!r} became {url.protocol!r}, across "
                  f"the special/non-special line")
    elif name in ("username", "password"):
        expected = before[name] if cannot_have_credentials else _expected_percent_encoding(
            value, "userinfo")
        if getattr(url, name) != expected or (cannot_have_credentials and
                                              url.href != before["href"]):
            _fail(f"{where}: {name} is {getattr(url, name)!r}, expected {expected!r}")
    elif name == "port":
        digits = re.match("[0-9]*", re.sub("[\t\n\r]", "", value)).group()
        scheme = before["protocol"][:-1]
        if cannot_have_credentials or (value and (not digits or int(digits) > 65535)):
            expected = before["port"]
        elif not value:
            expected = ""
        else:
            expected = "" if _SPECIAL_SCHEMES.get(scheme) == int(digits) else str(int(digits))
        if url.port != expected:
            _fail(f"{where}: port is {url.port!r}, expected {expected!r}")


# -- URLSearchParams -------------------------------------------------------------------------

def code_unit_key(name: str) -> bytes:
    """Sort key: code unit order (UTF-16 code units compare as big-endian byte pairs)."""
    return to_usv(name).encode("utf-16-be")


def apply_search_params_op(params, model: list[tuple[str, str]], op: tuple):
    """Apply ``op`` to an engine URLSearchParams and to the list-of-pairs ``model`` (mutated in
    place); return (engine's answer, model's answer)."""
    method, args = op[0], tuple(to_usv(a) for a in op[1:])
    if len(args) not in SEARCH_PARAMS_METHODS[method]:
        raise ValueError(f"bad search params op {op!r}")
    if method == "append":
        params.append(*op[1:])
        model.append(args)
        return None, None
    if method == "delete":
        params.delete(*op[1:])
        model[:] = [p for p in model
                    if not (p[0] == args[0] and (len(args) == 1 or p[1] == args[1]))]
        return None, None
    if method == "set":
        params.set(*op[1:])
        index = next((i for i, p in enumerate(model) if p[0] == args[0]), None)
        if index is None:
            model.append(args)
        else:
            model[:] = [args if i == index else p for i, p in enumerate(model)
                        if p[0] != args[0] or i == index]
        return None, None
    if method == "sort":
        params.sort()
        model.sort(key=lambda p: code_unit_key(p[0]))
        return None, None
    if method == "get":
        return params.get(*op[1:]), next((v for n, v in model if n == args[0]), None)
    if method == "get_all":
        return list(params.get_all(*op[1:])), [v for n, v in model if n == args[0]]
    if method == "has":
        return params.has(*op[1:]), any(
            n == args[0] and (len(args) == 1 or v == args[1]) for n, v in model)
    if method == "size":
        return params.size, len(model)
    if method == "iter":
        return [tuple(p) for p in params], list(model)
    return str(params), urlencoded_serialize_model(model)


def check_search_params_state(params, model, where: str) -> None:
    """The object's list, size and string equal the model's."""
    listed = [tuple(p) for p in params]
    if listed != model:
        _fail(f"{where}: the list is {listed!r}, the model {model!r}")
    if params.size != len(model):
        _fail(f"{where}: size is {params.size!r}, the model has {len(model)} pairs")
    text, expected = str(params), urlencoded_serialize_model(model)
    if text != expected:
        _fail(f"{where}: str() is {text!r}, expected {expected!r}")


def check_search_params(init: str | list[tuple[str, str]], ops: list[tuple]) -> None:
    """https://url.spec.whatwg.org/#interface-urlsearchparams

    ``URLSearchParams(init)`` (a string, a leading '?' ignored; or a sequence of pairs)
    behaves like a plain list of pairs under
    every method: append, delete (by name, or name and value), get, get_all, has, set (first
    replaced, others removed), sort (stable, by code units of the name), size, iteration and
    str(), compared with the model after every operation.
    """
    params = engine.URLSearchParams(init)
    _run_search_params_ops(params, _search_params_model(init), ops,
                           f"URLSearchParams({init!r})")


def _search_params_model(init) -> list[tuple[str, str]]:
    """The list a URLSearchParams initialized with ``init`` holds: the pairs of a string (one
    leading '?' removed), or a sequence of pairs as scalar value strings."""
    if isinstance(init, str):
        text = to_usv(init)
        return urlencoded_parse_model((text[1:] if text.startswith("?") else text).encode())
    return [(to_usv(n), to_usv(v)) for n, v in init]


def _run_search_params_ops(params, model, ops, where: str, after_change=None) -> None:
    """Apply ``ops`` to ``params`` and the model, comparing answers and state after each;
    ``after_change(where)`` runs after each operation that changes the list."""
    check_search_params_state(params, model, where)
    for op in ops:
        where += f".{op[0]}({', '.join(map(repr, op[1:]))})"
        got, expected = apply_search_params_op(params, model, op)
        if got != expected:
            _fail(f"{where} returned {got!r}, expected {expected!r}")
        check_search_params_state(params, model, where)
        if after_change is not None and op[0] in ("append", "delete", "set", "sort"):
            after_change(model, where)


def check_fast_path(input: str) -> None:
    """The URL parser's fast path agrees with the step-by-step state machine: where
    ``parse_fast_path`` accepts an input, the state machine gives an equal record."""
    from engine.url import basic_url_parse_state_machine, parse_fast_path

    fast = parse_fast_path(input)
    if fast is None:
        return
    try:
        slow = basic_url_parse_state_machine(input)
    except engine.Failure as exc:
        raise AssertionError(f"fast path accepted {input!r}, the state machine fails: {exc}") from None
    assert fast == slow, f"fast path {engine.serialize_url(fast)!r} != state machine {engine.serialize_url(slow)!r} for {input!r}"
    assert engine.serialize_url(fast) == engine.serialize_url(slow)


def check_search_setter(href: str, value: str) -> None:
    """https://url.spec.whatwg.org/#dom-url-search

    After ``url.search = value`` the URL's query object lists the pairs of ``value`` itself
    (one leading '?' removed; none for ""), whether or not ``search_params`` was taken before:
    the Standard makes the query object with the URL and the setter parses the given value,
    not the URL's query (which has tabs and newlines stripped).
    """
    try:
        url = engine.URL(href)
    except Failure:
        return
    text = to_usv(value)
    query = text[1:] if text.startswith("?") else text
    expected = urlencoded_parse_model(query.encode("utf-8"))
    for taken_first in (True, False):
        url = engine.URL(href)
        if taken_first:
            url.search_params  # noqa: B018
        url.search = value
        listed = [tuple(p) for p in url.search_params]
        if listed != expected:
            _fail(f"URL({href!r}); {'url.search_params; ' if taken_first else ''}"
                  f"url.search = {value!r}: search_params lists {listed!r}, expected "
                  f"{expected!r}")


def check_search_params_on_url(base: str, init: str, taken_first: bool, ops: list[tuple]) -> None:
    """https://url.spec.whatwg.org/#dom-url-searchparams

    ``URL(base)``, its search set to ``init`` (``search_params`` taken before or after), then
    ``ops`` on ``search_params``: the list follows the model as in check_search_params, and
    after every change the URL's query is the serialized list (none when empty), the URL
    staying coherent (check_url_object).
    """
    url = engine.URL(base)
    if taken_first:
        url.search_params  # noqa: B018
    url.search = init

    def query_written_back(model, where):
        serialized = urlencoded_serialize_model(model)
        expected_search = "?" + serialized if serialized else ""
        if url.search != expected_search:
            _fail(f"{where}: url.search is {url.search!r}, expected {expected_search!r}")
        check_url_object(url, where)

    _run_search_params_ops(url.search_params, _search_params_model(init), ops,
                           f"URL({base!r}) with search {init!r}: searchParams",
                           query_written_back)


def check_hosts_together(texts: list[str]) -> None:
    """https://url.spec.whatwg.org/#concept-host-equals

    Every text is host-idempotent (check_host_idempotence); the hosts they parse to (an
    unparsable text stands for "example.org") reparse to themselves, domains round-trip
    through Unicode (check_domain_roundtrip), and two hosts are equal exactly when their
    serializations are, symmetrically.
    """
    hosts = []
    for text in texts:
        check_host_idempotence(text)
        host = _outcome(engine.parse_host, text)
        hosts.append(engine.parse_host("example.org") if isinstance(host, _Failed) else host)
    for host in hosts:
        again = engine.parse_host(engine.serialize_host(host))
        if not _same_host(again, host):
            _fail(f"{_host_repr(host)} reparses as {_host_repr(again)}")
        if isinstance(host, engine.Domain):
            check_domain_roundtrip(str(host))
    for a in hosts:
        for b in hosts:
            same = engine.hosts_equal(a, b)
            if same != (engine.serialize_host(a) == engine.serialize_host(b)):
                _fail(f"hosts_equal({_host_repr(a)}, {_host_repr(b)}) = {same!r}, but they "
                      f"serialize as {engine.serialize_host(a)!r}, {engine.serialize_host(b)!r}")
            if engine.hosts_equal(b, a) != same:
                _fail(f"hosts_equal is not symmetric on {_host_repr(a)}, {_host_repr(b)}")
