#!/usr/bin/env python3
"""Fuzz target ``percent``: percent-decoding undoes UTF-8 percent-encoding, for every set.

Invariants (properties/invariants/):
- check_percent_roundtrip: ``utf8_percent_encode(s, SET)`` holds no code point of SET, and
  ``percent_decode`` of it gives back ``s`` as UTF-8 for the sets that round-trip (component,
  application/x-www-form-urlencoded), and for every set when ``s`` has no "%";
- check_percent_decode: ``percent_decode`` of any bytes equals ``urllib.parse.unquote_to_bytes``
  (each "%" and two hex digits one byte, all else kept) and is shorter by two bytes per %XX;
  ``percent_decode_string(s)`` is ``percent_decode`` of the UTF-8 of ``s``;
- check_percent_encode_against_urllib (properties/independent.py): UTF-8 percent-encoding with
  a set is ``urllib.parse.quote`` keeping the printable ASCII the set does not hold.

Input: the text, then one trailing choice: a percent-encode set by name, or "decode" (the raw
bytes go to percent_decode).
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

# engine.punycode, RFC 3492's codec, is not instrumented here: fuzz_idna fuzzes it with coverage.
with atheris.instrument_imports(include=["engine"], exclude=["engine.punycode"]) \
        if __name__ == "__main__" else contextlib.nullcontext():
    import engine
    from properties import independent, invariants

MODES = sorted(engine.PERCENT_ENCODE_SETS) + ["decode"]


def check(data: bytes) -> None:
    r = Reader(data)
    mode = r.choice(MODES)
    if mode == "decode":
        invariants.check_percent_decode(r.rest_bytes())
    else:
        text = r.rest()
        invariants.check_percent_roundtrip(text, mode)
        independent.check_percent_encode_against_urllib(text, mode)


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    independent.say_what_is_missing("fuzz_percent")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
