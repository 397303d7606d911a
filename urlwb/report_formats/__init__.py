"""Findings as the formats CI tools read: SARIF 2.1.0 (GitHub code scanning, any SARIF viewer) and
JUnit XML (Jenkins, GitLab, CircleCI test reports).

Both are rendered from the one findings record (:mod:`urlwb.findings.record`, ``finding-v1``),
never from a command's own report: :func:`urlwb.report_formats.sarif.sarif_log` and
:func:`urlwb.report_formats.junit.junit_xml` take a list of records. A command that reports
findings adds the two flags with :func:`add_arguments` and at its end calls :func:`emit` with a
function that builds its records (``urlwb campaign``, ``diff``, ``ssrf``, ``hunt``, ``growth``:
each room's ``finding_records``). docs/ci.md shows a
run and the schemas the tests hold both files to (``tests/schemas/``).
"""

from __future__ import annotations

import pathlib
import shlex
import sys
from collections.abc import Callable, Iterable

__all__ = ["add_arguments", "emit", "write_atomic"]


def add_arguments(p) -> None:
    """``--sarif FILE`` and ``--junit FILE`` on a command's argparse parser."""
    p.add_argument("--sarif", type=pathlib.Path, default=None, metavar="FILE",
                   help="also write the findings as SARIF 2.1.0 (GitHub code scanning): one result "
                        "per finding, level error for a bug, warning for a hazard")
    p.add_argument("--junit", type=pathlib.Path, default=None, metavar="FILE",
                   help="also write the findings as JUnit XML (CI test reports): one test case "
                        "per finding, a failure for a bug, skipped for a hazard")


def write_atomic(path: pathlib.Path, data: bytes) -> pathlib.Path:
    """``data`` into ``path``, whole or not at all, with the mode the process's umask gives
    (:func:`urlwb.corpus_store.atomic_write`; a bare ``mkstemp`` file would stay 0600)."""
    from urlwb import corpus_store   # imported here to keep --help light

    path = pathlib.Path(path)
    corpus_store.atomic_write(path, data)
    return path


def emit(args, findings: Callable[[], Iterable[dict]], command: str,
         out: pathlib.Path | None = None, *, sorted_=None, status: int = 0,
         notes: Iterable[str] = ()) -> list[pathlib.Path]:
    """Write ``--sarif`` and ``--junit`` (those given) from the records ``findings()`` returns
    (``finding-v1``, each checked; called only when a flag was given, so a command run without
    them builds no records); ``command``: the urlwb command that produced them (``diff``...);
    ``out``: its report folder, whose ``findings.jsonl`` a SARIF result without a filed entry
    points at; ``sorted_``, ``status``, ``notes``: the baseline's verdicts, the exit status and
    what could not be done (:func:`urlwb.exitcodes.conclude`). Prints one ``report:`` line per
    file written; returns their paths."""
    sarif_path = getattr(args, "sarif", None)
    junit_path = getattr(args, "junit", None)
    if sarif_path is None and junit_path is None:
        return []
    from urlwb.findings.record import FINDINGS_FILE, check
    from urlwb.report_formats import junit, sarif

    records = [check(r) for r in findings()]
    written = []
    if sarif_path is not None:
        where = (sarif.artifact(pathlib.Path(out) / FINDINGS_FILE, report_dir=out) if out is not None
                 else FINDINGS_FILE)
        line = "urlwb " + shlex.join(sys.argv[1:]) if sys.argv[1:2] == [command] else None
        written.append(write_atomic(sarif_path, sarif.dumps(sarif.sarif_log(
            records, command, where, command_line=line, sorted_=sorted_, status=status, notes=notes))))
    if junit_path is not None:
        written.append(write_atomic(junit_path, junit.junit_xml(records, command, sorted_=sorted_,
                                                              fail_on=getattr(args, "fail_on", "bug"))))
    for path in written:
        print(f"report: {path}")
    return written
