#!/usr/bin/env python3
"""Fuzz target ``setters``: a URL, then a sequence of URL API setter calls.

Invariant (properties/invariants/, check_setters): after every setter call the URL stays
coherent (check_url_object: ``URL(u.href).href == u.href`` and every getter agrees with a fresh
parse of the href); only the href setter may fail, and then it changes nothing; setting an
attribute to its own non-empty value changes nothing.

Input: a length-prefixed text (the href), a trailing count of steps, then per step a trailing
choice of setter and a length-prefixed text (the new value).
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

# engine.punycode, RFC 3492's codec, is not instrumented here: fuzz_idna fuzzes it with coverage.
with atheris.instrument_imports(include=["engine"], exclude=["engine.punycode"]) \
        if __name__ == "__main__" else contextlib.nullcontext():
    from properties import invariants

SETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
           "search", "hash")
MAX_STEPS = 4


def decode(data: bytes) -> tuple[str, list[tuple[str, str]]]:
    """(the URL, the setter steps)."""
    r = Reader(data)
    href = r.text(r.length())
    return href, [(r.choice(SETTERS), r.text(r.length())) for _ in range(r.integer(0, MAX_STEPS))]


def check(data: bytes) -> None:
    invariants.check_setters(*decode(data))


def differential_cases(data: bytes) -> list[tuple[str, None]]:
    """The URL and every value given to the href setter, for the kill suite's differential
    replay."""
    href, steps = decode(data)
    return [(href, None)] + [(value, None) for name, value in steps if name == "href"]


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
