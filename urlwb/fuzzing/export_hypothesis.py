"""``urlwb export-hypothesis``: file the Hypothesis example database's failures as regression
entries.

https://hypothesis.readthedocs.io/en/latest/reference/api.html#database

For every property (properties/replay.py) and state machine (properties/machines.py), the failing examples Hypothesis saved (its primary
key: the shrunk failures of dev and nightly runs; failing that, the ``.secondary`` key, where
``fuzz_one_input`` in fuzzers/fuzz_properties.py saves what it finds) are replayed once to
recover their arguments, written as a property record, run again in a fresh interpreter to see
whether and how it still fails, and filed with ``corpus_store.record_finding`` under target ``properties``, the sidecar
naming the property. Examples that pass now are reported, not filed. The database is only read.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys
import tempfile

from hypothesis import HealthCheck, Phase, settings
from hypothesis.database import (DirectoryBasedExampleDatabase, InMemoryExampleDatabase,
                                 ReadOnlyDatabase)
from hypothesis.internal.reflection import function_digest
from hypothesis.stateful import run_state_machine_as_test

from properties import machines, profiles, replay
from urlwb import children, corpus_store
from urlwb.fuzzing import signatures
from urlwb.errors import UsageError
from urlwb.findings import sidecar

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
    """Run a property record in a fresh interpreter: (fails, exception type, the exception's
    first line, "Type: message"), as fuzz_properties.signatures reads a failure in-process."""
    with tempfile.NamedTemporaryFile(suffix=".record") as f:
        f.write(data)
        f.flush()
        proc = children.run([sys.executable, "-c", _REPLAY, f.name], capture_output=True,
                              text=True, errors="replace", timeout=300)
    if proc.returncode == 0:
        return False, "", ""
    exc = signatures.parse_traceback(proc.stderr)[1]
    first = exc.splitlines()[0] if exc else f"exit status {proc.returncode}"
    exc_type = first.split(":", 1)[0].rsplit(".", 1)[-1] if ":" in first else first
    return True, exc_type, first


def failing_machine_run(machine, database) -> tuple[str, dict, dict] | None:
    """The shrunk failing run a state machine saved in ``database``, replayed once (read-only)
    to recover its record: (machine name, replayer arguments, extra sidecar fields), or None
    when the database holds no failing run of it."""
    machines.FINAL_RUN = None
    try:
        run_state_machine_as_test(machine, settings=settings(
            database=ReadOnlyDatabase(database), phases=[Phase.reuse], deadline=None,
            max_examples=10, suppress_health_check=list(HealthCheck)))
    except Exception:  # noqa: BLE001 - the machine's failure, of whatever type: it is replayed below
        return machines.FINAL_RUN
    return None


def file_record(name: str, data: bytes, extra: dict, dry_run: bool = False) -> str:
    """Replay a property record in a fresh interpreter and file it when it fails (a machine's
    run that passes there is filed as "unreproducible": it failed in the process that found it).
    What happened, as one word: passing, planned, known or filed."""
    fails, exc_type, detail = replay_verdict(data)
    if not fails:
        if name not in machines.MACHINE_REPLAYERS:
            return "passing"
        exc_type, detail = "unreproducible", (
            f"{name} failed on {decode_record_args(data)!r}, but its replay through "
            f"{machines.MACHINE_REPLAYERS[name].__name__} passes")
    if dry_run:
        print(f"would file: {name}: {detail}"[:300])
        return "planned"
    kind = {"AssertionError": "invariant", "unreproducible": "unreproducible"}.get(exc_type,
                                                                                  "exception")
    path = corpus_store.record_finding(TARGET, data, signature=signatures.of_property(
        name, exc_type, detail), kind=kind, detail=detail, extra={"property": name, **extra},
        shape=sidecar.shape)
    if path is None:
        return "known"
    print(f"filed {path}: {name}: {detail}"[:300])
    return "filed"


def decode_record_args(data: bytes) -> dict:
    return replay.decode_record(data)[1]


def run(args) -> int:
    path = pathlib.Path(args.database) if args.database else profiles.DATABASE_PATH
    if not path.is_dir():
        print(f"export-hypothesis: no example database at {path}; nothing to export")
        return 0
    database = DirectoryBasedExampleDatabase(str(path))
    tests = replay.given_properties()
    if args.property:
        unknown = sorted(set(args.property) - set(tests) - set(machines.MACHINE_REPLAYERS))
        if unknown:
            raise UsageError(f"unknown property {unknown[0]!r} "
                             f"(python fuzzers/fuzz_properties.py --list names them)")
        tests = {name: tests[name] for name in args.property if name in tests}
    machine_classes = {m.__name__: m for m in (machines.URLSetterMachine,
                                               machines.SearchParamsMachine, machines.HostMachine)}
    if args.property:
        machine_classes = {n: m for n, m in machine_classes.items() if n in args.property}
    counts = {"filed": 0, "known": 0, "passing": 0, "planned": 0}
    source = {"source": "hypothesis example database"}
    for name, test in sorted(tests.items()):
        for kwargs in failing_arguments(test, database):
            outcome = file_record(name, replay.encode_record(name, kwargs), source, args.dry_run)
            if outcome == "passing":
                print(f"passes now, not filed: {name} {kwargs!r}"[:300])
            counts[outcome] += 1
    for name, machine in sorted(machine_classes.items()):
        run_ = failing_machine_run(machine, database)
        if run_ is not None:
            machine_name, machine_args, extra = run_
            counts[file_record(machine_name, replay.encode_record(machine_name, machine_args),
                               {**source, **extra}, args.dry_run)] += 1
    filed, known, passing = counts["filed"], counts["known"], counts["passing"]
    print(f"export-hypothesis: {filed} filed, {known} already filed, {passing} passing now")
    return 0
