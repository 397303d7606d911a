"""Every parser on every shape: the points, the flags confirmed, minimized and filed.

Parsers are measured one at a time (a program started, measured, stopped) so that no idle child
competes with the one being timed; the engine is timed in the same run, on the same inputs, and
each of its figures is kept for the run (:class:`~urlwb.growth.measure.Probe`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from urlwb import oracles, progress
from urlwb.growth import filing
from urlwb.growth.measure import FAST, LINEAR, Point, Probe, Thresholds
from urlwb.growth.shapes import SHAPES, Shape
from urlwb.growth.timing import IN_PROCESS_DEADLINE, InProcessTimer, timer_for

REFERENCE = "engine"


@dataclass
class Finding:
    found: Point          # where it was flagged (and confirmed)
    minimized: Point      # the shortest count still flagged
    path: str | None      # where it was filed; None when filed already (or not filing)
    duplicate: bool = False
    #: the other shapes flagged with the same class, and their ratios (None: hung)
    others: dict = field(default_factory=dict)
    #: a regex's shape (urlwb.growth.regexes): its times at four lengths
    lengths: list = field(default_factory=list)


@dataclass
class Row:
    name: str
    language: str
    version: str
    points: list[Point] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    skipped: str | None = None
    seconds: float = 0.0
    unmeasured: int = 0   # shapes left out when the time ran out


@dataclass
class GrowthResult:
    count: int
    scale: int
    runs: int
    thresholds: Thresholds
    shapes: list[Shape]
    rows: list[Row]
    engine_version: str
    seconds: float = 0.0
    command: str = ""

    @property
    def findings(self) -> list[tuple[Row, Finding]]:
        return [(r, f) for r in self.rows for f in r.findings]


def survey(names: list[str], *, count: int = 1000, scale: int = 10, runs: int = 3,
           thresholds: Thresholds = Thresholds(), shapes: list[Shape] | None = None,
           seconds: float | None = None, file: bool = True,
           deadline: float = IN_PROCESS_DEADLINE, minimize: bool = True,
           least_share: float = 0.0,
           log: Callable[[str], None] = print) -> GrowthResult:
    """Measure each parser of ``names`` (the engine is the reference, not a subject) on each
    shape at ``count`` and ``count * scale``; within ``seconds`` if given (each parser gets an
    even share of what is left; shapes it has no time for are counted, not measured).
    ``least_share``: seconds a parser gets at least (then the last ones get none).
    ``deadline``: seconds an in-process parse may take before it is a hang; ``minimize``
    False: a flag is filed at the count it was found at (no bisection)."""
    t0 = time.monotonic()
    shapes = list(SHAPES if shapes is None else shapes)
    started, skipped = oracles.load([REFERENCE])
    if REFERENCE not in started:
        raise RuntimeError(f"the engine cannot start: {skipped.get(REFERENCE)}")
    engine_timer = InProcessTimer(started[REFERENCE])
    engine_times: dict = {}
    result = GrowthResult(count, scale, runs, thresholds, shapes, [], started[REFERENCE].version)
    subjects = [n for n in names if n != REFERENCE]
    try:
        # k of N parsers, and a line every few seconds while one is measured
        with progress.task(f"growth: {len(shapes)} shapes at {count:,} and {count * scale:,}",
                           total=len(subjects), beat=True) as said:
            for i, name in enumerate(subjects):
                entry = oracles.REGISTRY[name]
                row = Row(name, entry.language, "?")
                result.rows.append(row)
                left = None if seconds is None else seconds - (time.monotonic() - t0)
                share = None if left is None else max(least_share, left / (len(subjects) - i))
                if left is not None and left <= 0:
                    row.skipped, row.unmeasured = "no time left in the round", len(shapes)
                    said.advance(note=f"{name}: no time left")
                    continue
                _measure_parser(row, shapes, count, scale, runs, thresholds, engine_timer,
                                engine_times, share, file, deadline, minimize, log)
                said.advance(note=name)
    finally:
        engine_timer.close()
    result.seconds = time.monotonic() - t0
    return result


def _measure_parser(row: Row, shapes, count, scale, runs, thresholds, engine_timer, engine_times,
                    share, file, deadline, minimize, log) -> None:
    t0 = time.monotonic()
    started, skipped = oracles.load([row.name])
    if row.name not in started:
        row.skipped = skipped.get(row.name, "could not start")
        log(f"  {row.name:28} skipped: {row.skipped}")
        return
    oracle = started[row.name]
    row.version = oracle.version
    row.language = getattr(oracle, "language", row.language)
    timer = timer_for(row.name, oracle, deadline)
    probe = Probe(timer, engine_timer, runs, thresholds, engine_times)
    try:
        for k, shape in enumerate(shapes):
            if share is not None and time.monotonic() - t0 > share:
                row.unmeasured = len(shapes) - k
                break
            p = probe.point(shape, count, scale)
            if p.flagged:
                again = probe.confirm(p)
                doubled, engine_doubled, passed = probe.doubling(again) if again.flagged else (None, 0.0, False)
                if again.flagged and passed:
                    log(f"  {row.name}: {p.verdict} on {shape.name!r} (ratio "
                        f"{_r(again.ratio)} against the engine's {again.engine_ratio:.1f}; "
                        f"at 4 x 10n: {_r(doubled)}, the engine {engine_doubled:.1f})")
                    again.doubled = (doubled, engine_doubled)
                    p = again
                elif again.flagged:
                    p.verdict += (f" at n and 10n, not at 40n (t(40n)/t(10n) {_r(doubled)}, "
                                  f"the engine's {engine_doubled:.1f}): not confirmed")
                else:
                    p.verdict += " once (not confirmed)"
            row.points.append(p)
        _file_worst(row, probe, file, minimize, log)
    finally:
        timer.close()
        row.seconds = time.monotonic() - t0
    log(f"  {row.name:28} {row.version[:24]:24} {len(row.points):2} shapes, {row_summary(row)}, {row.seconds:.1f} s"
        + (f"; {row.unmeasured} shapes not measured (time)" if row.unmeasured else ""))


def row_summary(row: Row) -> str:
    """How many shapes were flagged and the worst of them (a hang first, else the highest
    ratio); then the highest ratio of the shapes judged linear, said to be below the limit, so
    that it does not read as a finding (issue 37)."""
    flagged = [q for q in row.points if q.flagged]
    below = [q for q in row.points if q.verdict == LINEAR]
    said = f"{len(flagged)} flagged"
    if flagged:
        worst = max(flagged, key=lambda q: float("inf") if q.ratio is None else q.ratio)
        said += f" (worst: {'hang' if worst.ratio is None else f'ratio {worst.ratio:.1f}'}, {worst.shape.name})"
    if below:
        high = max(below, key=lambda q: q.ratio)
        said += f"; not flagged, below the limit: highest ratio {high.ratio:.1f} ({high.shape.name})"
    unconfirmed = sum(not q.flagged and q.verdict not in (LINEAR, FAST) for q in row.points)
    if unconfirmed:
        said += f"; {unconfirmed} above the limit once, not confirmed"
    if row.points and all(q.verdict == FAST for q in row.points):
        said += "; every shape below the time floor"
    return said


def _file_worst(row: Row, probe: Probe, file: bool, minimize: bool, log) -> None:
    """One finding per parser and class (a parser slow on twelve shapes is most likely slow for
    one reason): the worst confirmed point of each class (a hang first, else the highest
    ratio), minimized and filed, the other flagged shapes named in its sidecar."""
    for verdict in ("hang", "superlinear"):
        flagged = [p for p in row.points if p.verdict == verdict]
        if not flagged:
            continue
        worst = max(flagged, key=lambda p: p.ratio or float("inf"))
        log(f"  {row.name}: minimizing {verdict} on {worst.shape.name!r}"
            f" ({len(flagged) - 1} other shapes flagged)")
        small = probe.minimize(worst) if minimize else worst
        others = {p.shape.name: p.ratio for p in flagged if p is not worst}
        path = filing.file(row.name, row.version, row.language, small, worst, others) if file else None
        row.findings.append(Finding(worst, small, str(path) if path else None,
                                    duplicate=file and path is None, others=others))


def _r(x: float | None) -> str:
    return "—" if x is None else f"{x:.1f}"
