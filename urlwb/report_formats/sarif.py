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
"""

from __future__ import annotations

import json
import pathlib
from collections.abc import Iterable

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


def _location(r: dict, line: int, findings_uri: str) -> dict:
    filed = r.get("filed") or r.get("path")
    uri, start = (relative(filed), 1) if isinstance(filed, str) and filed else (findings_uri, line)
    return {"physicalLocation": {"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                                 "region": {"startLine": start}},
            "logicalLocations": [{"name": r["parser"], "fullyQualifiedName": r["parser"], "kind": "module"}]}


def relative(path: str) -> str:
    """``path`` relative to the working folder (the repository root, in CI) when it is under it."""
    p = pathlib.Path(path)
    if p.is_absolute():
        try:
            return p.relative_to(pathlib.Path.cwd()).as_posix()
        except ValueError:
            return p.as_posix()
    return p.as_posix()


def sarif_log(records: Iterable[dict], command: str, findings_uri: str = FINDINGS_FILE,
              version: str | None = None, command_line: str | None = None) -> dict:
    """A SARIF 2.1.0 log of ``records`` (``finding-v1``), produced by ``urlwb COMMAND``
    (``command_line``: the whole line, when known); ``findings_uri``: the findings.jsonl the
    records are the lines of (relative to the repository root, for GitHub)."""
    rows = ordered(records)
    rule_ids = sorted({r["rule"] for r in rows})
    index = {rid: k for k, rid in enumerate(rule_ids)}
    results = []
    for line, r in enumerate(rows, 1):
        results.append({
            "ruleId": r["rule"], "ruleIndex": index[r["rule"]], "level": LEVELS[r["verdict"]["kind"]],
            "kind": "fail",
            "message": {"text": message(r)},
            "locations": [_location(r, line, findings_uri)],
            "partialFingerprints": {"urlwbSignature/v1": r["signature"]},
            "properties": {"verdict": r["verdict"]["kind"], "parser": r["parser"], "finding": r},
        })
    driver = {"name": TOOL, "rules": [_rule(rid) for rid in rule_ids],
              "properties": {"findingSchema": SCHEMA_ID}}
    driver["version"] = version or _version()
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION,
            "runs": [{"tool": {"driver": driver},
                      "invocations": [{"executionSuccessful": True,
                                       "commandLine": command_line or f"urlwb {command}"}],
                      "automationDetails": {"id": f"urlwb/{command}/"},
                      "results": results}]}


def dumps(log: dict) -> bytes:
    # ASCII with \u escapes: an input may hold a lone surrogate, which UTF-8 cannot encode
    return (json.dumps(log, ensure_ascii=True, indent=2) + "\n").encode("ascii")


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("url-workbench")
    except metadata.PackageNotFoundError:
        return "0+unknown"
