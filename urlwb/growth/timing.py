"""Per-input parse time of one parser, the minimum of several runs (the run least disturbed by
the other work of a shared machine), or ``None`` when the parser did not end within its deadline.

Two timers, one contract (:meth:`time` of a text and a number of runs):

- :class:`InProcessTimer`, for parsers in the workbench's process (the engine, the Python peers,
  ``py:`` callables): the parser runs in a forked child, one parse per request, so that a parse
  that never ends is stopped (the child is killed at the deadline and a new one forked); the
  time is the child's CPU time around the one call (``time.process_time``): on a loaded 2-core
  machine a long parse is preempted more often than a short one, and wall time made a linear
  parser's ratio 38 once (measured); the deadline is wall time.
- :class:`RoundTripTimer`, for parsers behind the protocol: a batch of ``copies`` copies of the
  text through the supervisor, minus a batch of the shape's tiny input (its piece once), over
  ``copies``: the round trip's fixed cost (the pipes, the JSON, the wake-ups) is taken out; what
  grows with the text's length (its JSON on both sides) is linear, so it cannot make a linear
  parser look superlinear. The protocol has no timing field (``docs/oracle-protocol.md``). A time below the
  round trip's noise (the spread of the tiny batches, or a tenth of one tiny round trip) is
  reported as that noise: a fast parser's time at n is not a ratio's near-zero denominator.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import time

from urlwb import children, oracles
from urlwb.differential import generate

#: seconds a parse in the process may take before it counts as hung (the protocol's default)
IN_PROCESS_DEADLINE = 5.0
#: the least per-input time a round trip difference is taken as (noise can make it negative)
FLOOR = 1e-7


def _serve(oracle, conn, parent: int) -> None:
    """The forked child: for each text received, one parse, and its time sent back."""
    children.forked_child(parent)   # dies with the workbench, SIGKILL included
    gc.disable()
    while True:
        try:
            text = conn.recv()
        except EOFError:
            return
        t = time.process_time()
        try:
            oracle.parse(text, None)
        except Exception:  # noqa: BLE001 - an adapter's own crash record is not timing's business
            pass
        conn.send(time.process_time() - t)


class InProcessTimer:
    """One in-process oracle, timed in a forked child that is killed when a parse outlasts
    ``deadline`` seconds (then :meth:`time` returns None and the next call forks a new one)."""

    def __init__(self, oracle, deadline: float = IN_PROCESS_DEADLINE):
        self.oracle = oracle
        self.deadline = deadline
        self._proc = None
        self._conn = None

    def _start(self) -> None:
        ctx = multiprocessing.get_context("fork")
        parent, child = ctx.Pipe()
        self._proc = ctx.Process(target=_serve, args=(self.oracle, child, os.getpid()), daemon=True)
        self._proc.start()
        children.adopt(self._proc.pid)
        child.close()
        self._conn = parent

    def time(self, text: str, runs: int, tiny: str = "") -> float | None:
        """The least of ``runs`` parse times of ``text`` (``tiny`` is not needed here: no round
        trip to take out)."""
        if self._proc is None or not self._proc.is_alive():
            self._start()
        best = float("inf")
        for _ in range(runs):
            self._conn.send(text)
            if not self._conn.poll(self.deadline):
                self.close()
                return None
            try:
                best = min(best, self._conn.recv())
            except EOFError:   # the child died (a segfault in a C extension): no time
                self.close()
                return None
        return best

    def close(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.join(timeout=2)
            children.disown(self._proc.pid)
            self._conn.close()
        self._proc = self._conn = None


class RoundTripTimer:
    """One oracle behind the protocol: (batch of ``copies`` texts - batch of ``copies`` tiny
    inputs) / ``copies``, each batch the minimum of ``runs``, the two interleaved. None when the
    supervisor reports the parser hung on the text (no answer within its deadline); the
    supervisor restarts it. ``name`` is used to start it again after it was given up."""

    round_trip = True

    def __init__(self, oracle, name: str, copies: int = 3):
        self.oracle = oracle
        self.name = name
        self.copies = copies
        self.deadline = oracle.spec.deadline
        self.version = oracle.version
        #: the round trip's noise in the last measurement, per input (the least time it reports)
        self.noise = 0.0
        self._warm = False

    def _batch(self, text: str) -> tuple[float, bool]:
        t = time.perf_counter()
        records = self.oracle.parse_many([(text, None)] * self.copies)
        elapsed = time.perf_counter() - t
        hung = any(r is not None and r.hung for r in records)
        return elapsed, hung

    def _revive(self) -> None:
        if getattr(self.oracle.sup, "given_up", None):
            self.oracle.close()
            started, skipped = oracles.load([self.name])
            if self.name in started:
                self.oracle = started[self.name]

    def _warm_up(self) -> None:
        """Every WPT input, twice, before the first figure: a JVM interprets a method until it
        has run it often (OkHttp's first parse of a 126-'@' input took 5.3 ms cold, 0.2 ms
        warm: measured), and that is not the parser's time on a long input."""
        if not self._warm:
            items = [(i, None) for i, _ in generate.wpt_cases()]
            for _ in range(2):
                self.oracle.parse_many(items)
            self._warm = True

    def time(self, text: str, runs: int, tiny: str = "") -> float | None:
        self._revive()
        self._warm_up()
        # One copy alone first: a parser that hangs on it costs one deadline and one restart,
        # not one per copy in flight (each copy would hang in turn).
        alone = self.oracle.parse_many([(text, None)])
        if alone and alone[0] is not None and alone[0].hung:
            return None
        best_long = float("inf")
        tinies = []
        for _ in range(runs):
            small, _ = self._batch(tiny)
            tinies.append(small)
            long, hung = self._batch(text)
            if hung:
                return None
            best_long = min(best_long, long)
        # What the subtraction cannot tell from nothing: the spread of the tiny round trips, and
        # a tenth of one (a parse hidden in the round trip's noise is not measured as 0).
        self.noise = max((max(tinies) - min(tinies)) / self.copies, min(tinies) / self.copies / 10)
        return max(FLOOR, self.noise, (best_long - min(tinies)) / self.copies)

    def close(self) -> None:
        self.oracle.close()


def timer_for(name: str, oracle, deadline: float = IN_PROCESS_DEADLINE):
    """The timer that fits ``oracle``: a round trip for a child process, a fork otherwise."""
    if getattr(oracle, "runs_apart", False):
        return RoundTripTimer(oracle, name)
    return InProcessTimer(oracle, deadline)
