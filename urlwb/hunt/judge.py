"""What a hunt keeps, judged by the Standard: the differential on the engine and the parser.

Every batch goes through :func:`urlwb.differential.run.diff` with the engine and the hunted parser
(the code ``urlwb diff`` runs: the same classes, causes and known deviations), reparse and host
oracles off. A finding is one signature (:func:`urlwb.fuzzing.signatures.of_differential`). The
generated inputs are judged first (:meth:`Judge.baseline`): what hunting adds is a signature the
generated inputs do not show. Each such signature is minimized by the workbench's shrinker
(``urlwb.fuzzing.shrink``, the predicate being the differential target's own ``disagreements``: the same
signature persists) and filed in ``corpus/differential/regress/`` against the parser, with its
version and the verdict of the parser's contract (:func:`urlwb.verdicts.judge.judge`, as ``urlwb
diff`` judges), unless an entry of that signature is filed already.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
import sys

from urlwb import corpus_store, oracles
from urlwb.differential import classify
from urlwb.differential import findings as differential_findings
from urlwb.fuzzing import signatures
from urlwb.differential.run import diff, encode_case
from urlwb.fuzzing.shrink import first_index, shrink
from urlwb.findings import sidecar

VERDICT = ("unreviewed (found by urlwb hunt): the engine's reading is the Standard's; whether "
           "{parser} documents its own reading is not yet checked")


@dataclasses.dataclass
class Found:
    signature: str
    cls: str
    cause: str | None
    input: str               # the shortest input of the batch that shows it
    count: int = 1           # inputs that show it
    minimized: str | None = None
    filed: str | None = None  # the regress entry's path, when this hunt filed it
    new: bool = False        # not shown by the generated inputs


class Judge:
    """The judge of one hunt of ``parser``; ``file`` False judges without filing."""

    def __init__(self, parser: str, found_by: str, file: bool = True, minimize_budget: int = 400):
        self.parser, self.found_by, self.file = parser, found_by, file
        self.minimize_budget = minimize_budget
        self.generated: dict[str, Found] = {}
        self.hunted: dict[str, Found] = {}
        self.judged = 0
        self.version = "?"
        self.skipped: str | None = None
        #: the seed inputs the parser crashed on (its oracle's crash record), judged like the others
        self.crashed: list[str] = []
        self._loaded = None

    def _judge(self, texts: list[str], source: str) -> dict[str, Found]:
        found: dict[str, Found] = {}
        if not texts:
            return found
        res = diff([(t, None, source) for t in texts], ["engine", self.parser], reparse=False,
                   hosts=False)
        if self.parser not in res.records:
            self.skipped = res.skipped.get(self.parser, "did not start")
            return found
        self.version = res.versions.get(self.parser, self.version)
        self.judged += len(texts)
        if source == "generated":   # the seeds: those the runner must not start from
            self.crashed = [texts[k] for k, rec in enumerate(res.records[self.parser])
                            if rec is not None and rec.crash]
        for f in res.findings:
            if f.b != self.parser or f.known is not None:
                continue
            sig = signatures.of_differential(f.cls, f.cause, self.parser)
            text = texts[f.index]
            if sig in found:
                found[sig].count += 1
                if len(text) < len(found[sig].input):
                    found[sig].input = text
            else:
                found[sig] = Found(sig, f.cls, f.cause, text)
        return found

    def baseline(self, texts: list[str]) -> None:
        """Judge the generated (seed) inputs: the signatures hunting is measured against."""
        self.generated = self._judge(texts, "generated")

    def judge(self, texts: list[str]) -> list[Found]:
        """Judge inputs the fuzzer kept; the signatures new to this hunt (filed when new to the
        generated inputs too)."""
        fresh = []
        for sig, f in self._judge(texts, "hunt").items():
            if sig in self.hunted:
                known = self.hunted[sig]
                known.count += f.count
                if len(f.input) < len(known.input):
                    known.input = f.input
                continue
            f.new = sig not in self.generated
            self.hunted[sig] = f
            fresh.append(f)
            if f.new and self.file:
                self._file(f)
        return fresh

    def _oracles(self):
        if self._loaded is None:
            self._loaded, _ = oracles.load(["engine", self.parser])
        return self._loaded

    def _disagreements(self, text: str):
        target = corpus_store.load_target("differential")
        return target.disagreements(text, None, self._oracles())

    def _file(self, f: Found) -> None:
        if any(e.signature == f.signature for e in corpus_store.iter_regress("differential")):
            return
        if self.parser not in self._oracles():
            return

        def same(s: str) -> bool:
            return any(sig == f.signature for sig, _, _ in self._disagreements(s))

        small = shrink(f.input, lambda batch: first_index(batch, same), budget=self.minimize_budget)
        found = [d for d in self._disagreements(small) if d[0] == f.signature]
        if not found:   # the differential and the in-process check disagree: file as found
            small = f.input
            found = [d for d in self._disagreements(small) if d[0] == f.signature]
        detail = found[0][2] if found else f"{classify.TITLES.get(f.cls, f.cls)}: input {small!r}"
        f.minimized = small
        path = corpus_store.record_finding(
            "differential", encode_case(small, None), f.signature, "invariant", detail,
            extra={"input": small, "base": None, "parser": self.parser,
                   "family": oracles.family(self.parser), "version": self.version,
                   "confusion": classify.confusion(f.cls, f.cause),
                   "verdict": VERDICT.format(parser=self.parser), "found_by": self.found_by},
            shape=sidecar.shape)
        if path is not None:
            self._judge_filed(path, small, f.signature)
            f.filed = str(path)
            print(f"urlwb hunt: new finding {f.signature}: {short_repr(small)} -> {path}",
                  file=sys.stderr, flush=True)

    def _judge_filed(self, path, text: str, signature: str) -> None:
        """The filed sidecar's verdict by the parser's contract (:func:`records`' judge), in place
        of the provisional one: the minimized input asked again of the engine and the parser."""
        res = diff([(text, None, "hunt")], ["engine", self.parser], reparse=False, hosts=False)
        judged = [r["verdict"] for r in differential_findings.records(res) if r["signature"] == signature]
        if judged:
            entry = corpus_store.RegressEntry("differential", path, corpus_store.load_sidecar(
                corpus_store.sidecar_path(path)))
            corpus_store.update_sidecar(entry, verdict=judged[0])

    def close(self) -> None:
        if self._loaded is not None:
            oracles.close_all(self._loaded)
            self._loaded = None


def short_repr(s: str, n: int = 70) -> str:
    r = repr(s)
    return r if len(r) <= n else r[:n - 1] + "…"


def records(parser: str, summary: dict) -> list[dict]:
    """The hunt's findings in the one shape (``finding-v1``): each signature's input (minimized
    when it was) asked again of the engine and ``parser`` and judged by the parser's contract
    (:func:`urlwb.differential.findings.records`, what ``urlwb diff`` writes), then the history
    entries the hunt filed (``corpus/history/``, already in the shape)."""
    texts = sorted({f["minimized"] or f["input"] for f in summary.get("findings") or []})
    out = []
    if texts:
        res = diff([(t, None, "hunt") for t in texts], ["engine", parser], reparse=False, hosts=False)
        out += differential_findings.records(res)
    for change in (summary.get("history") or {}).get("changes", []):
        if change.get("filed"):
            out.append(sidecar.shape(json.loads(pathlib.Path(change["filed"]).read_text(encoding="utf-8"))))
    return out