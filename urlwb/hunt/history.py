"""What an old release gets wrong that a newer one fixed: a hunt of ``PARSER@OLD`` compared with
``PARSER@NEW`` (default: the shipped release), both judged by the Standard.

Every input of the hunt (the seeds and what the fuzzer kept) goes through the differential
(:func:`urlwb.differential.run.diff`, the same classes, causes and known deviations as ``urlwb
diff``) with the engine, the old release and the new one. Per input and release, the release's
signature against the engine (:func:`urlwb.fuzzing.signatures.of_differential`, named after the
shipped parser so that the two releases' signatures compare) or none. Each signature of the old
release is then:

- **fixed** on the inputs where the old release shows it and the new one agrees with the engine;
- **still** on those where the new release shows the same signature;
- **changed** where the new release disagrees otherwise.

A signature the new release shows on inputs the old one got right is a **regression**. Each fixed
signature's shortest input is minimized (``urlwb.fuzzing.shrink``) with the predicate "the old
release shows it, the new one agrees with the engine" (a regression's the other way round, not
filed), and filed in ``corpus/history/PARSER/`` with
both releases' answers and the engine's (:func:`file_entry`); ``tests/workbench/test_history.py``
replays each entry: the shipped release still agrees with the engine, and (with ``--run-slow``,
which builds the old release) the old one still shows its signature. Where the signature came
from is kept: first shown by the seed inputs (WPT's or the grammar generator's) or only by what the
fuzzer kept.
"""

from __future__ import annotations

import dataclasses
import json
import sys

from urlwb import corpus_store, oracles
from urlwb.differential import classify
from urlwb.differential.run import diff
from urlwb.fuzzing import signatures
from urlwb.fuzzing.shrink import first_index, shrink
from urlwb.findings import sidecar
from urlwb.hunt.report import json_text

#: what a minimization of one fixed signature may ask of the three parsers
MINIMIZE_BUDGET = 300


def history_dir(parser: str):
    return corpus_store.corpus_root() / "history" / parser


@dataclasses.dataclass
class Change:
    signature: str            # named after the shipped parser (``...:engine~yarl``)
    cls: str
    cause: str | None
    kind: str                 # "fixed", "still", "changed" or "regressed"
    count: int = 0
    input: str = ""           # the shortest input showing it
    seen_in: str = "hunted"   # "seeds" when a seed input shows it too
    in_wpt: bool = False      # the minimized witness is an input of WPT's urltestdata/toascii
    minimized: str | None = None
    answers: dict | None = None   # release -> its answer in one line (href, or failure, crash)
    records: dict | None = None   # release -> its components, where the classes look
    filed: str | None = None


def _answer(rec) -> str:
    return oracles.answer_text(rec, missing="not asked")


def _components(rec) -> dict | None:
    """The parts the classes compare (an href alike can hide a path read as opaque)."""
    if rec is None or rec.failure or rec.crash:
        return None
    return {k: getattr(rec, k, None) for k in ("scheme", "username", "password", "host", "port",
                                               "path", "query", "fragment")}


def _verdicts(res, name: str, base: str) -> dict[int, tuple[str, str, str | None]]:
    """input index -> (signature, class, cause) of ``name``'s disagreement with the engine.
    A documented deviation counts too: the shipped release's deviations are listed under its
    name, not an old release's, and a release that deviates as documented has not agreed."""
    out = {}
    for f in res.findings:
        if {f.a, f.b} != {"engine", name}:
            continue
        if f.index not in out:
            out[f.index] = (signatures.of_differential(f.cls, f.cause, base), f.cls, f.cause)
    return out


def compare(old: str, new: str, base: str, seeds: list[str], hunted: list[str],
            minimize: bool = True, log=None) -> dict:
    """The history of ``old`` -> ``new`` on these inputs (see the module's docstring)."""
    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    inputs = list(dict.fromkeys(seeds + hunted))
    from_seeds = set(seeds)
    log(f"urlwb hunt: comparing {old} with {new} on {len(inputs):,} inputs")
    res = diff([(t, None, "hunt") for t in inputs], ["engine", old, new], reparse=False, hosts=False)
    for name in (old, new):
        if name not in res.records:   # said in the report; the hunt's own results stand
            why = f"{name} did not start: {res.skipped.get(name)}"
            log(f"urlwb hunt: no comparison: {why}")
            return {"old": old, "new": new, "old_version": "?", "new_version": "?",
                    "inputs": len(inputs), "changes": [], "skipped": why}
    was, now = _verdicts(res, old, base), _verdicts(res, new, base)
    changes: dict[tuple[str, str], Change] = {}

    def note(kind: str, verdict, k: int) -> None:
        sig, cls, cause = verdict
        c = changes.setdefault((kind, sig), Change(sig, cls, cause, kind))
        c.count += 1
        text = inputs[k]
        if not c.input or (len(text), text) < (len(c.input), c.input):
            c.input = text
        if text in from_seeds:
            c.seen_in = "seeds"

    for k in range(len(inputs)):
        a, b = was.get(k), now.get(k)
        if a is not None and b is None:
            note("fixed", a, k)
        elif a is not None and b is not None:
            note("still" if a[0] == b[0] else "changed", a, k)
        elif b is not None:
            note("regressed", b, k)
    out = sorted(changes.values(), key=lambda c: (c.kind, c.signature))
    shown = [c for c in out if c.kind in ("fixed", "regressed")]
    if shown and minimize:
        _minimize(shown, old, new, base, log)
    return {"old": old, "new": new, "old_version": res.versions.get(old, "?"),
            "new_version": res.versions.get(new, "?"), "inputs": len(inputs),
            "changes": [dataclasses.asdict(c) for c in out]}


def _minimize(changes: list[Change], old: str, new: str, base: str, log) -> None:
    loaded, skipped = oracles.load(["engine", old, new])
    try:
        if len(loaded) < 3:
            log(f"urlwb hunt: not minimizing: {skipped}")
            return
        from urlwb.differential.generate import wpt_cases
        wpt = {t for t, _ in wpt_cases()}

        for c in changes:
            # fixed: the old release shows it and the new one agrees; a regression the reverse
            wrong, right = (old, new) if c.kind == "fixed" else (new, old)

            def shows(text: str, c=c, wrong=wrong, right=right) -> bool:
                got = disagreements(text, loaded, base)
                return got.get(wrong) == c.signature and right not in got
            small = c.input
            if shows(small):
                small = shrink(small, lambda batch: first_index(batch, shows), budget=MINIMIZE_BUDGET)
            c.minimized = small
            c.in_wpt = small in wpt
            text = oracles.to_usv(small)
            recs = {name: loaded[name].parse(text, None) for name in ("engine", old, new)}
            c.answers = {name: _answer(r) for name, r in recs.items()}
            c.records = {name: _components(r) for name, r in recs.items()}
            log(f"urlwb hunt: {'fixed in' if c.kind == 'fixed' else 'regressed in'} {new}: {c.signature}: {small!r}")
    finally:
        oracles.close_all(loaded)


def disagreements(text: str, loaded: dict, base: str) -> dict[str, str]:
    """peer -> its signature against the engine on ``text`` (named after ``base``), for every
    oracle of ``loaded`` but the engine that disagrees, documented deviations included (see
    :func:`_verdicts`): the in-process counterpart of the differential's classification."""
    text = oracles.to_usv(text)
    mine = loaded["engine"].parse(text, None)
    got = {}
    for name, oracle in loaded.items():
        if name == "engine":
            continue
        theirs = oracle.parse_many([(text, None)])[0]
        if theirs is None:
            continue
        verdict = classify.classify(text, mine, theirs, oracles.family(name) != "whatwg")
        if verdict is not None:
            got[name] = signatures.of_differential(verdict.cls, verdict.cause, base)
    return got


def file_entry(parser: str, history: dict, change: dict, found_by: str) -> str | None:
    """Write one fixed signature's minimized witness to ``corpus/history/PARSER/`` (atomically;
    one entry per (old release, signature): an entry already there is kept); its path, or None."""
    text = change.get("minimized")
    if not text:
        return None
    folder = history_dir(parser)
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        meta = json.loads(path.read_text(encoding="utf-8"))
        if meta.get("old") == history["old"] and meta.get("signature") == change["signature"]:
            return None
    data = text.encode("utf-8", "surrogatepass")
    entry = {
        "input": text, "parser": parser, "signature": change["signature"],
        "class": classify.TITLES.get(change["cls"], change["cls"]), "cause": change["cause"],
        "old": history["old"], "old_version": history["old_version"],
        "new": history["new"], "new_version": history["new_version"],
        "answers": change["answers"], "records": change.get("records"), "seen_in": change["seen_in"], "in_wpt": change["in_wpt"],
        "found_by": found_by,
        "filed": corpus_store.now(),
        "confirmed_by": None,   # the changelog or advisory line, once a person has read it
    }
    entry = sidecar.shape(entry, family=oracles.family(parser) if parser in oracles.REGISTRY else None)
    path = folder / f"{corpus_store.sha1(data)}.json"
    corpus_store.atomic_write(path, (json_text(entry) + "\n").encode("utf-8"))
    return str(path)
