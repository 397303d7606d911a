#!/usr/bin/env python3
"""Fuzz target ``ipv4``: the IPv4 parser and serializer.

Invariants (properties/invariants/):
- check_ipv4: for a string the IPv4 parser accepts, serializing and reparsing gives the same
  address; ``ends_in_a_number`` agrees with whether the host parser takes the IPv4 path;
- check_ipv4_address: serialize then parse is the identity on every 32-bit address;
- check_ipv4_against_ipaddress (properties/independent.py): four decimal numbers are the address
  ``ipaddress`` reads, or failure where it reads none.

Input: a trailing choice "string" (the text goes to the parser) or "address" (four more trailing
bytes give the address).
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
        invariants.check_ipv4_address(r.integer(0, 2**32 - 1))
    else:
        text = r.rest()
        invariants.check_ipv4(text)
        independent.check_ipv4_against_ipaddress(text)


def differential_cases(data: bytes) -> list[tuple[str, None]]:
    """The text, or the address as ``ipaddress`` writes it, as a special URL's host, for the
    kill suite's differential replay."""
    r = Reader(data)
    if r.choice(MODES) == "address":
        return [(f"http://{ipaddress.IPv4Address(r.integer(0, 2**32 - 1))}/", None)]
    return [(f"http://{r.rest()}/", None)]


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    independent.say_what_is_missing("fuzz_ipv4")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
