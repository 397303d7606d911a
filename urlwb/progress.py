"""Progress, one way for every long command: what runs, k of N, time left.

On a terminal it is a ``rich.progress`` bar on stderr (rich also handles a terminal that is
resized or not a terminal at all). When stderr is not a terminal (CI logs, a pipe) it is a plain
line on stderr when the work starts, at most every :data:`EVERY` seconds while it goes on, and
when it ends, so that no long command is silent for more than ten seconds and a log stays
readable. Progress never goes to stdout: that is the command's answer.

    with progress.task("building okhttp@3.14.7", total=3) as t:
        for step in steps:
            ...
            t.advance(note="mvn package")

A task without a total (``total=None``) says what runs and for how long. A :func:`heartbeat` keeps
a blocking call (a build, a registry fetch) from being silent: a thread says it is still running
every :data:`EVERY` seconds; ``task(..., beat=True)`` does the same for a counted task whose
steps can be long. ``after=S``: say nothing for work that ends within S seconds (a command that
is usually quick, as ``urlwb diff`` on one input, stays quiet; a slow one is heard from at S).
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator

#: the longest a plain-line task stays silent, seconds
EVERY = 8.0


def _interactive() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds >= 60 else f"{seconds} s"


class Task:
    """One piece of long work; :meth:`advance` counts a step done. One bar at a time: rich has
    one live display, so a task begun inside another's bar speaks in plain lines (rich prints
    them above the bar)."""

    _bars = 0   # rich bars live now (0 or 1)

    def __init__(self, what: str, total: int | None, *, stream=None, every: float | None = None,
                 interactive: bool | None = None, after: float = 0.0, timed: bool = False,
                 clock=time.monotonic):
        self.what, self.total, self.done = what, total, 0
        #: k is the seconds gone (of a budget of ``total`` seconds): fuzzing, a hunt
        self.timed = timed
        self.note = ""
        self.stream = stream if stream is not None else sys.stderr
        self.every = EVERY if every is None else every
        self.after = after
        #: seconds from some start, never going back (a test gives a fake one)
        self.clock = clock
        self.started = clock()
        self._said = 0.0
        self._spoken = False
        self._lock = threading.Lock()
        self._bar = None
        self._wants_bar = interactive if interactive is not None else (stream is None and _interactive())
        if after <= 0:
            self._begin()
        else:   # the first tick or step after ``after`` seconds begins it
            self._said = self.started

    def _begin(self) -> None:
        if self._wants_bar and Task._bars == 0:
            Task._bars += 1
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)
            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), TimeRemainingColumn(), TextColumn("{task.fields[note]}"),
                                 transient=False)
            self._bar.start()
            self._id = self._bar.add_task(self.what, total=self.total, completed=self.done, note=self.note)
            self._spoken = True
        else:
            self._line("started" if self.clock() - self.started < 1 else "")

    def _quiet(self) -> bool:
        """Not begun yet: within ``after``; begins it once ``after`` has passed."""
        if self._spoken:
            return False
        if self.clock() - self.started < self.after:
            return True
        self._begin()
        return True   # it has just said so

    def _clock_steps(self) -> None:
        if self.timed and self.total is not None:
            self.done = min(self.total, int(self.clock() - self.started))

    def line(self, state: str = "") -> str:
        """The plain line: what, k of N, elapsed, time left (from the rate so far; none
        when that is under a second)."""
        self._clock_steps()
        elapsed = self.clock() - self.started
        parts = [self.what]
        if self.total is not None:
            parts.append(f"{min(self.done, self.total)} of {self.total}")
            if 0 < self.done < self.total:
                left = elapsed / self.done * (self.total - self.done)
                # under a second by the rate so far while steps remain: no estimate, since the
                # last steps can be the slow ones ("about 0 s left" was said 80 s before the end)
                if left >= 1:
                    parts.append(f"about {_clock(left)} left")
        parts.append(f"{_clock(elapsed)} so far" if not state else state)
        if self.note:
            parts.append(self.note)
        return ": ".join(parts[:1]) + (": " + ", ".join(parts[1:]) if parts[1:] else "")

    def _line(self, state: str = "") -> None:
        print(self.line(state), file=self.stream, flush=True)
        self._said = self.clock()
        self._spoken = True

    def advance(self, steps: int = 1, *, note: str | None = None) -> None:
        with self._lock:
            self.done += steps
            if note is not None:
                self.note = note
            if self._quiet():
                return
            if self._bar is not None:
                self._bar.update(self._id, advance=steps, note=self.note, total=self.total)
            elif self.clock() - self._said >= self.every:
                self._line()

    def tick(self) -> None:
        """Say it is still running, if it has been quiet for :attr:`every` seconds."""
        with self._lock:
            if self._quiet():
                return
            if self._bar is not None and self.timed:
                self._clock_steps()
                self._bar.update(self._id, completed=self.done, note=self.note)
            elif self._bar is None and self.clock() - self._said >= self.every:
                self._line()

    def close(self, state: str = "done") -> None:
        with self._lock:
            if not self._spoken:   # ended within ``after``: nothing to say
                return
            if self._bar is not None:
                self._bar.stop()
                self._bar = None
                Task._bars -= 1
            else:
                elapsed = _clock(self.clock() - self.started)
                self._line(f"{state} in {elapsed}")


@contextlib.contextmanager
def task(what: str, total: int | None = None, *, beat: bool = False, **kwargs) -> Iterator[Task]:
    """One piece of long work (:class:`Task`); ``beat``: a thread says it is still running every
    ``every`` seconds, for steps that can be long."""
    t = Task(what, total, **kwargs)
    state = "failed"
    stop = threading.Event()
    thread = None
    if beat:
        def beating():
            while not stop.wait(min(1.0, t.every) if t.every > 0 else 0.05):
                t.tick()
        thread = threading.Thread(target=beating, name="urlwb-heartbeat", daemon=True)
        thread.start()
    try:
        yield t
        state = "done"
    finally:
        stop.set()
        if thread is not None:
            thread.join()
        t.close(state)


@contextlib.contextmanager
def heartbeat(what: str, **kwargs) -> Iterator[Task]:
    """A task without steps whose thread says it is still running every ``every`` seconds: for
    one blocking call (a build of up to twenty minutes, a registry fetch)."""
    with task(what, None, beat=True, **kwargs) as t:
        yield t
