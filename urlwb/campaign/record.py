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
    duplicates: int = 0
    unreproducible: int = 0
    open_total: int = 0
    open_findings: list[dict] = dataclasses.field(default_factory=list)
    branch_before: float | None = None
    branch_after: float | None = None
    coverage_note: str = ""
    #: {"skipped": why} or {"markdown": ..., "summary": ...} of the differential round
    diff: dict = dataclasses.field(default_factory=dict)
    #: rounds that failed: {"round", "error", "traceback"} each
    round_errors: list[dict] = dataclasses.field(default_factory=list)
    wall_seconds: float = 0.0

    def as_json(self) -> dict:
        return dataclasses.asdict(self)
