#!/usr/bin/env python3
"""Fuzz target ``properties``: the Hypothesis properties (properties/test_*.py) under coverage
guidance, through ``test.hypothesis.fuzz_one_input``.

Invariant: every property holds, whatever the fuzzer's bytes make its strategies draw (the
properties assert the invariants of properties/invariants/); only engine.Failure escapes the
engine. A failing example is also saved to the Hypothesis example database, from which
``urlwb export-hypothesis`` files it as a self-describing regression entry.

Input: a property record (properties/replay.py, ``urlwb-property`` then JSON) is replayed as
is. Any other input is a Hypothesis buffer: with ``--property=NAME`` (or URLWB_PROPERTY=NAME)
the whole input drives property NAME, and crash artifacts replay with the same setting;
without it, the last byte chooses the property (modulo their number, in name order) and the
rest drives it. ``--list`` prints the property names.
"""
import contextlib
import os
import sys

import atheris

PROPERTY_ENV = "URLWB_PROPERTY"

# engine.punycode, RFC 3492's codec, is not instrumented here: fuzz_idna fuzzes it with coverage.
with atheris.instrument_imports(include=["engine"], exclude=["engine.punycode"]) \
        if __name__ == "__main__" else contextlib.nullcontext():
    import engine  # noqa: F401  (instrumented before the properties import it)

from hypothesis import settings  # noqa: E402

from properties import profiles, replay  # noqa: E402
from urlwb.fuzzing import signatures as signing  # noqa: E402

profiles.register_profiles()
settings.load_profile("dev")  # failures go to the example database export-hypothesis reads
PROPERTIES = dict(sorted(replay.given_properties().items()))
_NAMES = tuple(PROPERTIES)


def check(data: bytes) -> None:
    if data.startswith(replay.MAGIC):
        replay.replay(data)
        return
    name = os.environ.get(PROPERTY_ENV)
    if not name:
        if not data:
            return
        name, data = _NAMES[data[-1] % len(_NAMES)], data[:-1]
    PROPERTIES[name].hypothesis.fuzz_one_input(data)


def signatures(data: bytes) -> list[tuple[str, str, str]]:
    """A property record fails under its property's name (urlwb.fuzzing.signatures.of_property), with
    the kind export-hypothesis files it under; other inputs are signed from the traceback."""
    decoded = replay.decode_record(data)
    if decoded is None:
        found = signing.of_check(check, data)
        return [found] if found else []
    return signing.of_property_replay(replay.replay, decoded[0], data)


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    args = [a for a in sys.argv if not a.startswith("--property=") and a != "--list"]
    for arg in sys.argv[1:]:
        if arg == "--list":
            print("\n".join(_NAMES))
            return
        if arg.startswith("--property="):
            name = arg.split("=", 1)[1]
            if name not in PROPERTIES:
                sys.exit(f"fuzz_properties: unknown property {name!r} (see --list)")
            os.environ[PROPERTY_ENV] = name  # inherited by libFuzzer's -fork/-jobs children
    atheris.Setup(args, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
