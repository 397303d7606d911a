"""The campaign's record and its summary, without a campaign: where the minutes went as one bar
(core-seconds of the fuzzing runs and of each round on the cores times the wall time), the
totals run.json carries, and a summary that holds whatever the rounds left unmeasured."""

from __future__ import annotations

from urlwb.campaign.record import CampaignRecord, TargetRun
from urlwb.campaign.report import render_markdown, time_bar
from urlwb.campaign.run import summary


def _run(target, start, seconds, processes=1, execs=1000):
    return TargetRun(target=target, seconds=seconds, execs=execs, exec_per_s=execs / seconds,
                     cov_start=1, cov_end=2, ft_end=3, corpus=4, crashes=0, restarts=0, timeline=[],
                     start=start, processes=processes, startup=1.0, cpu_seconds=seconds / 2)


def _record(**kw) -> CampaignRecord:
    c = CampaignRecord(stamp="s", minutes=1.0, engine_commit="c", seed=1, cores=2, jobs=2,
                       wall_seconds=100.0, **kw)
    # two runs of 75 s on one process each, and one -fork=1 run (its parent only waits): 10 s
    c.targets = [_run("url", 0, 75), _run("host", 20, 75), _run("idna", 90, 10, processes=2)]
    c.rounds = [{"round": "differential round", "start": 0, "seconds": 30, "processes": 1},
                {"round": "fuzzing", "start": 0, "seconds": 98, "processes": 2},
                {"round": "report", "start": 98, "seconds": 1.5, "processes": 1}]
    return c


def test_the_bar_splits_the_cores_times_the_wall_time():
    c = _record()
    assert c.fuzz_core_seconds() == 160.0
    lines = time_bar(c, width=40)
    bar = lines[1].strip()[1:-1]
    assert len(bar) == 40
    # 160 of 200 core-seconds fuzzing, 30 the differential round, 1.5 the report, 8.5 idle
    assert bar.count("#") == 32 and bar.count("d") == 6 and bar.count("r") == 0 and bar.count(".") == 2
    assert bar == "#" * 32 + "d" * 6 + "." * 2
    assert "1.60 per wall-second" in lines[2]
    totals = c.as_json()["totals"]
    assert totals["fuzz_core_seconds_per_wall_second"] == 1.6 and totals["executions"] == 3000
    assert [r["core_seconds"] for r in c.as_json()["targets"]] == [75, 75, 10]
    assert "where the minutes went" in render_markdown(c)


def test_rounds_that_ask_for_more_than_the_cores_fill_the_bar():
    c = _record()
    c.rounds[0]["seconds"] = 80          # the differential round outlasted its share
    bar = time_bar(c, width=40)[1].strip()[1:-1]
    assert len(bar) == 40 and "." not in bar
    assert "none idle" in time_bar(c)[-1]


def test_the_summary_holds_coverage_that_was_not_measured():
    for before, after in ((None, None), (80.0, None), (80.0, 81.5)):
        c = _record(branch_before=before, branch_after=after)
        text = summary(c)
        assert "3,000 executions (30 per wall-second)" in text
        assert ("80.0% -> 81.5%" in text) == (after is not None)
