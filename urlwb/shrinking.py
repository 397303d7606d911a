"""The workbench's one shrinker: delta debugging by removing chunks of a failing input.

https://www.st.cs.uni-saarland.de/papers/tse2002/ (Zeller and Hildebrandt, "Simplifying and
Isolating Failure-Inducing Input"): the complement pass of ddmin, greedy. Remove each chunk of
``size`` elements in turn; keep the first smaller input that still fails the same way; when none
does, halve ``size``; stop at size 1 with nothing removable, or when the time or the budget of
candidates is spent. Works on any sequence that slices and concatenates (``bytes``, ``str``).

What "fails the same way" means is the caller's: ``first_failing(candidates)`` gets a batch of
candidates (so that a caller replaying in a child process pays one start per batch) and returns
the index of the first that still fails with the original signature, or None. ``urlwb.fuzzing.minimize``
replays candidates through a target in a child; ``fuzz_differential`` asks its parsers in
process.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TypeVar

S = TypeVar("S", bytes, str)


def shrink(data: S, first_failing: Callable[[list[S]], int | None], *, seconds: float | None = None,
           budget: int | None = None, batch: int = 8) -> S:
    """The smallest input found from ``data`` (see the module docstring); ``data`` itself when
    nothing smaller fails the same way."""
    deadline = None if seconds is None else time.monotonic() + seconds
    best, size, seen = data, max(1, len(data) // 2), {data}
    tried = 0

    def spent() -> bool:
        return ((deadline is not None and time.monotonic() >= deadline)
                or (budget is not None and tried >= budget))

    while size >= 1 and not spent():
        candidates: list[S] = []
        for i in range(0, len(best), size):
            c = best[:i] + best[i + size:]
            if c and c not in seen:
                seen.add(c)
                candidates.append(c)
        hit = None
        for start in range(0, len(candidates), batch):
            if spent():
                break
            chunk = candidates[start:start + batch]
            if budget is not None:
                chunk = chunk[:max(0, budget - tried)]
            tried += len(chunk)
            index = first_failing(chunk)
            if index is not None:
                hit = chunk[index]
                break
        if hit is not None:
            best = hit
            size = min(size, max(1, len(best) // 2))
        else:
            size //= 2
    return best


def first_index(candidates: Sequence[S], fails: Callable[[S], bool]) -> int | None:
    """``first_failing`` for a predicate on one candidate (in-process checks)."""
    return next((i for i, c in enumerate(candidates) if fails(c)), None)
