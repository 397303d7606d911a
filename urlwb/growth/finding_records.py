"""A growth survey's findings as ``finding-v1`` records (:mod:`urlwb.findings.record`), the shape
SARIF and JUnit are rendered from (:mod:`urlwb.report_formats`): one per parser and class (the
signature :func:`urlwb.growth.filing.signature` files under), built as the filed sidecar is
(:func:`urlwb.findings.sidecar.shape`, room ``growth``), ``filed`` naming the regress entry when
this run filed one."""

from __future__ import annotations

from urlwb import oracles
from urlwb.findings import sidecar
from urlwb.growth import filing
from urlwb.growth.survey import GrowthResult


def finding_records(res: GrowthResult) -> list[dict]:
    out = []
    for row, f in res.findings:
        p = f.minimized
        meta = {"target": "growth", "signature": filing.signature(row.name, p), "kind": "timeout",
                "timeout": filing.describe(row.name, p), "class": p.verdict, "parser": row.name,
                "version": row.version, "language": row.language, "shape": p.shape.name,
                "count": p.count, "scale": p.scale, "ratio": p.ratio, "engine_ratio": p.engine_ratio,
                "input": p.shape.make(min(p.count, 8)) + ("…" if p.count > 8 else ""), "base": None}
        if f.path:
            meta["filed"] = f.path
        base = row.name.partition("@")[0]
        out.append(sidecar.shape(meta, family=oracles.family(base) if base in oracles.REGISTRY else None))
    return out
