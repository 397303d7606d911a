"""What a fetcher's resolver makes of the host its URL parser read: an address, or a DNS name.

No network and no DNS: each reading is the resolver's rule for a *numeric* host, written out
here; a host none of them reads as an address is "a DNS name" (:data:`NAME`), and a host the
resolver refuses outright (neither an address nor a name it would look up) is :data:`REFUSED`.

Readings, each with where it comes from:

- ``getaddrinfo``: glibc's ``getaddrinfo`` (what C, Python's ``socket``, Node's ``dns.lookup``,
  libcurl, Ruby, Perl, PHP and Rust's ``ToSocketAddrs`` end in). For IPv4 it calls
  ``__inet_aton_exact`` (glibc 2.32+, resolv/inet_addr.c): inet_aton's forms, one to four parts
  (``a``: 32 bits, ``a.b``: 8+24, ``a.b.c``: 8+8+16), each part decimal, octal after a leading
  ``0``, hex after ``0x``/``0X`` (``0x`` alone is refused), nothing after the last part (no
  trailing dot, no trailing space: inet_aton itself stops at a space, the exact form does not).
  For IPv6 ``inet_pton(AF_INET6)`` with an optional ``%zone``. Checked against
  ``socket.getaddrinfo(host, AI_NUMERICHOST)`` on this machine by the tests.
- ``go``: Go's ``net.ParseIP`` (net/ip.go; the dialer in net/dial.go tries it before any
  lookup): four decimal parts of at most three digits each, each at most 255, **no leading zero**
  since Go 1.17 (``0177.0.0.1`` is a name), no short forms, no hex; IPv6 as RFC 4291 with an
  embedded dotted IPv4 (the same rule for it); a zone only through ``ParseIPZone`` in the dialer's
  ``SplitHostPort`` path. Python's ``ipaddress`` has the same IPv4 rule since 3.9.5, so it is
  the reading here.
- ``java``: JDK 17's ``InetAddress.getByName`` (``IPAddressUtil.textToNumericFormatV4``/``V6``),
  measured on the JDK 17.0.15 of this machine (``-Djdk.net.hosts.file`` pointing nowhere, so no
  DNS): one to four parts like inet_aton's, but **decimal only**, leading zeros read as decimal
  (``0177.0.0.1`` is 177.0.0.1, ``00127.0.0.1`` is 127.0.0.1); a part with ``0x`` makes the host
  refused (UnknownHostException without a lookup); brackets stripped; an IPv4-mapped IPv6 literal
  becomes its IPv4 (``Inet4Address``).
- ``whatwg``: a WHATWG host is already serialized (https://url.spec.whatwg.org/#concept-host-serializer):
  read by ``getaddrinfo``, which gives the same address for a canonical host.

Every reading turns an IPv4-mapped IPv6 address (``::ffff:a.b.c.d``, RFC 4291 2.5.5.2) into the
IPv4 the socket reaches on a dual-stack Linux socket; an IPv4-compatible one (``::a.b.c.d``, RFC
4291 2.5.5.1, deprecated) is kept as IPv6 and :func:`embedded_ipv4` tells the policy what it embeds.
"""

from __future__ import annotations

import ipaddress
import re
import socket

#: a host the resolver would look up by name (DNS, /etc/hosts)
NAME = "name"
#: a host the resolver refuses without a lookup (no connection at all)
REFUSED = "refused"

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_HEX = re.compile(r"0[xX][0-9a-fA-F]*\Z")
_OCT = re.compile(r"0[0-7]*\Z")
_DEC = re.compile(r"[1-9][0-9]*\Z")
#: inet_aton's limits for the last part, by the number of parts
_LAST_LIMIT = {1: 2 ** 32, 2: 2 ** 24, 3: 2 ** 16, 4: 2 ** 8}


def _inet_aton_part(text: str) -> int | None:
    """One part as inet_aton reads it (resolv/inet_addr.c): hex after 0x (at least one digit),
    octal after a leading 0, else decimal; None if it is none of these."""
    if _HEX.match(text):
        return int(text[2:], 16) if len(text) > 2 else None
    if _OCT.match(text):
        return int(text, 8)
    if _DEC.match(text):
        return int(text)
    return None


def _parts_to_ipv4(numbers: list[int]) -> ipaddress.IPv4Address | None:
    """inet_aton's assembly of one to four parts: every part but the last at most 255, the last
    filling the remaining bytes."""
    if not 1 <= len(numbers) <= 4:
        return None
    *head, last = numbers
    if any(n > 255 for n in head) or last >= _LAST_LIMIT[len(numbers)]:
        return None
    value = 0
    for n in head:
        value = value * 256 + n
    return ipaddress.IPv4Address(value * _LAST_LIMIT[len(numbers)] + last)


def inet_aton_exact(text: str) -> ipaddress.IPv4Address | None:
    """glibc's ``__inet_aton_exact``: the IPv4 address, or None."""
    if not text.isascii() or not text:
        return None
    numbers = [_inet_aton_part(p) for p in text.split(".")]
    if any(n is None for n in numbers):
        return None
    return _parts_to_ipv4(numbers)


def _known_zone(zone: str) -> bool:
    """A zone getaddrinfo takes: a number, or the name of an interface of this machine."""
    if zone.isdigit():
        return True
    try:
        socket.if_nametoindex(zone)
    except (OSError, ValueError):
        return False
    return True


def _ipv6(text: str, zone: bool) -> ipaddress.IPv6Address | None:
    """inet_pton(AF_INET6), with a ``%zone`` when ``zone`` (a number or an interface of this
    machine, as getaddrinfo wants); None if not an IPv6 literal."""
    if not text.isascii() or ":" not in text or (not zone and "%" in text):
        return None
    if "%" in text and not _known_zone(text.partition("%")[2]):
        return None
    try:
        return ipaddress.IPv6Address(text)
    except ValueError:
        return None


def _unmapped(addr: Address) -> Address:
    """An IPv4-mapped IPv6 address is its IPv4 on a dual-stack socket (RFC 4291 2.5.5.2)."""
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        return addr.ipv4_mapped
    return addr


def strip_brackets(host: str) -> str:
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def read_getaddrinfo(host: str) -> Address | str:
    """glibc ``getaddrinfo`` with a numeric host: the address, else :data:`NAME`."""
    h = strip_brackets(host)
    v4 = inet_aton_exact(h)
    if v4 is not None:
        return v4
    v6 = _ipv6(h, zone=True)
    return _unmapped(v6) if v6 is not None else NAME


def read_go(host: str) -> Address | str:
    """Go's ``net.ParseIP`` (then a lookup by name): the address, else :data:`NAME`."""
    h = strip_brackets(host)
    if not h.isascii() or "%" in h:
        return NAME
    try:
        addr = ipaddress.ip_address(h)
    except ValueError:
        return NAME
    return _unmapped(addr)


_JAVA_PART = re.compile(r"[0-9]+\Z")
_JAVA_HEXISH = re.compile(r"[0-9a-fA-FxX.]+\Z")


def read_java(host: str) -> Address | str:
    """JDK 17's ``InetAddress.getByName``: the address, :data:`REFUSED` (an IPv4-looking host
    with a hex part), else :data:`NAME`."""
    h = strip_brackets(host)
    if not h.isascii() or not h:
        return NAME
    if ":" in h:
        v6 = _ipv6(h, zone=True)
        return _unmapped(v6) if v6 is not None else NAME
    parts = h.split(".")
    if all(_JAVA_PART.match(p) for p in parts):
        numbers = [int(p) for p in parts]
        addr = _parts_to_ipv4(numbers) if all(len(p) <= 10 for p in parts) else None
        return addr if addr is not None else NAME
    if _JAVA_HEXISH.match(h) and h[0].isdigit() and any("x" in p.lower() for p in parts):
        return REFUSED  # measured: "0x7f.1" -> UnknownHostException with no lookup
    return NAME


READERS = {"getaddrinfo": read_getaddrinfo, "go": read_go, "java": read_java,
           "whatwg": read_getaddrinfo}


def read(resolver: str, host: str) -> Address | str:
    """The reading of ``host`` by ``resolver`` (a key of :data:`READERS`)."""
    return READERS[resolver](host)


def embedded_ipv4(addr: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv4-compatible IPv6 address (``::a.b.c.d`` other than ``::`` and
    ``::1``) embeds, else None."""
    if isinstance(addr, ipaddress.IPv6Address) and int(addr) >> 32 == 0 and int(addr) > 1:
        return ipaddress.IPv4Address(int(addr))
    return None
