#!/usr/bin/env python3
"""The atheris child of ``urlwb hunt``: one Python parser under libFuzzer, guided by its own code.

Invariant: none is checked here. Each execution gives the input's text (a hunt corpus file: UTF-8,
no base) to the parser through its oracle (``urlwb.oracles``), exactly as the differential asks
it; the oracle turns the parser's documented rejection into a failure and anything else it raises
into a crash record, so nothing stops the fuzzer but a hang or a signal. What libFuzzer keeps
(inputs that reach new code of the parser) is judged by the Standard in the parent
(``urlwb.hunt.judge``), in batches, by the differential itself.

Only the parser's own code is instrumented: every function whose code lives in a file of the
modules named (a package: every file under it), found after the import among live function
objects (``atheris.instrument_func``, which also reaches functions nested in them), so modules the
standard library imported before atheris started (``urllib.parse``) are covered too, and neither
the engine nor the workbench is. The parser, the oracles the user declared and the modules come
from the environment (``URLWB_HUNT_PARSER``, ``URLWB_HUNT_ORACLES``: a JSON list of ``--oracle``
flags, ``URLWB_HUNT_INSTRUMENT``: comma-separated modules), so that libFuzzer's ``-merge`` children
(which re-execute this file) are the same target.
"""
import gc
import importlib
import importlib.util
import json
import os
import pathlib
import sys
import types

import atheris

from urlwb import oracles
from urlwb.fuzzdata import decode_text


def module_files(names: list[str]) -> set[str]:
    """The source files of the named modules (every ``.py`` under a package's folder), found
    without importing them (their parent packages are imported)."""
    files = set()
    for name in names:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            raise SystemExit(f"atheris_target: {name}: no Python source to instrument")
        path = pathlib.Path(spec.origin).resolve()
        if spec.submodule_search_locations:
            files.update(str(p) for p in path.parent.rglob("*.py"))
        else:
            files.add(str(path))
    return files


def instrument(files: set[str]) -> int:
    """Instrument every live function whose code is in ``files``; how many."""
    count = 0
    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType):
            try:
                name = str(pathlib.Path(obj.__code__.co_filename).resolve())
            except (OSError, ValueError):
                continue
            if name in files:
                atheris.instrument_func(obj)
                count += 1
    return count


def load() -> oracles.Oracle:
    name = os.environ["URLWB_HUNT_PARSER"]
    oracles.configure(json.loads(os.environ.get("URLWB_HUNT_ORACLES", "[]")), config=False)
    loaded, skipped = oracles.load([name])
    if name not in loaded:
        print(f"atheris_target: {name} cannot start: {skipped.get(name)}", file=sys.stderr)
        sys.exit(2)
    return loaded[name]


def main() -> None:
    oracle = load()
    modules = [m for m in os.environ.get("URLWB_HUNT_INSTRUMENT", "").split(",") if m]
    count = instrument(module_files(modules))
    print(f"atheris_target: {count} functions of {', '.join(modules)} instrumented", file=sys.stderr)
    to_usv, parse = oracles.to_usv, oracle.parse

    def TestOneInput(data: bytes) -> None:
        parse(to_usv(decode_text(data)), None)

    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
