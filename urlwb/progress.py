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
every :data:`EVERY` seconds.
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
    """One piece of long work; :meth:`advance` counts a step done."""

    def __init__(self, what: str, total: int | None, *, stream=None, every: float = EVERY,
                 interactive: bool | None = None):
        self.what, self.total, self.done = what, total, 0
        self.note = ""
        self.stream = stream if stream is not None else sys.stderr
        self.every = every
        self.started = time.monotonic()
        self._said = 0.0
        self._lock = threading.Lock()
        self._bar = None
        if interactive if interactive is not None else (stream is None and _interactive()):
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)
            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), TimeRemainingColumn(), TextColumn("{task.fields[note]}"),
                                 transient=False)
            self._bar.start()
            self._id = self._bar.add_task(what, total=total, note="")
        else:
            self._line("started")

    def line(self, state: str = "") -> str:
        """The plain line: what, k of N, elapsed, time left (from the rate so far)."""
        elapsed = time.monotonic() - self.started
        parts = [self.what]
        if self.total is not None:
            parts.append(f"{self.done} of {self.total}")
            if 0 < self.done < self.total:
                parts.append(f"about {_clock(elapsed / self.done * (self.total - self.done))} left")
        parts.append(f"{_clock(elapsed)} so far" if not state else state)
        if self.note:
            parts.append(self.note)
        return ": ".join(parts[:1]) + (": " + ", ".join(parts[1:]) if parts[1:] else "")

    def _line(self, state: str = "") -> None:
        print(self.line(state), file=self.stream, flush=True)
        self._said = time.monotonic()

    def advance(self, steps: int = 1, *, note: str | None = None) -> None:
        with self._lock:
            self.done += steps
            if note is not None:
                self.note = note
            if self._bar is not None:
                self._bar.update(self._id, advance=steps, note=self.note)
            elif time.monotonic() - self._said >= self.every:
                self._line()

    def tick(self) -> None:
        """Say it is still running, if it has been quiet for :attr:`every` seconds."""
        with self._lock:
            if self._bar is None and time.monotonic() - self._said >= self.every:
                self._line()

    def close(self, state: str = "done") -> None:
        with self._lock:
            if self._bar is not None:
                self._bar.stop()
                self._bar = None
            else:
                elapsed = _clock(time.monotonic() - self.started)
                self._line(f"{state} in {elapsed}")


@contextlib.contextmanager
def task(what: str, total: int | None = None, **kwargs) -> Iterator[Task]:
    t = Task(what, total, **kwargs)
    state = "failed"
    try:
        yield t
        state = "done"
    finally:
        t.close(state)


@contextlib.contextmanager
def heartbeat(what: str, **kwargs) -> Iterator[Task]:
    """A task without steps whose thread says it is still running every ``every`` seconds: for
    one blocking call (a build of up to twenty minutes, a registry fetch)."""
    with task(what, None, **kwargs) as t:
        stop = threading.Event()

        def beat():
            while not stop.wait(min(1.0, t.every)):
                t.tick()

        thread = threading.Thread(target=beat, name="urlwb-heartbeat", daemon=True)
        thread.start()
        try:
            yield t
        finally:
            stop.set()
            thread.join()
