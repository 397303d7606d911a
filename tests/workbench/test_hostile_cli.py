"""Hostile invocations (issue 38): every one is a line with status 2, or bounded by its budget.

Each case is an attack that once ended in a traceback, ran past its budget, grew without bound,
left a process behind or filed a finding twice; each runs ``urlwb`` in a child process with small
budgets, in temporary corpus and working folders. The fault tests that came before are in
``test_faults.py`` (a SIGKILL mid-fuzz, a full disk, a FIFO in a corpus, ``nan`` for a time).
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from urlwb import cli, corpus_store

ENTRY = "import sys; from urlwb.cli import main; sys.exit(main(sys.argv[1:]))"


def urlwb(*args, cwd=None, tmp=None, timeout=60, prefix=()) -> subprocess.CompletedProcess:
    """``urlwb ARGS`` in a child (``prefix``: a command it runs under, such as ``unshare``), its
    corpus and working folders under ``tmp`` when given."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(corpus_store.ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    if tmp is not None:
        env["URLWB_CORPUS"] = str(tmp / "corpus")
        env["URLWB_WORKDIR"] = str(tmp / "work")
    return subprocess.run([*prefix, sys.executable, "-c", ENTRY, *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=timeout, cwd=cwd or corpus_store.ROOT)


@pytest.fixture
def main(capsys, monkeypatch, tmp_path):
    """``urlwb ARGS`` in this process (quicker than a child: no imports), its corpus and working
    folders in ``tmp_path``: the answer as a CompletedProcess. A traceback fails the test."""
    from urlwb import oracles
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    monkeypatch.setenv("URLWB_WORKDIR", str(tmp_path / "work"))
    before = set(oracles.REGISTRY)

    def run(*args, cwd=None):
        if cwd is not None:
            monkeypatch.chdir(cwd)
        code = cli.main([str(a) for a in args])
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out, err)
    yield run
    for name in set(oracles.REGISTRY) - before:   # a urlwb.toml's oracles leave with the test
        oracles.REGISTRY.pop(name, None)


def assert_one_line(proc, *words) -> None:
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-500:], proc.stderr[-2000:])
    assert len(lines) == 1, f"expected one line, got:\n{proc.stderr[-2000:]}"
    assert "Traceback" not in proc.stderr
    for word in words:
        assert word in lines[0], lines[0]


# -- every numeric option is bounded and finite ----------------------------------------------------

@pytest.mark.parametrize("argv, word", [
    (["growth", "--runs", "99999999999999999"], "--runs"),
    (["ssrf", "--guided-seconds", "inf"], "--guided-seconds"),
    (["ssrf", "--guided-seconds", "nan"], "--guided-seconds"),
    (["ssrf", "--guided-seconds", "-1"], "--guided-seconds"),
    (["ssrf", "--batch", "10000000"], "--batch"),
    (["list", "--findings", "--per-group", "-1"], "--per-group"),
    (["diff", "--generate", "-1"], "--generate"),
    (["diff", "--generate", "1e3"], "--generate"),
    (["hunt", "urllib", "--minutes", "1e400"], "--minutes"),
    (["campaign", "--seed", "-5"], "--seed"),
])
def test_numbers_out_of_bounds_are_one_line(argv, word, main):
    assert_one_line(main(*argv), word)


def test_an_oracle_deadline_of_inf_is_one_line(tmp_path, main):
    """The entry is refused in one line and the others run (issue 36: a bad entry refuses only
    that oracle); naming it is a usage error, one line with status 2."""
    (tmp_path / "urlwb.toml").write_text(
        '[tool.urlwb.oracles]\nmine = { command = "python3 -c pass", deadline = inf }\n')
    proc = main("diff", "http://a/", "--parsers", "engine", cwd=tmp_path)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    (said,) = [line for line in proc.stderr.splitlines() if "deadline" in line]
    assert "oracle 'mine': deadline must be a number" in said and "this oracle is refused" in said, said
    assert_one_line(main("diff", "http://a/", "--parsers", "engine,mine", cwd=tmp_path), "mine")


# -- every output path is checked before the work starts -------------------------------------------

COMMANDS = {   # each with the least it takes to start, and a budget that ends it soon if the check fails
    "diff": ["diff", "http://a/", "--parsers", "engine"],
    "ssrf": ["ssrf", "--oracle", "ipaddress", "--parsers", "engine", "--no-file", "--clients", "none",
             "--guided-seconds", "0", "--minutes", "0.01"],
    "growth": ["growth", "--parsers", "engine", "--shapes", "userinfo a:b@", "--lengths", "10,20",
               "--runs", "1", "--no-file"],
    "campaign": ["campaign", "percent", "--minutes", "0.05", "--no-diff", "--no-growth"],
}


def _out(command: str, tmp_path) -> list[str]:
    return ["--out", str(tmp_path / "out")]


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("flag", ["--junit", "--sarif"])
def test_a_report_file_that_is_a_folder_is_one_line(command, flag, tmp_path, main):
    proc = main(*COMMANDS[command], *_out(command, tmp_path), flag, tmp_path)
    assert_one_line(proc, flag, "a folder, where a file is meant")
    assert not (tmp_path / "out").exists()   # before the work


@pytest.fixture
def read_only(tmp_path):
    """A folder on a read-only file system (a tmpfs mounted ro in a mount namespace of the
    child's own), and the prefix that runs a command where it is mounted."""
    folder = tmp_path / "ro"
    folder.mkdir()
    script = f"mount -t tmpfs -o ro none {folder} && exec \"$@\""
    prefix = ["unshare", "-m", "sh", "-c", script, "sh"]
    probe = subprocess.run([*prefix, "touch", str(folder / "x")], capture_output=True, text=True)
    if "Read-only file system" not in probe.stderr:
        pytest.skip(f"no read-only mount here (unshare -m: {probe.stderr.strip()[:80]})")
    return folder, prefix


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_report_file_on_a_read_only_file_system_is_one_line(command, read_only, tmp_path):
    folder, prefix = read_only
    proc = urlwb(*COMMANDS[command], *_out(command, tmp_path), "--sarif", folder / "r.sarif",
                 tmp=tmp_path, prefix=prefix)
    assert_one_line(proc, "--sarif", "Read-only file system")


@pytest.mark.parametrize("argv", [
    ["campaign", "percent", "--minutes", "0.05", "--no-diff", "--no-growth", "--out"],
    ["export", "tests", "okhttp", "--lang", "java", "--out"],
    ["diff", "http://a/", "--parsers", "engine", "--out"],
    ["list", "--findings", "--drafts"],
])
def test_a_folder_that_is_a_file_is_one_line(argv, tmp_path, main):
    a_file = tmp_path / "hostname"
    a_file.write_text("x\n")
    assert_one_line(main(*argv, a_file), "a file, where a folder is meant")
    assert_one_line(main(*argv, a_file / "below"), "is a file, where a folder is meant")


# -- every input file is read with its decoding errors answered ------------------------------------

@pytest.mark.parametrize("content, word", [(b"\xff\xfe{bad", "not UTF-8"), (b"not json\n", "Expecting value")])
@pytest.mark.parametrize("argv", [["list", "--findings", "--from"],
                                  ["export", "tests", "okhttp", "--lang", "java", "--out", "{out}", "--findings"]])
def test_a_findings_file_that_is_not_one_is_one_line(argv, content, word, tmp_path, main):
    bad = tmp_path / "findings.jsonl"
    bad.write_bytes(content)
    argv = [a.replace("{out}", str(tmp_path / "suite")) for a in argv]
    assert_one_line(main(*argv, bad), str(bad), word)


def test_a_parser_no_one_knows_is_one_line(main):
    assert_one_line(main("list", "--findings", "--parsers", "nosuch"), "nosuch")


# -- one writer at a time --------------------------------------------------------------------------

def _file_at_once(barrier, n: int) -> None:
    """A forked filer: waits for the others, then files the one signature with its own input."""
    barrier.wait()
    corpus_store.record_finding("percent", f"input {n}".encode(), "the-one-signature", "invariant", "x")


def test_no_finding_is_filed_twice_by_processes_at_once(tmp_path, monkeypatch):
    """Four processes file the same signature at the same moment, twenty times over: one entry
    each time (without the corpus lock, two processes both found no entry and both wrote)."""
    import multiprocessing
    ctx = multiprocessing.get_context("fork")
    doubled = []
    for trial in range(20):
        monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / f"corpus{trial}"))
        barrier = ctx.Barrier(4)
        procs = [ctx.Process(target=_file_at_once, args=(barrier, n)) for n in range(4)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(30)
        assert all(p.exitcode == 0 for p in procs), [p.exitcode for p in procs]
        filed = [e for e in corpus_store.iter_regress("percent") if e.signature == "the-one-signature"]
        if len(filed) != 1:
            doubled.append(len(filed))
    assert not doubled, f"filed more than once in {len(doubled)} of 20 trials: {doubled}"


# -- triage on a full disk -------------------------------------------------------------------------

FULL_DISK = """
import errno, sys
from urlwb import corpus_store
from urlwb.differential.run import encode_case
target = corpus_store.load_target("differential")
def full(path, data):
    raise corpus_store.WriteError(f"cannot write {path}: {errno.errorcode[errno.ENOSPC]} No space left on device")
corpus_store.atomic_write = full
target.TestOneInput(encode_case(sys.argv[1], None))
print("filed", file=sys.stderr)
"""


def test_a_target_that_cannot_file_exits_on_its_own_not_as_a_crash(tmp_path):
    """fuzz_differential on a disagreement it must file, on a full disk: its one line and its
    own exit status (corpus_store.CANNOT_FILE_EXIT, by os._exit: libFuzzer writes no crash
    artifact for it), not a WriteError traceback that libFuzzer would file as a crash."""
    env = dict(os.environ, URLWB_CORPUS=str(tmp_path / "corpus"), URLWB_WORKDIR=str(tmp_path / "work"))
    proc = subprocess.run([sys.executable, "-c", FULL_DISK, "ws:\u0690.("], capture_output=True, text=True,
                          env=env, timeout=120, cwd=corpus_store.ROOT)
    if "ada_url skipped" in proc.stderr:
        pytest.skip("ada_url (the disagreeing peer) is not installed")
    assert proc.returncode == corpus_store.CANNOT_FILE_EXIT, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert [x for x in proc.stderr.splitlines() if x.startswith(corpus_store.CANNOT_FILE)], proc.stderr


def test_a_differential_entry_without_its_parser_field_is_shaped_from_its_signature():
    """What triage files from a differential artifact's replay has no "parser" field: the peer
    is read from the signature (it was KeyError: 'parser', findings/sidecar.py)."""
    from urlwb.findings import sidecar
    meta = {"target": "differential", "signature": "accept-reject/slashes:engine~ada_url",
            "kind": "invariant", "invariant": "engine fails, ada_url accepts", "first_seen": corpus_store.now(),
            "status": "open", "note": ""}
    shaped = sidecar.shape(meta, data=b"ws:\xda\x90.(\x00")
    assert shaped["parser"] == "ada_url" and "--parsers engine,ada_url" in shaped["command"]


# -- no orphan, even after SIGKILL -----------------------------------------------------------------

def _marked(marker: str) -> dict[int, tuple[int, str]]:
    """Live processes whose environment names ``marker`` (a temporary folder of one test, which
    every process of the run inherits): pid -> (parent pid, command line)."""
    found = {}
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if marker.encode() not in (entry / "environ").read_bytes():
                continue
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if stat[0] != "Z":
            found[int(entry.name)] = (int(stat[1]), cmdline)
    return found


def _until(predicate, seconds: float):
    import time
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        time.sleep(0.1)
    return predicate()


@pytest.mark.parametrize("attack", ["growth", "forking-adapter"])
def test_nothing_of_a_run_outlives_a_sigkill(attack, tmp_path):
    """growth (its timers are multiprocessing children, forked without exec) and a diff with an
    adapter whose grandchild left its group by setsid: SIGKILL the workbench once the child to
    orphan is running, and 5 s later no process of the run is left (the reaper, the timer, the
    adapter and its grandchild included)."""
    import signal
    marker = str(tmp_path / "work")
    env = dict(os.environ, URLWB_CORPUS=str(tmp_path / "corpus"), URLWB_WORKDIR=marker)
    if attack == "growth":
        argv = ["growth", "--parsers", "urllib", "--shapes", "userinfo a:b@", "--lengths", "20000,200000",
                "--runs", "1000", "--no-file", "--out", str(tmp_path / "out")]
    else:
        adapter = pathlib.Path(__file__).with_name("planted_forking.py")
        argv = ["diff", "--parsers", "engine", "--oracle", f"forking={sys.executable} {adapter}",
                "--generate", "500", "--out", str(tmp_path / "out")]
    proc = subprocess.Popen([sys.executable, "-c", ENTRY, *argv], env=env, cwd=corpus_store.ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def the_child():   # growth: its timer (same command line); diff: the adapter's sleeper
            procs = _marked(marker)
            if attack == "growth":
                return [p for p, (pp, cmd) in procs.items() if pp == proc.pid and ENTRY in cmd]
            return [p for p, (pp, cmd) in procs.items() if "time.sleep(600)" in cmd]
        assert _until(the_child, 60), f"the child to orphan never ran: {_marked(marker)}"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    left = _until(lambda: not _marked(marker), 5) or _marked(marker)
    for pid in (left if isinstance(left, dict) else {}):
        try:
            os.kill(pid, signal.SIGKILL)   # this test's own leftovers, by pid
        except OSError:
            pass
    assert left is True, f"left running 5 s after the SIGKILL: {left}"
    from urlwb import sandbox
    found = sandbox._own_cgroup("pids")
    if attack == "forking-adapter" and found is not None:   # its cgroup folder went with it
        folder = pathlib.Path(found[0] + found[1]) / f"urlwb-{proc.pid}"
        assert _until(lambda: not folder.exists(), 5), f"{folder} is left"


# -- every budget bounds memory and time -----------------------------------------------------------

def test_a_trillion_generated_inputs_stay_in_512_mb_and_end_by_their_budget(tmp_path):
    """diff --generate 10**12 under a 512 MB address space (RLIMIT_AS), --minutes 0.05 (3 s):
    the inputs are drawn lazily, at most what one diff holds (MOST_ANSWERS) and for a fifth of
    the budget; the asking stops at the budget. It ends on its own, in its budget and a slack for
    start-up and the report (30 s: it took 7-16 s at load averages 6-12 on 2 cores), without a MemoryError.
    Drawing all of them (as before) fills the 512 MB in seconds."""
    import resource
    import time

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20))
    env = dict(os.environ, URLWB_CORPUS=str(tmp_path / "corpus"), URLWB_WORKDIR=str(tmp_path / "work"))
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", ENTRY, "diff", "--generate", str(10**12), "--parsers", "engine",
                           "--minutes", "0.05", "--no-hosts", "--out", str(tmp_path / "out")],
                          preexec_fn=cap, capture_output=True, text=True, env=env, timeout=120, cwd=corpus_store.ROOT)
    took = time.monotonic() - t0
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "MemoryError" not in proc.stderr and "Traceback" not in proc.stderr
    assert "drawn" in proc.stderr, proc.stderr[-2000:]
    assert took < 3 + 30, f"took {took:.1f} s for a 3 s budget"
    assert (tmp_path / "out" / "summary.json").is_file()


class _SlowAsker:
    """An SSRF asker whose validators and fetchers take 1 ms an input (and find nothing)."""
    validators, fetchers = [], []

    def __init__(self):
        self.batches = []

    def ask(self, chunk):
        import time
        self.batches.append(len(chunk))
        time.sleep(0.001 * len(chunk))


def test_the_ssrf_hunt_keeps_its_budget_with_the_largest_batch():
    """The hunt of ssrf --minutes 0.01 (0.6 s) --batch 10000 on parsers that take 1 ms an
    input: batches sized by the time left end it within its budget and 0.5 s (a whole
    10,000-input batch first would take 10 s; the CLI's took 3.8 s on ipaddress and the engine)."""
    import itertools
    import time
    from urlwb.ssrf import hunt
    asker = _SlowAsker()
    t0 = time.monotonic()
    res = hunt.hunt(asker, None, (f"http://{n}/" for n in itertools.count()), 0.6, batch=hunt.MOST_BATCH,
                    progress=lambda line: None)
    took = time.monotonic() - t0
    assert took < 0.6 + 0.5, f"took {took:.2f} s; batches {asker.batches}"
    assert len(res.inputs) == sum(asker.batches) > 0


# -- a crash at the start is no input's --------------------------------------------------------

def test_an_adapter_that_dies_before_reading_blames_no_input(monkeypatch):
    """An adapter that runs out of memory after its hello line, before it reads a request
    (broken_adapter.py hog): its restarts say so, and no input gets its crash (each was blamed
    on whichever inputs were in flight, then on each of them sent alone)."""
    from urlwb.oracles import manifests, supervisor
    import dataclasses
    adapter = corpus_store.ROOT / "tests" / "oracles" / "broken_adapter.py"
    monkeypatch.setenv("URLWB_SANDBOX_MEMORY", "256M")   # dies in a second, not in 10 (2 GiB zeroed)
    spec = dataclasses.replace(manifests.user_spec("hog", [sys.executable, str(adapter), "hog"], "flag"),
                               deadline=5.0, max_restarts=2)
    o = supervisor.SubprocessOracle(spec)
    o.ready()
    try:
        recs = o.parse_many([(f"http://h{i}/", None) for i in range(5)])
    finally:
        o.close()
    assert not o.sup.findings, o.sup.findings
    assert all(r is None or not r.crash for r in recs), recs
    assert any("died before reading any input" in x and "memory cap" in x for x in o.sup.incidents), o.sup.incidents


def test_a_hanging_adapter_does_not_hold_a_diff_past_its_budget(tmp_path, main):
    """diff --minutes 0.02 (1.2 s) with an adapter that never answers (broken_adapter.py hang=/,
    a 5 s deadline a request): the run stops asking at the budget (Supervised.stop_at), not at
    the request's deadline and a restart for each input (5 s each, until it is given up). The
    slack: start-up and imports (1.4 s), the hanging child's close grace (2 s), a loaded machine."""
    import re
    import time
    adapter = corpus_store.ROOT / "tests" / "oracles" / "broken_adapter.py"
    (tmp_path / "urlwb.toml").write_text(
        f'[tool.urlwb.oracles]\nhangs = {{ command = ["{sys.executable}", "{adapter}", "hang=/", "name=hangs"] }}\n')
    t0 = time.monotonic()
    proc = main("diff", "--parsers", "engine,hangs", "--generate", "50", "--minutes", "0.02", "--no-hosts",
                "--out", tmp_path / "out", cwd=tmp_path)
    took = time.monotonic() - t0
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    assert re.search(r"--minutes 0.02 ran out", proc.stderr), proc.stderr[-2000:]
    assert took < 1.2 + 10, f"took {took:.1f} s for a 1.2 s budget"   # start-up, imports, the close grace


def _make_report_folder(out, stamp, barrier, q) -> None:
    """A forked campaign's start: its report folder, at the same moment as another's."""
    import time
    from urlwb.campaign import run as campaign
    time.strftime = lambda fmt: stamp   # the same second for both
    barrier.wait()
    try:
        q.put(str(campaign.report_folder(out)[1]))
    except Exception as exc:  # noqa: BLE001 - the test reports whatever the second one met
        q.put(f"{type(exc).__name__}: {exc}")


def test_two_campaigns_in_the_same_second_get_a_folder_each(tmp_path):
    """Two campaigns with one --out start their report folders in the same second: each gets
    its own (the pid beside the time), made by it alone (exist_ok=False)."""
    import multiprocessing
    from urlwb.campaign import run as campaign  # noqa: F401  (imported once, before the fork)
    ctx = multiprocessing.get_context("fork")
    barrier, q = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_make_report_folder, args=(tmp_path, "20260101-000000", barrier, q))
             for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    got = sorted(q.get(timeout=5) for _ in procs)
    assert len(set(got)) == 2 and all(pathlib.Path(g).is_dir() for g in got), got
