#!/usr/bin/env python3
"""Fuzz target ``idna``: domain to ASCII and domain to Unicode.

Invariant (properties/invariants.py, check_domain_roundtrip): for every ``a`` that
``domain_to_ascii`` returns, ``domain_to_ascii(domain_to_unicode(a)) == a``, and
``domain_to_ascii`` is idempotent on its own output.

Input: the text (the domain).
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

with atheris.instrument_imports(include=["engine"]) if __name__ == "__main__" else contextlib.nullcontext():
    from properties import invariants


def check(data: bytes) -> None:
    invariants.check_domain_roundtrip(Reader(data).rest())


def differential_cases(data: bytes) -> list[tuple[str, None]]:
    """The domain as a special URL's host, for the kill suite's differential replay."""
    return [(f"https://{Reader(data).rest()}/", None)]


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
