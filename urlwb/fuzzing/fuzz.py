"""``urlwb fuzz TARGET|all [--time S] [--jobs N]``: run fuzz targets under libFuzzer, then triage.

Each target runs as ``python fuzzers/fuzz_<target>.py WORK SEED -max_total_time=S
-artifact_prefix=.urlwb/artifacts/<target>/ -dict=... -max_len=... -print_final_stats=1``, the
working corpus ``.urlwb/corpus/<target>/`` growing from the committed seeds. With ``--jobs 1`` the
fuzzer runs in-process and is restarted after a crash for the time left (switching to fork mode
if the same failure keeps coming back); with ``--jobs N > 1`` it runs ``-fork=N
-ignore_crashes=1``, so one failure never stops the round. The progress line shows libFuzzer's
own status lines (``#N NEW cov: X ft: Y corp: Z exec/s: E``). Afterwards the artifacts are
triaged into ``corpus/<target>/regress/`` (``urlwb.fuzzing.triage``).
"""

from __future__ import annotations

import configparser
import contextlib
import dataclasses
import itertools
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from urlwb import children, corpus_store, exitcodes
from urlwb import progress as saying
from urlwb.fuzzing import triage
from urlwb.cliutil import add_jobs, add_minimize_seconds, add_seconds, add_targets, alias, jobs_flag, seconds_flag
from urlwb.errors import UsageError, WriteError
from urlwb.fuzzing.minimize import fuzzer_env, target_command
from urlwb.fuzzing.triage import artifact_dir

# "#4096	pulse  cov: 72 ft: 283 corp: 41/609b lim: 76 exec/s: 2051 rss: 47Mb"
_STATUS = re.compile(r"^#(\d+)\s+([A-Z]+)\s+cov: (\d+) ft: (\d+) corp: (\d+)/\S+.*?exec/s: (\d+)")
# fork mode: "#2884: cov: 235 ft: 235 corp: 34 exec/s 1442 oom/timeout/crash: 0/0/0 time: 6s job: 1"
_FORK_STATUS = re.compile(r"^#(\d+): cov: (\d+) ft: (\d+) corp: (\d+) exec/s:? (\d+) "
                          r"oom/timeout/crash: (\d+)/(\d+)/(\d+)")
_STAT = re.compile(r"^stat::(\w+):\s+(\d+)")
_ARTIFACT = re.compile(r"Test unit written to (\S+)")
#: Python start-up and instrumentation before libFuzzer's clock starts, taken off -max_total_time
STARTUP_SECONDS = 2.0


@dataclasses.dataclass
class Status:
    execs: int = 0
    cov: int = 0
    ft: int = 0
    corp: int = 0
    exec_s: int = 0
    crashes: int = 0


def parse_status(line: str) -> Status | None:
    """A libFuzzer status line (in-process or fork mode) as a Status, else None."""
    m = _STATUS.match(line)
    if m:
        return Status(int(m[1]), int(m[3]), int(m[4]), int(m[5]), int(m[6]))
    m = _FORK_STATUS.match(line)
    if m:
        return Status(int(m[1]), int(m[2]), int(m[3]), int(m[4]), int(m[5]), int(m[8]))
    return None


def read_options(target: str) -> dict[str, str]:
    """The ``[libfuzzer]`` section of ``fuzzers/fuzz_<target>.options`` (empty if none)."""
    path = corpus_store.ROOT / "fuzzers" / f"fuzz_{target}.options"
    parser = configparser.ConfigParser()
    if path.exists():
        parser.read(path, encoding="utf-8")
    return dict(parser["libfuzzer"]) if parser.has_section("libfuzzer") else {}


def libfuzzer_flags(target: str) -> list[str]:
    flags = []
    for key, value in read_options(target).items():
        if key == "dict":
            value = str(corpus_store.ROOT / "fuzzers" / value)
        flags.append(f"-{key}={value}")
    return flags


@dataclasses.dataclass
class RunResult:
    target: str
    seconds: float = 0.0
    execs: int = 0
    cov_start: int | None = None
    cov_end: int = 0
    ft_end: int = 0
    corpus: int = 0
    crashes: int = 0
    restarts: int = 0
    timeline: list = dataclasses.field(default_factory=list)   # [elapsed, execs, cov, ft, corp]
    artifacts: list = dataclasses.field(default_factory=list)
    log: str = ""
    truncated: int = 0     # empty corpus files a full disk left, removed
    ft_start: int | None = None
    #: seconds from its start to libFuzzer's first status line (INITED), over its processes
    startup: float = 0.0
    #: CPU seconds of its processes (user and system), as the kernel counted them
    cpu_seconds: float = 0.0
    #: libFuzzer processes at once: 1, or the -fork workers and their parent
    processes: int = 1
    #: seconds after the round's start when it started (campaign schedule)
    start: float = 0.0
    #: why it ended: "time", "crash", "displaced by TARGET", "deadline", "cannot file"
    ended: str = ""
    #: the target's own line when it could not file a finding (corpus_store.CANNOT_FILE)
    cannot_file: str = ""

    @property
    def exec_per_s(self) -> float:
        return self.execs / self.seconds if self.seconds else 0.0


class Progress:
    """The fuzzing's progress, the one way (:mod:`urlwb.progress`): per target, seconds of its
    budget (k of N, time left), libFuzzer's executions, exec/s, coverage and crashes as the note;
    a line every few seconds while libFuzzer is quiet (its status lines come ever more rarely)."""

    def __init__(self):
        self._stack: contextlib.ExitStack | None = None
        self._target: str | None = None
        self._task = None

    def start(self, target: str, budget: float) -> None:
        if self._target == target:
            return
        self.done()
        self._stack = contextlib.ExitStack()
        self._task = self._stack.enter_context(saying.task(f"fuzz {target}: seconds", total=int(budget), beat=True,
                                                               timed=True))
        self._target = target

    def show(self, target: str, elapsed: float, budget: float, total: int, s: Status, findings: int) -> None:
        self.start(target, budget)
        self._task.advance(0, note=f"execs {total:,}, exec/s {s.exec_s:,}, cov {s.cov}, ft {s.ft}, "
                                   f"corp {s.corp}, crashes {findings}")

    def done(self) -> None:
        if self._stack is not None:
            self._stack.close()
            self._stack, self._target, self._task = None, None, None


def run_once(target: str, seconds: float, fork: int, result: RunResult, t0: float, budget: float,
             progress: Progress | None, log, on_start=None) -> None:
    """One libFuzzer process of ``target`` for at most ``seconds`` (``-max_total_time``, less
    STARTUP_SECONDS), its status lines read into ``result`` as they come. ``on_start(proc)`` is
    called with the child once it runs, so that another thread may stop it early: SIGINT, on
    which libFuzzer prints its final statistics and exits (``run interrupted``). Adds to
    ``result`` the seconds until its first status line (``startup``: Python, the instrumented
    imports and the replay of the corpus) and the child's CPU time (``cpu_seconds``, read from
    ``/proc`` before it is reaped; its ``-fork`` workers' too, once it has waited for them)."""

    seeds = [str(d) for d in corpus_store.committed_dirs(target)]
    cmd = target_command(target) + [
        str(corpus_store.work_dir(target)), *seeds,
        f"-max_total_time={max(1, int(seconds - STARTUP_SECONDS))}", f"-artifact_prefix={artifact_dir(target)}/",
        "-print_final_stats=1", "-timeout=10", "-rss_limit_mb=2048",
        *libfuzzer_flags(target)]
    if fork:
        cmd += [f"-fork={fork}", "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1"]
    base_execs = result.execs
    started = time.monotonic()
    proc = children.popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           errors="replace", env=fuzzer_env(), cwd=corpus_store.work_root())
    if on_start is not None:
        on_start(proc)
    watchdog = threading.Timer(seconds + 120, children.kill_group, [proc])
    watchdog.start()
    first_status = True
    try:
        for line in proc.stderr:
            log.write(line)
            s = parse_status(line)
            if s:
                if first_status:
                    result.startup += time.monotonic() - started
                    first_status = False
                result.execs = base_execs + s.execs
                if result.cov_start is None:
                    result.cov_start = s.cov
                    result.ft_start = s.ft
                result.cov_end, result.ft_end, result.corpus = s.cov, s.ft, s.corp
                result.timeline.append([round(time.monotonic() - t0, 2), result.execs, s.cov, s.ft, s.corp])
                if fork:
                    result.crashes = max(result.crashes, s.crashes)
                if progress:
                    progress.show(target, time.monotonic() - t0, budget, result.execs, s,
                                  result.crashes + len(result.artifacts))
            m = _STAT.match(line)
            if m and m[1] == "number_of_executed_units":
                result.execs = base_execs + int(m[2])
            m = _ARTIFACT.search(line)
            if m:
                result.artifacts.append(m[1])
            if line.startswith(corpus_store.CANNOT_FILE):
                result.cannot_file, result.ended = line.strip(), "cannot file"
    finally:
        watchdog.cancel()
        result.cpu_seconds += cpu_seconds_at_exit(proc)
        children.release(proc)   # and any -fork worker it left


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds_at_exit(proc: subprocess.Popen) -> float:
    """The CPU time (user and system, its reaped children's included) of a child whose output
    has ended: waits for it to exit without reaping it (``waitid(WNOWAIT)``), so that
    ``/proc/PID/stat`` still holds its accounting (proc(5): fields 14-17, utime, stime,
    cutime, cstime, in clock ticks). 0.0 where that cannot be read (not Linux)."""
    try:
        os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
        fields = pathlib.Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        # fields[0] is the state (field 3): utime is field 14, i.e. fields[11]
        return sum(int(f) for f in fields[11:15]) / _TICKS
    except (OSError, AttributeError, ValueError, IndexError):
        return 0.0


def open_log(target: str, result: RunResult, logs_dir: pathlib.Path | None = None):
    """A new log file for one run of ``target`` (its path in ``result.log``): named by the time
    and a number, so that runs started in the same second (parallel ones) never share one."""
    logs_dir = logs_dir or corpus_store.work_root() / "logs"
    stamp = time.strftime('%Y%m%d-%H%M%S')
    try:
        logs_dir.mkdir(parents=True, exist_ok=True)
        for n in itertools.count():
            path = logs_dir / f"{target}-{stamp}{f'-{n}' if n else ''}.log"
            try:
                log = open(path, "x", encoding="utf-8")
            except FileExistsError:
                continue
            result.log = str(path)
            return log
    except OSError as exc:
        raise WriteError(f"cannot write in {logs_dir}: {exc.strerror or exc}") from None


def fuzz_target(target: str, seconds: float, jobs: int = 1, *, progress: Progress | None = None,
                logs_dir: pathlib.Path | None = None) -> RunResult:
    """Fuzz ``target`` for ``seconds`` of wall time; its statistics and timeline."""
    result = RunResult(target)
    t0 = time.monotonic()
    fork = jobs if jobs > 1 else 0
    require_free_space(corpus_store.work_dir(target))
    log = open_log(target, result, logs_dir)
    if progress:
        progress.start(target, seconds)
    with log:
        while True:
            left = seconds - (time.monotonic() - t0)
            if left < 2:
                break
            before = len(result.artifacts)
            result.processes = max(result.processes, fork + 1 if fork else 1)
            run_once(target, left, fork, result, t0, seconds, progress, log)
            if result.cannot_file:
                break                            # the disk is full: another run would not file either
            if len(result.artifacts) == before:
                break                            # the run ended on its own: time is up
            result.restarts += 1
            if result.restarts >= 3 and not fork:
                fork = 1                         # failures keep coming: let libFuzzer go on past them
    result.seconds = time.monotonic() - t0
    result.truncated = drop_truncated(corpus_store.work_dir(target))
    if progress:
        progress.done()
    if result.cannot_file:
        raise WriteError(f"fuzz_{target}: {result.cannot_file.removeprefix('urlwb: ')}")
    add_to_stats(result)
    return result


#: Below this much free space in the working folder, no fuzzing starts: libFuzzer would write
#: empty corpus files on a full disk.
MIN_FREE_BYTES = 20_000_000


def require_free_space(folder: pathlib.Path) -> None:
    """A folder libFuzzer can write in, with room: else one line (WriteError), before any run
    (a read-only working corpus would otherwise give a run that saves nothing, and exit 0)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder) as probe:
            probe.write(b"x")
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as exc:
        raise WriteError(f"{folder}: cannot write there ({exc.strerror or exc})") from None
    free = shutil.disk_usage(folder).free
    if free < MIN_FREE_BYTES:
        raise WriteError(f"{folder}: only {free // 1_000_000} MB free; fuzzing needs at least "
                         f"{MIN_FREE_BYTES // 1_000_000} MB")


_EMPTY_SHA1 = corpus_store.sha1(b"")


def drop_truncated(folder: pathlib.Path) -> int:
    """Remove the working-corpus files a full disk left empty: libFuzzer names each input after
    the SHA-1 of its bytes, so an empty file with another name is a write that did not happen.
    How many were removed."""
    dropped = 0
    for path in folder.iterdir():
        try:
            if path.name != _EMPTY_SHA1 and path.is_file() and path.stat().st_size == 0:
                path.unlink()
                dropped += 1
        except OSError:
            pass
    return dropped


def stats_path() -> pathlib.Path:
    return corpus_store.work_root() / "stats.json"


def load_stats() -> dict:
    """Executions and seconds per target over every run on this machine (``.urlwb/stats.json``)."""
    try:
        return json.loads(stats_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def add_to_stats(result: RunResult) -> None:
    stats = load_stats()
    entry = stats.setdefault(result.target, {"execs": 0, "seconds": 0.0, "runs": 0})
    entry["execs"] += result.execs
    entry["seconds"] = round(entry["seconds"] + result.seconds, 1)
    entry["runs"] += 1
    corpus_store.atomic_write(stats_path(), json.dumps(stats, indent=1, sort_keys=True).encode())


def save_run(results: list[RunResult], out: pathlib.Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    corpus_store.atomic_write(out, json.dumps([dataclasses.asdict(r) for r in results], indent=1).encode())


def summary_table(results: list[RunResult], triaged) -> str:
    lines = [f"{'target':14} {'seconds':>7} {'execs':>10} {'exec/s':>7} {'cov':>11} {'corpus':>6} "
             f"{'crashes':>7} {'new':>4} {'dup':>4}"]
    for r in results:
        new = sum(t.target == r.target and t.verdict == "new" for t in triaged)
        dup = sum(t.target == r.target and t.verdict == "duplicate" for t in triaged)
        cov = f"{r.cov_start or 0}->{r.cov_end}"
        lines.append(f"{r.target:14} {r.seconds:7.1f} {r.execs:>10,} {r.exec_per_s:7.0f} {cov:>11} "
                     f"{r.corpus:>6} {max(r.crashes, len(r.artifacts)):>7} {new:>4} {dup:>4}")
    return "\n".join(lines)


def add_arguments(parser) -> None:
    add_targets(parser, required=True)
    add_seconds(parser, "fuzzing each target", 60.0, dest="time")
    alias(parser, "--time", "--seconds")
    add_jobs(parser, "libFuzzer -fork workers (1: in-process)")
    parser.add_argument("--no-triage", action="store_true", help="leave artifacts untriaged")
    add_minimize_seconds(parser)


def run(args) -> int:
    seconds_flag("--seconds", args.time)
    jobs_flag(args.jobs)
    seconds_flag("--minimize-seconds", args.minimize_seconds)
    targets = corpus_store.resolve_targets(args.targets)
    if args.targets != ["all"]:
        for t in targets:
            corpus_store.require_corpus(t)
    progress = Progress()
    results = []
    for t in targets:
        results.append(fuzz_target(t, args.time, args.jobs, progress=progress))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    save_run(results, corpus_store.work_root() / "runs" / f"fuzz-{stamp}.json")
    triaged = [] if args.no_triage else triage.triage(targets, minimize_seconds=args.minimize_seconds)
    print(summary_table(results, triaged))
    new = [t for t in triaged if t.verdict == "new"]
    for t in new:
        print(f"new finding: {t.target}: {t.signature} -> {t.entry}")
    if args.no_triage:
        print("artifacts left untriaged in .urlwb/artifacts/ (urlwb triage)")
    return exitcodes.FINDINGS if new else exitcodes.OK   # a new finding: the engine fails a fuzz target's check
