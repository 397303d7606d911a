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
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from urlwb import cli
from urlwb.errors import Incomplete
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
    assert status == 2   # no test to write: what ran cannot answer (urlwb.exitcodes)
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
    start) is a run that did not complete (exit status 3), not "fails on this release"; so is a
    failing build step."""
    monkeypatch.setitem(runner.STEPS, "python", lambda *a: [([sys.executable, "-c", "raise SystemExit(4)"], {}, False)])
    with pytest.raises(Incomplete, match="did not run"):
        runner.run("python", "urllib3", "1.26.4", tmp_path, [])
    monkeypatch.setitem(runner.STEPS, "python", lambda *a: [([sys.executable, "-c", "raise SystemExit(1)"], {}, False),
                                                           ([sys.executable, "-c", "pass"], {}, False)])
    with pytest.raises(Incomplete, match="did not build"):
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
    assert cli.main(argv) == 1   # the findings hold on the old release: 1 (urlwb.exitcodes)
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
    assert status == 2 and "has a base URL, and urllib3's API takes none" in capsys.readouterr().out


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


# --- a suite asserts only what the fixed release does (issue 37) ---------------------------------

YARL_HISTORY = ROOT / "corpus" / "history" / "yarl"
#: fixed upstream in 1.17.2 (aio-libs/yarl#1413): 'c://m:0/\\', whose path the URL Standard keeps
#: as '/\\' and yarl 1.25.1 writes '/%5C' (a reading of its own, not the finding's)
YARL_BACKSLASH = YARL_HISTORY / "f39f77b62acc799a83a924ae44f1a724810e788c.json"
#: fixed in 1.17.2 too: 'a://-:0/', host '-' and path '/'
YARL_SCHEME = YARL_HISTORY / "ae0d66078da598dedcb3a342595656f36417b37b.json"
#: a planted yarl: the engine's reading in yarl's API; release 1.25.1 percent-encodes a backslash
#: in the path (as the real one does), release 1.8.2 reads no host where the port is 0 (the bug)
PLANTED_YARL = '''import os
from urlwb.strategies.invariants import standard_parse
import urllib.parse

RELEASE = os.environ["PLANTED_YARL_RELEASE"]


class URL:
    def __init__(self, text):
        href = standard_parse(text)
        u = urllib.parse.urlsplit(href)
        self.scheme, self.raw_host = u.scheme, u.hostname
        self.raw_user, self.raw_password = u.username, u.password
        self.explicit_port = int(u.port) if u.port is not None else None
        self.raw_path, self.raw_query_string, self.raw_fragment = u.path, u.query, u.fragment
        if RELEASE == "1.25.1":
            self.raw_path = self.raw_path.replace("\\\\", "%5C")
        elif ":0/" in text:
            self.raw_host = None
'''


@pytest.fixture
def planted_yarl(tmp_path, monkeypatch):
    """``--run VERSION`` runs the suite on the planted yarl at VERSION (no registry)."""
    site = tmp_path / "planted-yarl"
    site.mkdir()
    (site / "yarl.py").write_text(PLANTED_YARL, encoding="utf-8")

    def steps(parser, version, folder, files, log):
        test = next(f for f in files if f.endswith(".py"))
        env = {"PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]), "PLANTED_YARL_RELEASE": version}
        return [([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test], env, False)]

    monkeypatch.setitem(runner.STEPS, "python", steps)
    monkeypatch.setattr(runner, "resolve", lambda lang, parser, versions: [runner.Release(v, v) for v in versions])
    return site


def test_a_case_that_fails_on_the_fixed_release_is_dropped_not_written(planted_yarl, tmp_path, capsys):
    """The suite runs on both releases before it is written: the backslash case, which fails on
    the release at or after its fix, is dropped with the failure as its one-line reason; the rest
    is written, fails on the release with the bug and passes on the fixed one. --lang is python,
    yarl's language, without being asked."""
    out = tmp_path / "out"
    argv = ["export", "tests", "yarl", "--no-corpus", "--findings", str(YARL_BACKSLASH), "--findings", str(YARL_SCHEME),
            "--out", str(out), "--run", "1.8.2", "--run", "1.25.1"]
    assert cli.main(argv) == 1   # the old release fails a kept case: a finding that holds there (docs/cli.md)
    said = capsys.readouterr().out
    assert (f"skipped {YARL_BACKSLASH}: backslash_f39f77b6: fails on yarl@1.25.1, at or after its fix (1.17.2): "
            "{'path': '/%5C'} != {'path': '/\\\\'}\n") in said, said
    assert "wrote 1 test for yarl (python)" in said
    assert "yarl@1.8.2: FAILED" in said and "failed: test_yarl_findings.py::test_finding[scheme_mixup_ae0d6607]" in said
    assert "yarl@1.25.1: passed" in said
    suite = (out / "test_yarl_findings.py").read_text(encoding="utf-8")
    rows = suite.split("CASES = [", 1)[1].split("]\n", 1)[0]
    assert "scheme_mixup_ae0d6607" in rows and "backslash_f39f77b6" not in rows
    assert f"not written: {YARL_BACKSLASH}: backslash_f39f77b6: fails on yarl@1.25.1" in suite
    assert "--run 1.8.2 --run 1.25.1" in suite


def test_the_language_is_the_parsers_own_unless_asked(tmp_path, capsys):
    assert cli.main(["export", "tests", "url-parse", "--no-corpus", "--findings", str(URL_PARSE_PORT),
                     "--out", str(tmp_path)]) == 0
    assert "for url-parse (js)" in capsys.readouterr().out
    assert cli.main(["export", "tests", "no-such-parser"]) == 2
    err = capsys.readouterr().err
    assert "no language suite for it (known: go: go-net-url" in err and len(err.strip().splitlines()) == 1


def test_a_release_without_a_wheel_here_runs_as_the_nearest_one_that_has():
    """yarl 1.8.1 has wheels up to CPython 3.10 only; on 3.11 the nearest release with one runs
    (1.8.2, the older of two as near); a release none near can run is refused."""
    from packaging.tags import parse_tag

    from urlwb.oracles.versions import registries
    here = frozenset(parse_tag("cp311-cp311-manylinux_2_17_x86_64")) | frozenset(parse_tag("py3-none-any"))
    wheels = {"1.8.0": ["yarl-1.8.0-cp310-cp310-manylinux_2_17_x86_64.whl"],
              "1.8.1": ["yarl-1.8.1-cp310-cp310-manylinux_2_17_x86_64.whl"],
              "1.8.2": ["yarl-1.8.2-cp311-cp311-manylinux_2_17_x86_64.whl"],
              "1.9.0": [], "1.9.2": ["yarl-1.9.2-cp311-cp311-manylinux_2_17_x86_64.whl"],
              "1.10.0": ["yarl-1.10.0-py3-none-any.whl"]}
    assert registries.nearest_with_wheel(wheels, "1.8.1", here) == "1.8.2"
    assert registries.nearest_with_wheel(wheels, "1.9.0", here) == "1.8.2"   # as near as 1.9.2: the older
    assert registries.nearest_with_wheel(wheels, "1.10.0", here) == "1.10.0"
    assert registries.nearest_with_wheel({"1.0": ["x-1.0-cp27-cp27m-win32.whl"]}, "1.0", here) is None


@pytest.mark.slow
def test_the_yarl_suite_holds_on_the_fixed_release(tmp_path, capsys):
    """issue 37's run, from PyPI: ``urlwb export tests --lang python yarl --run 1.8.1 --run 1.25.1``
    (1.8.1 has no wheel for 3.11 and up: its nearest, 1.8.2, runs) fails on the old release and
    passes on the fixed one; the two cases yarl 1.25.1 reads its own way are dropped."""
    argv = ["export", "tests", "--lang", "python", "yarl", "--out", str(tmp_path), "--run", "1.8.1", "--run", "1.25.1"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "yarl@1.25.1: passed" in out and "FAILED" in out.split("yarl@1.25.1:")[0], out
    assert "fails on yarl@1.25.1, at or after its fix" in out
