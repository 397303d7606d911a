"""The growth round finds planted slow parsers and leaves a linear one alone.

Planted parsers (``tests/workbench/planted_growth.py``, as ``py:`` oracles): ``quadratic_at`` rescans
the authority at each '@', ``backtracking`` searches a regex whose run of '@' is read to its end
and given back from every start, ``exponential`` a regex whose ways to split a run of '@' grow as
Fibonacci's numbers (a hang), ``linear_slow`` is linear but above the time floor. Findings are
filed into a temporary corpus (``URLWB_CORPUS``).
"""

from __future__ import annotations

import re

import pytest

from urlwb import corpus_store, oracles
from urlwb.cli import main
from urlwb.differential.run import decode_case
from urlwb.growth import command, filing, shapes
from urlwb.growth.measure import Point
from urlwb.growth.survey import Row, row_summary, survey

AT = shapes.BY_NAME["userinfo @"]
SLASHES = shapes.BY_NAME["path slashes"]


@pytest.fixture
def planted(tmp_path, monkeypatch):
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    names = oracles.configure([f"{n}=py:planted_growth:{f}" for n, f in (
        ("quad", "quadratic_at"), ("bt", "backtracking"), ("lin", "linear_slow"), ("expo", "exponential"), ("data", "data_redos"),
        ("dataurl", "data_url_failing_suffix"))],
        config=False)
    yield names
    for n in names:
        oracles.REGISTRY.pop(n, None)


def test_a_quadratic_parser_is_found_minimized_and_filed(planted):
    res = survey(["quad"], count=1000, scale=10, shapes=[AT, SLASHES], log=lambda _: None)
    (row,) = res.rows
    assert [f.minimized.shape.name for f in row.findings] == ["userinfo @"]
    f = row.findings[0]
    assert f.minimized.verdict == "superlinear" and f.minimized.count < 1000
    entry, = filing.entries()
    meta = entry.sidecar
    assert (meta["parser"], meta["version"], meta["class"], meta["kind"]) == ("quad", "planted", "superlinear", "timeout")
    # judged by its contract (urlwb.growth.filing.verdict_of), not the provisional verdict
    assert (meta["verdict"]["kind"], meta["verdict"]["spec"]["clause"]) == ("bug", "any contract: time linear in the input")
    assert decode_case(entry.path.read_bytes()) == (AT.make(meta["count"] * 10), None)
    slashes = [p for p in row.points if p.shape is SLASHES][0]
    assert not slashes.flagged


def test_a_backtracking_regex_is_found(planted):
    res = survey(["bt"], count=600, scale=10, runs=2, shapes=[AT], file=False, minimize=False,
                 log=lambda _: None)
    (row,) = res.rows
    assert [f.minimized.verdict for f in row.findings] == ["superlinear"]


def test_a_parser_that_does_not_end_is_a_hang(planted):
    # a deadline well above a fork's start on a loaded machine (at 0.3 s a short parse was seen
    # reported hung)
    res = survey(["expo"], count=64, scale=10, runs=2, shapes=[AT], deadline=1.5, log=lambda _: None)
    (row,) = res.rows
    assert [f.found.verdict for f in row.findings] == ["hang"]
    assert row.findings[0].minimized.count < 64
    # the shortest input still flagged may be one that ends, slowly: filed as what it shows
    assert filing.entries()[0].sidecar["class"] in ("hang", "superlinear")


def test_a_linear_parser_above_the_time_floor_is_not_flagged(planted):
    res = survey(["lin"], count=600, scale=10, runs=2, shapes=[AT, SLASHES], log=lambda _: None)
    (row,) = res.rows
    assert row.findings == []
    assert all(p.verdict == "linear" for p in row.points), [(p.shape.name, p.verdict, p.ratio) for p in row.points]
    assert not filing.entries()


def test_a_replay_measures_the_filed_entry_again_and_refuses_a_changed_input(planted):
    from urlwb.growth.measure import Point, Probe
    from urlwb.growth.timing import InProcessTimer
    filing.file("quad", "planted", "Python", Point(AT, 400, 10, 1e-3, 1e-1, 1e-4, 1e-3, "superlinear"),
                Point(AT, 400, 10, 1e-3, 1e-1, 1e-4, 1e-3, "superlinear"))
    entry, = filing.entries()
    started, _ = oracles.load(["quad", "engine"])
    probe = Probe(InProcessTimer(started["quad"]), InProcessTimer(started["engine"]), runs=2)
    try:
        assert filing.replay(entry, probe)[1]
        entry.path.write_bytes(entry.path.read_bytes() + b"@")
        with pytest.raises(AssertionError, match="is not"):
            filing.replay(entry, probe)
    finally:
        probe.timer.close()
        probe.engine.close()


def test_the_campaign_round_reports_within_its_budget(planted, tmp_path):
    out = command.growth_round(tmp_path / "run", 4.0, names=["quad", "lin"], lengths=(300, 3000))
    assert "## Findings" in out["markdown"] and "quad" in out["markdown"]
    assert set(out["summary"]["parsers"]) == {"quad", "lin"}
    assert (tmp_path / "run" / "growth" / "report.html").exists()


@pytest.mark.parametrize("argv", [
    ["growth", "--lengths", "5"], ["growth", "--lengths", "10,15"], ["growth", "--shapes", "nope"],
    ["growth", "--parsers", "nosuch"], ["growth", "--runs", "0"],
    ["growth", "--shape", "data:,"], ["growth", "--shape", "{x:a}{x:b}"], ["growth", "--shape", "data:,{x}"],
    ["growth", "--piece", "a"], ["growth", "--parsers", "nosuch@1.0"],
])
def test_usage_errors_are_one_line_and_exit_2(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("urlwb growth: ")


def test_every_shape_names_where_its_piece_comes_from():
    for s in shapes.SHAPES:
        assert s.source.startswith(("generate.", "properties.")), s
        assert s.piece in s.make(3) and s.make(3).count(s.piece) >= 3


# -- every kind of scheme, the user's shapes, the parser's own times (issue 27) ------------------

DATA_PARAMS = shapes.BY_NAME["data: parameters ;a=b"]


def test_the_shapes_cover_every_kind_of_scheme():
    starts = [s.make(2) for s in shapes.SHAPES]
    for kind in ("http:", "file:", "data:", "javascript:", "mailto:"):
        assert any(x.startswith(kind) for x in starts), kind
    assert any(not re.match(r"^[a-z]+:", x) for x in starts)   # no scheme at all


def test_a_redos_in_a_data_url_is_found_on_the_data_shape_only(planted):
    """The planted data: ReDoS (quadratic here) at 250 and 1,000 parameters: flagged on the
    shipped data: shape, linear on an http: one; scale 4, where the engine-relative limit (20)
    is out of reach of a quadratic parser (16) and the parser's own growth (n^2 > n^1.6) is what
    flags it."""
    res = survey(["data"], count=250, scale=4, runs=2, shapes=[DATA_PARAMS, AT], file=False,
                 minimize=False, log=lambda _: None)
    (row,) = res.rows
    verdicts = {p.shape.name: p.verdict for p in row.points}
    assert verdicts[DATA_PARAMS.name] == "superlinear", [(p.shape.name, p.verdict, p.ratio) for p in row.points]
    assert not row.points[1].flagged
    assert [f.found.shape.name for f in row.findings] == [DATA_PARAMS.name]


PAYLOAD = shapes.BY_NAME["data: payload ,a"]


def test_a_redos_that_needs_a_failing_suffix_is_found_on_the_failing_shape(planted):
    """normalize-url 4.5.0's data: regex, planted: linear on the data: shape the regex matches,
    superlinear once the shape ends in a newline (its published trigger, 'data:' + ',' * n +
    '\\nx'); the other failing suffixes (NUL, a space, '<') are taken by its '.'. Killed by the
    shapes without their failing suffixes (no shape named '..., then a newline')."""
    newline = shapes.BY_NAME[PAYLOAD.name + ", then a newline"]
    res = survey(["dataurl"], count=250, scale=4, runs=2, shapes=[PAYLOAD, newline], file=False,
                 minimize=False, log=lambda _: None)
    (row,) = res.rows
    verdicts = {p.shape.name: p.verdict for p in row.points}
    assert verdicts[newline.name] == "superlinear", [(p.shape.name, p.verdict, p.ratio) for p in row.points]
    assert not row.points[0].flagged, verdicts
    assert newline.make(3) == "data:,a,a,a\nx"


def test_the_user_s_shape_is_measured(planted, tmp_path, capsys):
    status = main(["growth", "--parsers", "data", "--shape", "data:text/plain{x:;a=b},x",
                   "--shape", "http://{x}h/", "--piece", "@", "--lengths", "250,1000", "--runs", "2",
                   "--no-file", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 1, err
    assert "superlinear: data" in err and "'yours: data:text/plain{x:;a=b},x'" in err
    assert "yours: http://{x}h/" not in err   # measured, linear
    assert "yours: http://{x}h/ ('@')" in (tmp_path / "report.md").read_text()


def test_own_growth_flags_where_the_engine_is_itself_superlinear():
    """The engine at ratio 30 on a shape (limit 90 against it): a parser at 50 grows as n^1.7
    on its own times, and is flagged; one at 30 (the engine's own n^1.5) is not."""
    from urlwb.growth.measure import Point, Thresholds
    th = Thresholds()
    assert Point(AT, 100, 10, 1e-3, 5e-2, 1e-4, 3e-3).judge(th) == "superlinear"
    assert Point(AT, 100, 10, 1e-3, 3e-2, 1e-4, 3e-3).judge(th) == "linear"
    assert Thresholds(own_exponent=99).limit(30.0) == 90.0


def test_a_parser_s_line_names_the_worst_flagged_shape_and_says_the_others_are_below_the_limit():
    """The line after a parser's shapes: the worst ratio of an unflagged shape read as a finding
    ("1 flagged, worst ratio above the time floor 3.3 (host labels a.)", issue 37)."""
    def point(shape, long, verdict):
        return Point(shape, 1000, 10, None if long is None else 0.01, long, 0.001, 0.01, verdict)

    slow_at = Row("okhttp", "jvm", "5", points=[point(AT, 0.58, "superlinear"), point(SLASHES, 0.033, "linear")])
    assert row_summary(slow_at) == ("1 flagged (worst: ratio 58.0, userinfo @); "
                                    "not flagged, below the limit: highest ratio 3.3 (path slashes)")
    none = Row("yarl", "py", "1", points=[point(AT, 0.191, "linear"), point(SLASHES, 0.0001, "too fast to tell")])
    assert row_summary(none) == "0 flagged; not flagged, below the limit: highest ratio 19.1 (userinfo @)"
    hung = Row("p", "py", "1", points=[point(AT, None, "hang"), point(SLASHES, 0.9, "superlinear once (not confirmed)")])
    assert row_summary(hung) == "1 flagged (worst: hang, userinfo @); 1 above the limit once, not confirmed"
