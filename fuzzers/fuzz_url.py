#!/usr/bin/env python3
"""Fuzz target ``url``: the URL parser and serializer, with and without a base.

Invariants (properties/invariants/):
- check_url_idempotence, one of its parts per input: "reparse" (for an input that parses,
  serializing, reparsing and reserializing gives the same href and an equal record), "getters"
  (every getter agrees with the href and its reparse), "parsers" (the basic URL parser agrees,
  with or without an errors list, and a failure names its validation error);
- check_can_parse: ``URL.can_parse(x, base)`` agrees with ``URL.parse(x, base) is not None``;
- check_base_resolution (with a base): parsing against the base agrees with parsing against the
  base's own serialization.

Input: a trailing choice, with or without a base; with one, a length-prefixed text (the base);
a trailing choice of the invariant to check (one per input: each costs several parses, and
libFuzzer's mutations of that byte give every input to every invariant); the rest of the text
is the input. Without a base, base resolution falls back to the reparse check.
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

# engine.punycode, RFC 3492's codec, is not instrumented here: fuzz_idna fuzzes it with coverage.
with atheris.instrument_imports(include=["engine"], exclude=["engine.punycode"]) \
        if __name__ == "__main__" else contextlib.nullcontext():
    from properties import invariants

WITH_BASE = (False, True)
CHECKS = ("reparse", "getters", "parsers", "can_parse", "base_resolution")


def decode(data: bytes) -> tuple[str | None, str, str]:
    """(the base or None, the invariant to check, the input)."""
    r = Reader(data)
    base = r.text(r.length()) if r.choice(WITH_BASE) else None
    return base, r.choice(CHECKS), r.rest()


def check(data: bytes) -> None:
    base, which, url = decode(data)
    if which == "can_parse":
        invariants.check_can_parse(url, base)
    elif which == "base_resolution":
        if base is not None:
            invariants.check_base_resolution(url, base)
        else:
            invariants.check_url_idempotence(url, base, parts=("reparse",))
    else:
        invariants.check_url_idempotence(url, base, parts=(which,))


def differential_cases(data: bytes) -> list[tuple[str, str | None]]:
    """The (input, base) this input parses, for the kill suite's differential replay."""
    base, _, url = decode(data)
    return [(url, base)]


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
