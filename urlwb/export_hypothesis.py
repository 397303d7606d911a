"""``urlwb export-hypothesis``: file the Hypothesis example database's failures as regression
entries.

https://hypothesis.readthedocs.io/en/latest/reference/api.html#database

For every property (properties/replay.py), the failing examples Hypothesis saved (its primary
key: the shrunk failures of dev and nightly runs; failing that, the ``.secondary`` key, where
``fuzz_one_input`` in fuzzers/fuzz_properties.py saves what it finds) are replayed once to
recover their arguments, written as a property record, run again in a fresh interpreter to see
whether and how it still fails, and filed with ``corpus_store.record_finding`` under target ``properties``, the sidecar
naming the property. Examples that pass now are reported, not filed. The database is only read.
"""

from __future__ import annotations

import subprocess
import sys

from urlwb.cli import UsageError

TARGET = "properties"
_REPLAY = ("import sys; from properties import replay; "
           "replay.replay(open(sys.argv[1], 'rb').read())")


def add_arguments(parser) -> None:
    parser.add_argument("--database", metavar="DIR",
                        help="the example database (default: .hypothesis/examples at the root)")
    parser.add_argument("--property", action="append", metavar="NAME",
                        help="only this property (repeatable; default: all)")
    parser.add_argument("--dry-run", action="store_true",
                        help="show what would be filed, file nothing")


def failing_arguments(test, database) -> list[dict]:
    """The arguments of the examples saved for ``test`` (a @given function) in ``database``,
    recovered by replaying them through a recording stand-in for the test body."""
    from hypothesis import Phase, settings
    from hypothesis.database import InMemoryExampleDatabase
    from hypothesis.internal.reflection import function_digest

    inner = test.hypothesis.inner_test
    key = getattr(test, "_hypothesis_internal_database_key", None) or function_digest(inner)
    # The primary key holds the shrunk failures; the secondary key, the failures met on the way
    # and those fuzz_one_input saved. Secondary entries count only while no shrunk one exists
    # (a test run with the dev profile replays and shrinks them into the primary key).
    entries = list(database.fetch(key)) or list(database.fetch(key + b".secondary"))
    if not entries:
        return []
    copy = InMemoryExampleDatabase()  # the replay may prune entries: never the real database
    for entry in entries:
        copy.save(key, entry)
    captured: list[dict] = []
    saved = (test._hypothesis_internal_use_settings,
             getattr(test, "_hypothesis_internal_database_key", None))
    test.hypothesis.inner_test = lambda *args, **kwargs: captured.append(kwargs)
    test._hypothesis_internal_database_key = key
    test._hypothesis_internal_use_settings = settings(
        saved[0], database=copy, phases=[Phase.reuse], max_examples=max(1, len(entries)),
        derandomize=False, deadline=None)
    try:
        test()
    finally:
        test.hypothesis.inner_test = inner
        test._hypothesis_internal_use_settings = saved[0]
        if saved[1] is None:
            del test._hypothesis_internal_database_key
        else:
            test._hypothesis_internal_database_key = saved[1]
    unique = []
    for kwargs in captured:
        if kwargs not in unique:
            unique.append(kwargs)
    return unique


def replay_verdict(data: bytes) -> tuple[bool, str, str]:
    """Run a property record in a fresh interpreter: (fails, exception type, last line)."""
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".record") as f:
        f.write(data)
        f.flush()
        proc = subprocess.run([sys.executable, "-c", _REPLAY, f.name], capture_output=True,
                              text=True, errors="replace", timeout=300)
    if proc.returncode == 0:
        return False, "", ""
    lines = [line for line in proc.stderr.splitlines() if line and not line.startswith(" ")]
    last = lines[-1] if lines else f"exit status {proc.returncode}"
    exc_type = last.split(":", 1)[0] if ":" in last else last
    return True, exc_type, last


def signature(prop: str, exc_type: str, detail: str) -> str:
    """Property, exception type and the shape of the message (quoted values and numbers
    elided): failures of one clause of one invariant share it, whatever their inputs."""
    import re

    shape = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "…", detail)
    shape = re.sub(r"\d+", "N", shape.split(":", 1)[-1]).strip()
    return f"{prop}:{exc_type}:{shape[:120]}"


def run(args) -> int:
    import pathlib

    from hypothesis.database import DirectoryBasedExampleDatabase

    from properties import profiles, replay
    from urlwb import corpus_store

    path = pathlib.Path(args.database) if args.database else profiles.DATABASE_PATH
    if not path.is_dir():
        print(f"export-hypothesis: no example database at {path}; nothing to export")
        return 0
    database = DirectoryBasedExampleDatabase(str(path))
    tests = replay.given_properties()
    if args.property:
        unknown = sorted(set(args.property) - set(tests))
        if unknown:
            raise UsageError(f"unknown property {unknown[0]!r} "
                             f"(python fuzzers/fuzz_properties.py --list names them)")
        tests = {name: tests[name] for name in args.property}
    filed = known = passing = 0
    for name, test in sorted(tests.items()):
        for kwargs in failing_arguments(test, database):
            data = replay.encode_record(name, kwargs)
            fails, exc_type, detail = replay_verdict(data)
            if not fails:
                passing += 1
                print(f"passes now, not filed: {name} {kwargs!r}"[:300])
                continue
            if args.dry_run:
                print(f"would file: {name}: {detail}"[:300])
                continue
            kind = "invariant" if exc_type == "AssertionError" else "exception"
            path_ = corpus_store.record_finding(
                TARGET, data, signature=signature(name, exc_type, detail), kind=kind,
                detail=detail,
                extra={"property": name, "source": "hypothesis example database"})
            if path_ is None:
                known += 1
            else:
                filed += 1
                print(f"filed {path_}: {name}: {detail}"[:300])
    print(f"export-hypothesis: {filed} filed, {known} already filed, {passing} passing now")
    return 0
