"""The one findings record (urlwb/findings/schema/finding-v1.json): what it accepts and refuses."""

import copy
import json

import pytest

from urlwb.findings import record

GOOD = dict(
    input="http://[1:1:1:1:1:1:1::1]/", parser="okhttp", rule="crash", signature="crash:okhttp:ipv6",
    verdict=record.verdict("bug", "own", "HttpUrl.parse: 'Returns null if this is not a well-formed URL'",
                           "IPv6 address parser, a ninth piece",
                           documented=None, upstream=None),
)


def test_a_whole_record_is_accepted_and_round_trips(tmp_path):
    r = record.make_finding(**GOOD, summary="ArrayIndexOutOfBoundsException")
    path = record.write_findings(tmp_path, [r, copy.deepcopy(r)])
    assert path.name == "findings.jsonl"
    assert record.read_findings(tmp_path) == [r]  # one per signature


@pytest.mark.parametrize("breakage", [
    lambda r: r.pop("verdict"),
    lambda r: r["verdict"].pop("kind"),
    lambda r: r["verdict"].update(kind="maybe"),
    lambda r: r["verdict"]["spec"].update(name="rfc1738"),
    lambda r: r["verdict"]["spec"].update(clause=""),
    lambda r: r["verdict"].update(upstream={"url": "https://x"}),
    lambda r: r.update(schema="urlwb-finding/0"),
    lambda r: r.update(parser=""),
    lambda r: r.pop("base"),
    lambda r: r.update(rule="Not A Rule"),
    lambda r: r["verdict"].update(pairs=[{"validator": "v", "client": "curl"}]),
], ids=["no verdict", "no kind", "kind not bug/hazard", "unknown spec", "empty clause",
        "upstream without state", "old schema", "empty parser", "no base", "bad rule", "pair without reached"])
def test_a_record_that_breaks_the_schema_is_refused(breakage):
    r = record.make_finding(**GOOD)
    broken = copy.deepcopy(r)
    breakage(broken)
    with pytest.raises(record.FindingError):
        record.check(broken)


def test_a_broken_line_in_a_findings_file_is_named(tmp_path):
    r = record.make_finding(**GOOD)
    bad = dict(r, verdict=dict(r["verdict"], kind="maybe"))
    (tmp_path / "findings.jsonl").write_text(json.dumps(r) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(record.FindingError, match=r"findings.jsonl:2"):
        record.read_findings(tmp_path)


def test_bugs_come_before_hazards(tmp_path):
    hazard = record.make_finding(**dict(GOOD, signature="a", verdict=record.verdict(
        "hazard", "rfc3986", "§3.3 path-absolute", "slashes")))
    bug = record.make_finding(**dict(GOOD, signature="z"))
    record.write_findings(tmp_path, [hazard, bug])
    assert [r["verdict"]["kind"] for r in record.read_findings(tmp_path)] == ["bug", "hazard"]


def test_an_input_with_a_lone_surrogate_is_written_and_read_back(tmp_path):
    """The fuzzers make inputs no UTF-8 can hold (a lone surrogate): the line escapes it
    (\\udXXX), the record reads back equal; the campaign's differential round wrote one."""
    r = record.make_finding(**dict(GOOD, input="http://a\udc80/", signature="s"))
    record.write_findings(tmp_path, [r])
    assert "\\udc80" in (tmp_path / "findings.jsonl").read_text(encoding="utf-8")
    assert record.read_findings(tmp_path) == [r]
