"""The verdict on one parser and one shape: its time ratio t(10n)/t(n) against the engine's on
the same two inputs, and the shortest repetition count that still shows it.

Thresholds (:class:`Thresholds`), and why:

- a linear parser's ratio is about 10 (the lengths are n and 10n); n log n gives about 13 at the
  default lengths; a quadratic loop 100; a backtracking regex more, or no end (a hang);
- ``least_ratio`` 20: twice linear, above n log n and above what noise does to a linear
  parser's ratio on a loaded 2-core machine (the minimum of several runs is taken; the engine's
  own ratios over every shape were measured between 4 and 13 here: ``urlwb growth --parsers
  engine``);
- ``factor`` 3 × the engine's ratio on the same inputs: where the engine itself is above linear
  (its time at n is not yet dominated by the loop over the piece), a parser is held to that;
- ``own_exponent`` 1.6: whatever the engine does, a parser whose own times at n and 10n grow as
  n^1.6 or faster (a ratio of 39.8 at 10n) is superlinear (a shape on which the engine is itself
  above linear, or a shape of the user's the engine was never written for, does not excuse it:
  issue 27); and the second check (below) passes on the parser's own growth at 4L above 4^1.6
  (9.2) likewise;
- ``min_seconds`` 5 ms at 10n: below it, a round trip's noise (up to a millisecond or two on a
  busy machine, after the tiny input's round trip is taken out) is of the size of the figure
  itself; a linear parser at 10n of a few thousand pieces is mostly below it, which is why
  the default lengths are what they are. Every flag must survive a second measurement.

A parser that gives no answer within its deadline (the protocol's ``deadline``, or
``IN_PROCESS_DEADLINE`` in the process) at either length is a "hang". Every flag is measured
again before it counts (``confirm``), then at four times the longer length
(:meth:`Probe.doubling`: its time must grow more than 6-fold), and its count is bisected down
to the shortest that is still flagged (:meth:`Probe.minimize`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from urlwb.growth.shapes import Shape

HANG, SUPERLINEAR, LINEAR, FAST = "hang", "superlinear", "linear", "too fast to tell"
#: the second check of a flag measures at GROWTH_CHECK times the longer length L, and wants
#: t(4L)/t(L) above max(GROWTH_LEAST, GROWTH_FACTOR x the engine's): linear is 4, quadratic 16.
#: At 2L and 2.5 it passed Firefox ('query ?' 18,270 -> 36,540: 2.9) and url-parse, whose times
#: at 2,000, 8,000, 32,000 and 128,000 are steps or linear (measured: 1.2, 14.6, 20.0, 68.3 ms)
GROWTH_CHECK = 4
GROWTH_LEAST = 6.0
GROWTH_FACTOR = 1.5
#: runs per figure of the checks of a flag (confirm, doubling)
CHECK_RUNS = 5


@dataclass(frozen=True)
class Thresholds:
    factor: float = 3.0
    least_ratio: float = 20.0
    min_seconds: float = 0.005
    own_exponent: float = 1.6

    def limit(self, engine_ratio: float, scale: int = 10) -> float:
        """The ratio above which a parser is superlinear, given the engine's: above both the
        least ratio and ``factor`` x the engine's, or above ``scale ** own_exponent`` (its own
        times alone)."""
        return min(max(self.least_ratio, self.factor * engine_ratio), scale ** self.own_exponent)


@dataclass
class Point:
    """One parser, one shape, at ``count`` and ``count * scale`` repetitions."""

    shape: Shape
    count: int
    scale: int
    short: float | None
    long: float | None
    engine_short: float
    engine_long: float
    verdict: str = ""
    #: after the doubling check: (t(2L)/t(L) or None for a hang, the engine's)
    doubled: tuple | None = None

    @property
    def ratio(self) -> float | None:
        if self.short is None or self.long is None:
            return None
        return self.long / self.short

    @property
    def exponent(self) -> float | None:
        """k in t ~ n^k from the parser's own two times (1 linear, 2 quadratic)."""
        r = self.ratio
        return None if r is None or r <= 0 or self.scale < 2 else math.log(r) / math.log(self.scale)

    @property
    def engine_ratio(self) -> float:
        return self.engine_long / self.engine_short

    def judge(self, th: Thresholds) -> str:
        if self.short is None or self.long is None:
            self.verdict = HANG
        elif self.long < th.min_seconds:
            self.verdict = FAST
        elif self.ratio > th.limit(self.engine_ratio, self.scale):
            self.verdict = SUPERLINEAR
        else:
            self.verdict = LINEAR
        return self.verdict

    @property
    def flagged(self) -> bool:
        return self.verdict in (HANG, SUPERLINEAR)


@dataclass
class Probe:
    """What measures: a parser's timer, the engine's, runs per figure, the thresholds. The
    engine's times are kept per (shape, count): measured once a run."""

    timer: object
    engine: object
    runs: int = 3
    thresholds: Thresholds = field(default_factory=Thresholds)
    _engine_times: dict = field(default_factory=dict)

    @property
    def check_runs(self) -> int:
        """Runs per figure of a flag's checks: CHECK_RUNS through a round trip (wall time, and a
        JVM's collections), ``runs`` in the process (CPU time varies little)."""
        return max(self.runs, CHECK_RUNS) if getattr(self.timer, "round_trip", False) else self.runs

    def engine_time(self, shape: Shape, count: int) -> float:
        key = (shape.name, count)
        if key not in self._engine_times:
            t = self.engine.time(shape.make(count), self.runs)
            self._engine_times[key] = t if t is not None else float("inf")
        return self._engine_times[key]

    def point(self, shape: Shape, count: int, scale: int, runs: int | None = None) -> Point:
        tiny = shape.tiny()
        runs = runs or self.runs
        short = self.timer.time(shape.make(count), runs, tiny)
        long = None if short is None else self.timer.time(shape.make(count * scale), runs, tiny)
        p = Point(shape, count, scale, short, long, self.engine_time(shape, count),
                  self.engine_time(shape, count * scale))
        p.judge(self.thresholds)
        return p

    def confirm(self, p: Point) -> Point:
        """``p`` measured again, with :attr:`check_runs` runs (a JVM's garbage collections make
        one input's time vary by 2x between runs: measured on OkHttp): a flag counts only when
        it is flagged twice."""
        return self.point(p.shape, p.count, p.scale, self.check_runs)

    def doubling(self, p: Point) -> tuple[float | None, float, bool]:
        """The second check of a flag: t(4L)/t(L) at the longer length L, against the engine's;
        a quadratic parser's time grows 16-fold when the input grows 4-fold, where a step in a
        round trip's cost (a browser's batch that turns slower past some size, then stays flat:
        measured on Firefox) does not. (ratio or None for a hang, the engine's ratio, passed):
        passed when above max(GROWTH_LEAST, GROWTH_FACTOR × the engine's)."""
        long = p.count * p.scale
        tiny = p.shape.tiny()
        t2 = self.timer.time(p.shape.make(GROWTH_CHECK * long), self.check_runs, tiny)
        e1, e2 = self.engine_time(p.shape, long), self.engine_time(p.shape, GROWTH_CHECK * long)
        if p.long is None or t2 is None:
            return None, e2 / e1, True
        ratio = t2 / p.long
        own = GROWTH_CHECK ** self.thresholds.own_exponent
        return ratio, e2 / e1, ratio > min(max(GROWTH_LEAST, GROWTH_FACTOR * e2 / e1), own)

    def minimize(self, p: Point) -> Point:
        """The flagged point at the shortest count (bisection on the repetition count, between 1
        and ``p.count``), assuming a longer run of the piece is never less flagged."""
        lo, hi, best = 0, p.count, p
        while hi - lo > 1:
            mid = (lo + hi) // 2
            q = self.point(p.shape, mid, p.scale)
            if q.flagged:
                hi, best = mid, q
            else:
                lo = mid
        return best
