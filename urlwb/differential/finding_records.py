"""A differential's findings as ``finding-v1`` records (:mod:`urlwb.findings.record`), the shape
SARIF and JUnit are rendered from (:mod:`urlwb.report_formats`).

One record per signature (``<class>[/<cause>]:<reference>~<parser>``, as the fuzzing signatures
name a differential): the shortest input that shows it. A deviation that is the engine's own (its
older Unicode data: ``classify._ENGINE_UNICODE_VERSION``) is no finding about the parser and is left
out; another known deviation stays, its reason kept (a WHATWG parser's known deviation is still its
bug). The verdict is the findings room's (:func:`urlwb.findings.sidecar.shape`).
"""

from __future__ import annotations

from urlwb import oracles
from urlwb.differential import classify
from urlwb.differential.run import DiffResult
from urlwb.findings import sidecar


def finding_records(res: DiffResult) -> list[dict]:
    out: dict[str, dict] = {}
    for f in sorted(res.findings, key=lambda f: (len(res.items[f.index][0]), f.index)):
        if f.a != res.reference and f.a != f.b:
            continue
        if f.known == classify._ENGINE_UNICODE_VERSION:
            continue
        input, base, _ = res.items[f.index]
        parser = f.b
        rule = f.cls if f.cause is None else f"{f.cls}/{f.cause}"
        signature = f"{rule}:{f.a}~{parser}"
        if signature in out:
            continue
        what = classify.TITLES.get(f.cls, f.cls)
        fields = ", ".join(f.fields)
        summary = (f"{parser}'s answer changes on re-parse of its own serialization ({fields})" if f.a == f.b
                   else f"{what}: {parser} and {f.a} differ" + (f" in {fields}" if fields else ""))
        meta = {"target": "differential", "signature": signature, "parser": parser, "input": input,
                "base": base, "kind": "invariant", "invariant": summary,
                "version": res.versions.get(parser), "note": f.known}
        out[signature] = sidecar.shape(meta, family=oracles.family(parser) if parser in oracles.REGISTRY else None)
    return list(out.values())
