"""A differential's findings as ``finding-v1`` records (:mod:`urlwb.findings.record`), the shape
SARIF and JUnit are rendered from (:mod:`urlwb.report_formats`).

One record per signature (``<class>[/<cause>]:<reference>~<parser>``, as the fuzzing signatures
name a differential): the shortest input that shows it. Each is judged by the parser's own
contract (:func:`urlwb.verdicts.judge.judge`, as ``scripts/judge_corpus.py`` judges the corpus)
when the reference is the engine; against another reference, the findings room's provisional
verdict (:func:`urlwb.findings.provisional.judge`). A deviation that is the engine's own (its older
Unicode data) is no finding about the parser and is left out, as is a disagreement the judge
finds nothing in (None: the readings agree under the parser's contract).
"""

from __future__ import annotations

from urlwb import oracles
from urlwb.differential import classify
from urlwb.differential.run import DiffResult
from urlwb.findings import provisional, sidecar
from urlwb.findings.record import make_finding
from urlwb.verdicts.judge import judge

ENGINE = "engine"


def finding_records(res: DiffResult) -> list[dict]:
    out: dict[str, dict] = {}
    for f in sorted(res.findings, key=lambda f: (len(res.items[f.index][0]), f.index)):
        if f.a != res.reference and f.a != f.b:
            continue
        if f.known and f.known.startswith("the engine's"):
            continue
        input, base, _ = res.items[f.index]
        parser = f.b
        rule = f.cls if f.cause is None else f"{f.cls}/{f.cause}"
        signature = f"{rule}:{f.a}~{parser}"
        if signature in out:
            continue
        family = oracles.family(parser) if parser in oracles.REGISTRY else None
        mine = res.records[parser][f.index]
        if f.a == f.b:                       # unstable: the parser's answer changes on re-parse
            v = judge(parser, input, base, mine, reparse_record=res.reparsed[parser][f.index], family=family)
        elif f.a == ENGINE:
            v = judge(parser, input, base, mine, res.records[ENGINE][f.index], cause=f.cause or f.cls,
                      family=family, known=f.known)
        else:
            v = provisional.judge({"rule": rule, "parser": parser, "family": family, "reason": f.known})
        if v is None:
            continue
        what = classify.TITLES.get(f.cls, f.cls)
        fields = ", ".join(f.fields)
        summary = (f"{parser}'s answer changes on re-parse of its own serialization ({fields})" if f.a == f.b
                   else f"{what}: {parser} and {f.a} differ" + (f" in {fields}" if fields else ""))
        out[signature] = make_finding(
            input=input, base=base, parser=parser, rule=rule, signature=signature, verdict=v,
            summary=summary, parser_version=res.versions.get(parser),
            command=sidecar.diff_command(input, parser, base, reference=f.a))
    return list(out.values())
