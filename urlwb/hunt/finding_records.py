"""A hunt's findings as ``finding-v1`` records (:mod:`urlwb.findings.record`), the shape SARIF and
JUnit are rendered from (:mod:`urlwb.report_formats`): one per signature the judge saw in what the
fuzzer kept (the hunt summary's ``findings``), with its minimized input when the hunt filed one,
built as the filed sidecar is (:func:`urlwb.findings.sidecar.shape`, room ``differential``)."""

from __future__ import annotations

from urlwb import oracles
from urlwb.differential import classify
from urlwb.findings import sidecar


def finding_records(summary: dict) -> list[dict]:
    parser = summary["parser"]
    base = parser.partition("@")[0]
    family = oracles.family(base) if base in oracles.REGISTRY else None
    out = []
    for f in summary.get("findings") or []:
        text = f.get("minimized") or f["input"]
        what = classify.TITLES.get(f["cls"], f["cls"])
        meta = {"target": "differential", "signature": f["signature"], "parser": parser,
                "input": text, "base": None, "kind": "invariant",
                "invariant": f"{what}: {parser} and engine differ ({f['count']} kept inputs show it"
                             + (", new against the generated inputs)" if f.get("new") else ")"),
                "version": summary.get("version"), "found_by": summary.get("command")}
        if f.get("filed"):
            meta["filed"] = f["filed"]
        out.append(sidecar.shape(meta, family=family))
    return out
