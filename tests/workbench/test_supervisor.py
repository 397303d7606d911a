"""The oracle supervisor, manifests and ``urlwb oracle check``, against a deliberately broken
adapter (``tests/oracles/broken_adapter.py``): each way an adapter goes wrong is reported as
``docs/oracle-protocol.md`` says, and the run finishes."""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from urlwb import cli, oracles
from urlwb.differential import classify
from urlwb.oracles import Record, Unavailable, manifests, protocol, supervisor
from urlwb.oracles.host_answer import HostAnswer

ROOT = pathlib.Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "oracles" / "broken_adapter.py"
ITEMS = [(f"http://h{i}/p?q#f", None) for i in range(600)]


def spec(*modes, **fields) -> manifests.Spec:
    s = manifests.user_spec("broken", [sys.executable, str(BROKEN), *modes], "flag")
    return dataclasses.replace(s, **{"deadline": 1.0, **fields})


def start(*modes, **fields) -> supervisor.SubprocessOracle:
    o = supervisor.SubprocessOracle(spec(*modes, **fields))
    o.ready()
    return o


def run_all(*modes, items=ITEMS, **fields):
    o = start(*modes, **fields)
    try:
        return o.parse_many(items), o.sup
    finally:
        o.close()


@pytest.fixture
def registry():
    """The registry as it was: the user's oracles registered by a test do not leak."""
    saved = dict(oracles.REGISTRY)
    yield oracles.REGISTRY
    oracles.REGISTRY.clear()
    oracles.REGISTRY.update(saved)


def the_rest_answered(recs, but):
    return all(r.ok and r.host == f"h{i}" for i, r in enumerate(recs) if i not in but)


# --- the supervisor ----------------------------------------------------------------------------

def test_a_correct_adapter_answers_everything_in_order_of_the_requests():
    recs, sup = run_all()
    assert the_rest_answered(recs, ()) and sup.counts == {"answered": 600}
    assert not sup.incidents and not sup.findings and sup.restarts == 0


def test_answers_out_of_order_are_matched_by_id():
    recs, sup = run_all("reorder")
    assert the_rest_answered(recs, ()) and not sup.incidents


def test_a_crash_on_one_input_is_pinned_on_that_input_and_the_run_goes_on():
    recs, sup = run_all("crash=h77/")
    assert recs[77].crash and not recs[77].hung and "exit status 3" in recs[77].crash
    assert "broken_adapter: boom" in recs[77].crash  # the last line of its standard error
    assert the_rest_answered(recs, {77}) and sup.counts["crashed"] == 1
    assert [f[:3] for f in sup.findings] == [("oracle-crashed", "died", "http://h77/p?q#f")]
    assert "sending them again one at a time" in sup.incidents[0] and sup.given_up is None


def test_a_hang_on_one_input_is_an_oracle_hung_record_after_the_deadline():
    t0 = time.monotonic()
    recs, sup = run_all("hang=h55/", deadline=0.5)
    assert recs[55].hung and recs[55].crash and time.monotonic() - t0 < 10
    assert the_rest_answered(recs, {55}) and sup.counts["hung"] == 1
    assert sup.findings[0][:3] == ("oracle-hung", "hung", "http://h55/p?q#f")
    assert classify.classify("x", Record(False, "http", host="a"), recs[55]).cls == "oracle-hung"


@pytest.mark.parametrize("mode, reason", [
    ("garbage", "not JSON"),
    ("unknown-id", "an answer for an unknown id"),
    ("duplicate", "a repeated answer for id"),
    ("schema", "port must be an integer"),
])
def test_a_bad_line_is_an_oracle_crashed_record_on_the_input_it_claims(mode, reason):
    recs, sup = run_all(f"{mode}=h9/")
    assert recs[9].crash and reason in recs[9].crash
    assert the_rest_answered(recs, {9}) and sup.counts["crashed"] == 1 and sup.restarts == 1
    assert sup.findings[0][2] == "http://h9/p?q#f"
    assert sum(sup.counts.values()) == len(ITEMS)  # nothing counted twice, nothing dropped


def test_after_max_restarts_the_oracle_is_given_up_and_the_rest_is_not_applicable():
    recs, sup = run_all("crash=/p", max_restarts=2)
    assert sup.given_up and "given up after 2 restarts" in sup.given_up
    assert recs[0].crash and recs[-1] is None
    assert sup.counts["not applicable"] > 500 and sum(sup.counts.values()) == len(ITEMS)


def test_inputs_longer_than_max_input_and_bases_it_does_not_take_are_not_applicable():
    items = [("http://a/" + "x" * 100, None), ("http://a/", None), ("x", "http://b/")]
    recs, sup = run_all("base=false", items=items, max_input=50)
    assert recs[0] is None and recs[1].ok and recs[2] is None
    assert sup.counts == {"answered": 1, "not applicable": 2}


@pytest.mark.parametrize("mode, reason", [
    ("no-hello", "no hello line within 0.5 s"),
    ("bad-hello", "not a hello line"),
])
def test_an_adapter_without_a_proper_hello_line_cannot_start(mode, reason):
    o = supervisor.SubprocessOracle(spec(mode, start_deadline=0.5))
    with pytest.raises(Unavailable, match=reason):
        o.ready()
    assert o.sup.child.proc.poll() is not None


def test_the_hostile_strings_survive_the_pipe():
    items = [("http://a/\udc80x", None), ("http://a/\x00\x01\x7f\x85", None),
             ("http://a/\U0001F600?\u2028#\u2029", None), ("http://a/" + "x" * 999_991, None)]
    recs, sup = run_all(items=items)
    assert [r.path for r in recs[:3]] == ["/\udc80x", "/\x00\x01\x7f\x85", "/\U0001F600"]
    assert recs[2].query == "\u2028" and len(recs[3].path) == 999_992 and not sup.incidents


def test_an_oracle_started_from_a_thread_that_ends_keeps_running():
    # The parent-death signal follows the thread that forked the child: children are forked by
    # one long-lived spawner thread, never by the (short-lived) thread that asked.
    box = []
    t = threading.Thread(target=lambda: box.append(start()))
    t.start()
    t.join()
    time.sleep(0.3)
    try:
        assert box[0].sup.child.proc.poll() is None
        assert box[0].parse("http://a/").host == "a"
    finally:
        box[0].close()


def test_no_child_survives_a_sigkill_of_the_workbench(tmp_path):
    program = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from urlwb.oracles import manifests, supervisor
        s = manifests.user_spec("b", [sys.executable, {str(BROKEN)!r}, "hang=HANG"], "flag")
        o = supervisor.SubprocessOracle(s)
        o.ready()
        print(o.sup.child.proc.pid, flush=True)
        o.parse("http://HANG/")   # busy: the adapter never answers, never reads again
    """)
    parent = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    assert _alive(child)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child), f"adapter {child} outlived the workbench"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is dead
    except FileNotFoundError:
        return False


def test_a_host_level_adapter_answers_its_questions():
    o = supervisor.SubprocessHostOracle(spec("host", kind="host"))
    try:
        assert o.questions == ("to-ascii", "ip")
        got = o.answer_many([("to-ascii", "bücher.example"), ("ip", "[::1]"), ("ip", "0x7f.1"),
                             ("public-suffix", "example.com")])
        assert got[:3] == [HostAnswer(False, "xn--bcher-kva.example"), HostAnswer(False, "[::1]"), HostAnswer(True)]
        assert got[3] is None  # a question it does not answer is not sent
    finally:
        o.close()


def test_oracle_check_passes_a_correct_host_level_adapter():
    r = urlwb("oracle", "check", sys.executable, str(BROKEN), "host")
    assert r.returncode == 0 and "host questions: 10 in" in r.stdout, r.stdout


# --- the protocol's schema ---------------------------------------------------------------------

@pytest.mark.parametrize("obj, reason", [
    ({"id": 1}, "exactly one of"),
    ({"id": 1, "error": "x", "scheme": "a"}, "exactly one of"),
    ({"id": 1, "scheme": "a"}, "missing username"),
    ({"id": 1, "api": {"href": "x"}}, "protocol must be a string"),
    ({"id": 1, "error": 5}, "error must be a string"),
])
def test_answers_out_of_schema_are_refused_with_the_reason(obj, reason):
    with pytest.raises(protocol.SchemaError, match=reason):
        protocol.url_answer(obj)


def test_answer_forms_become_records():
    c = {"scheme": "http", "username": "", "password": None, "host": "[::1]", "port": 8,
         "path": "/", "query": None, "fragment": "", "href": "http://[::1]:8/#"}
    assert protocol.url_answer(c) == Record(False, "http", "", None, "[::1]", 8, "/", None, "", "http://[::1]:8/#")
    assert protocol.url_answer({**c, "scheme": None}) == oracles.FAILURE  # no scheme: not a URL
    assert protocol.url_answer({"error": "bad"}) == oracles.FAILURE
    assert protocol.url_answer({"not_applicable": "NUL"}) is None
    api = {"href": "http://a/?", "protocol": "http:", "username": "", "password": "", "hostname": "a",
           "port": "", "pathname": "/", "search": "", "hash": ""}
    assert protocol.url_answer({"api": api}).query == ""
    assert protocol.host_answer({"value": "xn--a"}) == HostAnswer(False, "xn--a")
    assert protocol.host_answer({"error": "x"}) == HostAnswer(True)


# --- manifests and the user's own oracles -------------------------------------------------------

def write_manifest(folder: pathlib.Path, text: str) -> pathlib.Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "oracles.toml").write_text(textwrap.dedent(text), encoding="utf-8")
    return folder / "oracles.toml"


def test_a_manifest_oracle_missing_its_command_or_build_is_skipped_naming_make_oracles(tmp_path):
    f = manifests.read_folder(write_manifest(tmp_path / "x", """
        language = "X"
        requires = ["no-such-command-urlwb"]
        apt = ["x-pkg"]
        [[oracle]]
        name = "x-one"
        command = ["build/x"]
    """))
    assert "no-such-command-urlwb not found on PATH" in f.specs[0].skip and "make oracles" in f.specs[0].skip
    f = manifests.read_folder(write_manifest(tmp_path / "y", """
        requires = ["sh"]
        [[oracle]]
        name = "y-one"
        command = ["{python}", "build/y.py"]
        deadline = 2
    """))
    s = f.specs[0]
    assert s.command[0] == sys.executable and s.deadline == 2.0
    assert s.skip == "build/y.py is not built (run `make oracles`)"


@pytest.mark.parametrize("text, reason", [
    ("[[oracle]]\nname = 'Bad Name'\ncommand = ['x']\n", "name must match"),
    ("[[oracle]]\nname = 'a'\ncommand = []\n", "command must be"),
    ("[[oracle]]\nname = 'a'\ncommand = ['x']\ndeadline = 'soon'\n", "deadline must be a number"),
    ("[[oracle]]\nname = 'a'\ncommand = ['x']\nfamily = 'w3c'\n", "family must be"),
    ("colour = 1\n[[oracle]]\nname = 'a'\ncommand = ['x']\n", "unknown field 'colour'"),
    ("language = \n", "Invalid"),
])
def test_a_manifest_that_cannot_be_read_is_one_line(tmp_path, text, reason):
    f = manifests.read_folder(write_manifest(tmp_path / "z", text))
    assert f.error and reason in f.error and "\n" not in f.error and not f.specs


def test_known_deviations_are_read_from_a_card(tmp_path, monkeypatch, capsys):
    # the card names a predicate of urlwb.oracles.deviations (or py:package.module:function);
    # one it does not know is named on one line and left out, never fatal
    folder = tmp_path / "w"
    write_manifest(folder, """
        [[oracle]]
        name = "w-one"
        command = ["sh"]
        [[oracle.deviations]]
        when = "ascii_xn_domain"
        reason = "rejects an xn-- label it cannot decode"
        [[oracle.deviations]]
        when = "no_such_predicate"
        reason = "never loaded"
        [[oracle.deviations]]
        when = "py:tests.workbench.test_supervisor:rejects_everything"
        reason = "rejects everything"
        """)
    spec = manifests.read_folder(folder / "oracles.toml").specs[0]
    monkeypatch.setitem(oracles.REGISTRY, "w-one", oracles.Entry(
        "w-one", "other", "?", "urlwb.oracles.supervisor", "SubprocessOracle", spec))
    right = Record(False, "https", host="xn--")
    assert classify.known_deviation("w-one", right, oracles.FAILURE, "https://xn--/") == \
        "rejects an xn-- label it cannot decode"
    assert classify.known_deviation("w-one", Record(False, "http", host="a"), oracles.FAILURE) == "rejects everything"
    assert classify.known_deviation("node", Record(False, "http", host="a"), oracles.FAILURE, "http://a/") is None
    err = capsys.readouterr().err.strip()
    assert err.startswith("urlwb: w-one: known deviation not loaded") and "no_such_predicate" in err
    assert "\n" not in err


def rejects_everything(right, peer, input, base):
    return peer.failure


def test_every_shipped_card_names_known_deviation_predicates_that_exist(capsys):
    from urlwb.oracles import deviations
    listed = deviations.listed()
    assert capsys.readouterr().err == ""
    assert {(n, r) for n, _, r in listed} and all(callable(p) for _, p, _ in listed)
    # every card that lists one gets it, and nothing else does
    assert {n for n, _, _ in listed} == {n for n, e in oracles.REGISTRY.items() if e.card and e.card.deviations}


@pytest.mark.parametrize("flag, reason", [
    ("mine", "expected NAME=COMMAND"),
    ("mine=", "expected NAME=COMMAND"),
    ("Mine!=x", "a name is lowercase"),
    ("mine=/no/such/program", "is not an executable program"),
    ("mine=py:nomodule", "expected py:package.module:function"),
    ("node=sh", "the name of a shipped oracle"),
])
def test_a_misconfigured_oracle_flag_is_one_line_and_exit_2(registry, flag, reason, capsys):
    assert cli.main(["diff", "http://a/", "--parsers", "engine", "--oracle", flag]) == 2
    err = capsys.readouterr().err.strip()
    assert reason in err and "\n" not in err, err


def test_an_oracle_that_cannot_start_is_exit_3(registry, capsys):
    """Well declared, and it cannot start: the run cannot complete (urlwb.exitcodes), not a usage error."""
    assert cli.main(["diff", "http://a/", "--parsers", "engine", "--oracle",
                     "mine=py:no_such_module_urlwb:parse"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert "oracle mine cannot start" in err[-1] and "no_such_module_urlwb" in err[-1]


def test_oracle_flag_runs_a_program_and_a_python_callable(registry, tmp_path, monkeypatch, capsys):
    (tmp_path / "my_parsers.py").write_text(textwrap.dedent("""
        import urllib.parse

        def parse(input, base):
            s = urllib.parse.urlsplit(input)
            if not s.scheme:
                raise ValueError("not absolute")
            return {"scheme": s.scheme, "username": None, "password": None, "host": s.hostname,
                    "port": None, "path": s.path, "query": None, "fragment": None, "href": input}
        parse.version = "1.2"
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    code = cli.main(["diff", "http://a\\\\b@evil.com/", "--parsers", "engine", "--oracle",
                     f"prog={sys.executable} {BROKEN}", "--oracle", "mine=py:my_parsers:parse"])
    out = capsys.readouterr().out
    assert code == 0
    assert "prog " in out and "mine " in out and "mine 1.2" in out and "host or origin differs" in out


def test_oracles_from_the_config_table_of_the_working_directory(registry, tmp_path, monkeypatch, capsys):
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent(f"""
        [tool.urlwb.oracles]
        tabled = "{sys.executable} {BROKEN} name=x"
        slow = {{ command = ["{sys.executable}", "{BROKEN}"], deadline = 7 }}
    """))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["diff", "http://a/", "--parsers", "engine,tabled,slow"]) == 0
    out = capsys.readouterr().out
    assert "tabled " in out and "slow " in out
    assert oracles.REGISTRY["slow"].spec.deadline == 7.0


def test_a_bad_config_table_is_one_line_and_exit_2(registry, tmp_path, monkeypatch, capsys):
    (tmp_path / "urlwb.toml").write_text("[tool.urlwb.oracles]\nmine = 5\n")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["diff", "http://a/"]) == 2
    err = capsys.readouterr().err.strip()
    assert "urlwb.toml: oracle 'mine'" in err and "\n" not in err


def test_diff_names_an_oracle_that_crashed_or_hung_exits_1_and_still_writes_its_report(
        registry, tmp_path, monkeypatch, capsys):
    f = tmp_path / "inputs.txt"
    f.write_text("".join(f"http://h{i}/\n" for i in range(30)) + "http://CRASH/\nhttp://HANG/\n")
    (tmp_path / "urlwb.toml").write_text(
        f'[tool.urlwb.oracles]\nb = {{ command = ["{sys.executable}", "{BROKEN}", "crash=CRASH", '
        f'"hang=HANG"], deadline = 1 }}\n')
    monkeypatch.chdir(tmp_path)
    code = cli.main(["diff", "--file", str(f), "--parsers", "engine,b", "--out", str(tmp_path / "r"),
                     "--no-hosts"])
    captured = capsys.readouterr()
    assert code == 1
    lines = [x for x in captured.err.splitlines() if x.startswith("urlwb diff: oracle b")]
    assert len(lines) == 1 and "crashed on 1 input (first 'http://CRASH/'" in lines[0]
    assert "hung on 1 input (first 'http://HANG/'" in lines[0]
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert summary["parsers"]["b"]["answers"] == {"answered": 30, "rejected": 0, "crashed": 1,
                                                  "hung": 1, "not applicable": 0}
    assert "oracle hung" in (tmp_path / "r" / "report.md").read_text()


# --- urlwb oracle check --------------------------------------------------------------------------

def urlwb(*args, cwd=ROOT):
    entry = "import sys; from urlwb.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", entry, *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def test_oracle_check_passes_a_correct_adapter_and_prints_its_throughput():
    r = urlwb("oracle", "check", f"{sys.executable} {BROKEN}")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "inputs/s" in r.stdout and "ok: no problems" in r.stdout and "5 of 5 survived" in r.stdout


def test_oracle_check_fails_a_broken_adapter_with_a_reason_per_line():
    # The command as words (no shell quoting: the backslashes reach the adapter as they are).
    r = urlwb("oracle", "check", "--deadline-seconds", "1", sys.executable, str(BROKEN), "crash=\\u2028",
              "hang=\\udc80", "garbage=\\x7f\\x85", "schema=xn--p", "no-exit")
    assert r.returncode == 1
    problems = [x.strip() for x in r.stdout.splitlines() if x.strip().startswith("problem:")]
    assert any("a lone surrogate: hung" in p for p in problems)
    assert any("control characters: bad answer: not JSON" in p for p in problems)
    assert any("separators: died: exit status 3" in p for p in problems)
    assert any("WPT: bad answer on 'http://a.b.c.xn--p" in p and "port must be" in p for p in problems)
    assert any("does not exit within" in p for p in problems)
    assert f"{len(problems)} problems" in r.stdout


def test_oracle_check_names_an_adapter_that_cannot_start():
    r = urlwb("oracle", "check", "--start-seconds", "0.5", f"{sys.executable} {BROKEN} no-hello")
    assert r.returncode == 1 and "problem: does not start: no hello line within 0.5 s" in r.stdout


def test_oracle_check_usage_errors_are_one_line():
    for args in (["oracle", "check"], ["oracle", "check", "/no/such/adapter"], ["oracle"]):
        r = urlwb(*args)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)


_MANIFEST_ORACLES = sorted([*(n for n, e in oracles.REGISTRY.items() if e.spec is not None), *oracles.HOST_SPECS])


@pytest.mark.parametrize("name", _MANIFEST_ORACLES)
def test_every_shipped_adapter_passes_oracle_check(name):
    s = oracles.HOST_SPECS.get(name) or oracles.REGISTRY[name].spec
    if s.skip:
        pytest.skip(f"{name}: {s.skip}")
    from urlwb.differential.oracle_check import check
    problems = check(s, log=lambda line: None)
    assert problems == []


def test_every_manifest_is_read():
    assert oracles.MANIFEST_ERRORS == []
    assert {"node", "whatwg-url", "node-legacy-url", "url-parse"} <= set(_MANIFEST_ORACLES)


def test_parsers_groups_by_family_and_language():
    groups = oracles.groups()
    assert "node" in groups["whatwg"] and "url-parse" in groups["other"]
    assert set(groups["javascript"]) >= {"node", "whatwg-url", "node-legacy-url", "url-parse"}
    assert oracles.resolve_names("javascript,engine")[-1] == "engine"
    assert os.path.basename(sys.executable)  # {python} is this interpreter (see the manifest test)
