"""The hunt's inputs: each denied host in every spelling the URL Standard and the resolvers read
as that address, crossed with the confusion ingredients of :mod:`urlwb.differential.generate`.

Spellings of an IPv4 address (https://url.spec.whatwg.org/#concept-ipv4-parser, and inet_aton's
forms, :mod:`.resolvers`): four, three, two or one part; each part decimal, octal, hex in either
case (``urlwb.differential.generate.ipv4_number``), with leading zeros; a trailing dot; a percent-encoded
digit or dot (the host parser percent-decodes); full-width digits and the IDNA dots (UTS #46 maps
them to ASCII, https://url.spec.whatwg.org/#concept-domain-to-ascii); a tab or newline inside
(https://url.spec.whatwg.org/#concept-basic-url-parser removes them); IPv4-mapped and
IPv4-compatible IPv6 (RFC 4291 2.5.5), in dotted and hex form. Of an IPv6 address: compressed,
full, with leading zeros, upper case, with a zone. Of a name: case, a trailing dot, a subdomain,
full width, percent-encoding.

Confusion templates put the denied host beside an allowed decoy: userinfo (``generate.USERINFO``
with the decoy for its example hosts), a backslash, ``#`` or ``?`` before ``@``, the slashes of
``generate.SLASHES``, a port, scheme case. After the systematic phase, :func:`random_inputs` draws
from the same pieces and applies ``generate.MUTATIONS``, deterministic in the seed. No published
bypass is written here as a literal: every input is assembled from these pieces.
"""

from __future__ import annotations

import ipaddress
import random
from collections.abc import Iterator

from urlwb.differential import generate

FULLWIDTH_DIGITS = {str(d): chr(0xFF10 + d) for d in range(10)}


def _ipv4_forms(n: int) -> list[str]:
    """The part-count forms of ``n`` in decimal: a.b.c.d, a.b.C, a.B, N."""
    b = n.to_bytes(4, "big")
    return [".".join(str(x) for x in b), f"{b[0]}.{b[1]}.{b[2] * 256 + b[3]}",
            f"{b[0]}.{int.from_bytes(b[1:], 'big')}", str(n)]


def _radix_parts(parts: list[int], style: str) -> str:
    fmt = {"oct": lambda x: f"0{x:o}", "hex": lambda x: f"0x{x:x}", "HEX": lambda x: f"0X{x:X}",
           "zeros": lambda x: f"{x:04d}", "dec": str}[style]
    return ".".join(fmt(p) for p in parts)


def ipv4_spellings(addr: ipaddress.IPv4Address, rng: random.Random) -> list[str]:
    n = int(addr)
    b = list(n.to_bytes(4, "big"))
    groups = [b, [b[0], b[1], b[2] * 256 + b[3]], [b[0], int.from_bytes(bytes(b[1:]), "big")], [n]]
    out = _ipv4_forms(n)
    for parts in groups:
        for style in ("oct", "hex", "HEX", "zeros"):
            out.append(_radix_parts(parts, style))
        out.append(".".join(generate.ipv4_number(rng, p) for p in parts))  # mixed radices
    dotted = out[0]
    out += [dotted + ".", str(n) + ".", dotted.replace(".", "%2e", 1),
            "%" + format(ord(dotted[0]), "02x") + dotted[1:],
            "".join(FULLWIDTH_DIGITS.get(c, c) for c in dotted),
            dotted.replace(".", generate.IDNA_DOTS[0]), dotted.replace(".", generate.IDNA_DOTS[1]),
            dotted[:2] + "\t" + dotted[2:], dotted[:2] + "\n" + dotted[2:]]
    out += [f"[::ffff:{dotted}]", f"[::FFFF:{dotted}]", f"[0:0:0:0:0:ffff:{dotted}]",
            f"[::ffff:{b[0] * 256 + b[1]:x}:{b[2] * 256 + b[3]:x}]", f"[::{dotted}]",
            f"[::{b[0] * 256 + b[1]:x}:{b[2] * 256 + b[3]:x}]", f"[0::ffff:{dotted}]"]
    return list(dict.fromkeys(out))


def ipv6_spellings(addr: ipaddress.IPv6Address) -> list[str]:
    full = addr.exploded
    short = addr.compressed
    out = [short, full, full.upper(), ":".join(p.lstrip("0") or "0" for p in full.split(":")),
           short.replace("::", ":0:", 1) if short.count(":") < 7 and "::" in short else short,
           short + "%25lo", short + "%25eth0", short.upper()]
    if addr.ipv4_mapped is None and int(addr) < 2 ** 32:
        out.append("::" + str(ipaddress.IPv4Address(int(addr))))
    return [f"[{x}]" for x in dict.fromkeys(out)]


def name_spellings(name: str) -> list[str]:
    out = [name, name.upper(), name + ".", "a." + name, name.capitalize(),
           "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c for c in name),
           "%" + format(ord(name[0]), "02x") + name[1:], name[:2] + "\t" + name[2:]]
    return list(dict.fromkeys(out))


def spellings(target: str, rng: random.Random) -> list[str]:
    """Every spelling of the host ``target`` (an address or a name)."""
    try:
        addr = ipaddress.ip_address(target)
    except ValueError:
        return name_spellings(target)
    if isinstance(addr, ipaddress.IPv4Address):
        return ipv4_spellings(addr, rng)
    return ipv6_spellings(addr)


SCHEMES = ("http", "HTTP", "https")


def _userinfos(decoy: str) -> list[str]:
    """``generate.USERINFO`` with the decoy in place of its example hosts."""
    return [u.replace("trusted.com", decoy).replace("evil.com", decoy) for u in generate.USERINFO]


def templates(decoy: str) -> list[str]:
    """URL templates with ``{h}`` for the denied host: each confusion ingredient once."""
    d = decoy
    out = ["http://{h}/", "http://{h}", "HTTP://{h}/", "https://{h}:443/", "http://{h}:80/x",
           "//{h}/", "http:{h}/", "http:/{h}/", "http:\\\\{h}/", "http:/\\{h}/", "http:///{h}/",
           "http://\\{h}/"]
    out += [f"http://{u}{{h}}/" for u in _userinfos(d) if u]
    out += [f"http://{{h}}\\@{d}/", f"http://{{h}}#@{d}/", f"http://{{h}}?@{d}/",
            f"http://{{h}}\\.{d}/", f"http://{{h}}@{d}/", f"http://{d}\\@{{h}}/",
            f"http://{d}:80@{{h}}/", f"http://{d} @{{h}}/", f"http://{d}\t@{{h}}/",
            f"http://{{h}}:80\\@{d}/", f"http://{{h}}%2F@{d}/", f"http://{{h}}%23@{d}/",
            f"http://{{h}}/{d}", f"http://{{h}}#{d}", f"http://{{h}}?{d}"]
    return list(dict.fromkeys(out))


def systematic(targets: list[str], decoy: str, seed: int) -> Iterator[str]:
    """Every spelling of every target in every template, deterministic in ``seed``."""
    rng = random.Random(seed)
    seen: set[str] = set()
    forms = templates(decoy)
    for target in targets:
        for host in spellings(target, rng):
            for t in forms:
                s = t.replace("{h}", host)
                if s not in seen:
                    seen.add(s)
                    yield s


def random_inputs(targets: list[str], decoy: str, seed: int) -> Iterator[str]:
    """An endless stream: a spelling in a template, then one to three of ``generate.MUTATIONS``
    or a random scheme, slashes and userinfo; deterministic in ``seed``."""
    rng = random.Random(seed ^ 0x55F)
    forms = templates(decoy)
    cache = {t: spellings(t, random.Random(seed)) for t in targets}
    while True:
        host = rng.choice(cache[rng.choice(targets)])
        if rng.random() < 0.5:
            s = rng.choice(forms).replace("{h}", host)
        else:
            s = (rng.choice(generate.SCHEMES[:6]) + ":" + rng.choice(generate.SLASHES)
                 + rng.choice(_userinfos(decoy)) + host + rng.choice(generate.PORTS[:5])
                 + rng.choice(generate.PATHS[:6]))
        for _ in range(rng.choice((0, 1, 1, 2, 3))):
            s = rng.choice(generate.MUTATIONS)(rng, s)
        yield s
