"""Fault injection: the workbench survives its own failures, for real.

Each case breaks something the way a user or a machine would (a SIGKILL mid-fuzz, a full disk,
a FIFO or a non-UTF-8 name in a corpus folder, JSON nested 100,000 deep, ``nan`` for a time)
and checks that nothing is left running, nothing is half written, and a misuse is one line
with a non-zero exit. Every case runs ``urlwb`` in a child process, in temporary corpus and
working folders (``URLWB_CORPUS``, ``URLWB_WORKDIR``), never touching the committed corpus.
"""

from __future__ import annotations

import fcntl
import json
import os
import pathlib
import resource
import shutil
import signal
import subprocess
import sys
import time

import pytest

from test_cli import assert_usage_error, urlwb  # noqa: E402  (tests/ is on sys.path)
from urlwb import corpus_store

ENTRY = "import sys; from urlwb.cli import main; sys.exit(main(sys.argv[1:]))"


def _env(corpus=None, work=None) -> dict:
    env = dict(os.environ)
    if corpus is not None:
        env["URLWB_CORPUS"] = str(corpus)
    if work is not None:
        env["URLWB_WORKDIR"] = str(work)
    return env


def _processes_mentioning(marker: str) -> list[int]:
    """Live processes whose command line or environment mentions ``marker`` (a temporary path
    unique to one test): what a run started and left behind."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            blob = (entry / "cmdline").read_bytes() + (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().split()[2]
        except OSError:
            continue
        if marker.encode() in blob and state != "Z":
            found.append(int(entry.name))
    return found


def _wait_until(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


def _seeded_corpus(tmp_path: pathlib.Path, target: str = "percent") -> pathlib.Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(corpus_store.seed_dir(target), corpus / target / "seed")
    return corpus


# -- every child process belongs to its parent ------------------------------------------------

@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_no_child_outlives_a_killed_fuzz_run(tmp_path, how, jobs):
    work = tmp_path / "work"
    proc = subprocess.Popen([sys.executable, "-c", ENTRY, "fuzz", "percent", "--seconds", "60",
                             "--jobs", jobs, "--no-triage"], env=_env(work=work),
                            cwd=corpus_store.ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    marker = str(work)
    try:
        # libFuzzer running: the target's process (and, with --jobs 2, its workers)
        assert _wait_until(lambda: len(_processes_mentioning(marker)) >= 2, 60), \
            "the fuzz run did not start"
        proc.send_signal(how)
        proc.wait(timeout=30)
        assert _wait_until(lambda: not _processes_mentioning(marker), 15), \
            f"left running after {how.name}: {_processes_mentioning(marker)}"
    finally:
        proc.kill()
        for pid in _processes_mentioning(marker):
            os.kill(pid, signal.SIGKILL)


def test_jobs_are_bounded_by_the_machine(tmp_path):
    assert_usage_error(urlwb("fuzz", "percent", "--seconds", "3", "--jobs", "99999999999999999999",
                             work=tmp_path), "--jobs")


# -- writes either happen or say why -----------------------------------------------------------

def _limit_file_size(limit: int):
    def preexec():
        # A full disk, without root: writes past `limit` bytes fail with EFBIG (the signal that
        # would kill the process is ignored, as a disk-full ENOSPC would not signal either).
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return preexec


def test_a_full_disk_is_one_line_and_leaves_no_partial_file(tmp_path):
    out = tmp_path / "out" / "cases.json"
    proc = subprocess.run([sys.executable, "-c", ENTRY, "export-wpt", "--out", str(out)],
                          env=_env(), cwd=corpus_store.ROOT, capture_output=True, text=True,
                          timeout=120, preexec_fn=_limit_file_size(100))
    assert_usage_error(proc, "cannot write", str(out))
    assert not out.exists() and not [p for p in out.parent.iterdir()], "a partial file was left"


def test_a_finding_filed_on_a_full_disk_is_whole_or_absent(tmp_path):
    code = ("from urlwb import corpus_store\n"
            "corpus_store.record_finding('percent', b'x' * 5000, 'sig', 'invariant', 'detail')\n")
    proc = subprocess.run([sys.executable, "-c", code], env=_env(corpus=tmp_path / "c"),
                          cwd=corpus_store.ROOT, capture_output=True, text=True, timeout=60,
                          preexec_fn=_limit_file_size(1000))
    assert proc.returncode != 0 and "WriteError: cannot write" in proc.stderr
    regress = tmp_path / "c" / "percent" / "regress"
    assert not regress.exists() or not list(regress.iterdir())


def test_written_files_are_readable_by_others(tmp_path):
    path = tmp_path / "f"
    corpus_store.atomic_write(path, b"x")
    assert path.stat().st_mode & 0o044 == 0o044 & ~corpus_store._umask()


def test_fuzzing_into_an_unwritable_working_folder_is_one_line(tmp_path):
    blocker = tmp_path / "work"
    blocker.mkdir()
    (blocker / "corpus").write_text("a file where the corpus folder goes")
    assert_usage_error(urlwb("fuzz", "percent", "--seconds", "3", work=blocker))


# -- one line for every misuse -----------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["fuzz", "percent", "--seconds", "nan"], ["fuzz", "percent", "--seconds", "inf"],
    ["campaign", "--minutes", "inf"], ["campaign", "--minutes", "nan"],
    ["bench-fuzz", "--seconds", "inf"], ["bench-fuzz", "--seconds", "nan"],
    ["minimize", "README.md", "--target", "url", "--seconds", "nan"],
    ["triage", "--minimize-seconds", "inf"], ["bench", "growth", "--runs", "0"],
    ["replay", "--timeout-seconds", "nan"],
])
def test_nan_inf_and_zero_are_one_line(command):
    assert_usage_error(urlwb(*command))


def test_folders_named_by_the_environment_must_be_folders(tmp_path):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert_usage_error(urlwb("list", work=a_file), "URLWB_WORKDIR", "not a folder")
    assert_usage_error(urlwb("replay", "percent", corpus=a_file), "URLWB_CORPUS", "not a folder")


def _regress_entry(corpus: pathlib.Path, sidecar_text: str) -> pathlib.Path:
    regress = corpus / "percent" / "regress"
    regress.mkdir(parents=True)
    (regress / "ab").write_bytes(b"%41")
    (regress / "ab.json").write_text(sidecar_text)
    return regress


@pytest.mark.parametrize("sidecar", [
    "[" * 100_000 + "]" * 100_000,
    json.dumps({"target": "percent", "signature": "s", "kind": ["invariant"],
                "first_seen": "t", "status": "open"}),
    json.dumps({"target": "percent", "signature": 5, "kind": "invariant",
                "first_seen": "t", "status": "open"}),
    "\xff not UTF-8",
])
def test_a_corrupt_sidecar_is_one_line(tmp_path, sidecar):
    corpus = _seeded_corpus(tmp_path)
    _regress_entry(corpus, sidecar)
    assert_usage_error(urlwb("replay", "percent", corpus=corpus, work=tmp_path / "w"),
                       "corrupt sidecar")


def test_export_wpt_findings_that_are_not_findings_are_one_line(tmp_path):
    binary = tmp_path / "binary"
    binary.write_bytes(bytes(range(256)))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps([{"input": 5}]))
    for path in (binary, deep, wrong):
        assert_usage_error(urlwb("export-wpt", "--findings", str(path), "--out",
                                 str(tmp_path / "o.json")), "--findings")


def test_an_orphan_fails_replay_with_a_command_that_works(tmp_path):
    corpus = _seeded_corpus(tmp_path)
    regress = corpus / "percent" / "regress"
    regress.mkdir()
    (regress / "0123").write_bytes(b"%41")
    proc = urlwb("replay", "percent", corpus=corpus, work=tmp_path / "w")
    assert proc.returncode == 1 and "urlwb replay --repair percent" in proc.stdout
    repaired = urlwb("replay", "--repair", "percent", corpus=corpus, work=tmp_path / "w")
    assert "REPAIRED" in repaired.stdout and (regress / "0123.json").exists()
    assert corpus_store.load_sidecar(regress / "0123.json")["status"] == "fixed"
    assert urlwb("replay", "percent", corpus=corpus, work=tmp_path / "w").returncode == 0


# -- hostile files ------------------------------------------------------------------------------

def test_a_fifo_in_a_seed_folder_is_skipped_not_opened(tmp_path):
    corpus = _seeded_corpus(tmp_path)
    os.mkfifo(corpus / "percent" / "seed" / "a-fifo")
    proc = urlwb("replay", "percent", corpus=corpus, work=tmp_path / "w")   # 120 s timeout
    assert proc.returncode == 0 and "not a readable file" in proc.stderr


def test_a_non_utf8_file_name_in_the_working_corpus(tmp_path):
    work = tmp_path / "w"
    folder = work / "corpus" / "percent"
    folder.mkdir(parents=True)
    (folder / os.fsdecode(b"\xff\xfe-input")).write_bytes(b"%41")
    os.mkfifo(folder / "fifo")
    assert urlwb("list", work=work).returncode == 0
    proc = urlwb("replay", "percent", "--work", work=work)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    merged = urlwb("merge", "percent", "--seconds", "60", corpus=_seeded_corpus(tmp_path),
                   work=work)
    assert merged.returncode == 0 and "not a regular file" in merged.stderr, merged.stderr
    from urlwb.campaign import run as campaign   # its coverage cache key hashes every corpus file name
    os.environ["URLWB_WORKDIR"] = str(work)
    try:
        assert campaign._cache_path("percent").name
    finally:
        del os.environ["URLWB_WORKDIR"]


def test_minimize_into_a_folder_and_of_an_unreadable_input(tmp_path):
    assert_usage_error(urlwb("minimize", str(tmp_path), "--target", "percent"))
    os.mkfifo(tmp_path / "fifo")
    assert_usage_error(urlwb("minimize", str(tmp_path / "fifo"), "--target", "percent"))


def test_two_triage_runs_do_not_interleave(tmp_path):
    work = tmp_path / "w"
    work.mkdir()
    with open(work / "triage.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        second = subprocess.Popen([sys.executable, "-c", ENTRY, "triage", "percent"],
                                  env=_env(work=work), cwd=corpus_store.ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # Until it says it waits (however long its start takes on a loaded machine), it holds
        # nothing: it must not have finished before the first lets go.
        seen = []
        for line in second.stdout:
            seen.append(line)
            if "waiting for another urlwb triage" in line:
                break
        assert second.poll() is None, "the second triage did not wait for the first: " + "".join(seen)
        fcntl.flock(lock, fcntl.LOCK_UN)
    out, _ = second.communicate(timeout=120)
    assert second.returncode == 0, "".join(seen) + out
    assert any("waiting for another urlwb triage" in x for x in seen)


# -- the differential ---------------------------------------------------------------------------

def test_a_10_mb_input_line_neither_hangs_the_diff_nor_floods_the_terminal(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("http://a/" + "x" * 10_000_000 + "\n", encoding="utf-8")
    start = time.monotonic()
    proc = urlwb("diff", "--file", str(big), "--parsers", "engine,pywhatwgurl,urllib")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert time.monotonic() - start < 100
    assert len(proc.stdout) < 20_000 and "10,000,009 code points" in proc.stdout
    assert "pywhatwgurl" in proc.stdout and "n/a" in proc.stdout   # longer than its max_input


@pytest.mark.parametrize("content", [
    "[" * 100_000 + "]" * 100_000, json.dumps([{"input": 5}]), json.dumps([{"input": "a", "base": 1}]),
    json.dumps({"input": "a"}),
])
def test_a_diff_file_that_is_not_inputs_is_one_line(tmp_path, content):
    path = tmp_path / "inputs.json"
    path.write_text(content)
    assert_usage_error(urlwb("diff", "--file", str(path), "--parsers", "engine"), "--file")


def test_a_diff_report_on_a_full_disk_is_one_line_and_no_empty_file(tmp_path):
    out = tmp_path / "report"
    proc = subprocess.run([sys.executable, "-c", ENTRY, "diff", "--wpt", "--parsers", "engine,urllib",
                           "--no-hosts", "--out", str(out)], env=_env(), cwd=corpus_store.ROOT,
                          capture_output=True, text=True, timeout=300,
                          preexec_fn=_limit_file_size(20_000))
    assert proc.returncode == 2 and "cannot write" in proc.stderr.strip().splitlines()[-1]
    assert not [p for p in out.rglob("*") if p.is_file() and p.stat().st_size == 0]
