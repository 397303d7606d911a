#!/usr/bin/env python3
"""Fuzz target ``fast_path``: the URL parser's fast path agrees with the state machine.

Invariant: for any input that ``engine.fast_path.parse_fast_path`` accepts, the step-by-step basic URL
parser returns an equal URL record (same components, same host kind) and the same
serialization; where the state machine fails, the fast path must not have accepted the input.

Input: the whole of the data, as UTF-8 (invalid bytes as lone surrogates).
"""
import contextlib
import sys

import atheris

# engine.punycode, RFC 3492's codec, is not instrumented here: fuzz_idna fuzzes it with coverage.
with atheris.instrument_imports(include=["engine"], exclude=["engine.punycode"]) \
        if __name__ == "__main__" else contextlib.nullcontext():
    from properties import invariants


def check(data: bytes) -> None:
    invariants.check_fast_path(data.decode("utf-8", "surrogateescape"))


def differential_cases(data: bytes) -> list[tuple[str, None]]:
    """The input, for the kill suite's differential replay."""
    return [(data.decode("utf-8", "surrogateescape"), None)]


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
