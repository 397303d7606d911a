"""The WPT-format export of findings: the engine against the committed export, as WPT's harness
runs urltestdata.json, and ``urlwb export-wpt`` itself."""

import json
import pathlib

import pytest

import engine
from urlwb import cli
from urlwb.differential import export_wpt

EXPORT = pathlib.Path(__file__).resolve().parents[2] / "corpus" / "wpt-export" / "urltestdata-findings.json"
CASES = [c for c in json.loads(EXPORT.read_text(encoding="utf-8")) if isinstance(c, dict)] if EXPORT.exists() else []


def test_the_export_exists_and_each_case_follows_a_comment():
    data = json.loads(EXPORT.read_text(encoding="utf-8"))
    assert len(CASES) > 0
    for before, case in zip(data, data[1:]):
        if isinstance(case, dict):
            assert isinstance(before, str) and ("differential" in before or "regress" in before)


@pytest.mark.parametrize("case", CASES, ids=[repr(c["input"])[:60] for c in CASES])
def test_engine_matches_the_exported_expectation(case):
    if case.get("failure"):
        with pytest.raises(engine.Failure):
            engine.URL(case["input"], case["base"])
        return
    url = engine.URL(case["input"], case["base"])
    for getter in export_wpt.GETTERS:
        assert getattr(url, getter) == case[getter], getter


def test_export_takes_whatwg_findings_names_class_and_parsers_and_skips_wpt_inputs(tmp_path, monkeypatch):
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    findings = tmp_path / "findings.json"
    rows = [
        {"input": "p://x/..", "base": None, "class": "path", "reference": "engine", "parser": "node",
         "family": "whatwg", "known": "a reason"},
        {"input": "http://a\\b@c/", "base": None, "class": "host-origin", "reference": "engine",
         "parser": "urllib", "family": "other", "known": None},
        {"input": "http://example\t.\norg", "base": "http://example.org/foo/bar", "class": "whitespace",
         "reference": "engine", "parser": "yarl", "family": "whatwg", "known": None},  # a WPT input
    ]
    findings.write_text(json.dumps(rows), encoding="utf-8")
    out = tmp_path / "out.json"
    assert cli.main(["export-wpt", "--findings", str(findings), "--out", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    cases = [c for c in data if isinstance(c, dict)]
    assert [c["input"] for c in cases] == ["p://x/.."]
    assert cases[0]["href"] == "p://x/" and cases[0]["pathname"] == "/"
    assert data[data.index(cases[0]) - 1] == "differential path: engine vs node (known deviation of node)"
    assert cli.main(["export-wpt", "--findings", str(findings), "--out", str(out), "--include-other"]) == 0
    cases = [c for c in json.loads(out.read_text(encoding="utf-8")) if isinstance(c, dict)]
    assert {"input": "http://a\\b@c/", "base": None}.items() <= cases[1].items()
    assert cases[1]["host"] == "a"


def test_a_bad_findings_file_is_a_one_line_usage_error(tmp_path, capsys):
    bad = tmp_path / "f.json"
    bad.write_text("{not json", encoding="utf-8")
    assert cli.main(["export-wpt", "--findings", str(bad), "--out", str(tmp_path / "o.json")]) == 2
    assert "not JSON" in capsys.readouterr().err
