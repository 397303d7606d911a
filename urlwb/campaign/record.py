"""What one campaign round did: the record :mod:`urlwb.campaign.run` writes (as ``run.json``
too) and :mod:`urlwb.campaign.report` reads. Findings stay the dicts their sidecars hold
(``corpus/<target>/regress/*.json``, :func:`urlwb.campaign.run.finding_record`)."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass
class TargetRun:
    """One fuzzing run of one target (a target that got a second share has two)."""

    target: str
    seconds: float
    execs: int
    exec_per_s: float
    cov_start: int | None
    cov_end: int | None
    ft_end: int | None
    corpus: int
    crashes: int
    restarts: int
    #: libFuzzer's progress: (seconds, execs, cov, ft) rows
    timeline: list
    #: new findings this run's target filed in the round
    new: int = 0
    #: the engine's branch coverage by the target's corpus before and after the round (percent)
    branch_before: float | None = None
    branch_after: float | None = None
    log: str | None = None
    #: seconds after the campaign's start when the run started (the gain schedule's runs overlap)
    start: float = 0.0
    #: libFuzzer processes at once (1; a -fork run: its workers and their parent)
    processes: int = 1
    #: seconds to its first status line: Python, the instrumented imports, the corpus replay
    startup: float = 0.0
    #: CPU seconds (user and system) of its processes, as the kernel counted them
    cpu_seconds: float = 0.0
    #: why it ended: "time", "crash", "displaced by TARGET", "deadline", ...
    ended: str = ""

    @property
    def workers(self) -> int:
        """Processes that fuzz: a -fork run's parent only waits on its workers."""
        return max(1, self.processes - 1) if self.processes > 1 else 1

    @property
    def core_seconds(self) -> float:
        return self.seconds * self.workers


@dataclasses.dataclass
class CampaignRecord:
    """The whole round."""

    stamp: str
    minutes: float
    engine_commit: str
    #: the differential round's generated inputs' seed (``urlwb campaign --seed`` repeats them)
    seed: int | None
    targets: list[TargetRun] = dataclasses.field(default_factory=list)
    new_findings: list[dict] = dataclasses.field(default_factory=list)
    #: what findings.jsonl holds: {"records", "bug", "hazard"} (every room's, the differential's too)
    findings_written: dict = dataclasses.field(default_factory=dict)
    duplicates: int = 0
    unreproducible: int = 0
    open_total: int = 0
    open_findings: list[dict] = dataclasses.field(default_factory=list)
    branch_before: float | None = None
    branch_after: float | None = None
    coverage_note: str = ""
    #: {"skipped": why} or {"markdown": ..., "summary": ...} of the differential round
    diff: dict = dataclasses.field(default_factory=dict)
    #: {"skipped": why} or {"markdown": ..., "summary": ...} of the long-input round (urlwb.growth)
    growth: dict = dataclasses.field(default_factory=dict)
    #: rounds that failed: {"round", "error", "traceback"} each
    round_errors: list[dict] = dataclasses.field(default_factory=list)
    wall_seconds: float = 0.0
    #: "gain" (every core, time by measured gain) or "even" (one target after another, an even split)
    schedule: str = "gain"
    #: processes at once the campaign was given (--jobs), and the cores it could use
    jobs: int = 1
    cores: int = 1
    #: where the minutes went: {"round", "start", "seconds", "processes"} each, in order of start
    #: ("processes": how many it kept busy at once; the fuzzing's are in ``targets``)
    rounds: list[dict] = dataclasses.field(default_factory=list)
    #: the machine's load averages (1, 5, 15 min) at the start and at the end (shared machines)
    load: dict = dataclasses.field(default_factory=dict)

    def fuzz_core_seconds(self) -> float:
        """Seconds of fuzzing processes, summed over the runs (two at once count twice)."""
        return sum(t.core_seconds for t in self.targets)

    def as_json(self) -> dict:
        out = dataclasses.asdict(self)
        for row, t in zip(out["targets"], self.targets):
            row["core_seconds"] = round(t.core_seconds, 2)
        execs = sum(t.execs for t in self.targets)
        wall = max(1e-9, self.wall_seconds)
        out["totals"] = {"fuzz_core_seconds": round(self.fuzz_core_seconds(), 1),
                         "fuzz_core_seconds_per_wall_second": round(self.fuzz_core_seconds() / wall, 3),
                         "fuzz_cpu_seconds": round(sum(t.cpu_seconds for t in self.targets), 1),
                         "executions": execs, "executions_per_wall_second": round(execs / wall, 1)}
        return out
