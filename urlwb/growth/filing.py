"""Growth findings on disk: ``corpus/growth/regress/<sha1>`` (the long input, in the
differential corpus's format) and its sidecar, through :func:`urlwb.corpus_store.record_finding`
(atomic; a second filing of the same parser and shape is a duplicate).

Why a sibling of ``corpus/differential/regress/`` and not in it: that folder's entries are
replayed through ``fuzzers/fuzz_differential.py``'s check, which compares readings; a growth
finding is about time, and is replayed as a ratio against the engine measured in the same run
(:func:`replay`, ``tests/workbench/test_growth_replay.py``). The sidecar's ``kind`` is
``timeout`` (corpus_store.KINDS), its ``class`` "superlinear" or "hang"; it names the parser,
its version (the hello line's, or the package's), the shape, the minimized repetition count and
the ratios measured.
"""

from __future__ import annotations

import functools
import pathlib

from urlwb import corpus_store, oracles
from urlwb.findings import sidecar
from urlwb.differential.run import decode_case, encode_case
from urlwb.growth import shapes
from urlwb.growth.measure import Point, Probe
from urlwb.differential import facts

TARGET = "growth"


def signature(parser: str, p: Point) -> str:
    """One entry per parser and class: the shapes are most likely one cause."""
    return f"{p.verdict}:{parser}"


def _fmt(t: float | None) -> str:
    return "no answer within the deadline" if t is None else f"{t * 1e3:.2f} ms"


def describe(parser: str, p: Point) -> str:
    ratio = "—" if p.ratio is None else f"{p.ratio:.1f}"
    return (f"{parser} on {p.shape.name!r} × {p.count} and × {p.count * p.scale}: "
            f"{_fmt(p.short)} and {_fmt(p.long)} (ratio {ratio}); the engine "
            f"{_fmt(p.engine_short)} and {_fmt(p.engine_long)} (ratio {p.engine_ratio:.1f})")


def file(parser: str, version: str, language: str, p: Point, found: Point,
         others: dict | None = None) -> pathlib.Path | None:
    """File the minimized point ``p`` (``found``: where it was first flagged; ``others``: the
    other shapes flagged with the same class, and their ratios); its path, or None when the same
    parser and class is filed already."""
    data = encode_case(p.shape.make(p.count * p.scale), None)
    extra = {
        "class": p.verdict, "parser": parser, "version": version, "language": language,
        "shape": p.shape.name, "piece": p.shape.piece, "prefix": p.shape.prefix,
        "suffix": p.shape.suffix, "source": p.shape.source, "count": p.count, "scale": p.scale,
        "ratio": p.ratio, "engine_ratio": p.engine_ratio,
        "found_at": {"count": found.count, "ratio": found.ratio, "engine_ratio": found.engine_ratio},
        "other_shapes": others or {},
        "at_4x_longer": None if found.doubled is None else {"ratio": found.doubled[0], "engine_ratio": found.doubled[1]},
        "input": p.shape.make(min(p.count, 8)) + ("…" if p.count > 8 else ""),
        "base": None,
    }
    path = corpus_store.record_finding(TARGET, data, signature(parser, p), "timeout",
                                       describe(parser, p), extra=extra,
                                       shape=functools.partial(sidecar.shape, family=_family(parser)))
    judged = verdict_of(parser, p, extra["input"]) if path is not None else None
    if judged is not None:   # the verdict of the parser's contract, in place of the provisional one
        entry = corpus_store.RegressEntry(TARGET, path, corpus_store.load_sidecar(corpus_store.sidecar_path(path)))
        corpus_store.update_sidecar(entry, verdict=judged)
    return path


def verdict_of(parser: str, p: Point, text: str) -> dict:
    """Super-linear time or no answer: a bug under any contract, judged under the parser's own by
    the one judge (:mod:`urlwb.differential.facts`)."""
    hung = p.verdict == "hang"
    return facts.verdict(facts.Reading(parser, text, None,
                                       oracles.hang_record("no answer within the deadline") if hung else None,
                                       None, superlinear=not hung))


def _family(parser: str) -> str | None:
    base = parser.partition("@")[0]
    return oracles.family(base) if base in oracles.REGISTRY else None


def entries() -> list[corpus_store.RegressEntry]:
    return [e for e in corpus_store.iter_regress(TARGET) if e.sidecar]


def shape_of(meta: dict) -> shapes.Shape:
    """The entry's shape, rebuilt from its sidecar (the shape list may have changed since)."""
    return shapes.Shape(meta["shape"], meta["piece"], meta["prefix"], meta["suffix"], meta["source"])


def replay(entry: corpus_store.RegressEntry, probe: Probe) -> tuple[Point, bool]:
    """The entry measured again now, on the parser ``probe`` times, against the engine in the
    same run: its point at :func:`replay_count`, and whether it still shows: flagged at n and
    10n, or by the flag's second check (:meth:`Probe.doubling`: t(4L)/t(L), a hang included),
    which tells a quadratic parser from a linear one by 16 to 4. AssertionError if the stored
    input is not what the sidecar's shape makes."""
    meta = entry.sidecar
    shape = shape_of(meta)
    stored, _ = decode_case(entry.path.read_bytes())
    assert stored == shape.make(meta["count"] * meta["scale"]), (
        f"{entry.path}: the input is not {meta['shape']!r} × {meta['count'] * meta['scale']}")
    p = probe.point(shape, replay_count(meta), meta["scale"])
    if p.short is None or p.long is None:
        return p, True
    # Noise (a loaded machine, a JVM's collections) only adds time, to either length: the entry
    # shows when its ratio at n and 10n is still flagged, or when one of REPLAY_ATTEMPTS tries of
    # the check at 4L shows it (on OkHttp's entry, one try gave 9.8 and the next 5.98 against a
    # limit of 6.0, and under the whole test folder's load three tries missed while the ratio at
    # n and 10n was 52.7 against a limit of 9.9: measured). A fixed entry must show neither.
    return p, p.flagged or any(probe.doubling(p)[2] for _ in range(REPLAY_ATTEMPTS))


#: attempts of the replay's check (see :func:`replay`)
REPLAY_ATTEMPTS = 3


def replay_count(meta: dict) -> int:
    """Twice the minimized count (at most the count it was found at): the minimized count sits
    on the threshold by construction, where a busy machine's noise decides (OkHttp's entry at
    its minimized 126 failed one replay in three under the whole test folder's load)."""
    return min(max(meta["found_at"]["count"], meta["count"]), 2 * meta["count"])
