"""The release differential: what changed between two releases of one package.

``urlwb diff --parsers X@A,X@B`` (any two readers of one package: two releases, or a release and
the shipped one, a shipped parser's or a user's adapter's) asks the question the per-parser
findings never ask: on which inputs do the two releases themselves disagree? Each such input is a
finding of its own class, **changed between A and B**, judged by the package's contract
(:func:`urlwb.verdicts.judge.judge` on each release's reading, beside the Standard's):

- **fixed in B**: A's reading breaks the contract, B's does not;
- **regressed in B**: B's breaks it, A's does not;
- **changed, neither side breaks the contract** (or both do: then said so, a bug).

From the first disagreements the generator grows more (:func:`grow`: each witness mutated by the
differential generator's mutations, the mutants that still separate the releases kept, for a few
rounds), then each is shrunk (:func:`shrink`: chunks deleted while the releases still part the
same way). One record per cause (the class and ingredient of the change, as the differential
classifies it), with the shortest witness of each spelling family (its confusion ingredients,
:func:`urlwb.differential.classify.ingredients`): a maintainer fixes a cause.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass

from urlwb import oracles, progress, shrinking
from urlwb.differential import classify, generate
from urlwb.differential.findings import accepts_no_uri
from urlwb.differential.run import DiffResult
from urlwb.findings import record
from urlwb.findings.sidecar import INPUT_MAX, diff_command, in_project
from urlwb.oracles import Record, contracts
from urlwb.verdicts.judge import judge

#: rounds of growth around the first disagreements, mutants per witness per round, witnesses grown
GROW_ROUNDS = 3
MUTANTS = 40
FRONTIER = 24
#: chunk deletions tried per shrink step at most (the witness is short: all of them, usually)
SHRINK_BATCH = 600

FIXED, REGRESSED, NEITHER, BOTH = "fixed", "regressed", "changed", "both"


def release_pairs(names: list[str]) -> list[tuple[str, str]]:
    """Each two consecutive readers of one package among ``names`` (``X@A`` and ``X@B``, or ``X@A``
    and the shipped ``X``), in the order named; none when no name carries a version."""
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(n.partition("@")[0], []).append(n)
    return [pair for members in groups.values() if any("@" in m for m in members)
            for pair in zip(members, members[1:])]


def reading(r: Record | None) -> str:
    """A release's answer with its host first: where two releases part, the host is the question."""
    return oracles.answer_text(r, "not asked", with_host=True)


def version_of(name: str, res: DiffResult) -> str:
    """The release a name stands for: its ``@VERSION``, else the version it reported."""
    return name.partition("@")[2] or res.versions.get(name) or name


def _lenient(a: str, b: str) -> bool:
    return oracles.family(a) != "whatwg" or oracles.family(b) != "whatwg"


def separates(ra: Record | None, rb: Record | None, lenient: bool) -> bool:
    """Both releases answered (or crashed) and their answers differ."""
    return ra is not None and rb is not None and classify.key(ra, lenient) != classify.key(rb, lenient)


@dataclass
class Witness:
    input: str
    base: str | None
    a: Record
    b: Record
    standard: Record | None
    cls: str
    cause: str | None
    family: tuple[str, ...]
    how: str          # generated (the first pass), grown (a mutant of one), shrunk
    fields: tuple[str, ...] = ()   # the components that differ

    @property
    def why(self) -> tuple[str, str | None]:
        return self.cls, self.cause


def spelling(inp: str, found: list[str]) -> tuple[str, ...]:
    """The spelling family of an input: its confusion ingredients, the userinfo told apart by the
    number of '@' in the authority (one, or several: where a parser that ends the userinfo at
    the first '@' and one that ends it at the last part)."""
    auth = classify.raw_authority(inp) or ""
    return tuple("several-@" if f == "userinfo" and auth.count("@") > 1 else f for f in found)


def _witness(inp, base, ra, rb, std, lenient, how) -> Witness:
    found = classify.ingredients(inp)
    v = classify.classify(inp, ra, rb, lenient, found)
    cls, cause, fields = (v.cls, v.cause, v.fields) if v is not None else ("changed", None, ())
    return Witness(inp, base, ra, rb, std, cls, cause, spelling(inp, found), how, tuple(fields))


def two_hosts(w: Witness) -> bool:
    """Both releases accept and send a client to two different hosts (the SSRF-relevant change)."""
    ha, hb = classify.host_read(w.a), classify.host_read(w.b)
    return ha is not None and hb is not None and ha != hb


#: times an Asker starts a given-up release again (an adapter that dies on some inputs, as the
#: Django example does on Django's TypeError, is given up after its restarts; a batch later it is
#: asked again, so that growing and shrinking go on)
RESTARTS = 20


class Asker:
    """The two releases and the Standard, started once and asked in batches."""

    def __init__(self, names: list[str]):
        self.loaded, self.skipped = oracles.load(names)
        self.restarts = 0

    def ask(self, cases: list[tuple[str, str | None]]) -> dict[str, list[Record | None]]:
        out = {}
        asked = [(oracles.to_usv(i), oracles.to_usv(b) if b is not None else None) for i, b in cases]
        for name in list(self.loaded):
            recs: list[Record | None] = [None] * len(cases)
            todo = [k for k, (_, b) in enumerate(asked) if b is None or self.loaded[name].supports_base]
            while todo:
                oracle = self.loaded[name]
                for k, r in zip(todo, oracle.parse_many([asked[k] for k in todo])):
                    recs[k] = r
                if not getattr(getattr(oracle, "sup", None), "given_up", None) or self.restarts >= RESTARTS:
                    break
                # given up on some input: started again, asked what it left unanswered
                self.restarts += 1
                oracles.close_all({name: oracle})
                again, _ = oracles.load([name])
                if name not in again:
                    del self.loaded[name]
                    break
                self.loaded[name] = again[name]
                todo = [k for k in todo if recs[k] is None]
            out[name] = recs
        return out

    def close(self) -> None:
        oracles.close_all(self.loaded)


class Changes:
    """The witnesses of one release pair: the shortest per (cause, spelling family)."""

    def __init__(self, a: str, b: str, standard: str | None):
        self.a, self.b, self.standard = a, b, standard
        self.lenient = _lenient(a, b)
        self.best: dict[tuple, Witness] = {}
        self.seen: set[tuple[str, str | None]] = set()
        #: inputs asked and inputs that part the releases: in the first pass, and grown
        self.asked = {"generated": 0, "grown": 0}
        self.parted = {"generated": 0, "grown": 0}

    @property
    def count(self) -> int:
        return sum(self.parted.values())

    def offer(self, w: Witness) -> bool:
        """Keep ``w`` when it is the shortest of its cause and family; True when kept."""
        k = (w.why, w.family)
        old = self.best.get(k)
        if old is None or (len(w.input), w.input) < (len(old.input), old.input):
            self.best[k] = w
            return True
        return False

    def from_answers(self, cases, answers, how) -> list[Witness]:
        ra, rb = answers[self.a], answers[self.b]
        std = answers.get(self.standard) if self.standard else None
        kept = []
        self.asked[how] += len(cases)
        for k, (inp, base) in enumerate(cases):
            if separates(ra[k], rb[k], self.lenient):
                self.parted[how] += 1
                w = _witness(inp, base, ra[k], rb[k], std[k] if std else None, self.lenient, how)
                if self.offer(w):
                    kept.append(w)
        return kept


def grow(changes: Changes, asker: Asker, rng: random.Random, rounds: int = GROW_ROUNDS) -> None:
    """Mutate the witnesses (the differential generator's mutations, one or two each), ask both
    releases, keep the mutants that still separate them; the new ones are the next round's."""
    frontier = sorted(changes.best.values(), key=lambda w: (len(w.input), w.input))[:FRONTIER]
    for _ in range(rounds):
        if not frontier:
            return
        cases = []
        for w in frontier:
            for _ in range(MUTANTS):
                s = w.input
                for _ in range(rng.choice((1, 1, 2))):
                    s = rng.choice(generate.MUTATIONS)(rng, s)
                if (s, w.base) not in changes.seen:
                    changes.seen.add((s, w.base))
                    cases.append((s, w.base))
        frontier = changes.from_answers(cases, asker.ask(cases), "grown")[:FRONTIER]


#: witnesses shrunk per release pair at most: each cause's shortest (its two-host one first, and
#: again the next when one shrank into another cause), then the shortest on which both releases
#: read two hosts; the other families' witnesses are the shortest the generator and the growth
#: reached (parse-url 6.0.2 and 7.0.2 part on 2,364 families: shrinking them all took minutes)
SHRINK_MOST = 64


def same_change(w: Witness, other: Witness) -> bool:
    """The releases part the same way on both: the same class, the same release failing or
    crashing, and two hosts read on both or on neither (the cause and the spelling may differ:
    what a shrink removes is what the change did not need)."""
    def shape(x: Witness) -> tuple:
        return (x.cls, x.a.failure, x.b.failure, bool(x.a.crash), bool(x.b.crash), two_hosts(x))
    return shape(w) == shape(other)


def shrink(changes: Changes, asker: Asker) -> None:
    """Each cause's shortest witness (and the shortest on which two hosts are read) made shorter
    while the releases still part the same way (:func:`same_change`): the shortest such deletion,
    again, until none is. The shrunk witness is then classified afresh and kept under its own
    cause and family, so that a cause the classes split (Django 3.2's tab beside a backslash, an
    IDNA dot, '%2E') comes back to the one ingredient the change needs."""
    tried: set[tuple] = set()   # (input, base) of the witnesses shrunk or made by shrinking
    for _ in range(SHRINK_MOST):
        # the next witness to shrink: a cause's shortest not tried yet (a cause whose witness
        # shrank into another is represented by its next), else the shortest reading two hosts
        reading_two = sorted((w for w in changes.best.values() if two_hosts(w)), key=lambda w: (len(w.input), w.input))
        start = next((w for w in witnesses(changes) + reading_two if (w.input, w.base) not in tried), None)
        if start is None:
            return
        w = _shrunk(changes, asker, start)
        tried.update({(start.input, start.base), (w.input, w.base)})
        if w is not start:
            key = next(k for k, v in changes.best.items() if v is start)
            del changes.best[key]
            changes.offer(w)


def _shrunk(changes: Changes, asker: Asker, start: Witness) -> Witness:
    """``start`` with chunks deleted while the releases part the same way, through the
    workbench's one shrinker (:mod:`urlwb.shrinking`), a batch of candidates asked at once."""
    found: dict[str, Witness] = {}

    def first_failing(batch: list[str]) -> int | None:
        cases = [(s, start.base) for s in batch]
        answers = asker.ask(cases)
        std = answers.get(changes.standard) if changes.standard else None
        for k, (s, base) in enumerate(cases):
            ra, rb = answers[changes.a][k], answers[changes.b][k]
            if not separates(ra, rb, changes.lenient):
                continue
            cand = _witness(s, base, ra, rb, std[k] if std else None, changes.lenient, "shrunk")
            if same_change(start, cand):
                found[s] = cand
                return k
        return None
    best = shrinking.shrink(start.input, first_failing, batch=SHRINK_BATCH, budget=8 * SHRINK_BATCH)
    return found.get(best, start)


def explore(res: DiffResult, pairs: list[tuple[str, str]], seed: int = 0, grow_rounds: int = GROW_ROUNDS,
            log=None) -> list[Changes]:
    """Every release pair's changes: the first disagreements of ``res``, grown and shrunk."""
    log = log or (lambda line: print(line, file=sys.stderr))
    standard = "engine" if "engine" in res.records else None
    out = []
    for a, b in pairs:
        if a not in res.records or b not in res.records:
            continue
        changes = Changes(a, b, standard)
        items = [(i, base) for i, base, _ in res.items]
        changes.seen.update(items)
        answers = {a: res.records[a], b: res.records[b]}
        if standard:
            answers[standard] = res.records[standard]
        first = changes.from_answers(items, answers, "generated")
        log(f"urlwb diff: {a} and {b} disagree on {changes.count:,} of {len(items):,} inputs"
            + (f"; growing around {len(first)} witnesses, then shrinking" if first else ""))
        if first:
            asker = Asker([n for n in (standard, a, b) if n])
            # a line every few seconds while the releases are asked (a slow adapter takes minutes)
            said = f"urlwb diff: growing and shrinking what changed between {a} and {b}"
            with progress.heartbeat(said, after=progress.EVERY):
                try:
                    grow(changes, asker, random.Random(seed), grow_rounds)
                    shrink(changes, asker)
                finally:
                    asker.close()
        out.append(changes)
    return out


def witnesses(changes: Changes) -> list[Witness]:
    """The shortest witness of each cause, the causes where both releases read two hosts first."""
    best: dict[tuple, Witness] = {}
    for w in changes.best.values():
        old = best.get(w.why)
        if old is None or (not two_hosts(w), len(w.input), w.input) < (not two_hosts(old), len(old.input), old.input):
            best[w.why] = w
    return sorted(best.values(), key=lambda w: (not two_hosts(w), w.cls, w.cause or ""))


# --- the records -----------------------------------------------------------------------------------

def judgement(changes: Changes, w: Witness) -> tuple[str, dict | None, dict | None]:
    """fixed / regressed / changed / both, and each release's verdict by the package's contract."""
    verdicts = []
    for name, rec in ((changes.a, w.a), (changes.b, w.b)):
        validator = accepts_no_uri(name, w.input, w.base, rec)
        verdicts.append(validator[1] if validator is not None else
                        judge(name, w.input, w.base, rec, w.standard, cause=w.cause or w.cls,
                              contract=contracts.describe(name).contract, family=oracles.family(name)))
    va, vb = verdicts
    bug_a, bug_b = (v is not None and v["kind"] == "bug" for v in verdicts)
    kind = FIXED if bug_a and not bug_b else REGRESSED if bug_b and not bug_a else BOTH if bug_a else NEITHER
    return kind, va, vb


def title(kind: str, va: str, vb: str) -> str:
    return {FIXED: f"fixed in {vb}", REGRESSED: f"regressed in {vb}",
            NEITHER: "changed, neither side breaks the contract",
            BOTH: "changed, both sides break the contract"}[kind]


def _command(w: Witness, a: str, b: str, standard: str | None) -> str:
    return in_project(diff_command(w.input, f"{a},{b}", w.base, standard or a),
                      oracles.project_of(a) or oracles.project_of(b))


def records(res: DiffResult, found: list[Changes]) -> list[dict]:
    """One finding per release pair and cause: its shortest witness, and the shortest of each
    spelling family beside it, judged by the package's contract."""
    out = []
    for changes in found:
        a, b = changes.a, changes.b
        va_name, vb_name = version_of(a, res), version_of(b, res)
        causes: dict[tuple, list[Witness]] = {}
        for w in changes.best.values():
            causes.setdefault(w.why, []).append(w)
        for (cls, cause), ws in sorted(causes.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
            ws.sort(key=lambda w: (not two_hosts(w), len(w.input), w.input))
            w = ws[0]
            kind, va, vb = judgement(changes, w)
            said = title(kind, va_name, vb_name)
            parser, verdict = (a, va) if kind == FIXED else (b, vb)
            c = contracts.describe(parser).contract
            if kind == NEITHER:
                clause = next((v["spec"]["clause"] for v in (vb, va) if v is not None),
                              f"{parser}'s own rules ({c.docs or 'no documentation declared'})")
                verdict = record.verdict("hazard", c.spec, clause[:500], cause or cls,
                                         documented=c.docs,
                                         reason=f"{a} and {b} read {w.input!r} differently; judged by "
                                                f"{c.spec}, neither reading breaks the contract")
            else:
                verdict = dict(verdict)
                verdict["reason"] = f"{said}: " + verdict.get("reason", "")
            standard = res.records.get(changes.standard) if changes.standard else None
            out.append(record.make_finding(
                input=w.input if len(w.input) <= INPUT_MAX else w.input[:INPUT_MAX] + "…",
                base=w.base, parser=parser, rule=record.rule("changed", cause or cls),
                signature=f"changed/{cls}" + (f"/{cause}" if cause else "") + f":{a}~{b}",
                verdict=verdict, parser_version=res.versions.get(parser),
                command=_command(w, a, b, changes.standard),
                summary=f"changed between {va_name} and {vb_name} ({said}): {a} reads "
                        f"{reading(w.a)[:160]}; {b} reads {reading(w.b)[:160]}",
                family=oracles.family(parser), observed=reading(w.b)[:2000], expected=reading(w.a)[:2000],
                reference=a, source=w.how,
                change={"between": [a, b], "judgement": said, "a": reading(w.a)[:500],
                        "b": reading(w.b)[:500],
                        "standard": reading(w.standard)[:500] if standard is not None else None,
                        "differs_in": list(w.fields), "two_hosts": two_hosts(w),
                        "inputs_asked": changes.asked, "inputs_parting": changes.parted},
                witnesses=[{"input": x.input[:INPUT_MAX], "family": "+".join(x.family) or "plain",
                            "a": reading(x.a)[:300], "b": reading(x.b)[:300], "how": x.how} for x in ws]))
    return out


#: causes shown in the terminal per release pair (all of them are in findings.jsonl)
SHOWN = 12


def lines(res: DiffResult, found: list[Changes]) -> list[str]:
    """The terminal's account: per pair, how many inputs part them and each cause's witness, the
    causes where both releases accept and read two hosts first."""
    out = []
    for changes in found:
        va_name, vb_name = version_of(changes.a, res), version_of(changes.b, res)
        if not changes.best:
            out.append(f"changed between {va_name} and {vb_name}: nothing ({changes.a} and {changes.b} "
                       f"agree on all {changes.asked['generated']:,} inputs)")
            continue
        causes = {w.why for w in changes.best.values()}
        out.append(f"changed between {va_name} and {vb_name}: {changes.parted['generated']:,} of "
                   f"{changes.asked['generated']:,} inputs part {changes.a} and {changes.b}, "
                   f"{changes.parted['grown']:,} of {changes.asked['grown']:,} grown around them; "
                   f"{len(causes)} cause{'s' if len(causes) != 1 else ''}, "
                   f"{len(changes.best)} spelling famil{'ies' if len(changes.best) != 1 else 'y'}")
        shown = witnesses(changes)
        for w in shown[:SHOWN]:
            kind, _, _ = judgement(changes, w)
            out.append(f"  {title(kind, va_name, vb_name)} [{w.cls}{'/' + w.cause if w.cause else ''}"
                       f"{', differs in ' + '+'.join(w.fields) if w.fields else ''}]: {w.input!r}"
                       f"\n      {va_name}: {reading(w.a)[:100]}\n      {vb_name}: {reading(w.b)[:100]}")
        if len(shown) > SHOWN:
            out.append(f"  ... {len(shown) - SHOWN} more causes in findings.jsonl")
    return out
