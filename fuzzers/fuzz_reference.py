#!/usr/bin/env python3
"""Fuzz target ``reference``: the fast parser against the reference parser.

Invariant (properties/reference.py): on every input, the fast parser (``engine.url``) and the
reference (``engine.reference``, the Standard's basic URL parser as written) agree, without a
base, with a base, and with a state override (a URL API setter on the input as URL):
- check_parsers_agree: both fail naming the same validation error, or give equal records (and
  host kinds) that both URL serializers serialize alike; listening, both report the same
  validation errors in the same order; the fast parser's fast path (unheard) answers alike;
- check_setter_agrees: after ``URL(input).<setter> = value`` both hold equal records and
  hrefs (or fail alike), and their parses report the same validation errors in order.

Only the reference is instrumented: libFuzzer's coverage counts the Standard's steps, so the
corpus grows towards every step of every state, and the fast parser is held to each.

Input: a trailing choice of mode: "alone", "base" or one of the setters; a trailing choice of
encoding (the parser's encoding argument, for the query; the setters have none); for "base" and a
setter, a length-prefixed text (the base, or the setter's value); the rest of the text is the
input.
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

# The engine (the fast parser among it) is imported first, uninstrumented: importing
# engine.reference inside the block would import its parent package there, and instrument it.
import engine  # noqa: F401

with atheris.instrument_imports(include=["engine.reference"]) \
        if __name__ == "__main__" else contextlib.nullcontext():
    import engine.reference  # noqa: F401  (instrumented here, before properties imports it)
from properties import reference

MODES = ("alone", "base", *reference.SETTERS)
# UTF-8 and an encoder of each kind: single-byte, multi-byte, stateful (ISO-2022-JP), and those
# whose output encoding is UTF-8 (UTF-16LE, replacement).
ENCODINGS = ("utf-8", "windows-1252", "shift_jis", "gb18030", "big5", "euc-kr", "iso-2022-jp",
             "x-user-defined", "utf-16le", "replacement")


def check(data: bytes) -> None:
    r = Reader(data)
    mode = r.choice(MODES)
    encoding = r.choice(ENCODINGS)
    other = r.text(r.length()) if mode != "alone" else None
    input = r.rest()
    reference.check_parsers_agree(input, None, encoding)
    if mode == "base":
        reference.check_parsers_agree(input, other, encoding)
    elif mode != "alone":
        reference.check_setter_agrees(input, mode, other)


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
