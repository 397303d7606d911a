"""The campaign's fuzzing schedule: every core busy, the time given by measured gain.

:func:`fuzz_parallel` keeps ``jobs`` libFuzzer processes running at once (one per core by
default), one target each, until the deadline. Which target gets a free core is an
explore/exploit choice (the multi-armed bandit's; the rule below is a plain greedy one with
forced exploration, re-estimated as the round goes):

1. *explore*: every target first gets one run of EXPLORE_SHARE of the round's core-seconds split
   evenly (at least MIN_RUN_SECONDS, at most MAX_EXPLORE_SECONDS), in the order given;
2. *exploit*: then a free core goes to the target with the highest measured gain, and a running
   target keeps its core as long as no waiting target's gain is SWITCH_FACTOR times its own.

A target is started only when its start-up (its runs' mean, measured) leaves it MIN_RUN_SECONDS
of fuzzing before the deadline: a run cut off in its start-up fuzzes nothing (a campaign at load
11 started ``idna`` 7 s before the end, after an 8.7 s start-up before: 0 executions).

The gain of a run is libFuzzer's own counters, read from its status lines as they come: new
coverage features (``ft:``) per second over the run's recent half (its first status line,
``INITED``, is the replay of the corpus and is not gain), plus CRASH_FEATURES per crash while the
target has crashed fewer than three times in the round (beyond that its crashes are most likely
the same bug again). A run that is displaced is stopped with SIGINT (libFuzzer prints its final
statistics and exits); its corpus stays in the working folder, so the next run of the target
starts where it stopped, paying only its start-up (Python, the instrumented imports, the replay
of the corpus: about a second, measured per run as ``startup``). A long run pays it once:
exploitation extends the running process instead of starting a new one whenever it can.

A run that ends on a crash frees its core; its target can be picked again at once. After three
crashes of one target, its later runs use ``-fork=1 -ignore_crashes=1`` (as ``urlwb fuzz`` does),
so that the same failure does not end every run. Such a run is given the time to the deadline
and never displaced: a signal does not stop libFuzzer's -fork parent (see ``Live.stop``).

``side`` rounds (the campaign's differential and long-input rounds) take one core, one after
another, from the start, for the sum of their budgets: the fuzzing has ``jobs - 1`` cores then.
A side round may outlast its budget (the differential round sends at least its floor of inputs,
whatever the machine's load): past the budget the fuzzing takes its ``jobs`` cores back and
shares them with it, and past the deadline it is waited for with the cores still fuzzing, so
that no core idles. Every
run is given time past the deadline and stopped by SIGINT there (or when its side round ends). Runs started with ``jobs`` greater than the number of targets fuzz one target in more
than one process at once (libFuzzer's ``-reload`` shares their corpus folder).

Artifacts are not triaged here: the campaign triages them once the processes have ended (a
crash file being written is never read), and ``reserve`` moves the deadline earlier by the time
that triage will need for the artifacts seen so far.
"""

from __future__ import annotations

import dataclasses
import math
import os
import signal
import sys
import threading
import time
import traceback
from typing import Callable

from urlwb import corpus_store
from urlwb.fuzzing.fuzz import RunResult, add_to_stats, drop_truncated, open_log, require_free_space, run_once

EXPLORE_SHARE = 0.4        # of the round's core-seconds, split evenly for the first runs
MIN_RUN_SECONDS = 3.0      # no run is started with less time left than this
MAX_EXPLORE_SECONDS = 30.0
SWITCH_FACTOR = 1.5        # a waiting target displaces a running one with this much more gain
CRASH_FEATURES = 20.0      # a crash counts as this many new features
CRASHES_WORTH_GAIN = 3     # crashes of one target in a round that still count as gain
TICK = 0.25                # seconds between two looks at the runs
RUN_SLACK = 60.0           # a run's -max_total_time past the deadline (the scheduler stops it)
STOP_GRACE = 3.0           # seconds from SIGINT to SIGKILL for a run that does not stop


@dataclasses.dataclass
class Side:
    """A round that takes one core beside the fuzzing (e.g. the differential round)."""

    name: str
    seconds: float
    run: Callable[[], object]
    start: float | None = None
    end: float | None = None
    result: object = None
    error: dict | None = None


@dataclasses.dataclass
class Arm:
    """One target: its runs in the round, and its gain as last measured."""

    target: str
    runs: list = dataclasses.field(default_factory=list)
    rate: float | None = None       # None: not explored yet
    running: int = 0
    crashes: int = 0


class Live:
    """One run in progress: a thread that starts the libFuzzer process (the thread lives as long
    as the child, as urlwb.children requires) and reads it."""

    def __init__(self, arm: Arm, result: RunResult, fork: int, seconds: float, min_age: float, log):
        self.arm, self.result, self.fork, self.min_age, self.log = arm, result, fork, min_age, log
        self.proc = None
        self.stopping = ""
        self.stopped_at = 0.0
        self.forced = False
        self.error: dict | None = None
        self.t0 = time.monotonic()
        self.thread = threading.Thread(target=self._main, args=(seconds,), daemon=True,
                                       name=f"urlwb-fuzz-{arm.target}")
        self.thread.start()

    def _main(self, seconds: float) -> None:
        try:
            run_once(self.arm.target, seconds, self.fork, self.result, self.t0, seconds, None,
                     self.log, on_start=self._started)
        except Exception as exc:  # noqa: BLE001 - one run's failure must not stop the round
            self.error = {"round": f"fuzzing {self.arm.target}",
                          "error": f"{type(exc).__name__}: {exc}".splitlines()[0][:300],
                          "traceback": traceback.format_exc()}
        finally:
            self.log.close()

    def _started(self, proc) -> None:
        self.proc = proc
        if self.stopping:      # asked to stop before it ran
            self.interrupt()

    def age(self) -> float:
        return time.monotonic() - self.t0

    def settled(self) -> bool:
        """Whether it has fuzzed ``min_age`` seconds past its start-up (libFuzzer's first status
        line), or been running three times that in all (a target slow to start is not kept
        forever): until then no other target displaces it."""
        rows = self.result.timeline
        fuzzed = self.age() - rows[0][0] if rows else 0.0
        return fuzzed >= self.min_age or self.age() >= 3 * self.min_age

    def interrupt(self) -> None:
        """SIGINT to libFuzzer (its parent process, in fork mode, ends its workers)."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.proc.send_signal(signal.SIGINT)
            except OSError:
                pass

    def stop(self, why: str) -> None:
        """Ask it to end: SIGINT, except to a -fork run, which ends at its own -max_total_time
        unless the campaign is interrupted (killing its workers could cut a crash artifact
        short while one is written: they write the same crash-<sha1> again and again)."""
        if not self.stopping:
            self.stopping = why
            self.stopped_at = time.monotonic()
            if not self.fork or why == "interrupted":
                self.interrupt()

    def force(self) -> None:
        """SIGKILL to its process group, once, when SIGINT did not end it within STOP_GRACE
        seconds (Python's own SIGINT handler keeps libFuzzer's out: a process that is not in
        Python code, as a -fork parent, does not act on it). Not reaped here: the reading thread
        still reads its CPU time."""
        if self.fork and self.stopping != "interrupted":
            return
        if self.stopping and not self.forced and self.proc is not None \
                and time.monotonic() - self.stopped_at > STOP_GRACE and self.proc.poll() is None:
            self.forced = True
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass


def gain_rate(result: RunResult, now: float, crashes_count: bool = True) -> float:
    """New features per second over the recent half of a run (at least its last 2 s), plus
    CRASH_FEATURES per crash over its age when ``crashes_count``. ``now``: seconds since the run
    started (the timeline's clock). 0.0 before its first status line."""
    rows = result.timeline
    if not rows:
        return 0.0
    inited = rows[0][0]
    age = max(1e-9, now - inited)
    window = max(2.0, age / 2)
    since = max(inited, now - window)
    ft_then = rows[0][3]
    for row in rows:
        if row[0] > since:
            break
        ft_then = row[3]
    rate = max(0, rows[-1][3] - ft_then) / max(1e-9, now - since)
    if crashes_count:
        rate += CRASH_FEATURES * max(result.crashes, len(result.artifacts)) / max(1.0, now)
    return rate


def explore_seconds(core_seconds: float, n_targets: int) -> float:
    return min(MAX_EXPLORE_SECONDS, max(MIN_RUN_SECONDS, EXPLORE_SHARE * core_seconds / max(1, n_targets)))


def fuzz_parallel(targets: list[str], deadline: float, jobs: int, *, side: list[Side] = (),
                  reserve: Callable[[dict], float] = lambda artifacts: 0.0, t_origin: float | None = None,
                  log=print, status=sys.stderr) -> tuple[list[RunResult], list[dict]]:
    """Fuzz ``targets`` on ``jobs`` cores until ``deadline`` (a ``time.monotonic()`` value) less
    ``reserve(artifacts_by_target)``, with the ``side`` rounds on one of them (see the module
    docstring). Returns every run (``start`` in seconds after ``t_origin``, default now) and the
    errors of runs that failed ({"round", "error", "traceback"})."""
    t_origin = time.monotonic() if t_origin is None else t_origin
    arms = {t: Arm(t) for t in targets}
    per_target = max(1, math.ceil(jobs / max(1, len(targets))))
    side_seconds = sum(s.seconds for s in side)
    side_at = time.monotonic()
    core_seconds = max(0.0, (deadline - time.monotonic()) * jobs - side_seconds)
    explore = explore_seconds(core_seconds, len(targets))
    log(f"  {jobs} processes at once, {len(targets)} targets: a first run of {explore:.0f} s each, "
        f"then by gain (new features per second)"
        + (f"; {', '.join(s.name for s in side)} on one core from {max(0, side_at - t_origin):.0f} s"
           if side else ""))
    live: list[Live] = []
    done: list[RunResult] = []
    errors: list[dict] = []
    side_thread: threading.Thread | None = None
    pending_side = list(side)
    pending: list[Arm] = []     # chosen to displace a running target, waiting for its core
    last_status = 0.0

    def run_side():
        for s in pending_side:
            s.start = time.monotonic() - t_origin
            try:
                s.result = s.run()
            except Exception as exc:  # noqa: BLE001 - written down by the campaign, which goes on
                s.error = {"round": s.name, "error": f"{type(exc).__name__}: {exc}".splitlines()[0][:300],
                           "traceback": traceback.format_exc()}
            s.end = time.monotonic() - t_origin

    def fuzz_deadline() -> float:
        artifacts = {}
        for r in done + [x.result for x in live]:
            artifacts[r.target] = artifacts.get(r.target, 0) + len(r.artifacts)
        return deadline - reserve(artifacts)

    def startup_of(arm: Arm) -> float:
        """The start-up a new run of ``arm`` will pay: its runs' mean, else every run's."""
        runs = [r for r in arm.runs if r.timeline] or [r for r in done if r.timeline]
        return sum(r.startup for r in runs) / len(runs) if runs else 0.0

    def candidate(left: float) -> Arm | None:
        """The target a free core goes to, among those whose start-up leaves them at least
        MIN_RUN_SECONDS of fuzzing in the ``left`` seconds (a run cut off in its start-up
        fuzzes nothing)."""
        free = [a for a in arms.values() if a.running < per_target
                and startup_of(a) + MIN_RUN_SECONDS < left]
        unexplored = [a for a in free if a.rate is None and not a.runs]
        if unexplored:
            return unexplored[0]
        ranked = sorted(free, key=lambda a: (-(a.rate or 0.0), sum(r.seconds for r in a.runs)))
        return ranked[0] if ranked else None

    def start(arm: Arm, left: float) -> None:
        result = RunResult(arm.target, start=time.monotonic() - t_origin)
        fork = 1 if arm.crashes >= CRASHES_WORTH_GAIN else 0
        result.processes = 2 if fork else 1
        require_free_space(corpus_store.work_dir(arm.target))
        logf = open_log(arm.target, result)
        arm.running += 1
        arm.runs.append(result)
        # stopped at the deadline by SIGINT, libFuzzer's own -max_total_time the backstop; a
        # -fork run is not stopped by a signal (Live.stop): it gets the time to the deadline
        seconds = max(left, MIN_RUN_SECONDS) if fork else max(left, 0.0) + RUN_SLACK
        live.append(Live(arm, result, fork, seconds, explore, logf))

    def finish(run: Live) -> None:
        r, arm = run.result, run.arm
        r.seconds = run.age()
        arm.running -= 1
        arm.crashes += max(r.crashes, len(r.artifacts))
        if run.error:
            errors.append(run.error)
            r.ended = "error"
        elif run.stopping:
            r.ended = run.stopping
        else:
            r.ended = "crash" if r.artifacts else "time"
        # the rate at its end: a crash counts while the target's crashes may still be new bugs
        arm.rate = gain_rate(r, r.timeline[-1][0] if r.timeline else r.seconds,
                             crashes_count=arm.crashes <= CRASHES_WORTH_GAIN)
        if r.artifacts and arm.crashes <= CRASHES_WORTH_GAIN:
            arm.rate = max(arm.rate, CRASH_FEATURES / max(1.0, r.seconds))
        if arm.running == 0:
            r.truncated = drop_truncated(corpus_store.work_dir(arm.target))
        add_to_stats(r)
        done.append(r)

    try:
        while True:
            now = time.monotonic()
            end = fuzz_deadline()
            side_running = side_thread is not None and side_thread.is_alive()
            if side and side_thread is None and now >= side_at and jobs >= 2:
                side_thread = threading.Thread(target=run_side, daemon=True, name="urlwb-side-rounds")
                side_thread.start()
                side_running = True
            for run in live:
                run.force()
            for run in [x for x in live if not x.thread.is_alive()]:
                live.remove(run)
                finish(run)
            # past the deadline, the cores a side round that overran leaves keep fuzzing
            over = now >= end and not side_running
            if over:
                for run in live:
                    run.stop("deadline")
                if not live:
                    break
            # the side rounds hold a core for their budget; past it they share the cores
            side_holds = side_running and now - side_at < side_seconds
            cores = jobs - (1 if side_holds else 0)
            left = end - now
            # a running target keeps its core unless a waiting one gains SWITCH_FACTOR times more
            if not over and (left > MIN_RUN_SECONDS + 1 or side_running):
                for run in sorted(live, key=lambda x: gain_rate(x.result, x.age())):
                    if run.stopping or run.fork or not run.settled():
                        continue
                    other = candidate(left if not side_running else math.inf)
                    if other is None:
                        break
                    mine = gain_rate(run.result, run.age(), run.arm.crashes < CRASHES_WORTH_GAIN)
                    if other.rate is None or other.rate > SWITCH_FACTOR * mine + 1e-9:
                        run.stop(f"displaced by {other.target}")
                        other.running += 1        # held for it until the core is free
                        run.arm.rate = mine
                        pending.append(other)
                        break
            # too many processes (a side round took a core): the least gaining one stops
            active = [x for x in live if not x.stopping]
            if len(active) > cores and [x for x in active if not x.fork]:
                min([x for x in active if not x.fork],
                    key=lambda x: gain_rate(x.result, x.age())).stop("core given to a side round")
            # free cores: the pending choice first, then the best candidate
            while not over and len([x for x in live if not x.stopping]) < cores \
                    and (left > MIN_RUN_SECONDS or side_running):
                if pending:
                    arm = pending.pop(0)
                    arm.running -= 1
                else:
                    arm = candidate(left if not side_running else math.inf)
                    if arm is None:
                        break
                start(arm, left)
            if now - last_status >= 5.0:
                last_status = now
                line = ", ".join(f"{x.arm.target} {x.result.execs:,}" for x in live if not x.stopping)
                total = sum(r.execs for r in done) + sum(x.result.execs for x in live)
                status.write(f"  [{now - t_origin:4.0f}s] {total:,} executions; running: {line or '-'}"
                             + (" + side round" if side_running else "") + "\n")
                status.flush()
            time.sleep(TICK)
    except BaseException:
        for run in live:
            run.stop("interrupted")
        for run in live:
            run.thread.join(STOP_GRACE + 1)
            run.force()
            run.thread.join(10)
        raise
    if side_thread is not None:
        side_thread.join()
    for s in side:   # a side round the fuzzing never reached (one core only): run now
        if s.start is None:
            pending_side[:] = [s]
            run_side()
    done.sort(key=lambda r: r.start)
    return done, errors

