#!/usr/bin/env python3
"""Fuzz target ``encodings``: percent-encode after encoding, for every legacy encoding and set.

Invariant (properties/invariants/, check_percent_encode_after_encoding): for any string,
encoding and percent-encode set the Standard allows together (UTF-8 with any set, a legacy
encoding with special-query or form), ``percent_encode_after_encoding`` returns only ASCII with
no member of the set unencoded; with UTF-8 it equals ``utf8_percent_encode``; ASCII input (but
ISO-2022-JP's escapes) encodes as in UTF-8; a stateless encoder encodes a concatenation as the
concatenation of the encodings. And (properties/independent.py, check_encoding_against_reference)
the output is the one the Encoding Standard's encoder gives, written from the Standard in
properties/reference_encoding.py.

Input: the text, then two trailing choices: the encoding, then the percent-encode set.
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

ENCODINGS = sorted(set(engine.LEGACY_ENCODINGS) | {"utf-8"})
SETS = sorted(engine.PERCENT_ENCODE_SETS)


def check(data: bytes) -> None:
    r = Reader(data)
    encoding = r.choice(ENCODINGS)
    set_name = r.choice(SETS)
    text = r.rest()
    invariants.check_percent_encode_after_encoding(encoding, text, set_name)
    independent.check_encoding_against_reference(encoding, text, set_name)


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    independent.say_what_is_missing("fuzz_encodings")
    # Build every encoder's lazily cached table now, not inside the first timed inputs.
    for encoding in ENCODINGS:
        engine.percent_encode_after_encoding(encoding, "\u2020\u00e9\u3000\U00020000",
                                             engine.SPECIAL_QUERY_PERCENT_ENCODE_SET)
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
