#!/usr/bin/env python3
"""Fuzz target ``public_suffix``: public suffix and registrable domain of a host.

Invariant (properties/invariants/, check_public_suffix): for a host that parses, the public
suffix is a suffix of the host made of whole labels, the registrable domain (when there is one)
is that suffix plus exactly one label, and both keep the host's trailing dot; and both are what
``publicsuffixlist`` says (properties/independent.py).

Input: the text (the host).
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

# engine.punycode, RFC 3492's codec, is not instrumented here: fuzz_idna fuzzes it with coverage.
with atheris.instrument_imports(include=["engine"], exclude=["engine.punycode"]) \
        if __name__ == "__main__" else contextlib.nullcontext():
    from properties import independent, invariants


def check(data: bytes) -> None:
    host = Reader(data).rest()
    invariants.check_public_suffix(host)
    independent.check_public_suffix_against_publicsuffixlist(host)


def differential_cases(data: bytes) -> list[tuple[str, None]]:
    """The domain as a special URL's host, for the kill suite's differential replay."""
    return [(f"https://{Reader(data).rest()}/", None)]


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    independent.say_what_is_missing("fuzz_public_suffix")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
