"""https://url.spec.whatwg.org/#hosts-(domains-and-ip-addresses)

Invariants of hosts: the host parser and serializer, IPv4 and IPv6 against Python's
``ipaddress``, domains through Unicode and back, the public suffix, host equality.
"""

from __future__ import annotations

import ipaddress
import re

import engine
from properties.invariants.common import Failed, check_errors_list, fail, host_repr, outcome
from properties.invariants.percent_encoding import C0_CONTROL_ASCII


# https://url.spec.whatwg.org/#forbidden-host-code-point
_FORBIDDEN_HOST = frozenset("\x00\t\n\r #/:<>?@[\\]^|")


# https://url.spec.whatwg.org/#forbidden-domain-code-point
_FORBIDDEN_DOMAIN = _FORBIDDEN_HOST | frozenset(map(chr, range(0x20))) | {"%", "\x7f"}


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
    host = outcome(engine.parse_host, input, is_opaque)
    if "errors" in parts:
        check_errors_list(engine.parse_host, (input, is_opaque), {}, host, where)
    if isinstance(host, Failed) or "reparse" not in parts:
        return
    if not isinstance(host, _host_types()):
        fail(f"{where} returned {host_repr(host)}, not a host")
    if isinstance(host, engine.OpaqueHost) and not is_opaque:
        fail(f"{where} returned an opaque host though is_opaque is false")
    if isinstance(host, engine.Domain) and is_opaque:
        fail(f"{where} returned a domain though is_opaque is true")
    serialized = engine.serialize_host(host)
    where = f"{where} = {host_repr(host)}, serialized {serialized!r}"
    if not isinstance(serialized, str) or not serialized.isascii():
        fail(f"{where}: the serialization is not an ASCII string")
    if isinstance(host, engine.EmptyHost):
        if serialized != "":
            fail(f"{where}: an empty host serializes to the empty string")
        return
    if isinstance(host, engine.Domain):
        if serialized != serialized.lower() or not serialized:
            fail(f"{where}: a domain serializes non-empty and lowercase")
        bad = sorted(set(serialized) & _FORBIDDEN_DOMAIN)
        if bad:
            fail(f"{where}: the domain holds forbidden domain code points {bad!r}")
        if engine.ends_in_a_number(serialized):
            fail(f"{where}: a domain that ends in a number should have been an IPv4 address")
    if isinstance(host, engine.OpaqueHost):
        bad = sorted(set(serialized) & (_FORBIDDEN_HOST | C0_CONTROL_ASCII | {"\x7f"}))
        if bad:
            fail(f"{where}: the opaque host holds {bad!r}")
    again = outcome(engine.parse_host, serialized, is_opaque)
    if not _same_host(again, host):
        fail(f"{where}: reparsing gives {host_repr(again)}")
    if not engine.hosts_equal(host, again):
        fail(f"{where}: hosts_equal({host_repr(host)}, {host_repr(again)}) is false")
    if engine.serialize_host(again) != serialized:
        fail(f"{where}: the reparsed host serializes to {engine.serialize_host(again)!r}")


def check_ipv4(input: str) -> None:
    """https://url.spec.whatwg.org/#concept-ipv4-parser

    For any input to the host parser: the host is idempotent (check_host_idempotence); an ASCII
    input without '%' that ends in a number gives an IPv4 address or failure, never a domain,
    and an IPv4 address only comes from such input, where the IPv4 parser gives the same
    address; a strict dotted-decimal address (as ``ipaddress`` reads it) parses to that very
    number; and the address serializes and reparses to itself (check_ipv4_address).
    """
    check_host_idempotence(input)
    host = outcome(engine.parse_host, input)
    where = f"parse_host({input!r}) = {host_repr(host)}"
    plain = input.isascii() and "%" not in input and input != ""
    if plain and not set(input) & _FORBIDDEN_DOMAIN:
        numeric = engine.ends_in_a_number(input.lower())
        if numeric and isinstance(host, engine.Domain):
            fail(f"{where}: the input ends in a number, so the host is IPv4 or failure")
        if isinstance(host, engine.IPv4Address) and not numeric:
            fail(f"{where}: an IPv4 address from input that does not end in a number")
        if isinstance(host, engine.IPv4Address):
            direct = outcome(engine.parse_ipv4, input.lower())
            if not _same_host(direct, host):
                fail(f"{where}: parse_ipv4 gives {host_repr(direct)}")
    try:
        strict = int(ipaddress.IPv4Address(input))
    except ValueError:
        strict = None
    if strict is not None and not (isinstance(host, engine.IPv4Address) and int(host) == strict):
        fail(f"{where}: {input!r} is the dotted-decimal address {strict}")
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
        fail(f"serialize_ipv4({n}) = {serialized!r}, expected {expected!r}")
    host = outcome(engine.parse_host, serialized)
    if not (isinstance(host, engine.IPv4Address) and int(host) == n):
        fail(f"parse_host({serialized!r}) = {host_repr(host)}, expected IPv4Address({n})")
    direct = outcome(engine.parse_ipv4, serialized)
    if not (isinstance(direct, engine.IPv4Address) and int(direct) == n):
        fail(f"parse_ipv4({serialized!r}) = {host_repr(direct)}, expected IPv4Address({n})")
    if engine.serialize_host(host) != serialized:
        fail(f"serialize_host({host_repr(host)}) = {engine.serialize_host(host)!r}")


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
    direct = outcome(engine.parse_ipv6, input)
    where = f"parse_ipv6({input!r}) = {host_repr(direct)}"
    check_errors_list(engine.parse_ipv6, (input,), {}, direct, where)
    via_host = outcome(engine.parse_host, f"[{input}]")
    if isinstance(direct, engine.IPv6Address) != isinstance(via_host, engine.IPv6Address) or (
            isinstance(direct, engine.IPv6Address) and tuple(direct) != tuple(via_host)):
        fail(f"{where}, but parse_host('[{input}]') = {host_repr(via_host)}")
    if "%" not in input:
        try:
            reference = int(ipaddress.IPv6Address(input))
        except ValueError:
            reference = None
        if reference is not None:
            expected = tuple((reference >> (16 * (7 - i))) & 0xFFFF for i in range(8))
            if not isinstance(direct, engine.IPv6Address) or tuple(direct) != expected:
                fail(f"{where}, expected the pieces {expected} (as ipaddress reads it)")
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
        fail(f"serialize_ipv6({pieces}) = {serialized!r}, expected {expected!r}")
    again = outcome(engine.parse_ipv6, serialized)
    if not isinstance(again, engine.IPv6Address) or tuple(again) != pieces:
        fail(f"parse_ipv6({serialized!r}) = {host_repr(again)}, expected {pieces}")
    host_text = engine.serialize_host(again)
    if host_text != f"[{serialized}]":
        fail(f"serialize_host({host_repr(again)}) = {host_text!r}, expected '[{serialized}]'")


def check_domain_roundtrip(domain: str) -> None:
    """https://url.spec.whatwg.org/#concept-domain-to-unicode

    If domain to ASCII accepts ``domain``, its result ``a`` is a non-empty lowercase ASCII
    string without forbidden domain code points; domain to ASCII of ``a`` is ``a``; domain to
    ASCII of domain to Unicode of ``a`` is ``a``; with beStrict the result is failure or ``a``
    itself, LDH labels of 1 to 63 octets, no hyphen at either end or in positions 3-4 (bar
    xn--), at most 253 octets; and the host parser gives the domain ``a`` when ``domain``
    holds no '%' and ``a`` does not end in a number.
    """
    a = outcome(engine.domain_to_ascii, domain)
    where = f"domain_to_ascii({domain!r}) = {a!r}"
    check_errors_list(engine.domain_to_ascii, (domain,), {}, a, where)
    if isinstance(a, Failed):
        return
    if not (isinstance(a, str) and a and a.isascii() and a == a.lower()):
        fail(f"{where}: not a non-empty lowercase ASCII string")
    bad = sorted(set(a) & _FORBIDDEN_DOMAIN)
    if bad:
        fail(f"{where}: holds forbidden domain code points {bad!r}")
    again = outcome(engine.domain_to_ascii, a)
    if again != a:
        fail(f"{where}, but domain_to_ascii({a!r}) = {again!r}")
    u = outcome(engine.domain_to_unicode, a)
    check_errors_list(engine.domain_to_unicode, (a,), {}, u, f"domain_to_unicode({a!r})")
    if isinstance(u, Failed):
        fail(f"{where}, but domain_to_unicode({a!r}) failed: {u!r}")
    back = outcome(engine.domain_to_ascii, u)
    if back != a:
        fail(f"{where}; domain_to_unicode gives {u!r}, whose domain_to_ascii is {back!r}")
    strict = outcome(engine.domain_to_ascii, domain, True)
    if not isinstance(strict, Failed):
        if strict != a:
            fail(f"{where}, but with beStrict it is {strict!r}: stricter checks, same result")
        labels = strict.removesuffix(".").split(".")
        if (len(strict.removesuffix(".")) > 253 or any(not 1 <= len(x) <= 63 for x in labels)
                or not re.fullmatch(r"[a-z0-9.-]+", strict)
                or any(x.startswith("-") or x.endswith("-") for x in labels)
                or any(x[2:4] == "--" and not x.startswith("xn--") for x in labels)):
            fail(f"domain_to_ascii({domain!r}, be_strict=True) = {strict!r} breaks "
                  f"CheckHyphens, UseSTD3ASCIIRules or VerifyDnsLength")
    if "%" not in domain and not domain.startswith("[") and not engine.ends_in_a_number(a):
        host = outcome(engine.parse_host, domain)
        if not (isinstance(host, engine.Domain) and str(host) == a):
            fail(f"{where}, but parse_host({domain!r}) = {host_repr(host)}")


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
    parsed = outcome(engine.parse_host, host)
    if isinstance(parsed, Failed):
        return
    h = engine.serialize_host(parsed)
    ps = engine.public_suffix(parsed)
    rd = engine.registrable_domain(parsed)
    where = f"host {host!r} -> {host_repr(parsed)}: public suffix {ps!r}, registrable {rd!r}"
    if (engine.public_suffix(h) if isinstance(parsed, engine.Domain) else ps) != ps:
        fail(f"{where}; public_suffix({h!r}) = {engine.public_suffix(h)!r}")
    if isinstance(parsed, engine.Domain) and engine.registrable_domain(h) != rd:
        fail(f"{where}; registrable_domain({h!r}) = {engine.registrable_domain(h)!r}")
    if not isinstance(parsed, engine.Domain):
        if ps is not None or rd is not None:
            fail(f"{where}: only a domain has a public suffix")
        return
    if ps is None and "" in (h[:-1] if h.endswith(".") else h).split("."):
        # The PSL algorithm has no answer for a domain with an empty label; the engine says
        # null for both (a documented deviation in engine/public_suffix.py).
        if rd is not None:
            fail(f"{where}: a registrable domain without a public suffix")
        return
    if ps is None or not (ps == h or h.endswith("." + ps)) or not ps.isascii():
        fail(f"{where}: the public suffix is not a suffix of the host on a label boundary")
    if h.endswith(".") != ps.endswith("."):
        fail(f"{where}: the public suffix keeps the host's trailing dot, and only that")
    if (rd is None) != (ps == h):
        fail(f"{where}: the registrable domain is null exactly when the suffix is the host")
    if rd is not None:
        label, dot, rest = rd.partition(".")
        if not dot or rest != ps or not (rd == h or h.endswith("." + rd)):
            fail(f"{where}: the registrable domain is one label, '.', the public suffix, and "
                  f"a suffix of the host")


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
        host = outcome(engine.parse_host, text)
        hosts.append(engine.parse_host("example.org") if isinstance(host, Failed) else host)
    for host in hosts:
        again = engine.parse_host(engine.serialize_host(host))
        if not _same_host(again, host):
            fail(f"{host_repr(host)} reparses as {host_repr(again)}")
        if isinstance(host, engine.Domain):
            check_domain_roundtrip(str(host))
    for a in hosts:
        for b in hosts:
            same = engine.hosts_equal(a, b)
            if same != (engine.serialize_host(a) == engine.serialize_host(b)):
                fail(f"hosts_equal({host_repr(a)}, {host_repr(b)}) = {same!r}, but they "
                      f"serialize as {engine.serialize_host(a)!r}, {engine.serialize_host(b)!r}")
            if engine.hosts_equal(b, a) != same:
                fail(f"hosts_equal is not symmetric on {host_repr(a)}, {host_repr(b)}")
