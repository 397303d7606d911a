"""urlwb.progress: the one way long work speaks (issue 30): what, k of N, time left; never
silent for longer than its period; a failure said as one."""

import io
import time

import pytest

from urlwb import progress


def test_a_task_says_what_k_of_n_and_time_left():
    out = io.StringIO()
    with progress.task("building okhttp@3.14.7", total=4, stream=out, every=0) as t:
        t.advance(note="mvn package")
        t.advance()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("building okhttp@3.14.7: 0 of 4")
    assert "1 of 4" in lines[1] and "left" in lines[1] and "mvn package" in lines[1]
    assert "2 of 4" in lines[2]
    assert lines[-1].startswith("building okhttp@3.14.7: 2 of 4") and "done in" in lines[-1]


def test_a_task_that_raises_ends_with_failed():
    out = io.StringIO()
    with pytest.raises(RuntimeError):
        with progress.task("fetching releases", total=2, stream=out):
            raise RuntimeError("no registry")
    assert "failed in" in out.getvalue().splitlines()[-1]


def test_a_quiet_step_is_not_said_more_often_than_the_period():
    out = io.StringIO()
    with progress.task("replaying", total=1000, stream=out, every=3600) as t:
        for _ in range(1000):
            t.advance()
    assert len(out.getvalue().splitlines()) == 2  # started, done


def test_a_heartbeat_speaks_while_a_blocking_call_runs():
    out = io.StringIO()
    with progress.heartbeat("mvn -q package (okhttp@3.14.7)", stream=out, every=0.2):
        time.sleep(1.1)
    lines = out.getvalue().splitlines()
    assert len(lines) >= 5, lines  # started, >= 3 beats, done
    assert all(line.startswith("mvn -q package (okhttp@3.14.7): ") for line in lines)
