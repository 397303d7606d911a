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

import os
import pathlib
import shlex
import sys
import tempfile
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
    """``data`` into ``path`` by a temporary file in its folder and ``os.replace``."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        pathlib.Path(tmp).unlink(missing_ok=True)
        raise
    return path


def emit(args, findings: Callable[[], Iterable[dict]], command: str,
         out: pathlib.Path | None = None) -> list[pathlib.Path]:
    """Write ``--sarif`` and ``--junit`` (those given) from the records ``findings()`` returns
    (``finding-v1``, each checked; called only when a flag was given, so a command run without
    them builds no records); ``command``: the urlwb command that produced them (``diff``...);
    ``out``: its report folder, whose ``findings.jsonl`` a SARIF result without a filed entry
    points at. Prints one ``report:`` line per file written; returns their paths."""
    sarif_path = getattr(args, "sarif", None)
    junit_path = getattr(args, "junit", None)
    if sarif_path is None and junit_path is None:
        return []
    from urlwb.findings.record import FINDINGS_FILE, check
    from urlwb.report_formats import junit, sarif

    records = [check(r) for r in findings()]
    written = []
    if sarif_path is not None:
        where = sarif.relative(str(pathlib.Path(out) / FINDINGS_FILE)) if out is not None else FINDINGS_FILE
        line = "urlwb " + shlex.join(sys.argv[1:]) if sys.argv[1:2] == [command] else None
        written.append(write_atomic(sarif_path, sarif.dumps(sarif.sarif_log(records, command, where,
                                                                            command_line=line))))
    if junit_path is not None:
        written.append(write_atomic(junit_path, junit.junit_xml(records, command)))
    for path in written:
        print(f"report: {path}")
    return written
