"""The exit status of every ``urlwb`` command: one contract, here once (docs/cli.md, "Exit status").

====  ==========================================================================================
0     the run completed, and nothing it found is at or above ``--fail-on`` (default ``bug``)
1     the run completed, and it found something at or above ``--fail-on``: a new finding (not in
      ``--baseline``, not suppressed by ``[[tool.urlwb.ignore]]``), or, for a command that checks
      rather than hunts, a check that failed (a regress entry, an adapter, a difference)
2     a usage or configuration error: nothing ran, or what ran cannot answer the question asked
3     the run could not complete: an oracle, validator or client could not start, a round or a
      ``--run`` suite failed to run, a measurement failed
====  ==========================================================================================

A command that reports findings ends with :func:`conclude`, which sorts its records by the baseline
and the ignore entries (:mod:`urlwb.findings.baseline`), prints the tally, writes ``--sarif`` and
``--junit`` (whose ``executionSuccessful`` follows this contract) and returns the status. A run
that cannot go on raises :class:`Incomplete`, which ``urlwb.cli.main`` turns into 3 and one line,
as it turns a :class:`~urlwb.errors.UsageError` into 2. ``tests/workbench/test_exit_status.py``
holds every command to this.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
from collections.abc import Iterable

from urlwb import report_formats
from urlwb.errors import Incomplete, UsageError
from urlwb.findings import baseline as baselines
from urlwb.findings.baseline import fails
from urlwb.findings.record import KINDS, check
from urlwb.report_formats.text import ordered

OK, FINDINGS = 0, 1
#: the statuses of the two failures a command reports in one line (urlwb.errors)
USAGE, INCOMPLETE = UsageError.status, Incomplete.status
#: --fail-on's levels, from the most to the least that fails: a hazard is below a bug
FAIL_ON = ("hazard", "bug", "never")
DEFAULT_FAIL_ON = "bug"


#: every command -> (what makes it 1, what makes it 3); 0 is "none of that", 2 a usage error, for
#: all. docs/cli.md shows this table; tests/workbench/test_exit_status.py holds both to the commands.
COMMANDS: dict[str, tuple[str, str]] = {
    "campaign": ("a new regress entry the round filed, at or above --fail-on (the other open entries are its baseline)",
                 "a round failed (its traceback in the report)"),
    "fuzz": ("a new finding triaged from the run", "—"),
    "triage": ("a new finding", "—"),
    "minimize": ("—", "—"),
    "replay": ("an entry that fails its check (or an open entry that now passes, without --mark-fixed)", "—"),
    "merge": ("—", "a target's merge failed"),
    "list": ("—", "—"),
    "coverage": ("—", "—"),
    "diff": ("a new finding at or above --fail-on (an oracle that crashed or hung on an input is one)",
             "an oracle of yours, or every parser, could not start"),
    "oracle": ("an adapter that breaks the protocol", "—"),
    "export-wpt": ("—", "—"),
    "export-hypothesis": ("—", "—"),
    "export": ("an exported test fails on a --run release (the finding holds there)",
               "a --run suite did not build or run"),
    "bench": ("—", "—"),
    "bench-fuzz": ("—", "—"),
    "compare-rev": ("an answer that differs from the revision's", "—"),
    "mutants": ("a listed equivalent or survivor that is not one", "the unmutated engine fails its own checks"),
    "bisect": ("—", "no release could be asked"),
    "cache": ("—", "—"),
    "ssrf": ("a new finding at or above --fail-on (a bypass, or a validator that crashed, hung or answered out of schema)",
             "a validator named, or every validator or fetcher, could not start"),
    "reach": ("—", "a measurement failed"),
    "growth": ("a new finding at or above --fail-on (an already filed one too: --baseline says what is not new)", "—"),
    "hunt": ("a new finding at or above --fail-on", "the parser's oracle could not start"),
    "verdict": ("a verdict at or above --fail-on (--headline: never)", "a parser named could not start"),
    "upstream": ("—", "—"),
}


def add_fail_on(p) -> None:
    """``--fail-on LEVEL``: the least verdict a new finding needs to make the exit status 1."""
    p.add_argument("--fail-on", choices=FAIL_ON, default=DEFAULT_FAIL_ON, metavar="LEVEL",
                   help="exit status 1 when a new finding is at least this: bug, hazard (any "
                        "finding) or never (default %(default)s; docs/cli.md, Exit status)")


def add_arguments(p) -> None:
    """``--fail-on`` and ``--baseline FILE`` on a command that reports findings."""
    add_fail_on(p)
    p.add_argument("--baseline", type=pathlib.Path, default=None, metavar="FILE",
                   help="a previous run's findings.jsonl (or its folder) or SARIF log: findings "
                        "whose cause is in it are unchanged, not new, and do not fail the run")


def prepare(args: argparse.Namespace) -> None:
    """Before the command runs (``urlwb.cli.main``): read ``--baseline`` and the ignore entries,
    so that a bad file is exit 2 at once, not after an hour's run. A command without
    ``--baseline`` (verdict: one input, judged now) reads neither."""
    if not hasattr(args, "baseline"):
        return
    args.baseline_keys = None if args.baseline is None else baselines.load_baseline(args.baseline)
    args.ignores = baselines.load_ignores()


def conclude(args, records: Iterable[dict], command: str, out: pathlib.Path | None = None, *,
             known: Iterable[str] = (), incomplete: Iterable[str] = ()) -> int:
    """The end of a command that reports findings: ``records`` (``finding-v1``, one kept per
    signature) sorted into new, unchanged and suppressed; the tally printed; ``--sarif`` and
    ``--junit`` written; the exit status returned. ``known``: causes the command itself counts as
    already reported (the campaign's open regress entries other than the round's); ``incomplete``:
    what could not be done (one line each on stderr; the status is then 3)."""
    if not hasattr(args, "baseline_keys"):
        prepare(args)
    records = ordered(check(r) for r in records)
    keys = getattr(args, "baseline_keys", None)
    known = set(known)
    if known:
        keys = (keys or set()) | known
    sorted_ = baselines.sort(records, keys, getattr(args, "ignores", []))
    fail_on = getattr(args, "fail_on", DEFAULT_FAIL_ON)
    failing = [r for r in sorted_.new if fails(r, fail_on)]
    incomplete = list(incomplete)
    status = INCOMPLETE if incomplete else FINDINGS if failing else OK
    for line in tally(status, sorted_, failing, fail_on, getattr(args, "baseline", None), bool(known)):
        print(line)
    for ig in sorted_.expired:
        print(f"urlwb {command}: {ig.where} ({ig.field} {ig.value!r}) expired on {ig.expires}: it "
              "suppresses nothing", file=sys.stderr)
    report_formats.emit(args, lambda: records, command, out, sorted_=sorted_, status=status,
                        notes=incomplete)
    for line in incomplete:
        print(f"urlwb {command}: incomplete: {line}", file=sys.stderr)
    return status


def tally(status: int, s: baselines.Sorted, failing: list[dict], fail_on: str, baseline_path, known: bool) -> list[str]:
    """The findings in one line (and one per ignore entry that suppressed any): how many are new,
    how many of them fail at --fail-on, how many are unchanged and suppressed."""
    kinds = ", ".join(f"{sum(r['verdict']['kind'] == k for r in s.new)} {k}" for k in KINDS)
    parts = [f"{len(s.new)} new ({kinds}); {len(failing)} at or above --fail-on {fail_on}"]
    if s.absent is not None:
        where = f"in --baseline {baseline_path}" if baseline_path is not None else "already filed"
        if baseline_path is not None and known:
            where += " or already filed"
        parts.append(f"{len(s.unchanged)} unchanged ({where}; {s.absent} of its causes not found now)")
    parts.append(f"{len(s.suppressed)} suppressed (urlwb.toml [[tool.urlwb.ignore]])")
    lines = [f"exit status {status}: " + "; ".join(parts)]
    by_entry: dict[baselines.Ignore, int] = {}
    for _, ig in s.suppressed:
        by_entry[ig] = by_entry.get(ig, 0) + 1
    for ig, n in by_entry.items():
        until = f", until {ig.expires}" if ig.expires else ""
        lines.append(f"  suppressed {n} by {ig.where} ({ig.field} {ig.value!r}{until}): {ig.reason}")
    return lines
