"""The exit-status contract (``urlwb/exitcodes.py``, docs/cli.md "Exit status"), held over every
command: 0 nothing new at or above ``--fail-on``, 1 something is, 2 a usage or configuration error,
3 the run could not complete; the SARIF's ``executionSuccessful`` and ``exitCode`` say the same.

Every command has its row (what makes it 1, what makes it 3) in ``exitcodes.COMMANDS`` and in
docs/cli.md, answers a bad flag with 2, and returns no status but 0 and 1 by hand (2 and 3 come only
from UsageError and Incomplete, or exitcodes' names). The commands that report findings are run
end to end on in-process parsers and planted ``py:`` oracles (no ``make oracles``):
:func:`contract_broken` reads what a run wrote (findings.jsonl, the SARIF log) and says how its
status breaks the contract; a planted ``ssrf`` that returns 0 on a bug is caught by it.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import pathlib
import re

import pytest

from urlwb import cli, exitcodes, oracles
from urlwb.findings import baseline as baselines

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI_DOC = ROOT / "docs" / "cli.md"


def schema_errors(log: dict) -> list[str]:
    """What the vendored OASIS SARIF 2.1.0 schema says against ``log`` (baselineState,
    suppressions, exitCode, originalUriBaseIds are its own fields)."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    return [e.message for e in jsonschema.Draft4Validator(schema).iter_errors(log)]


# -- every command ---------------------------------------------------------------------------------

def test_every_command_has_its_row_in_the_contract_and_in_docs():
    assert set(exitcodes.COMMANDS) == set(cli.SUBCOMMANDS)
    doc = CLI_DOC.read_text(encoding="utf-8")
    table = doc.split("<!-- exit-status:start -->")[1].split("<!-- exit-status:end -->")[0]
    rows = {m.group(1): (m.group(2).strip(), m.group(3).strip())
            for m in re.finditer(r"^\| `([a-z-]+)` \| (.*?) \| (.*?) \|$", table, re.M)}
    assert rows == exitcodes.COMMANDS


@pytest.mark.parametrize("command", sorted(cli.SUBCOMMANDS))
def test_every_command_answers_a_bad_flag_with_2(command, capsys):
    assert cli.main([command, "--no-such-flag-urlwb"]) == exitcodes.USAGE   # returned, not raised
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("urlwb")   # one line, no usage block


def _returned_ints(module) -> list[tuple[int, int]]:
    """(line, value) of every integer literal a ``return`` of ``module`` gives, directly or as
    either side of a conditional expression."""
    tree = ast.parse(pathlib.Path(module.__file__).read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Return) and node.value is not None:
            values = [node.value]
            if isinstance(node.value, ast.IfExp):
                values = [node.value.body, node.value.orelse]
            found += [(node.lineno, v.value) for v in values
                      if isinstance(v, ast.Constant) and type(v.value) is int]
    return found


@pytest.mark.parametrize("command", sorted(cli.SUBCOMMANDS))
def test_no_command_returns_a_status_outside_the_contract_by_hand(command):
    """2 is a UsageError and 3 an Incomplete (or exitcodes.USAGE, INCOMPLETE by name): a ``return
    3`` written by hand, or a 4, is a status the contract does not hold. 130 is an interrupt."""
    module = importlib.import_module(cli.SUBCOMMANDS[command][0])
    stray = [(line, v) for line, v in _returned_ints(module) if v not in (0, 1, 130)]
    # helpers that return counts, not statuses, are named in no run(): only statuses are checked
    run_lines = _run_return_lines(module)
    assert [x for x in stray if x[0] in run_lines] == []


def _run_return_lines(module) -> set[int]:
    tree = ast.parse(pathlib.Path(module.__file__).read_text(encoding="utf-8"))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "run")
    called = {c.func.id for c in ast.walk(fn) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
    lines = set()
    for n in tree.body:   # run() and the module's functions it returns through
        if isinstance(n, ast.FunctionDef) and (n is fn or n.name in called):
            lines |= {r.lineno for r in ast.walk(n) if isinstance(r, ast.Return)}
    return lines


def test_the_return_check_sees_a_planted_return_3(tmp_path):
    planted = tmp_path / "planted_status.py"
    planted.write_text("def run(args):\n    return _go()\n\n\ndef _go():\n    return 3 if args else 0\n")
    spec = importlib.util.spec_from_file_location("planted_status", planted)
    module = importlib.util.module_from_spec(spec)
    assert (6, 3) in _returned_ints(module) and 6 in _run_return_lines(module)


# -- what a run wrote, against its status ----------------------------------------------------------

def contract_broken(code: int, out: pathlib.Path, sarif: pathlib.Path | None, fail_on: str = "bug",
                    baseline: pathlib.Path | None = None, suppressed: set[str] = frozenset()) -> list[str]:
    """How ``code`` breaks the contract, given the findings.jsonl in ``out`` (what the run found),
    the causes in ``baseline`` and the signatures ``suppressed``; [] when it holds."""
    records = [json.loads(x) for x in (out / "findings.jsonl").read_text().splitlines() if x.strip()]
    known = baselines.load_baseline(baseline) if baseline else set()
    new = [r for r in records if baselines.baseline_key(r) not in known and r["signature"] not in suppressed]
    failing = [r for r in new if exitcodes.fails(r, fail_on)]
    problems = []
    if code not in (0, 1, 2, 3):
        problems.append(f"status {code} is not in the contract")
    if code in (0, 1) and (code == 1) != bool(failing):
        problems.append(f"status {code} with {len(failing)} new findings at or above {fail_on}")
    if sarif is not None:
        (inv,) = json.loads(sarif.read_text())["runs"][0]["invocations"]
        if inv["exitCode"] != code or inv["executionSuccessful"] != (code != exitcodes.INCOMPLETE):
            problems.append(f"SARIF says exitCode {inv['exitCode']}, executionSuccessful "
                            f"{inv['executionSuccessful']}; the run exited {code}")
    return problems


@pytest.fixture(autouse=True)
def bugged(tmp_path, monkeypatch):
    """A parser with a bug by its own contract, declared in the test folder's urlwb.toml, where
    every test runs; the user's oracles are forgotten after."""
    (tmp_path / "urlwb.toml").write_text(
        '[tool.urlwb.oracles.bugged]\ncommand = "py:planted_parser:parse"\nspec = "whatwg"\n'
        'docs = "https://example.org/bugged"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    before = set(oracles.REGISTRY)
    yield
    for name in set(oracles.REGISTRY) - before:
        oracles.REGISTRY.pop(name, None)


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    got = capsys.readouterr()
    return code, got.out, got.err


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    """A corpus of the test's own (ssrf files its bypasses), and the user's oracles forgotten after."""
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    before = set(oracles.REGISTRY)
    yield
    for name in set(oracles.REGISTRY) - before:
        oracles.REGISTRY.pop(name, None)


#: a bug: planted_parser declares the URL Standard (urlwb.toml, written by :func:`bugged`) and
#: reads the host evil.example where '~q' stands (urllib's 'ex%41mple.com', the bug this used,
#: is asserted by urllib's own tests: a hazard since issue 34)
BUG = ["diff", "http://a~q.example/", "--parsers", "engine,bugged"]
#: a hazard: urllib reads host c in 'http://a\b@c/', as RFC 3986 says; the Standard reads a
HAZARD = ["diff", "http://a\\b@c/", "--parsers", "engine,urllib"]
NOTHING = ["diff", "http://a/", "--parsers", "engine,urllib"]


@pytest.mark.parametrize("argv, fail_on, status", [
    (BUG, "bug", 1), (BUG, "never", 0), (HAZARD, "bug", 0), (HAZARD, "hazard", 1), (NOTHING, "hazard", 0),
])
def test_diff_fails_on_what_is_at_or_above_fail_on(argv, fail_on, status, tmp_path, capsys):
    out, sarif, junit = tmp_path / "out", tmp_path / "diff.sarif", tmp_path / "diff.xml"
    code, stdout, _ = run(capsys, [*argv, "--fail-on", fail_on, "--out", str(out), "--sarif", str(sarif),
                                   "--junit", str(junit)])
    assert code == status, stdout
    assert contract_broken(code, out, sarif, fail_on) == []
    assert f"exit status {status}: " in stdout
    # the JUnit file fails on what fails the run: a hazard at --fail-on hazard, nothing at never
    assert (junit.read_text().count("<failure ") > 0) == (status == 1)


def test_an_oracle_that_cannot_start_is_3_and_a_misdeclared_one_2(capsys):
    code, _, err = run(capsys, ["diff", "http://a/", "--parsers", "engine", "--oracle", "mine=py:no_such_module_urlwb:parse"])
    assert code == exitcodes.INCOMPLETE and "could not complete" in err.strip().splitlines()[-1]
    code, _, _ = run(capsys, ["diff", "http://a/", "--parsers", "engine", "--oracle", "mine=py:nomodule"])
    assert code == exitcodes.USAGE


SSRF_BUG = ["ssrf", "--oracle", "mine=py:planted:raises", "--parsers", "engine,urllib", "--clients", "none",
            "--guided-seconds", "0"]


def _ssrf_inputs(tmp_path) -> pathlib.Path:
    path = tmp_path / "inputs.txt"
    path.write_text("http://boom.example/\nhttp://127.1/\n")   # planted.raises: KeyError on "boom"
    return path


def test_ssrf_with_a_bug_is_1(tmp_path, corpus, capsys):
    """The planted validator raises KeyError, which its contract (ValueError rejects) does not
    allow: a crash, a bug, so 1 (ssrf returned 0 on such a run before the contract)."""
    out, sarif = tmp_path / "out", tmp_path / "s.sarif"
    code, stdout, _ = run(capsys, [*SSRF_BUG, "--inputs", str(_ssrf_inputs(tmp_path)), "--out", str(out),
                                   "--sarif", str(sarif)])
    records = [json.loads(x) for x in (out / "findings.jsonl").read_text().splitlines()]
    assert any(r["verdict"]["kind"] == "bug" and r["rule"] == "crash" for r in records)
    assert code == 1 and contract_broken(code, out, sarif) == []


def test_a_planted_ssrf_that_returns_0_on_a_bug_breaks_the_contract(tmp_path, corpus, capsys, monkeypatch):
    from urlwb.ssrf import command
    real = command.run
    monkeypatch.setattr(command, "run", lambda args: real(args) and 0)
    out = tmp_path / "out"
    code, _, _ = run(capsys, [*SSRF_BUG, "--inputs", str(_ssrf_inputs(tmp_path)), "--out", str(out),
                              "--sarif", str(tmp_path / "s.sarif")])
    assert code == 0
    broken = contract_broken(code, out, tmp_path / "s.sarif")
    assert any("status 0 with 1 new findings" in p for p in broken) and any("SARIF says exitCode 1" in p for p in broken)


def test_a_validator_that_cannot_start_is_3(tmp_path, corpus, capsys):
    code, stdout, err = run(capsys, ["ssrf", "--oracle", "mine=py:no_such_module_urlwb:allowed", "--parsers", "engine",
                                     "--clients", "none", "--inputs", str(_ssrf_inputs(tmp_path)),
                                     "--out", str(tmp_path / "out"), "--guided-seconds", "0"])
    assert code == exitcodes.INCOMPLETE and "validator mine cannot start" in err.strip().splitlines()[-1]


def test_minimize_of_an_input_that_passes_is_2(tmp_path, capsys):
    """Nothing to minimize: the question cannot be answered (it was 1, the status of a finding)."""
    passing = tmp_path / "ok.bin"
    passing.write_bytes(b"http://a/")
    code, _, err = run(capsys, ["minimize", "--target", "url", str(passing), "--seconds", "5",
                                "--out", str(tmp_path / "ok.min")])
    assert code == exitcodes.USAGE and "nothing to minimize" in err


def test_verdict_fails_on_its_level(capsys):
    code, stdout, _ = run(capsys, ["verdict", "http://a\\b@c/", "--parsers", "urllib"])
    assert code == 0 and '"kind": "hazard"' in stdout
    code, _, _ = run(capsys, ["verdict", "http://a\\b@c/", "--parsers", "urllib", "--fail-on", "hazard"])
    assert code == 1


# -- baselines and suppressions --------------------------------------------------------------------

TWO = ["diff", "http://a~q.example/", "http://a\\b@c/", "--parsers", "engine,urllib,rfc3986,bugged",
       "--fail-on", "hazard"]


@pytest.mark.parametrize("baseline_of", ["sarif", "findings.jsonl", "folder"])
def test_a_run_with_its_own_output_as_baseline_has_nothing_new_and_exits_0(baseline_of, tmp_path, capsys):
    first, s1 = tmp_path / "first", tmp_path / "first.sarif"
    code, _, _ = run(capsys, [*TWO, "--out", str(first), "--sarif", str(s1)])
    assert code == 1
    given = {"sarif": s1, "findings.jsonl": first / "findings.jsonl", "folder": first}[baseline_of]
    second, s2, j2 = tmp_path / "second", tmp_path / "second.sarif", tmp_path / "second.xml"
    code, stdout, _ = run(capsys, [*TWO, "--out", str(second), "--sarif", str(s2), "--junit", str(j2),
                                   "--baseline", str(given)])
    n = len((first / "findings.jsonl").read_text().splitlines())
    assert code == 0 and contract_broken(code, second, s2, "hazard", baseline=given) == []
    assert f"exit status 0: 0 new (0 bug, 0 hazard); 0 at or above --fail-on hazard; {n} unchanged" in stdout
    assert schema_errors(json.loads(s2.read_text())) == []
    results = json.loads(s2.read_text())["runs"][0]["results"]
    assert len(results) == n and {r["baselineState"] for r in results} == {"unchanged"}
    assert "<failure" not in j2.read_text()   # a bug in the baseline does not fail the JUnit report either
    # the second run's findings.jsonl is whole (the next run's baseline), not only the new
    assert len((second / "findings.jsonl").read_text().splitlines()) == n


def test_a_baseline_missing_one_cause_reports_that_one_new(tmp_path, capsys):
    first = tmp_path / "first"
    run(capsys, [*HAZARD, "--out", str(first)])
    code, stdout, _ = run(capsys, [*TWO, "--out", str(tmp_path / "second"), "--sarif", str(tmp_path / "s.sarif"),
                                   "--baseline", str(first)])
    states = [r["baselineState"] for r in json.loads((tmp_path / "s.sarif").read_text())["runs"][0]["results"]]
    assert code == 1 and states.count("unchanged") == 1 and states.count("new") == len(states) - 1 >= 1
    assert f"exit status 1: {len(states) - 1} new" in stdout


def _ignore_all(folder: pathlib.Path, records: list[dict], expires: str = "2999-12-31") -> None:
    entries = "".join(f'[[tool.urlwb.ignore]]\ncause = {json.dumps(baselines.baseline_key(r))}\n'
                      f'reason = "accepted: test {k}"\nexpires = {expires}\n\n' for k, r in enumerate(records))
    (folder / "urlwb.toml").write_text(entries)


def test_a_baseline_that_suppresses_everything_counts_what_it_suppressed(tmp_path, capsys, monkeypatch):
    """Every finding accepted in urlwb.toml: exit 0, and the run says how many it suppressed, each
    entry with its reason; the SARIF keeps each result with its suppression, the JUnit skips it."""
    first = tmp_path / "first"
    run(capsys, [*TWO, "--out", str(first)])
    records = [json.loads(x) for x in (first / "findings.jsonl").read_text().splitlines()]
    here = tmp_path / "here"
    here.mkdir()
    _ignore_all(here, records)
    monkeypatch.chdir(here)
    s, j = tmp_path / "s.sarif", tmp_path / "j.xml"
    code, stdout, _ = run(capsys, [*TWO, "--out", str(tmp_path / "second"), "--sarif", str(s), "--junit", str(j)])
    assert code == 0
    assert f"0 new (0 bug, 0 hazard); 0 at or above --fail-on hazard; {len(records)} suppressed" in stdout
    assert all(f"accepted: test {k}" in stdout for k in range(len(records)))
    assert schema_errors(json.loads(s.read_text())) == []
    results = json.loads(s.read_text())["runs"][0]["results"]
    assert len(results) == len(records)
    assert all(r["suppressions"][0]["status"] == "accepted" and "accepted: test" in r["suppressions"][0]["justification"]
               for r in results)
    assert j.read_text().count("suppressed (urlwb.toml") == len(records)
    assert contract_broken(code, tmp_path / "second", s, "hazard", suppressed={r["signature"] for r in records}) == []


def test_an_expired_entry_suppresses_nothing_and_says_so(tmp_path, capsys, monkeypatch):
    first = tmp_path / "first"
    run(capsys, [*BUG, "--out", str(first)])
    records = [json.loads(x) for x in (first / "findings.jsonl").read_text().splitlines()]
    _ignore_all(tmp_path, records, expires="2020-01-01")
    monkeypatch.chdir(tmp_path)
    code, stdout, err = run(capsys, [*BUG, "--out", str(tmp_path / "second")])
    assert code == 1 and "; 0 suppressed" in stdout and "expired on 2020-01-01" in err


@pytest.mark.parametrize("toml, says", [
    ('[[tool.urlwb.ignore]]\ncause = "x"\n', "a reason is required"),
    ('[[tool.urlwb.ignore]]\ncause = "x"\nsignature = "y"\nreason = "r"\n', "exactly one of"),
    ('[[tool.urlwb.ignore]]\ncause = "x"\nreason = "r"\nexpires = "soon"\n', "not a date"),
    ('[tool.urlwb.ignore]\ncause = "x"\n', "array of tables"),
])
def test_a_bad_ignore_entry_is_2_before_the_run(toml, says, tmp_path, capsys, monkeypatch):
    (tmp_path / "urlwb.toml").write_text(toml)
    monkeypatch.chdir(tmp_path)
    code, stdout, err = run(capsys, [*NOTHING, "--out", str(tmp_path / "out")])
    assert code == 2 and says in err and stdout == ""   # nothing ran


def test_a_bad_baseline_is_2_before_the_run(tmp_path, capsys):
    bad = tmp_path / "b.jsonl"
    bad.write_text("not json\n")
    code, stdout, err = run(capsys, [*NOTHING, "--out", str(tmp_path / "out"), "--baseline", str(bad)])
    assert code == 2 and "--baseline" in err and stdout == ""
    code, _, err = run(capsys, [*NOTHING, "--baseline", str(tmp_path / "none.sarif")])
    assert code == 2 and "none.sarif" in err


# -- portable reports ------------------------------------------------------------------------------

def _uris(log: dict) -> list[str]:
    """Every artifact URI of a SARIF log, wherever it stands (results, originalUriBaseIds...)."""
    found = []

    def walk(x):
        if isinstance(x, dict):
            found.extend(v for k, v in x.items() if k == "uri" and isinstance(v, str))
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(log)
    return found


def absolute_uris(log: dict) -> list[str]:
    """The URIs of ``log`` that name a place on this machine: absolute paths, file: URIs."""
    return [u for u in _uris(log) if u.startswith(("/", "file:")) or re.match(r"^[A-Za-z]:[\\/]", u)]


def test_the_absolute_path_check_fails_a_log_with_one():
    log = {"runs": [{"results": [{"locations": [{"physicalLocation": {"artifactLocation": {
        "uri": "/home/ci/work/reports/diff/findings.jsonl", "uriBaseId": "%SRCROOT%"}}}]}]}]}
    assert absolute_uris(log) == ["/home/ci/work/reports/diff/findings.jsonl"]


@pytest.mark.parametrize("where", ["outside", "inside"])
def test_sarif_uris_are_relative_whatever_out_is(where, tmp_path, capsys, monkeypatch):
    """An absolute --out, in the repository or outside it (a /tmp folder): no URI of the log is
    absolute; inside, it is the path from the repository root under %SRCROOT%."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "urlwb.toml").write_text((tmp_path / "urlwb.toml").read_text())   # bugged, there too
    monkeypatch.chdir(repo / ".git")   # a subfolder of the repository: the root is still repo/
    out = (repo / "reports" / "d") if where == "inside" else (tmp_path / "elsewhere" / "d")
    sarif = tmp_path / "s.sarif"
    code, _, _ = run(capsys, [*BUG, "--out", str(out.resolve()), "--sarif", str(sarif)])
    log = json.loads(sarif.read_text())
    assert code == 1 and absolute_uris(log) == [] and schema_errors(log) == []
    (loc,) = {json.dumps(r["locations"][0]["physicalLocation"]["artifactLocation"]) for r in log["runs"][0]["results"]}
    if where == "inside":
        assert json.loads(loc) == {"uri": "reports/d/findings.jsonl", "uriBaseId": "%SRCROOT%"}
    else:
        assert json.loads(loc) == {"uri": "findings.jsonl", "uriBaseId": "REPORTDIR"}
        assert "REPORTDIR" in log["runs"][0]["originalUriBaseIds"]


def test_reports_are_written_with_the_process_umask(tmp_path, capsys):
    import os
    old = os.umask(0o027)
    try:
        s, j, out = tmp_path / "s.sarif", tmp_path / "j.xml", tmp_path / "out"
        run(capsys, [*NOTHING, "--out", str(out), "--sarif", str(s), "--junit", str(j)])
    finally:
        os.umask(old)
    modes = {p.name: p.stat().st_mode & 0o777 for p in (s, j, out / "findings.jsonl")}
    assert modes == {"s.sarif": 0o640, "j.xml": 0o640, "findings.jsonl": 0o640}


def test_a_run_that_could_not_complete_is_3_and_its_sarif_says_so(tmp_path, capsys):
    """The campaign's way (a round failed, its findings still written): exitcodes.conclude with
    what could not be done; a bug among the findings does not hide it."""
    import argparse
    from urlwb.findings.record import make_finding, verdict
    rec = make_finding(input="http://x/", parser="p", rule="crash", signature="crash:p",
                       verdict=verdict("bug", "own", "its docs", "crash"))
    s = tmp_path / "s.sarif"
    args = argparse.Namespace(sarif=s, junit=None, fail_on="bug", baseline=None)
    code = exitcodes.conclude(args, [rec], "campaign", tmp_path, incomplete=["round failed: fuzzing url: boom"])
    assert schema_errors(json.loads(s.read_text())) == []
    (inv,) = json.loads(s.read_text())["runs"][0]["invocations"]
    assert code == 3 and (inv["exitCode"], inv["executionSuccessful"]) == (3, False)
    assert inv["toolExecutionNotifications"][0]["message"]["text"] == "round failed: fuzzing url: boom"
    assert "incomplete: round failed" in capsys.readouterr().err


def test_a_filed_finding_names_no_absolute_path_in_the_sarif(tmp_path, corpus, capsys):
    """ssrf's hunt files its bypasses (in a corpus outside the repository here): the location and
    the record in the log name each entry relative to the corpus, not by its absolute path."""
    sarif = tmp_path / "s.sarif"
    code, _, _ = run(capsys, ["ssrf", "--oracle", "mine=py:planted:permissive", "--parsers", "engine,urllib",
                              "--clients", "none", "--minutes", "0.02", "--batch", "500", "--guided-seconds", "0",
                              "--out", str(tmp_path / "report"), "--sarif", str(sarif)])
    text = sarif.read_text()
    log = json.loads(text)
    filed = [r["properties"]["finding"]["filed"] for r in log["runs"][0]["results"] if r["properties"]["finding"].get("filed")]
    assert code in (0, 1) and filed and absolute_uris(log) == [] and schema_errors(log) == []
    assert str(tmp_path) not in text, [x for x in re.findall(r'"[^"]*' + re.escape(str(tmp_path)) + r'[^"]*"', text)][:3]
    # relative to the corpus, or to the working folder that holds it (this test runs in tmp_path)
    assert all(f.startswith(("ssrf/regress/", "corpus/ssrf/regress/")) for f in filed), filed


def test_the_campaign_counts_only_the_rounds_new_entries(tmp_path, capsys):
    """The campaign renders every open regress entry; those it did not file this round are its
    baseline (exitcodes.conclude's ``known``): an old open bug alone is 0, a new one 1."""
    import argparse
    from urlwb.findings.record import make_finding, verdict
    old, new = (make_finding(input=f"http://{n}/", parser="p", rule="crash", signature=f"crash:{n}",
                             verdict=verdict("bug", "own", "its docs", "crash")) for n in ("old", "new"))
    s = tmp_path / "s.sarif"
    args = argparse.Namespace(sarif=s, junit=None, fail_on="bug", baseline=None)
    assert exitcodes.conclude(args, [old], "campaign", tmp_path, known=["crash:old"]) == 0
    assert [r["baselineState"] for r in json.loads(s.read_text())["runs"][0]["results"]] == ["unchanged"]
    assert exitcodes.conclude(args, [old, new], "campaign", tmp_path, known=["crash:old"]) == 1
    assert "1 new (1 bug, 0 hazard)" in capsys.readouterr().out
