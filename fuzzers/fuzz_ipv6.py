#!/usr/bin/env python3
"""Fuzz target ``ipv6``: the IPv6 parser and serializer.

Invariants (properties/invariants/):
- check_ipv6: for a string the IPv6 parser accepts, serializing (compressed, lowercase) and
  reparsing gives the same eight pieces;
- check_ipv6_address: serialize then parse is the identity on every address (eight 16-bit pieces).

Input: a trailing choice "string" (the text goes to the parser) or "address" (sixteen more
trailing bytes give the pieces).
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

# engine.punycode, RFC 3492's codec, is not instrumented here: fuzz_idna fuzzes it with coverage.
with atheris.instrument_imports(include=["engine"], exclude=["engine.punycode"]) \
        if __name__ == "__main__" else contextlib.nullcontext():
    from properties import invariants

MODES = ("string", "address")


def check(data: bytes) -> None:
    r = Reader(data)
    if r.choice(MODES) == "address":
        invariants.check_ipv6_address(tuple(r.integer(0, 0xFFFF) for _ in range(8)))
    else:
        invariants.check_ipv6(r.rest())


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
