#!/usr/bin/env python3
"""Fuzz target ``encodings``: percent-encode after encoding, for every legacy encoding and set.

Invariant (properties/invariants.py, check_percent_encode_after_encoding): for any string,
encoding and percent-encode set, ``percent_encode_after_encoding`` returns only ASCII, holds no
byte of the set unencoded, and percent-decoding it gives the encoder's output for the string (an
unmappable code point becoming ``&#N;``); with UTF-8 it equals ``utf8_percent_encode``.

Input: the text, then two trailing choices: the encoding, then the percent-encode set.
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

with atheris.instrument_imports(include=["engine"]) if __name__ == "__main__" else contextlib.nullcontext():
    import engine
    from properties import invariants

ENCODINGS = sorted(set(engine.LEGACY_ENCODINGS) | {"utf-8"})
SETS = sorted(engine.PERCENT_ENCODE_SETS)


def check(data: bytes) -> None:
    r = Reader(data)
    encoding = r.choice(ENCODINGS)
    set_name = r.choice(SETS)
    invariants.check_percent_encode_after_encoding(encoding, r.rest(), set_name)


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    # Build every encoder's lazily cached table now, not inside the first timed inputs.
    for encoding in ENCODINGS:
        engine.percent_encode_after_encoding(encoding, "\u2020\u00e9\u3000\U00020000",
                                             engine.SPECIAL_QUERY_PERCENT_ENCODE_SET)
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
