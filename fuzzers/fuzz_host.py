#!/usr/bin/env python3
"""Fuzz target ``host``: the host parser, special (domain, IPv4, IPv6) and opaque.

Invariant (properties/invariants/, check_host_idempotence), one of its parts per input:
"reparse" (for a string the host parser accepts, serializing the host, reparsing and
reserializing gives the same string and an equal host), "errors" (listening for validation
errors changes nothing, and a failure names the error recorded last); only engine.Failure ever
escapes the parser.

Input: the text, then one trailing choice of the host parser's mode (special or opaque,
``is_opaque``) and the part to check: the byte modulo 4 (0/1: reparse, special/opaque; 2/3:
errors, special/opaque). Each part costs a parse or two more, and libFuzzer's mutations of that
byte give every input to both.
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

# engine.punycode, RFC 3492's codec, is not instrumented here: fuzz_idna fuzzes it with coverage.
with atheris.instrument_imports(include=["engine"], exclude=["engine.punycode"]) \
        if __name__ == "__main__" else contextlib.nullcontext():
    from properties import invariants

MODES = tuple((is_opaque, part) for part in invariants.HOST_IDEMPOTENCE_PARTS
              for is_opaque in (False, True))


def check(data: bytes) -> None:
    r = Reader(data)
    is_opaque, part = r.choice(MODES)
    invariants.check_host_idempotence(r.rest(), is_opaque, parts=(part,))


def differential_cases(data: bytes) -> list[tuple[str, None]]:
    """The host in a special and in a non-special URL, for the kill suite's differential
    replay."""
    r = Reader(data)
    r.choice(MODES)
    host = r.rest()
    return [(f"https://{host}/", None), (f"foo://{host}/", None)]


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
