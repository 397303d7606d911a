"""Findings as JUnit XML, the test report Jenkins, GitLab, CircleCI and GitHub test-report actions
read (the Ant JUnit task's format; tests/schemas/JUnit.xsd is the XSD the tests hold it to).

A ``<testsuites>`` document with one ``<testsuite>`` per parser (``package`` ``urlwb.COMMAND``),
one ``<testcase>`` per finding (deduplicated by signature, in ``findings.jsonl``'s order): its
``classname`` is ``urlwb.COMMAND.PARSER``, its ``name`` the rule and the input. A **bug** is a
``<failure>`` (``type`` the rule), whose ``message`` is the summary and whose text holds the input,
the verdict and the command that reproduces it.

Deviation, explained: JUnit has no warning. A **hazard** (the parser keeps its own contract and
still reads the input otherwise than another) must not fail a build, nor pass silently; it is a
``<skipped>`` test case whose message says "hazard" and holds the same text: CI tools list skipped
cases apart from passed and failed ones. A failure is what fails the run
(urlwb.exitcodes): with ``--fail-on hazard`` a new hazard is one, with ``never`` nothing is, and a
finding in ``--baseline`` or accepted in urlwb.toml is skipped, saying so.

XML 1.0 cannot hold every code point an input may (C0 controls, lone surrogates, U+FFFE): those
are written as ``\\uXXXX`` escapes (:func:`xml_text`).
"""

from __future__ import annotations

import datetime
import re
import socket
import xml.etree.ElementTree as ET
from collections.abc import Iterable

from urlwb.findings.baseline import fails
from urlwb.report_formats.text import message, ordered

#: code points XML 1.0 does not allow in a document (§2.2 Char)
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
NAME_INPUT_MAX = 120


def xml_text(text: str) -> str:
    """``text`` with every code point XML 1.0 cannot hold as a ``\\uXXXX`` escape."""
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def _name(r: dict) -> str:
    shown = r["input"] if len(r["input"]) <= NAME_INPUT_MAX else r["input"][:NAME_INPUT_MAX] + "…"
    return xml_text(f"{r['rule']}: {shown!r}")


def _not_failing(r: dict, sorted_, fail_on: str) -> str:
    """Why a finding is skipped, not a failure: below --fail-on, in the baseline, or suppressed
    ("" if none: it fails the run, and the report)."""
    kind = r["verdict"]["kind"]
    if not fails(r, fail_on):
        return f"{kind} (not a failure)" if kind == "hazard" else f"{kind} (not a failure: --fail-on {fail_on})"
    if sorted_ is None:
        return ""
    ignore = sorted_.suppression(r)
    if ignore is not None:
        return f"{r['verdict']['kind']}, suppressed ({ignore.where}: {ignore.reason})"
    if sorted_.state(r) == "unchanged":
        return f"{r['verdict']['kind']}, in the baseline (unchanged)"
    return ""


def junit_xml(records: Iterable[dict], command: str, *, timestamp: datetime.datetime | None = None,
              hostname: str | None = None, sorted_=None, fail_on: str = "bug") -> bytes:
    """The JUnit XML document (UTF-8 bytes) of ``records`` (``finding-v1``) from ``urlwb COMMAND``.
    A failure is what fails the run (urlwb.exitcodes): a finding at or above ``fail_on`` (a bug,
    by default), not in the baseline nor suppressed (``sorted_``,
    :class:`urlwb.findings.baseline.Sorted`); every other finding is skipped, saying why."""
    rows = ordered(records)
    when = (timestamp or datetime.datetime.now(datetime.timezone.utc)).strftime("%Y-%m-%dT%H:%M:%S")
    host = hostname or socket.gethostname() or "localhost"
    by_parser: dict[str, list[dict]] = {}
    for r in rows:
        by_parser.setdefault(r["parser"], []).append(r)
    root = ET.Element("testsuites")
    for k, (parser, cases) in enumerate(sorted(by_parser.items())):
        bugs = sum(1 for r in cases if not _not_failing(r, sorted_, fail_on))
        suite = ET.SubElement(root, "testsuite", {
            "name": xml_text(f"urlwb {command}: {parser}"), "package": f"urlwb.{command}", "id": str(k),
            "timestamp": when, "hostname": host, "tests": str(len(cases)), "failures": str(bugs),
            "errors": "0", "skipped": str(len(cases) - bugs), "time": "0"})
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", {"name": "command", "value": f"urlwb {command}"})
        ET.SubElement(props, "property", {"name": "parser", "value": xml_text(parser)})
        for r in cases:
            case = ET.SubElement(suite, "testcase", {
                "name": _name(r), "classname": xml_text(f"urlwb.{command}.{parser}"), "time": "0"})
            text = xml_text(message(r))
            summary = xml_text(r.get("summary") or f"{r['rule']} in {r['parser']}")
            why = _not_failing(r, sorted_, fail_on)
            if why:
                el = ET.SubElement(case, "skipped", {"message": xml_text(f"{why}: {summary}")})
            else:
                el = ET.SubElement(case, "failure", {"type": xml_text(r["rule"]), "message": summary})
            el.text = text
        ET.SubElement(suite, "system-out").text = ""
        ET.SubElement(suite, "system-err").text = ""
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
