"""``urlwb reach`` measures a parser's own code with its language's tool: one smoke test per
language on a few inputs, each skipped with one line where that language's oracle (or the
tool's cached build) is not here.

The Go test needs the instrumented adapter ``urlwb/oracles/go/build/cover/urlwb-go`` (a build of a
minute: made by the first ``urlwb reach go-net-url``), the JVM test JaCoCo's jars in
``urlwb/reach/jacoco/build/`` (fetched by the first ``urlwb reach okhttp``): each skips when its
cache is absent, with the command that makes it.
"""

from __future__ import annotations

import pytest

from urlwb import oracles
from urlwb.cli import main
from urlwb.reach import command, golang, jvm, targets

#: a few inputs that enter a URL parser's main paths: authority, path, query, fragment, a base
ITEMS = [("http://user:pass@example.com:8080/a/b?q=1#f", None), ("https://[::1]/x", None),
         ("../c?d", "http://h/a/b"), ("mailto:x@y", None), ("http://a b/", None)]


def _skip_unless_ready(name: str) -> None:
    skip = oracles.REGISTRY[name].skip
    if skip:
        pytest.skip(f"{name}: {skip}")


def _entered(reach) -> set[str]:
    return {f.name for f in reach.functions if f.entered}


def test_python_reach_counts_only_the_parsers_module_and_what_the_inputs_entered():
    r = command.measure_one("urllib", ITEMS)
    assert r.files == ["urllib/parse.py"]
    entered = _entered(r)
    assert {"urlsplit", "urljoin"} <= entered
    assert "urlencode" in {f.name for f in r.never_entered()}
    t = r.totals(entered_only=True)
    assert 0 < t["lines_hit"] <= t["lines"] and 0 < t["branches_hit"] < t["branches"]


def test_a_py_oracle_is_measured_on_its_own_module(monkeypatch):
    names = oracles.configure(["planted-lin=py:planted_growth:linear"], config=False)
    try:
        r = command.measure_one("planted-lin", ITEMS)
    finally:
        oracles.REGISTRY.pop(names[0], None)
    assert r.files == ["planted_growth.py"]
    assert {"linear", "_split", "_answer"} <= _entered(r)
    assert "quadratic_at" in {f.name for f in r.never_entered()}


def test_go_reach():
    _skip_unless_ready("go-net-url")
    if not golang.BINARY.exists():
        pytest.skip(f"no instrumented Go adapter at {golang.BINARY} (made by `urlwb reach go-net-url`)")
    r = command.measure_one("go-net-url", ITEMS)
    assert r.files == ["net/url/url.go"]
    assert {"Parse", "parse", "parseAuthority"} <= _entered(r)
    assert r.totals()["lines"] > r.totals(entered_only=True)["lines"] > 0


def test_jvm_reach():
    _skip_unless_ready("okhttp")
    if not (jvm.AGENT.exists() and jvm.CLI.exists()):
        pytest.skip(f"JaCoCo's jars are not in {jvm.AGENT.parent} (fetched by `urlwb reach okhttp`)")
    r = command.measure_one("okhttp", ITEMS)
    assert "okhttp3/HttpUrl.kt" in r.files
    assert any(n.startswith("HttpUrl$Builder.parse") for n in _entered(r))
    t = r.totals(entered_only=True)
    assert 0 < t["branches_hit"] < t["branches"]


def test_node_reach():
    _skip_unless_ready("url-parse")
    r = command.measure_one("url-parse", ITEMS)
    assert "url-parse/index.js" in r.files
    assert {"Url", "extractProtocol"} <= _entered(r)
    assert "querystringify/index.js" in r.files


def test_a_parser_no_tool_measures_is_one_line():
    reason = command.measure_one("php-parse-url", ITEMS)
    assert isinstance(reason, str) and "\n" not in reason
    # every registered shipped parser's card says what is measured or why not (the schema: not both)
    shipped = [n for n, e in oracles.REGISTRY.items() if e.spec is None or e.spec.source == "manifest"]
    assert not [n for n in shipped if targets.target(n) == targets.NOT_WIRED]


@pytest.mark.parametrize("argv", [["reach", "--parsers", "nosuch"], ["reach", "--parsers", "urllib", "--corpus", "/nonexistent"],
                                  ["reach", "--parsers", "urllib", "--generate", "-1"], ["reach", "--parsers", "urllib", "--top", "0"]])
def test_usage_errors_are_one_line_and_exit_2(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("urlwb reach: ")


def test_the_command_writes_its_report(tmp_path, capsys):
    assert main(["reach", "--parsers", "urllib,php-parse-url", "--generate", "20", "--out", str(tmp_path)]) == 0
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "| urllib |" in md and "php-parse-url" in md and "Functions never entered" in md
    assert (tmp_path / "report.html").exists() and (tmp_path / "summary.json").exists()


def test_ruby_reach():
    _skip_unless_ready("ruby-uri-rfc3986")
    r = command.measure_one("ruby-uri-rfc3986", ITEMS)
    assert "uri/rfc3986_parser.rb" in r.files
    assert "RFC3986_Parser#parse" in _entered(r) or "RFC3986_Parser#split" in _entered(r)
    # a method never called is not entered, though its `def` line ran at load
    assert any(f.name.endswith("#inspect") for f in r.never_entered())
