"""``--sarif`` and ``--junit``: the files are held to the vendored OASIS SARIF 2.1.0 JSON Schema and
the Ant JUnit XSD (``tests/schemas/``, provenance and SHA-256 in its README), and say what the
issue asks: one result per finding, the rule the kind of finding, error for a bug and warning for a
hazard, a message with the input and the command that reproduces it.

Each schema is also shown to reject a broken file (a planted wrong level, a failure without its
type...), and a planted bug in the renderer (a level SARIF does not have) is caught by the schema.
The commands: ``urlwb diff``, ``growth`` and ``ssrf`` end to end on in-process parsers and planted
``py:`` oracles; ``hunt`` and ``campaign`` through their record builders (their runs take minutes).
"""

from __future__ import annotations

import copy
import hashlib
import json
import pathlib
import re

import pytest

from urlwb import cli, corpus_store, oracles
from urlwb.findings import provisional
from urlwb.findings.record import make_finding, verdict
from urlwb.report_formats import junit, sarif

jsonschema = pytest.importorskip("jsonschema")
xmlschema = pytest.importorskip("xmlschema", reason="xmlschema (the test extra) validates JUnit XML")

SCHEMAS = pathlib.Path(__file__).resolve().parents[1] / "schemas"


@pytest.fixture(scope="module")
def sarif_validator():
    schema = json.loads((SCHEMAS / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


@pytest.fixture(scope="module")
def junit_schema():
    return xmlschema.XMLSchema(str(SCHEMAS / "JUnit.xsd"))


def sarif_errors(validator, log) -> list[str]:
    return [e.message for e in validator.iter_errors(json.loads(json.dumps(log)))]


def records() -> list[dict]:
    return [
        make_finding(input="http://a\\b@c/", parser="urllib", rule="host-origin/backslash",
                     signature="host-origin/backslash:engine~urllib", summary="urllib reads another host",
                     command="urlwb diff 'http://a\\b@c/' --parsers engine,urllib",
                     verdict=provisional.judge({"rule": "host-origin/backslash", "parser": "urllib"})),
        make_finding(input="http://x\x00y/\ud800\ufffe", base="http://b/", parser="ada_url", rule="crash",
                     signature="crash:ada_url", summary="ada_url raised", command="urlwb diff ...",
                     verdict=verdict("bug", "whatwg-url", "the basic URL parser", "crash")),
        make_finding(input="a" * 500, parser="quad", rule="superlinear", signature="superlinear:quad",
                     verdict=verdict("bug", "own", "time linear", "superlinear"), filed="corpus/growth/regress/ab"),
        # a second finding of one signature is one result, not two
        make_finding(input="http://a\\\\b@c/", parser="urllib", rule="host-origin/backslash",
                     signature="host-origin/backslash:engine~urllib",
                     verdict=provisional.judge({"rule": "host-origin/backslash", "parser": "urllib"})),
    ]


def test_the_vendored_schemas_are_the_files_their_readme_names():
    readme = (SCHEMAS / "README.md").read_text(encoding="utf-8")
    for name in ("sarif-schema-2.1.0.json", "JUnit.xsd"):
        digest = hashlib.sha256((SCHEMAS / name).read_bytes()).hexdigest()
        row = next(line for line in readme.splitlines() if line.startswith(f"| `{name}`"))
        assert digest in row, name
        assert re.search(r"`[0-9a-f]{40}`", row), f"{name}: no source commit"


def check_sarif(validator, log, recs):
    assert sarif_errors(validator, log) == []
    (run,) = log["runs"]
    results = run["results"]
    kept = sarif.ordered(recs)
    assert len(results) == len(kept)                          # one result per finding
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert sorted(set(rules)) == rules == sorted({r["rule"] for r in kept})
    for res, rec in zip(results, kept):
        assert res["ruleId"] == rec["rule"] == rules[res["ruleIndex"]]
        assert res["level"] == {"bug": "error", "hazard": "warning"}[rec["verdict"]["kind"]]
        text = res["message"]["text"]
        assert json.dumps(rec["input"], ensure_ascii=False) in text
        assert f"reproduce: {rec.get('command') or 'no command recorded'}" in text
        assert res["partialFingerprints"]["urlwbSignature/v1"] == rec["signature"]
        loc = res["locations"][0]["physicalLocation"]            # GitHub rejects a result without one
        assert loc["artifactLocation"]["uri"] and loc["region"]["startLine"] >= 1
    return results


def check_junit(schema, data: bytes, recs):
    schema.validate(data.decode("utf-8"))
    kept = sarif.ordered(recs)
    tree = schema.to_dict(data.decode("utf-8"))
    cases = [c for s in tree["testsuite"] for c in s.get("testcase", [])]
    assert len(cases) == len(kept)
    bugs = sum(r["verdict"]["kind"] == "bug" for r in kept)
    assert sum("failure" in c for c in cases) == bugs
    assert sum("skipped" in c for c in cases) == len(kept) - bugs
    assert sum(int(s["@failures"]) for s in tree["testsuite"]) == bugs
    import xml.etree.ElementTree as ET
    texts = [el.text or "" for el in ET.fromstring(data).iter() if el.tag in ("failure", "skipped")]
    for r in kept:   # each message holds the input and the command that reproduces it
        assert any(f"reproduce: {junit.xml_text(r.get('command') or 'no command recorded')}" in t
                   and junit.xml_text(json.dumps(r["input"], ensure_ascii=False)) in t for t in texts)
    return tree


def test_sarif_and_junit_of_records(sarif_validator, junit_schema):
    recs = records()
    results = check_sarif(sarif_validator, sarif.sarif_log(recs, "diff"), recs)
    assert [r["level"] for r in results] == ["error", "error", "warning"]   # bugs first
    # the growth finding names its regress entry; the others their line of findings.jsonl
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
    assert uris == ["findings.jsonl", "corpus/growth/regress/ab", "findings.jsonl"]
    data = junit.junit_xml(recs, "diff")
    check_junit(junit_schema, data, recs)
    assert "\\u0000" in data.decode() and "\\ufffe" in data.decode()   # XML 1.0 cannot hold them raw
    # no findings: still valid files
    assert sarif_errors(sarif_validator, sarif.sarif_log([], "diff")) == []
    junit_schema.validate(junit.junit_xml([], "diff").decode())


def test_the_schemas_reject_broken_files(sarif_validator, junit_schema):
    """Planted: a level SARIF does not have, a result without a message, a log without its
    version; a JUnit failure without its type, a suite without hostname, a test case outside a
    suite. Each is rejected."""
    good = sarif.sarif_log(records(), "diff")
    for path, value in ((("runs", 0, "results", 0, "level"), "critical"),
                        (("runs", 0, "results", 0, "message"), None),
                        (("version",), None)):
        bad = copy.deepcopy(good)
        holder = bad
        for key in path[:-1]:
            holder = holder[key]
        if value is None:
            del holder[path[-1]]
        else:
            holder[path[-1]] = value
        assert sarif_errors(sarif_validator, bad), path
    text = junit.junit_xml(records(), "diff").decode()
    for bad in (re.sub(r'<failure type="[^"]*"', "<failure", text, count=1),
                re.sub(r' hostname="[^"]*"', "", text, count=1),
                text.replace("<testsuites>", "<testsuites><testcase name='x' classname='y' time='0'/>", 1)):
        assert bad != text
        with pytest.raises(xmlschema.XMLSchemaValidationError):
            junit_schema.validate(bad)


def test_a_planted_renderer_bug_is_caught_by_the_schema(sarif_validator, monkeypatch):
    monkeypatch.setitem(sarif.LEVELS, "bug", "critical")   # not one of SARIF's levels
    assert any("critical" in e for e in sarif_errors(sarif_validator, sarif.sarif_log(records(), "diff")))


def test_urlwb_diff_writes_both(tmp_path, sarif_validator, junit_schema, capsys):
    s, j = tmp_path / "out" / "diff.sarif", tmp_path / "diff.xml"
    code = cli.main(["diff", "http://a\\b@c/", "HTTP://ex%41mple.com/", "https://x/",
                     "--parsers", "engine,urllib,rfc3986", "--sarif", str(s), "--junit", str(j)])
    out = capsys.readouterr().out
    # hazards only, judged by each parser's contract: urllib's and rfc3986's own tests assert
    # these readings (issue 34), so nothing is at --fail-on bug: exit status 0 (urlwb.exitcodes)
    assert code == 0 and f"report: {s}" in out and f"report: {j}" in out
    log = json.loads(s.read_text())
    results = log["runs"][0]["results"]
    # both parsers read another host than the engine for each of the first two inputs
    assert {(r["ruleId"], r["properties"]["parser"]) for r in results} >= {
        ("host-origin/backslash", "urllib"), ("host-origin/idna", "urllib"), ("host-origin/idna", "rfc3986")}
    recs = [r["properties"]["finding"] for r in results]
    check_sarif(sarif_validator, log, recs)
    assert all(r["command"].startswith("urlwb diff ") for r in recs)
    # judged by each parser's own contract (urllib and rfc3986 declare RFC 3986), not provisionally
    assert {r["verdict"]["spec"]["name"] for r in recs} == {"rfc3986"}
    check_junit(junit_schema, j.read_bytes(), recs)


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    added = []
    yield added
    for n in added:
        oracles.REGISTRY.pop(n, None)


def run_both(tmp_path, capsys, argv: list[str], status: int) -> tuple[dict, bytes]:
    """``urlwb ARGV --out --sarif --junit``: its exit status checked; the SARIF log and JUnit bytes."""
    s, j = tmp_path / "f.sarif", tmp_path / "f.xml"
    code = cli.main([*argv, "--out", str(tmp_path / "report"), "--sarif", str(s), "--junit", str(j)])
    capsys.readouterr()
    assert code == status
    return json.loads(s.read_text()), j.read_bytes()


def test_urlwb_growth_writes_both(tmp_path, corpus, sarif_validator, junit_schema, capsys):
    corpus += ["quad"]
    log, xml = run_both(tmp_path, capsys, ["growth", "--oracle", "quad=py:planted_growth:quadratic_at",
                                           "--parsers", "quad", "--shapes", "userinfo @",
                                           "--lengths", "1000,10000", "--runs", "3"], 1)   # best of 3: one run at the short length can be a scheduling outlier on a loaded machine
    (result,) = log["runs"][0]["results"]
    assert (result["ruleId"], result["level"]) == ("superlinear", "error")
    rec = result["properties"]["finding"]
    assert rec["command"].startswith("urlwb growth --parsers quad")
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert "growth/regress/" in uri
    check_sarif(sarif_validator, log, [rec])
    check_junit(junit_schema, xml, [rec])


def test_urlwb_ssrf_writes_both_and_the_campaign_records(tmp_path, corpus, sarif_validator, junit_schema, capsys):
    log, xml = run_both(tmp_path, capsys, ["ssrf", "--oracle", "mine=py:planted:permissive",
                                           "--parsers", "engine,urllib", "--clients", "none", "--minutes", "0.02",
                                           "--batch", "500", "--guided-seconds", "0"], 0)
    recs = [r["properties"]["finding"] for r in log["runs"][0]["results"]]
    assert recs and {r["rule"] for r in recs} == {"ssrf"} and {r["validator"] for r in recs} == {"mine"}
    assert all("urlwb ssrf --oracle mine" in r["command"] for r in recs)
    check_sarif(sarif_validator, log, recs)
    check_junit(junit_schema, xml, recs)
    # the campaign renders every open regress entry: here, the bypasses just filed
    from urlwb.campaign.finding_records import finding_records
    entries = [e for e in corpus_store.iter_regress() if e.sidecar and e.status == "open"]
    camp = finding_records(entries, {entries[0].path})
    assert len(camp) == len(entries) == len(recs) and sum(r["new"] for r in camp) == 1
    assert all(r["filed"].startswith("ssrf/regress/") or "ssrf/regress/" in r["filed"] for r in camp)
    check_sarif(sarif_validator, sarif.sarif_log(camp, "campaign"), camp)
    check_junit(junit_schema, junit.junit_xml(camp, "campaign"), camp)


def test_hunt_records(sarif_validator, junit_schema):
    from urlwb.hunt.finding_records import finding_records
    summary = {"parser": "urllib", "version": "3.11", "command": "urlwb hunt urllib --minutes 1",
               "findings": [{"signature": "host-origin/backslash:engine~urllib", "cls": "host-origin",
                             "cause": "backslash", "new": True, "count": 3, "input": "http://a\\b@c/x",
                             "minimized": "http://a\\b@c/", "filed": None}]}
    (rec,) = finding_records(summary)
    assert (rec["input"], rec["rule"], rec["verdict"]["kind"]) == ("http://a\\b@c/", "host-origin/backslash", "hazard")
    assert rec["command"] == "urlwb diff 'http://a\\b@c/' --parsers engine,urllib"
    check_sarif(sarif_validator, sarif.sarif_log([rec], "hunt"), [rec])
    check_junit(junit_schema, junit.junit_xml([rec], "hunt"), [rec])


def test_urlwb_ssrf_observed_writes_the_findings_of_findings_jsonl(tmp_path, corpus, sarif_validator, junit_schema,
                                                                  capsys):
    """Observed through a real client (a sealed network): the SARIF results are the findings of
    OUT/findings.jsonl, result N at its line N."""
    from urlwb.ssrf.observe import network
    why = network.available()
    if why is not None:
        pytest.skip(f"no sealed network for the clients: {why}")
    log, xml = run_both(tmp_path, capsys, ["ssrf", "--oracle", "mine=py:planted:permissive",
                                           "--parsers", "engine,urllib", "--clients", "python-urllib",
                                           "--minutes", "0.02", "--batch", "500", "--guided-seconds", "0"], 0)
    lines = [json.loads(x) for x in (tmp_path / "report" / "findings.jsonl").read_text().splitlines()]
    results = log["runs"][0]["results"]
    assert lines and [r["properties"]["finding"]["signature"] for r in results] == [x["signature"] for x in lines]
    for n, r in enumerate(results, 1):
        loc = r["locations"][0]["physicalLocation"]
        if loc["artifactLocation"]["uri"].endswith("findings.jsonl"):
            assert loc["region"]["startLine"] == n
    check_sarif(sarif_validator, log, lines)
    check_junit(junit_schema, xml, lines)
