#!/usr/bin/env python3
"""Fuzz target ``host``: the host parser, special (domain, IPv4, IPv6) and opaque.

Invariant (properties/invariants.py, check_host_idempotence): for a string the host parser
accepts, serializing the host, reparsing and reserializing gives the same string and an equal
host; only engine.Failure ever escapes the parser.

Input: the text, then a trailing choice: special or opaque (``is_opaque``).
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

with atheris.instrument_imports(include=["engine"]) if __name__ == "__main__" else contextlib.nullcontext():
    from properties import invariants

OPAQUE = (False, True)


def check(data: bytes) -> None:
    r = Reader(data)
    is_opaque = r.choice(OPAQUE)
    invariants.check_host_idempotence(r.rest(), is_opaque)


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
