"""The SSRF hunt's findings in the one shape (``finding-v1``): one record per validator (as asked,
``NAME@VERSION`` for a release) and minimized witness, with every validator -> client pair it
bites in ``verdict.pairs`` and what each client was computed to reach.

Judged by :func:`urlwb.verdicts.judge.judge_validator` (:func:`urlwb.ssrf.regress.verdict_of`) against the validator's contract
(``urlwb/oracles/contracts.toml``): a validator that validates URL syntax and allows what is no
URI reference of its spec is a ``bug``; one that classifies a host and is read otherwise by a
client is a ``hazard`` with its pairs. The signature is the regress entry's
(:mod:`urlwb.ssrf.regress`: ``ssrf:NAME@VERSION:<sha1 prefix>``), so a record and its corpus
sidecar name each other.
"""

from __future__ import annotations

import shlex

from urlwb.findings import record
from urlwb.ssrf import regress


def asked(validator: str, version: str) -> str:
    """``NAME@VERSION`` once (a validator asked as ``NAME@VERSION`` already says it)."""
    return validator if validator.endswith(f"@{version}") else f"{validator}@{version}"


def records(cells: dict, versions: dict[str, str]) -> list[dict]:
    """``cells``: (validator, fetcher) -> the run's cell (``witnesses``: category -> {witness,
    destination}); ``versions``: validator -> its version."""
    by_witness: dict[tuple[str, str], dict[str, tuple[str, str]]] = {}
    for (v, f), cell in cells.items():
        for category, per in cell["witnesses"].items():
            by_witness.setdefault((v, per["witness"]), {})[f] = (per["destination"], category)
    out = []
    for (v, w), clients in sorted(by_witness.items()):
        version = versions.get(v, "?")
        pairs = [{"validator": v, "client": f, "reached": dest} for f, (dest, _) in sorted(clients.items())]
        verdict = regress.verdict_of(v, w, pairs)
        fetchers = ",".join(sorted(clients))
        out.append(record.make_finding(
            input=w, base=None, parser=v, validator=v, client=pairs[0]["client"], rule="ssrf",
            signature=f"ssrf:{asked(v, version)}:{regress.entry_name(v, version, w)[:12]}",
            verdict=verdict, parser_version=version,
            summary=f"{v} {version} allows {w!r}; " + ", ".join(
                f"{f} reaches {dest} ({cat})" for f, (dest, cat) in sorted(clients.items())),
            command=f"urlwb ssrf --validator {shlex.quote(v)} --fetchers {shlex.quote(fetchers)}",
            categories=sorted({cat for _, cat in clients.values()})))
    return out
