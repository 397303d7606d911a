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


def check(data: bytes) -> None:
    r = Reader(data)
    href = r.text(r.length())
    steps = [(r.choice(SETTERS), r.text(r.length())) for _ in range(r.integer(0, MAX_STEPS))]
    invariants.check_setters(href, steps)


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
