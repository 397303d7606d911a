#!/usr/bin/env python3
"""Mine the readings a parser's owner asserts in its own test suite, mechanically, into
``urlwb/verdicts/owner_tests/<parser>.json`` (issue 34, part 2).

    python scripts/mine_owner_tests.py urllib [--check]

How: the owner's test module, as it ships with the release (CPython's ``Lib/test``), is run
with unittest while the parser's API functions (``MINERS``) are wrapped: every call made
directly from the test file (not from inside the library) records the input, the base, the
call site (file:line) and the parser's answer read through its public attributes; calls made by
a test that did not pass are dropped. What is kept is behaviour a passing owner test exercised at
that release: the test compares the answer (``assertEqual`` of the result or its attributes,
``assertRaises``), which is why the call is in the test. A call whose answer the test does not
look at would be kept too; the verdict cites the line, where a reader sees the assertion.

``--check``: mine again and fail (exit 1) when the stored file differs (same release only).
"""

from __future__ import annotations

import argparse
import importlib
import json
import pathlib
import sys
import unittest
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

OUT = ROOT / "urlwb" / "verdicts" / "owner_tests"


def _urllib_reading(s) -> dict:
    """A ``SplitResult`` through its public attributes, named as the oracle protocol's fields
    (``hostname`` is ``host``; nothing else renamed, nothing normalized)."""
    try:
        port = s.port
    except ValueError as exc:
        return {"failure": f"ValueError: {exc}"}
    return {"scheme": s.scheme, "username": s.username, "password": s.password, "host": s.hostname,
            "port": port, "path": s.path, "query": s.query, "fragment": s.fragment}


def _urllib_miner():
    """(module, the functions to wrap as (owner, name, how), the release, provenance)."""
    version = sys.version.split()[0]
    return {"module": "test.test_urlparse", "release": version,
            "provenance": {"repo": "python/cpython", "path": "Lib/test/test_urlparse.py", "tag": f"v{version}",
                           "shipped": "the interpreter's own Lib/test (import test.test_urlparse)"},
            "calls": [(urllib.parse, "urlsplit", "split"), (urllib.parse, "urljoin", "join")],
            "read": _urllib_reading, "split": urllib.parse.urlsplit}


MINERS = {"urllib": _urllib_miner}


def mine(parser: str) -> dict:
    spec = MINERS[parser]()
    module = importlib.import_module(spec["module"])
    test_file = pathlib.Path(module.__file__).resolve()
    read, split = spec["read"], spec["split"]
    cases: list[tuple[str, dict]] = []   # (test id, case)
    current = {"test": None}

    def site(frame) -> str:
        """The outermost line of the test file on the stack: the test method's own line, not a
        helper's (``checkJoin``) that every case passes through."""
        line = frame.f_lineno
        while frame is not None and pathlib.Path(frame.f_code.co_filename).resolve() == test_file:
            line, frame = frame.f_lineno, frame.f_back
        return f"{spec['provenance']['path']}:{line}"

    def wrap(owner, name, how):
        original = getattr(owner, name)

        def recorder(*args, **kwargs):
            caller = sys._getframe(1)
            # the adapter's call only: urlsplit(url) (a second argument is a default scheme the
            # adapter never passes), urljoin(base, url); str, not bytes
            mine_it = (pathlib.Path(caller.f_code.co_filename).resolve() == test_file and not kwargs
                       and len(args) == (2 if how == "join" else 1) and all(isinstance(a, str) for a in args))
            try:
                out = original(*args, **kwargs)
            except ValueError as exc:
                if mine_it:
                    base, input = (args[0], args[1]) if how == "join" else (None, args[0])
                    cases.append((current["test"], {"input": input, "base": base,
                                                    "at": site(caller),
                                                    "call": name, "reading": {"failure": f"ValueError: {exc}"}}))
                raise
            if mine_it:
                base, input = (args[0], args[1]) if how == "join" else (None, args[0])
                reading = read(split(out) if how == "join" else out)
                cases.append((current["test"], {"input": input, "base": base,
                                                "at": site(caller),
                                                "call": name, "reading": reading}))
            return out
        setattr(owner, name, recorder)
        return owner, name, original

    class Result(unittest.TestResult):
        def startTest(self, test):
            current["test"] = test.id()
            super().startTest(test)

    undo = [wrap(*c) for c in spec["calls"]]
    try:
        suite = unittest.defaultTestLoader.loadTestsFromModule(module)
        result = Result()
        suite.run(result)
    finally:
        for owner, name, original in undo:
            setattr(owner, name, original)
    failed = {t.id() for t, _ in result.failures + result.errors + result.skipped}
    kept, seen = [], set()
    for test, case in cases:
        if test in failed:
            continue
        key = (case["input"], case["base"], case["at"])
        if key not in seen:
            seen.add(key)
            kept.append(case)
    return {"parser": parser, "release": spec["release"], "provenance": spec["provenance"],
            "mined_by": "scripts/mine_owner_tests.py " + parser,
            "tests": {"run": result.testsRun, "not passed": len(failed)},
            "cases": kept}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("parser", choices=sorted(MINERS))
    p.add_argument("--check", action="store_true")
    args = p.parse_args()
    data = mine(args.parser)
    path = OUT / f"{args.parser}.json"
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    if args.check:
        stored = json.loads(path.read_text(encoding="utf-8"))
        if stored["release"] != data["release"]:
            print(f"{path}: mined at {stored['release']}, this is {data['release']}: not compared")
            return 0
        same = stored["cases"] == data["cases"]
        print(f"{path}: {len(data['cases'])} cases, {'as stored' if same else 'DIFFERENT from the stored file'}")
        return 0 if same else 1
    path.write_text(text, encoding="utf-8")
    print(f"{path}: {len(data['cases'])} cases from {data['tests']['run']} tests "
          f"({data['tests']['not passed']} not passed, their calls dropped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
