"""Baselines and suppressions: which of a run's findings are new.

``--baseline FILE`` names a previous run's output: its ``findings.jsonl`` (or the folder that holds
one) or its SARIF log. A finding whose cause is in it is *unchanged*; the others are *new*, and
only new findings count towards the exit status (:mod:`urlwb.exitcodes`). The cause of a finding
is :func:`baseline_key`, the one function to swap when findings are grouped into causes; today it
is the finding's signature, the key every report deduplicates by.

``[[tool.urlwb.ignore]]`` entries of ``urlwb.toml`` (or ``pyproject.toml``) in the working folder
accept a finding with a reason, as semgrep's ``nosemgrep`` and SARIF's suppressions do::

    [[tool.urlwb.ignore]]
    cause = "host-origin/backslash:engine~urllib"   # or signature = "..."
    reason = "urllib follows RFC 3986; we never pass it user URLs"
    expires = 2027-01-31                           # optional: suppresses until that day

A suppressed finding is counted and listed (SARIF ``suppressions``, a JUnit skip), never dropped.
An expired entry suppresses nothing and is named on stderr; an entry without a reason, or with
neither or both of ``cause`` and ``signature``, is a usage error.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import pathlib
from collections.abc import Iterable

from urlwb.cliutil import read_text
from urlwb.errors import UsageError
from urlwb.findings.record import FINDINGS_FILE, KINDS
from urlwb.oracles import manifests

#: SARIF result.baselineState values (SARIF 2.1.0 §3.27.24)
NEW, UNCHANGED = "new", "unchanged"


def fails(record: dict, fail_on: str) -> bool:
    """Whether ``record`` is at or above ``fail_on`` (``bug``, ``hazard`` or ``never``; a hazard
    is below a bug, and a fixed finding never fails)."""
    if fail_on == "never" or record.get("status") == "fixed":
        return False
    return KINDS.index(record["verdict"]["kind"]) <= KINDS.index(fail_on)


def baseline_key(record: dict) -> str:
    """The cause of a finding, by which a baseline and an ignore entry's ``cause`` match it: its
    signature (the deduplication key every room signs its findings with)."""
    return record["signature"]


def load_baseline(path: pathlib.Path) -> set[str]:
    """The causes (:func:`baseline_key`) of the findings in ``path``: a ``findings.jsonl``, the
    folder holding one, or a SARIF log written by urlwb (each result's ``properties.finding``, else
    its ``urlwbSignature/v1`` fingerprint). A file that is neither is a usage error."""
    p = pathlib.Path(path)
    if p.is_dir():
        p = p / FINDINGS_FILE
    text = read_text(p, "--baseline")
    try:
        whole = json.loads(text)   # a SARIF log is one JSON document; findings.jsonl, one a line
    except (json.JSONDecodeError, RecursionError):
        whole = None
    if isinstance(whole, dict) and "runs" in whole:
        return _sarif_keys(whole, path)
    keys = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            keys.add(baseline_key(record))
        except (json.JSONDecodeError, TypeError, KeyError):
            raise UsageError(f"--baseline {path}:{number}: neither a findings.jsonl line nor a SARIF "
                             "log") from None
    return keys


def _sarif_keys(log: dict, path) -> set[str]:
    keys = set()
    try:
        for run in log["runs"]:
            for result in run.get("results") or []:
                finding = (result.get("properties") or {}).get("finding")
                if isinstance(finding, dict) and "signature" in finding:
                    keys.add(baseline_key(finding))
                else:
                    keys.add(result["partialFingerprints"]["urlwbSignature/v1"])
    except (KeyError, TypeError):
        raise UsageError(f"--baseline {path}: a SARIF result with neither a urlwb finding nor its "
                         "urlwbSignature/v1 fingerprint (not a urlwb log)") from None
    return keys


@dataclasses.dataclass(frozen=True)
class Ignore:
    """One ``[[tool.urlwb.ignore]]`` entry: what it matches (``cause`` or ``signature``), why,
    until when (None: no end), and where it was written."""
    field: str
    value: str
    reason: str
    expires: datetime.date | None
    where: str

    def matches(self, record: dict) -> bool:
        got = baseline_key(record) if self.field == "cause" else record["signature"]
        return got == self.value

    def expired(self, today: datetime.date) -> bool:
        return self.expires is not None and self.expires < today


def load_ignores(cwd: pathlib.Path | None = None) -> list[Ignore]:
    """The ``[[tool.urlwb.ignore]]`` entries of ``urlwb.toml`` and ``pyproject.toml`` in ``cwd``."""
    out: list[Ignore] = []
    try:
        tables = list(manifests.tool_tables(cwd))
    except manifests.ManifestError as exc:
        raise UsageError(str(exc)) from None
    for fname, tool in tables:
        entries = tool.get("ignore")
        if entries is None:
            continue
        if not isinstance(entries, list):
            raise UsageError(f"{fname}: tool.urlwb.ignore must be an array of tables ([[tool.urlwb.ignore]])")
        for k, entry in enumerate(entries, 1):
            out.append(_entry(entry, f"{fname} [[tool.urlwb.ignore]] #{k}"))
    return out


def _entry(entry, where: str) -> Ignore:
    if not isinstance(entry, dict):
        raise UsageError(f"{where}: expected a table")
    unknown = sorted(set(entry) - {"cause", "signature", "reason", "expires"})
    if unknown:
        raise UsageError(f"{where}: unknown key {unknown[0]!r} (cause or signature, reason, expires)")
    named = [f for f in ("cause", "signature") if f in entry]
    if len(named) != 1 or not isinstance(entry[named[0]], str) or not entry[named[0]]:
        raise UsageError(f"{where}: give exactly one of cause = \"...\" or signature = \"...\"")
    reason = entry.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise UsageError(f"{where}: a reason is required (why the finding is accepted)")
    expires = entry.get("expires")
    if isinstance(expires, str):
        try:
            expires = datetime.date.fromisoformat(expires)
        except ValueError:
            raise UsageError(f"{where}: expires {expires!r} is not a date (YYYY-MM-DD)") from None
    if expires is not None and not isinstance(expires, datetime.date):
        raise UsageError(f"{where}: expires must be a date (YYYY-MM-DD)")
    if isinstance(expires, datetime.datetime):
        expires = expires.date()
    return Ignore(named[0], entry[named[0]], reason.strip(), expires, where)


@dataclasses.dataclass
class Sorted:
    """A run's findings sorted by the baseline and the ignore entries: each record in one list."""
    new: list[dict]
    unchanged: list[dict]
    suppressed: list[tuple[dict, Ignore]]
    #: causes of the baseline no longer found (None: no baseline given)
    absent: int | None
    #: ignore entries past their date (they suppressed nothing)
    expired: list[Ignore]

    def state(self, record: dict) -> str | None:
        """SARIF's baselineState of ``record``: None when no baseline was given."""
        if self.absent is None:
            return None
        return UNCHANGED if any(r is record for r in self.unchanged) else NEW

    def suppression(self, record: dict) -> Ignore | None:
        return next((ig for r, ig in self.suppressed if r is record), None)


def sort(records: Iterable[dict], baseline: set[str] | None, ignores: list[Ignore],
         today: datetime.date | None = None) -> Sorted:
    """Each record new, unchanged (its cause in ``baseline``) or suppressed (an ignore entry in
    force matches it; checked first: an accepted finding stays accepted in the baseline too)."""
    today = today or datetime.date.today()
    live = [ig for ig in ignores if not ig.expired(today)]
    expired = [ig for ig in ignores if ig.expired(today)]
    out = Sorted([], [], [], None, expired)
    seen_keys = set()
    for r in records:
        seen_keys.add(baseline_key(r))
        ig = next((ig for ig in live if ig.matches(r)), None)
        if ig is not None:
            out.suppressed.append((r, ig))
        elif baseline is not None and baseline_key(r) in baseline:
            out.unchanged.append(r)
        else:
            out.new.append(r)
    if baseline is not None:
        out.absent = len(baseline - seen_keys)
    return out
