"""Findings as a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format, Version 2.1.0;
https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html), the format GitHub code
scanning ingests.

One run, tool ``url-workbench``; one ``result`` per finding (deduplicated by signature, in
``findings.jsonl``'s order); its ``ruleId`` is the finding's ``rule`` (crash, hang, superlinear,
``differential/<cause>``, ssrf...: the kind of finding, §3.27.5) and each rule is listed once in
``tool.driver.rules`` (§3.19.23); its ``level`` follows the verdict: ``error`` for a bug,
``warning`` for a hazard (§3.27.10); its ``message.text`` holds the input (and base), the parser,
the verdict and the command that reproduces it; ``partialFingerprints`` hold the signature, the
key GitHub deduplicates alerts by (§3.27.17); ``properties.finding`` the whole record.

Deviation, explained: SARIF is made for findings in source files, and GitHub rejects a whole log
one of whose results has no physical location ("locationFromSarifResult: expected at least one
location"). A finding about a URL parser has no source line; its location is the file that holds
it: the regress entry it was filed as (``filed``), else line N of ``findings.jsonl`` in the
command's ``--out`` (the finding's own line), with the parser as a logical location beside it.
Every URI is relative to the repository root (:func:`artifact`), whatever ``--out`` is.
"""

from __future__ import annotations

import json
import pathlib
from collections.abc import Iterable

from urlwb.errors import Incomplete
from urlwb.findings.record import FINDINGS_FILE, SCHEMA_ID
from urlwb.report_formats.text import message, ordered

SARIF_VERSION = "2.1.0"
#: the OASIS schema's canonical address (tests/schemas/sarif-schema-2.1.0.json is its copy)
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
TOOL = "url-workbench"
LEVELS = {"bug": "error", "hazard": "warning"}
STANDARD = "https://url.spec.whatwg.org/#url-parsing"

#: what each rule head means, for tool.driver.rules' shortDescription
RULE_TEXT = {
    "crash": "an exception its API does not document",
    "oracle-crashed": "the adapter's process died or raised",
    "hang": "no answer within the deadline",
    "superlinear": "time super-linear in the input's length",
    "oom": "memory exhausted on one input",
    "differential": "a reading other than the URL Standard's",
    "accept-reject": "accepts what the Standard rejects, or the other way round",
    "ssrf": "a validator allows an input a client fetches from a denied address",
    "invariant": "an invariant of the Standard's algorithms does not hold",
    "unstable": "the answer changes on re-parse of its own serialization",
    "regression": "a release reads an input otherwise than the one before",
    "fixed": "a release fixed a reading",
}


def _rule(rule_id: str) -> dict:
    head, _, cause = rule_id.partition("/")
    text = RULE_TEXT.get(head, head)
    if cause:
        text += f" ({cause})"
    out = {"id": rule_id, "name": rule_id.replace("/", "-"), "shortDescription": {"text": text},
           "defaultConfiguration": {"level": "warning"}}
    if head in ("differential", "accept-reject", "invariant", "unstable"):
        out["helpUri"] = STANDARD
    return out


#: the uriBaseIds of a location outside the repository (an --out in /tmp, a corpus elsewhere):
#: named relative to that folder, never by an absolute path (a log must read the same on any machine)
OUTSIDE = {
    "REPORTDIR": "the folder the command wrote its report in (--out), outside the repository",
    "CORPUSDIR": "the corpus folder (URLWB_CORPUS), outside the repository",
}


def _location(r: dict, line: int, findings_uri: tuple[str, str]) -> dict:
    filed = r.get("filed") or r.get("path")
    (uri, base), start = (artifact(filed), 1) if isinstance(filed, str) and filed else (findings_uri, line)
    return {"physicalLocation": {"artifactLocation": {"uri": uri, "uriBaseId": base},
                                 "region": {"startLine": start}},
            "logicalLocations": [{"name": r["parser"], "fullyQualifiedName": r["parser"], "kind": "module"}]}


def _portable(r: dict) -> dict:
    """The record with the file it was filed as named as its location is (:func:`artifact`), not
    by this machine's absolute path."""
    out = dict(r)
    for key in ("filed", "path"):
        if isinstance(out.get(key), str) and out[key]:
            out[key] = artifact(out[key])[0]
    return out


def repository_root(start: pathlib.Path | None = None) -> pathlib.Path:
    """The repository the command runs in: the nearest folder at or above ``start`` (the working
    folder) that holds ``.git`` (a folder, or a worktree's file); the working folder if none."""
    here = (start or pathlib.Path.cwd()).resolve()
    return next((p for p in (here, *here.parents) if (p / ".git").exists()), here)


def artifact(path: str | pathlib.Path, report_dir: str | pathlib.Path | None = None) -> tuple[str, str]:
    """(uri, uriBaseId) of ``path``: relative to the repository root under ``%SRCROOT%`` when it
    is inside it (a relative ``path`` is taken from the working folder); else relative to the
    corpus root (``CORPUSDIR``) or to ``report_dir`` (``REPORTDIR``), or its bare name there.
    Never absolute: the same log reads the same from any checkout."""
    p = pathlib.Path(path)
    p = (p if p.is_absolute() else pathlib.Path.cwd() / p).resolve()
    from urlwb import corpus_store   # the corpus root (URLWB_CORPUS); imported here to keep --help light
    for folder, base in ((repository_root(), "%SRCROOT%"), (corpus_store.corpus_root(), "CORPUSDIR"),
                         (report_dir, "REPORTDIR")):
        if folder is None:
            continue
        try:
            return p.relative_to(pathlib.Path(folder).resolve()).as_posix(), base
        except ValueError:
            continue
    return p.name, "REPORTDIR"


def sarif_log(records: Iterable[dict], command: str, findings_uri: str | tuple[str, str] = FINDINGS_FILE,
              version: str | None = None, command_line: str | None = None, *, sorted_=None,
              status: int = 0, notes: Iterable[str] = ()) -> dict:
    """A SARIF 2.1.0 log of ``records`` (``finding-v1``), produced by ``urlwb COMMAND``
    (``command_line``: the whole line, when known); ``findings_uri``: the findings.jsonl the
    records are the lines of (a URI relative to the repository root, or (uri, uriBaseId));
    ``sorted_``: the records sorted by a baseline and ignore entries
    (:class:`urlwb.findings.baseline.Sorted`: each result's ``baselineState`` when a baseline was
    given, ``suppressions`` for an accepted one); ``status``: the exit status (urlwb.exitcodes),
    whose 3 is ``executionSuccessful: false``, with ``notes`` as its error notifications."""
    rows = ordered(records)
    if isinstance(findings_uri, str):
        findings_uri = (findings_uri, "%SRCROOT%")
    rule_ids = sorted({r["rule"] for r in rows})
    index = {rid: k for k, rid in enumerate(rule_ids)}
    results = []
    for line, r in enumerate(rows, 1):
        result = {
            "ruleId": r["rule"], "ruleIndex": index[r["rule"]], "level": LEVELS[r["verdict"]["kind"]],
            "kind": "fail",
            "message": {"text": message(r)},
            "locations": [_location(r, line, findings_uri)],
            "partialFingerprints": {"urlwbSignature/v1": r["signature"]},
            "properties": {"verdict": r["verdict"]["kind"], "parser": r["parser"], "finding": _portable(r)},
        }
        if sorted_ is not None:
            state = sorted_.state(r)
            if state is not None:
                result["baselineState"] = state
            ignore = sorted_.suppression(r)
            if ignore is not None:
                result["suppressions"] = [{"kind": "external", "status": "accepted",
                                           "justification": f"{ignore.reason} ({ignore.where}"
                                           + (f", until {ignore.expires}" if ignore.expires else "") + ")"}]
        results.append(result)
    driver = {"name": TOOL, "rules": [_rule(rid) for rid in rule_ids],
              "properties": {"findingSchema": SCHEMA_ID}}
    driver["version"] = version or _version()
    invocation = {"executionSuccessful": status != Incomplete.status, "exitCode": status,
                  "commandLine": command_line or f"urlwb {command}"}
    notes = list(notes)
    if notes:
        invocation["toolExecutionNotifications"] = [{"level": "error", "message": {"text": n}} for n in notes]
    used = {findings_uri[1]} | {res["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"]
                                for res in results}
    run = {"tool": {"driver": driver}, "invocations": [invocation],
           "automationDetails": {"id": f"urlwb/{command}/"}, "results": results}
    outside = {base: {"description": {"text": OUTSIDE[base]}} for base in sorted(used) if base in OUTSIDE}
    if outside:
        run["originalUriBaseIds"] = outside
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def dumps(log: dict) -> bytes:
    # ASCII with \u escapes: an input may hold a lone surrogate, which UTF-8 cannot encode
    return (json.dumps(log, ensure_ascii=True, indent=2) + "\n").encode("ascii")


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("url-workbench")
    except metadata.PackageNotFoundError:
        return "0+unknown"
