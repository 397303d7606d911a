#!/usr/bin/env python3
"""Fuzz target ``ipv6``: the IPv6 parser and serializer.

Invariants (properties/invariants/):
- check_ipv6: for a string the IPv6 parser accepts, serializing (compressed, lowercase) and
  reparsing gives the same eight pieces;
- check_ipv6_address: serialize then parse is the identity on every address (eight 16-bit pieces);
- against ``ipaddress`` (properties/independent.py): the parser accepts exactly what it accepts,
  with the same pieces, and the serializer compresses as it does.

Input: a trailing choice "string" (the text goes to the parser) or "address" (sixteen more
trailing bytes give the pieces).
"""
import contextlib
import ipaddress
import sys

import atheris

from urlwb.fuzzdata import Reader

# engine.punycode, RFC 3492's codec, is not instrumented here: fuzz_idna fuzzes it with coverage.
with atheris.instrument_imports(include=["engine"], exclude=["engine.punycode"]) \
        if __name__ == "__main__" else contextlib.nullcontext():
    from properties import independent, invariants

MODES = ("string", "address")


def check(data: bytes) -> None:
    r = Reader(data)
    if r.choice(MODES) == "address":
        pieces = tuple(r.integer(0, 0xFFFF) for _ in range(8))
        invariants.check_ipv6_address(pieces)
        independent.check_ipv6_serializer_against_ipaddress(pieces)
    else:
        text = r.rest()
        invariants.check_ipv6(text)
        independent.check_ipv6_against_ipaddress(text)


def differential_cases(data: bytes) -> list[tuple[str, None]]:
    """The text, or the address as ``ipaddress`` writes it, in brackets as a special URL's host,
    for the kill suite's differential replay."""
    r = Reader(data)
    if r.choice(MODES) == "address":
        pieces = [r.integer(0, 0xFFFF) for _ in range(8)]
        address = ipaddress.IPv6Address(b"".join(p.to_bytes(2, "big") for p in pieces))
        return [(f"http://[{address}]/", None)]
    return [(f"http://[{r.rest()}]/", None)]


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    independent.say_what_is_missing("fuzz_ipv6")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
