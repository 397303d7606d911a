"""What the SARIF and JUnit renderings share: the findings in ``findings.jsonl``'s order and one
finding in words (the input, the parser, the verdict, the command that reproduces it)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from urlwb.findings.record import KINDS


def ordered(records: Iterable[dict]) -> list[dict]:
    """The first record of each signature, bugs before hazards, then by signature: the order of
    :func:`urlwb.findings.record.write_findings`, so that result N is line N of findings.jsonl."""
    seen: dict[str, dict] = {}
    for r in records:
        seen.setdefault(r["signature"], r)
    return sorted(seen.values(), key=lambda r: (KINDS.index(r["verdict"]["kind"]), r["signature"]))


def message(r: dict) -> str:
    """One finding in words: what, on which input, judged how, and the command that shows it."""
    v = r["verdict"]
    head = r.get("summary") or f"{r['rule']} in {r['parser']}"
    parts = [f"{v['kind']}: {head}",
             f"input: {json.dumps(r['input'], ensure_ascii=False)}"
             + (f" (base {json.dumps(r['base'], ensure_ascii=False)})" if r.get("base") else ""),
             f"parser: {r['parser']}" + (f" {r['parser_version']}" if r.get("parser_version") else ""),
             f"verdict: {v['kind']} under {v['spec']['name']} ({v['spec']['clause']}); cause {v['cause']}"]
    if v.get("reason"):
        parts.append(f"reason: {v['reason']}")
    parts.append(f"reproduce: {r.get('command') or 'no command recorded'}")
    return "\n".join(parts)
