#!/usr/bin/env python3
"""Fuzz target ``urlencoded``: the application/x-www-form-urlencoded parser and serializer.

Invariants (properties/invariants/):
- check_urlencoded_parse: any bytes parse (never failure), and serializing the pairs and
  parsing again gives the same pairs;
- check_urlencoded_roundtrip: parsing the serialization of any list of pairs gives it back;
- check_urlencoded_against_parse_qsl (properties/independent.py): the bytes read as UTF-8 parse
  to ``urllib.parse.parse_qsl``'s pairs.

Input: a trailing choice "parse" (the raw bytes go to the parser) or "pairs" (a trailing count,
then per pair two length-prefixed texts: name, value).
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

# engine.punycode, RFC 3492's codec, is not instrumented here: fuzz_idna fuzzes it with coverage.
with atheris.instrument_imports(include=["engine"], exclude=["engine.punycode"]) \
        if __name__ == "__main__" else contextlib.nullcontext():
    from properties import independent, invariants

MODES = ("parse", "pairs")
MAX_PAIRS = 8


def check(data: bytes) -> None:
    r = Reader(data)
    if r.choice(MODES) == "parse":
        data = r.rest_bytes()
        invariants.check_urlencoded_parse(data)
        independent.check_urlencoded_against_parse_qsl(data.decode("utf-8", "replace"))
        return
    pairs = [(r.text(r.length()), r.text(r.length())) for _ in range(r.integer(0, MAX_PAIRS))]
    invariants.check_urlencoded_roundtrip(pairs)


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    independent.say_what_is_missing("fuzz_urlencoded")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
