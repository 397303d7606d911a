"""The hunt: inputs a validator ALLOWS where a fetcher connects to a destination the policy
denies, and the shortest witness of each (validator, fetcher) cell.

A bypass of cell (V, F) is an input on which V answers ``allow: true`` and F's destination
(:func:`urlwb.ssrf.fetchers.destination`) is denied by the policy (:meth:`Policy.denied`). The
witness of a cell is the shortest bypass found, then minimized by the workbench's one shrinker
(:mod:`urlwb.fuzzing.shrink`): chunks of it are deleted while the result still bypasses the same
cell, until no deletion keeps it (or the time is up). Every answer is asked once (:class:`Asker` keeps them), in batches.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import time
from collections.abc import Callable, Iterable

from urlwb import oracles
from urlwb.fuzzing.shrink import first_index, shrink
from urlwb.ssrf import fetchers
from urlwb.ssrf.policy import Destination, Policy
from urlwb.ssrf.validator import Validator, Verdict

BATCH = 2000
#: the most inputs one batch holds (``--batch``): a batch is asked whole, so a larger one would
#: outrun the hunt's deadline and hold every input and answer of it in memory at once
MOST_BATCH = 10_000
#: the first batch's size at most: the next ones are sized by what a batch cost so far, so that
#: none outlasts the time left (a 10,000-input batch took 3.8 s of a 0.6 s hunt)
FIRST_BATCH = 100


class Asker:
    """The validators' verdicts and the fetchers' destinations, each asked once per input."""

    def __init__(self, validators: dict[str, Validator], fetcher_oracles: dict[str, oracles.Oracle]):
        self.validators = validators
        self.fetchers = fetcher_oracles
        self.verdicts: dict[str, dict[str, Verdict | None]] = {n: {} for n in validators}
        self.dests: dict[str, dict[str, Destination]] = {n: {} for n in fetcher_oracles}
        self.records: dict[str, dict[str, object]] = {n: {} for n in fetcher_oracles}

    def _ask_validator(self, name: str, inputs: list[str]) -> None:
        todo = [s for s in inputs if s not in self.verdicts[name]]
        if todo:
            for s, v in zip(todo, self.validators[name].check_many(todo)):
                self.verdicts[name][s] = v

    def _ask_fetcher(self, name: str, inputs: list[str]) -> None:
        todo = [s for s in inputs if s not in self.dests[name]]
        if todo:
            for s, r in zip(todo, self.fetchers[name].parse_many([(s, None) for s in todo])):
                self.records[name][s] = r
                self.dests[name][s] = fetchers.destination(name, r)

    def ask(self, inputs: list[str], validators: Iterable[str] | None = None,
            fetcher_names: Iterable[str] | None = None) -> None:
        """Ask the named validators and fetchers (default: all) about ``inputs``; programs in
        threads of their own, in-process oracles in this thread."""
        jobs = [(self._ask_validator, n) for n in (self.validators if validators is None else validators)]
        jobs += [(self._ask_fetcher, n) for n in (self.fetchers if fetcher_names is None else fetcher_names)]
        apart = [j for j in jobs if _runs_apart(self, *j)]
        here = [j for j in jobs if j not in apart]
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(apart))) as pool:
            futures = [pool.submit(fn, n, inputs) for fn, n in apart]
            for fn, n in here:
                fn(n, inputs)
            for f in futures:
                f.result()

    def allows(self, validator: str, s: str) -> bool:
        v = self.verdicts[validator].get(s)
        return v is not None and v.allow is True


def _runs_apart(asker: Asker, fn, name: str) -> bool:
    if fn == asker._ask_validator:
        return hasattr(asker.validators[name], "sup")
    return getattr(asker.fetchers[name], "runs_apart", False)


@dataclasses.dataclass
class Cell:
    """The bypasses of one (validator, fetcher): every input, and the witness."""

    inputs: set[str] = dataclasses.field(default_factory=set)
    categories: dict[str, int] = dataclasses.field(default_factory=dict)
    #: category -> the shortest bypass of that category
    witnesses: dict[str, str] = dataclasses.field(default_factory=dict)

    def add(self, s: str, category: str) -> None:
        if s not in self.inputs:
            self.inputs.add(s)
            self.categories[category] = self.categories.get(category, 0) + 1
        w = self.witnesses.get(category)
        if w is None or (len(s), s) < (len(w), w):
            self.witnesses[category] = s


@dataclasses.dataclass
class Result:
    """What a hunt found: cells by (validator, fetcher), inputs sent, seconds per phase."""

    cells: dict[tuple[str, str], Cell] = dataclasses.field(default_factory=dict)
    inputs: list[str] = dataclasses.field(default_factory=list)
    systematic: int = 0
    seconds: dict[str, float] = dataclasses.field(default_factory=dict)
    #: one line per coverage-guided run (urlwb.ssrf.guided) whose finds were sent first
    guided: list[str] = dataclasses.field(default_factory=list)


def bypasses(asker: Asker, policy: Policy, s: str, validator: str, fetcher: str) -> str | None:
    """The category when ``s`` bypasses (validator, fetcher), else None."""
    if not asker.allows(validator, s):
        return None
    return policy.denied(asker.dests[fetcher][s])


def hunt(asker: Asker, policy: Policy, stream: Iterable[str], seconds: float, systematic: int = 0,
         progress: Callable[[str], None] = print, batch: int = BATCH) -> Result:
    """Send ``stream`` in batches until it ends or ``seconds`` pass; every bypass in a cell.
    ``systematic``: how many of the first inputs are the systematic phase (for the report).
    A batch holds at most ``batch`` inputs, and no more than the time left allows at the cost
    per input seen so far (the first: :data:`FIRST_BATCH`): the hunt ends within about one
    small batch of its ``seconds``."""
    res = Result(systematic=systematic)
    t0 = time.monotonic()
    seen: set[str] = set()
    chunk: list[str] = []
    it = iter(stream)
    done = False
    asked, cost = 0, 0.0
    while not done and time.monotonic() - t0 < seconds:
        left = seconds - (time.monotonic() - t0)
        size = min(batch, FIRST_BATCH) if not asked else \
            max(1, min(batch, int(left / max(cost / asked, 1e-9))))
        chunk = []
        for s in it:
            s = oracles.to_usv(s)
            if s in seen:
                continue
            seen.add(s)
            chunk.append(s)
            if len(chunk) >= size:
                break
        else:
            done = True
        if not chunk:
            break
        t = time.monotonic()
        asker.ask(chunk)
        asked, cost = asked + len(chunk), cost + time.monotonic() - t
        res.inputs += chunk
        for s in chunk:
            for v in asker.validators:
                if not asker.allows(v, s):
                    continue
                for f in asker.fetchers:
                    cat = policy.denied(asker.dests[f][s])
                    if cat:
                        res.cells.setdefault((v, f), Cell()).add(s, cat)
        found = sum(len(c.inputs) for c in res.cells.values())
        progress(f"  {len(res.inputs):,} inputs in {time.monotonic() - t0:.0f} s: "
                 f"{len(res.cells)} cells with a bypass, {found:,} bypass pairs")
    res.seconds["hunt"] = time.monotonic() - t0
    return res


def minimize(asker: Asker, policy: Policy, cells: dict[tuple, str],
             still: Callable[[str, tuple], bool] | None = None, seconds: float = 120.0,
             max_rounds: int = 60, also: tuple[str, ...] = ()) -> tuple[dict[tuple, str], int]:
    """The shortest input reached by chunk deletions from each cell's witness that still
    satisfies ``still(input, cell)``, by the workbench's one shrinker
    (:func:`urlwb.fuzzing.shrink.shrink`, down to no one code point removable); a cell is
    (validator, fetcher) or (validator, fetcher, category), and by default ``still`` is: it
    bypasses the cell (with that category). Each batch of deletions is asked in one go of the
    cell's validator (and ``also``'s, validators ``still`` asks besides) and its fetcher.
    Returns the witnesses and the number of batches asked; ``max_rounds`` bounds the batches of
    each cell."""
    def bypasses_cell(s, cell):
        got = bypasses(asker, policy, s, cell[0], cell[1])
        return got is not None and (len(cell) < 3 or got == cell[2])
    still = still or bypasses_cell
    best = dict(cells)
    t0 = time.monotonic()
    asked = 0
    for cell in sorted(best, key=lambda c: (len(best[c]), c)):
        def first_failing(cands: list[str], cell=cell) -> int | None:
            nonlocal asked
            asked += 1
            v, f = cell[0], cell[1]
            _ask_split(asker, {name: set(cands) for name in (v, *also)}, {f: set(cands)})
            return first_index(cands, lambda x: still(x, cell))
        left = seconds - (time.monotonic() - t0)
        if left <= 0:
            break
        best[cell] = shrink(best[cell], first_failing, seconds=left, budget=max_rounds * SHRINK_BATCH,
                            batch=SHRINK_BATCH)
    return best, asked


#: deletions asked of a validator and a fetcher at once while minimizing
SHRINK_BATCH = 64


def _ask_split(asker: Asker, by_v: dict[str, set[str]], by_f: dict[str, set[str]]) -> None:
    """Ask each validator and fetcher only about its own inputs, all at once."""
    jobs = [(asker._ask_validator, n, sorted(xs)) for n, xs in by_v.items()]
    jobs += [(asker._ask_fetcher, n, sorted(xs)) for n, xs in by_f.items()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(jobs))) as pool:
        apart = [pool.submit(fn, n, xs) for fn, n, xs in jobs if _runs_apart(asker, fn, n)]
        for fn, n, xs in jobs:
            if not _runs_apart(asker, fn, n):
                fn(n, xs)
        for f in apart:
            f.result()


def judged_denied(asker: Asker, validator: str, s: str) -> bool:
    """The validator answered ``allow: false`` (not an error: a release that throws on every
    name would otherwise "deny" every name an older one allowed)."""
    v = asker.verdicts[validator].get(s)
    return v is not None and v.allow is False and not v.failure


def host_kind(dest: Destination) -> str:
    """"name" for a DNS name (localhost, say), else "address"."""
    return "name" if isinstance(dest.reading, str) else "address"


def history(asker: Asker, policy: Policy, inputs: list[str], old: str, new: str,
            seconds: float = 60.0) -> dict[str, dict]:
    """What release ``old`` allows and release ``new`` judges denied, where a fetcher connects
    to a denied destination: per "FETCHER (address|name)" (a name the new release refuses would
    otherwise hide every address), the count and the minimized shortest witness."""
    cells: dict[str, dict] = {}
    start: dict[tuple[str, str, str], str] = {}
    for f in asker.fetchers:
        xs = [s for s in inputs if asker.allows(old, s) and judged_denied(asker, new, s)
              and policy.denied(asker.dests[f][s])]
        for kind in ("address", "name"):
            ys = [s for s in xs if host_kind(asker.dests[f][s]) == kind]
            if ys:
                start[(old, f, kind)] = min(ys, key=lambda s: (len(s), s))
                cells[f"{f} ({kind})"] = {"count": len(ys)}

    def still(s, cell):
        return (bypasses(asker, policy, s, cell[0], cell[1]) is not None and judged_denied(asker, new, s)
                and host_kind(asker.dests[cell[1]][s]) == cell[2])
    best, _ = minimize(asker, policy, start, still=still, seconds=seconds, also=(new,))
    for (_, f, kind), w in best.items():
        cells[f"{f} ({kind})"].update(witness=w, destination=asker.dests[f][w].show())
    return cells
