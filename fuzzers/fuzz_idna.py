#!/usr/bin/env python3
"""Fuzz target ``idna``: domain to ASCII and domain to Unicode.

Invariant (properties/invariants/, check_domain_roundtrip): for every ``a`` that
``domain_to_ascii`` returns, ``domain_to_ascii(domain_to_unicode(a)) == a``, and
``domain_to_ascii`` is idempotent on its own output. Against independent implementations
(properties/independent.py): domain to ASCII and to Unicode give ada's Unicode ToASCII and
ToUnicode, and ``idna.encode``'s A-labels where it takes the domain (IDNA2008); each label's
Punycode is Python's codec's.

Input: the text (the domain).
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

with atheris.instrument_imports(include=["engine"]) if __name__ == "__main__" else contextlib.nullcontext():
    from properties import independent, invariants


def check(data: bytes) -> None:
    domain = Reader(data).rest()
    invariants.check_domain_roundtrip(domain)
    independent.check_domain_to_ascii_against_ada(domain)
    independent.check_domain_to_unicode_against_ada(domain)
    independent.check_domain_against_idna2008(domain)
    for label in domain.split("."):
        independent.check_punycode_encode(label)
        if label[:4].lower() == "xn--":
            independent.check_punycode_decode(label[4:])


def differential_cases(data: bytes) -> list[tuple[str, None]]:
    """The domain as a special URL's host, for the kill suite's differential replay."""
    return [(f"https://{Reader(data).rest()}/", None)]


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    independent.say_what_is_missing("fuzz_idna")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
