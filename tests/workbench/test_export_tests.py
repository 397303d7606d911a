"""``urlwb export tests``: findings as tests in the parser's own language (urlwb/export/).

Fast: which findings become which cases and what they assert (the four fixed-upstream witnesses:
url-parse's, urllib3's, Spring's, Go's), the literals each language's suite writes, the suites'
syntax (Python compiled, JavaScript ``node --check``, Go ``gofmt``), Go's corpus file format, the
command's usage errors, and the runner's refusal to count a suite that did not run as a verdict.

Slow (``--run-slow``: a Go toolchain download, Maven, urllib3 at 10,000 `@`): each language's suite,
written from the findings, run against two releases of its parser: it fails on the release with
the bug, naming the case, and passes on the release that fixed it. JavaScript's (url-parse 1.5.7 vs
1.5.8, two npm installs) runs in the normal suite.
"""

from __future__ import annotations

import ast
import json
import pathlib
import shutil
import subprocess
import sys

import pytest

from urlwb import cli
from urlwb.errors import UsageError
from urlwb.export import api, cases, golang, java, js, python, runner

ROOT = pathlib.Path(__file__).resolve().parents[2]
ADVISORIES = ROOT / "examples" / "advisories"
URLLIB3_GROWTH = ROOT / "corpus" / "growth" / "regress" / "741efc87e9c7866bfde79a0eee421306feef71a8.json"
URL_PARSE_PORT = ROOT / "corpus" / "history" / "url-parse" / "7d5fbf374c521c131a6b7ef21f5b384811cf19e6.json"


def _case(parser: str, path: pathlib.Path):
    got, skipped = cases.cases_for(parser, cases.file_findings(parser, [path]))
    assert not skipped, skipped
    assert len(got) == 1
    return got[0]


def test_url_parse_port_finding_asserts_the_fixed_host_and_port():
    c = _case("url-parse", URL_PARSE_PORT)
    assert (c.input, c.expect, c.expected) == ("http://x:", "components", {"host": "x", "port": None})
    assert "CVE-2022-0686" in c.clause and "1.5.8" in c.clause
    # url-parse folds an absent port into "": the suite expects what its getter gives
    assert api.expected(api.api_of("url-parse"), c) == {"host": "x", "port": ""}


def test_urllib3_growth_finding_asserts_time_and_rejection_at_the_measured_length():
    c = _case("urllib3", URLLIB3_GROWTH)
    assert c.expect == "reject" and c.within == cases.TIME_BUDGET
    # at the length where the finding's own figures (50.35 ms at 590, ratio 75 for 10×) predict 10 s
    assert c.input == "http://" + "@" * 10000 + "["
    assert "GHSA-q2q7-5pp4-w6pg" in c.clause and "no URI reference" in c.clause


def test_go_bracketed_hostname_must_be_rejected_by_rfc_3986():
    c = _case("go-net-url", ADVISORIES)
    assert (c.input, c.expect) == ("http://[example.com]/", "reject")
    assert "RFC 3986 §4.1" in c.clause and "go.dev/issue/75678" in c.clause


def test_a_fix_that_rejects_is_held_as_a_rejection_whatever_the_grammar_admits():
    # httpcore5's HTTPCORE-756 (RFC 9110: an http URI with an empty host is invalid): HttpClient
    # 5.0 read "HTTP:/", the fixing release rejects it; RFC 3986's grammar alone admits it. The
    # suite asserted the old reading (components) until 2026-12-02, and failed on 5.6.5.
    c = _case("apache-httpclient5", ROOT / "corpus" / "history" / "apache-httpclient5"
              / "2c1cb9c27f16bbd1b09594241e0ee9a0f2dc311f.json")
    assert (c.input, c.expect) == ("HTTP:/", "reject")
    assert "fixing release (httpclient5 5.6.5, httpcore5 5.4.4) rejects it" in c.clause and "issues/423" in c.clause


def test_spring_userinfo_bracket_is_read_as_appendix_b_splits_it():
    c = _case("spring-uricomponents", ADVISORIES)
    assert c.expect == "components"
    assert c.expected == {"username": "evil.com[", "password": None, "host": "good.com"}
    assert "Appendix B" in c.clause and "5.3.32" in c.clause


def test_hazards_are_skipped_with_their_reason_and_a_crash_asserts_no_exception():
    found = [(w, m) for w, m in cases.corpus_findings("okhttp")]
    written, skipped = cases.cases_for("okhttp", found)
    crash = [c for c in written if c.input == "http://[1:1:1:1:1:1:1::1]/"]
    assert crash and crash[0].expect == "no-exception"
    assert skipped and all("hazard" in s.reason or "its own rules" in s.reason for s in skipped)


def test_a_reject_case_is_not_written_for_a_parser_without_failure(tmp_path, capsys):
    rec = json.loads(URL_PARSE_PORT.read_text(encoding="utf-8"))
    rec.update(input="http://[example.com]/", records=None)   # the URL Standard rejects it
    f = tmp_path / "one.json"
    f.write_text(json.dumps(rec), encoding="utf-8")
    status = cli.main(["export", "tests", "--lang", "js", "url-parse", "--no-corpus", "--findings", str(f),
                       "--out", str(tmp_path / "out")])
    assert status == 1
    assert "expects a rejection, and url-parse's API has none" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["export", "tests", "--lang", "go", "okhttp"], "no go suite for it"),
    (["export", "tests", "--lang", "java", "okhttp@4.12.0"], "without a version"),
    (["export", "tests", "--lang", "js", "url-parse", "--findings", "/nonexistent"], "no such file"),
])
def test_usage_errors_are_one_line(argv, message, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


TRICKY = 'a"b\\c\n\t\x00\x1f\x7f é\u2028\U0001F600'


def test_java_literal_has_no_unicode_escape_of_a_line_end():
    lit = java.java_string(TRICKY)
    assert "\\u000a" not in lit.lower() and "\\u000d" not in lit.lower() and lit.isascii()
    assert "\\000" in lit and "\\ud83d\\ude00" in lit


def test_go_literal_and_corpus_file_read_back_as_the_input():
    lit = golang.go_string(TRICKY)
    assert lit.isascii()
    # Go's interpreted string escapes used here (\\" \\\\ \\n \\t \\xNN \\uNNNN \\UNNNNNNNN) are Python's too
    assert ast.literal_eval(lit) == TRICKY
    name, content = golang.corpus_file(TRICKY)
    assert content.startswith("go test fuzz v1\nstring(") and content.endswith(")\n") and len(name) == 16


def _render(lang: str, parser: str, path: pathlib.Path) -> dict[str, str]:
    written, _ = cases.cases_for(parser, cases.file_findings(parser, [path]))
    return {"python": python, "js": js, "go": golang, "java": java}[lang].render(parser, written, [], "test")


def test_python_suite_compiles():
    files = _render("python", "urllib3", URLLIB3_GROWTH)
    (name, text), = files.items()
    compile(text, name, "exec")
    assert "pytest.param('http://' + '@' * 10000 + '[', None, 'reject'" in text and "LocationParseError" in text


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_js_suite_parses(tmp_path):
    (name, text), = _render("js", "url-parse", URL_PARSE_PORT).items()
    (tmp_path / name).write_text(text, encoding="utf-8")
    r = subprocess.run(["node", "--check", str(tmp_path / name)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.skipif(shutil.which("gofmt") is None, reason="gofmt is not installed")
def test_go_suite_parses_and_carries_its_corpus(tmp_path):
    files = _render("go", "go-net-url", ADVISORIES)
    corpus = [k for k in files if k.startswith("testdata/fuzz/FuzzParse/")]
    assert len(corpus) == 1 and 'string("http://[example.com]/")' in files[corpus[0]]
    assert "func property(" in files["findings_test.go"] and "netip.ParseAddr(u.Hostname())" in files["findings_test.go"]
    (tmp_path / "findings_test.go").write_text(files["findings_test.go"], encoding="utf-8")
    r = subprocess.run(["gofmt", "-e", "-l", str(tmp_path / "findings_test.go")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_java_suite_names_the_release_as_a_property():
    files = _render("java", "spring-uricomponents", ADVISORIES)
    assert "<artifactId>${parser.artifact}</artifactId>" in files["pom.xml"]
    assert "surefire-junit-platform" in files["pom.xml"]
    test = files["src/test/java/urlwb/findings/SpringUriComponentsFindingsTest.java"]
    assert 'map("host", "good.com", "password", null, "username", "evil.com[")' in test


def test_a_suite_that_did_not_run_is_no_verdict(tmp_path, monkeypatch):
    """A failing last step with no failing test in its output (a tool that could not resolve or
    start) is an error, not "fails on this release"; so is a failing build step."""
    monkeypatch.setitem(runner.STEPS, "python", lambda *a: [([sys.executable, "-c", "raise SystemExit(4)"], {}, False)])
    with pytest.raises(UsageError, match="did not run"):
        runner.run("python", "urllib3", "1.26.4", tmp_path, [])
    monkeypatch.setitem(runner.STEPS, "python", lambda *a: [([sys.executable, "-c", "raise SystemExit(1)"], {}, False),
                                                           ([sys.executable, "-c", "pass"], {}, False)])
    with pytest.raises(UsageError, match="did not build"):
        runner.run("python", "urllib3", "1.26.4", tmp_path, [])
    monkeypatch.setitem(runner.STEPS, "python", lambda *a: [([sys.executable, "-c", "print('1 failed'); raise SystemExit(1)"], {}, False)])
    assert runner.run("python", "urllib3", "1.26.4", tmp_path, []).passed is False


# --- slow: each suite against the release with the bug and the one that fixed it ---------------

DEMOS = [
    pytest.param("python", "urllib3", URLLIB3_GROWTH, "1.26.4", "1.26.5", "superlinear_", "python3",
                 marks=pytest.mark.slow, id="python"),
    # JavaScript runs in the normal suite (two npm installs, ~10 s): one language's generated suite
    # is always run against both releases; the others (a Go toolchain download, Maven, 10,000 '@'
    # at 25 s on the old urllib3) with --run-slow.
    pytest.param("js", "url-parse", URL_PARSE_PORT, "1.5.7", "1.5.8", "host_origin_port_", "node", id="js"),
    pytest.param("java", "spring-uricomponents", ADVISORIES, "5.3.31", "5.3.32", "host_origin_userinfo_", "mvn",
                 marks=pytest.mark.slow, id="java"),
    pytest.param("go", "go-net-url", ADVISORIES, "1.25.1", "1.25.2", "accept_reject_host_", "go",
                 marks=pytest.mark.slow, id="go"),
]


@pytest.mark.parametrize("lang, parser, findings, old, new, case, tool", DEMOS)
def test_the_suite_fails_on_the_release_with_the_bug_and_passes_on_the_fixed_one(
        lang, parser, findings, old, new, case, tool, tmp_path, capsys):
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    argv = ["export", "tests", "--lang", lang, parser, "--no-corpus", "--findings", str(findings),
            "--out", str(tmp_path), "--run", old, "--run", new]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert f"{parser}@{old}: FAILED" in out and f"{parser}@{new}: passed" in out, out
    failing = out.split(f"{parser}@{old}: FAILED", 1)[1].split(f"{parser}@{new}:", 1)[0]
    named = [line for line in failing.splitlines() if line.startswith("  failed: ")]
    assert named, failing
    # JUnit names the method and the line, the others the case (Go also the fuzz corpus file)
    assert any(case in line for line in named) if lang != "java" else "FindingsTest.finding" in named[0]


def test_a_long_run_is_written_as_a_repetition_in_every_language(tmp_path):
    c = cases.Case("superlinear_x", "http://" + "a:b@" * 5000 + "h/", None, "no-exception", "time", "f", "r",
                   within=1.0)
    py = python.render("urllib3", [c], [], "test")["test_urllib3_findings.py"]
    assert "'http://' + 'a:b@' * 5000 + 'h/'" in py
    compile(py, "t.py", "exec")
    assert '"http://" + "a:b@".repeat(5000) + "h/"' in js.render("url-parse", [c], [], "test")["url-parse.findings.test.js"]
    assert '"http://" + "a:b@".repeat(5000) + "h/"' in java.render("okhttp", [c], [], "test")[
        "src/test/java/urlwb/findings/OkHttpFindingsTest.java"]
    go = golang.render("go-net-url", [c], [], "test")
    assert '"http://" + strings.Repeat("a:b@", 5000) + "h/"' in go["findings_test.go"]
    corpus = next(v for k, v in go.items() if k.startswith("testdata/"))
    assert corpus.count("a:b@") == 5000   # the corpus file spells the input out: Go reads no expression there
    if shutil.which("gofmt"):
        (tmp_path / "f_test.go").write_text(go["findings_test.go"], encoding="utf-8")
        assert subprocess.run(["gofmt", "-e", "-l", str(tmp_path / "f_test.go")], capture_output=True).returncode == 0


def test_a_case_with_a_base_is_not_written_for_a_parser_without_one(tmp_path, capsys):
    rec = json.loads(URLLIB3_GROWTH.read_text(encoding="utf-8"))
    rec["base"] = "http://h/"
    f = tmp_path / "one.json"
    f.write_text(json.dumps(rec), encoding="utf-8")
    status = cli.main(["export", "tests", "--lang", "python", "urllib3", "--no-corpus", "--findings", str(f),
                       "--out", str(tmp_path / "out")])
    assert status == 1 and "has a base URL, and urllib3's API takes none" in capsys.readouterr().out


# every language module's read function, on made-up cases whose answers are not in doubt: a valid
# URL with all eight components, a rejected one, and a relative reference against a base
ALL_EIGHT = cases.Case("all_eight", "http://u:p@Example.com:8080/a/b?q=1#f", None, "components", "made up", "-", "-",
                       components=(("scheme", "http"), ("username", "u"), ("password", "p"), ("host", "example.com"),
                                   ("port", 8080), ("path", "/a/b"), ("query", "q=1"), ("fragment", "f")))
REJECTED = cases.Case("rejected", "http://[", None, "reject", "made up", "-", "-")
WITH_BASE = cases.Case("with_base", "../x?y#z", "http://h/a/b", "components", "made up", "-", "-",
                       components=(("scheme", "http"), ("host", "h"), ("port", None), ("path", "/x"),
                                   ("query", "y"), ("fragment", "z")))
RELEASES = [("python", "urllib3", "2.2.1", "python3"), ("python", "yarl", "1.9.4", "python3"),
            ("js", "url-parse", "1.5.10", "node"), ("js", "whatwg-url", "14.2.0", "node"),
            ("java", "okhttp", "4.12.0", "mvn"), ("java", "spring-uricomponents", "5.3.32", "mvn"),
            ("java", "apache-httpclient5", "5.3.1", "mvn"), ("go", "go-net-url", None, "go")]


@pytest.mark.slow
@pytest.mark.parametrize("lang, parser, version, tool", RELEASES, ids=[r[1] for r in RELEASES])
def test_every_suite_reads_its_parser_right(lang, parser, version, tool, tmp_path):
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    module = {"python": python, "js": js, "go": golang, "java": java}[lang]
    api_ = api.api_of(parser)
    chosen = [ALL_EIGHT] + ([REJECTED] if api_.can_reject else []) + ([WITH_BASE] if api_.takes_base else [])
    files = module.render(parser, chosen, [], "test")
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    if version is None:   # Go: the machine's own toolchain
        version = subprocess.run(["go", "env", "GOVERSION"], capture_output=True, text=True).stdout.strip()
    r = runner.run(lang, parser, version, tmp_path, sorted(files), log=lambda line: None)
    assert r.passed, r.output[-3000:]
