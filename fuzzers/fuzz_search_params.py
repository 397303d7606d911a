#!/usr/bin/env python3
"""Fuzz target ``search_params``: URLSearchParams, an init string then a sequence of operations.

Invariant (properties/invariants/, check_search_params): ``URLSearchParams(init)`` behaves like
a plain list of pairs under every method (append, delete by name or name and value, get, get_all,
has, set, sort, size, iteration, str()): its answers, list, size and string equal the model's
after every operation; and ada's ``URLSearchParams`` given the same operations answers the same
(properties/independent.py).

Input: a length-prefixed text (the init string), a trailing count of operations, then per
operation a trailing choice of method and its arguments as length-prefixed texts.
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

# engine.punycode, RFC 3492's codec, is not instrumented here: fuzz_idna fuzzes it with coverage.
with atheris.instrument_imports(include=["engine"], exclude=["engine.punycode"]) \
        if __name__ == "__main__" else contextlib.nullcontext():
    from properties import independent, invariants

#: method -> number of text arguments it takes
OPS = {"append": 2, "delete": 1, "delete_value": 2, "get": 1, "get_all": 1, "has": 1,
       "has_value": 2, "set": 2, "sort": 0, "size": 0, "iter": 0, "str": 0}
METHODS = tuple(OPS)
MAX_OPS = 6


def operation(r: Reader) -> tuple:
    method = r.choice(METHODS)
    args = tuple(r.text(r.length()) for _ in range(OPS[method]))
    return (method.removesuffix("_value"),) + args


def check(data: bytes) -> None:
    r = Reader(data)
    init = r.text(r.length())
    ops = [operation(r) for _ in range(r.integer(0, MAX_OPS))]
    invariants.check_search_params(init, ops)
    independent.check_search_params_against_ada(init, ops)


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    independent.say_what_is_missing("fuzz_search_params")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
