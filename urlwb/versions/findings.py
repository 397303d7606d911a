"""``urlwb bisect``'s findings in the one shape (``finding-v1``): each range of releases whose
answer differs from the Standard's, judged by the parser's contract.

The record names the range's newest release (``NAME@VERSION``: the one a user has, when the range
reaches the newest) and the range itself (``versions``: first, last, releases); ``fixed_in`` the
first release of a later range that answers as the Standard does, when there is one. URL
parsers are judged by the one judge (:mod:`urlwb.differential.facts`: the engine's record beside
the release's); host oracles, which declare their own rules, by theirs: a crash is a ``bug``, another
answer a ``hazard``. The file is ``DIR/<parser>/findings.jsonl``, beside the report.
"""

from __future__ import annotations

import pathlib
import shlex

from urlwb import oracles
from urlwb.findings import record
from urlwb.differential import facts
from urlwb.oracles import contracts
from urlwb.verdicts.judge import judge


def _verdict(parser: str, kind: str, asked, standard, input: str, base: str | None, question: str | None):
    c = contracts.contract(parser, role="host" if kind != "url" else None)
    if kind == "url":   # the one judge, with the facts every other command gives it
        return facts.verdict(facts.Reading(f"{parser}@{asked.version}", input, base, asked.answer, standard,
                                           version=asked.shown or asked.version))
    ans = asked.answer
    if ans is not None and ans.crash:
        return judge(parser, input, None, oracles.crash_record(ans.crash), None, contract=c)
    return record.verdict("hazard", c.spec, f"{parser}'s own rules ({c.docs or 'no documentation declared'})",
                          question or "host", documented=c.docs,
                          reason=f"{parser} answers {asked.text} where the Standard answers otherwise")


def records(rep: dict, got: dict, asker, kind: str) -> list[dict]:
    """The findings of one bisection: ``rep`` its report (``ranges``), ``got`` index -> Asked."""
    by_version = {a.version: a for a in got.values() if a.skipped is None}
    parser, input, base = rep["parser"], rep["input"], rep["base"]
    standard = asker.standard if kind == "url" else None
    ranges = rep["ranges"]
    out = []
    for n, r in enumerate(ranges):
        if r["standard"] == "=":
            continue
        asked = by_version[r["last"]]
        verdict = _verdict(parser, kind, asked, standard, input, base, rep.get("question"))
        if verdict is None:
            continue
        fixed = next((later["first"] for later in ranges[n + 1:] if later["standard"] == "="), None)
        name = f"{parser}@{r['last']}"
        out.append(record.make_finding(
            input=input, base=base, parser=name, rule=record.rule("bisect", verdict["cause"]),
            signature=f"bisect:{parser}:{r['first']}..{r['last']}:{record.rule(verdict['cause'])}:{input[:200]}",
            verdict=verdict, parser_version=asked.shown or r["last"],
            summary=f"{parser} {r['first']} to {r['last']} ({r['releases']} releases): {r['text']}; "
                    f"the Standard: {rep['standard']}",
            command=f"urlwb bisect {shlex.quote(parser)} {shlex.quote(input)}"
                    + (f" --base {shlex.quote(base)}" if base else ""),
            versions={"first": r["first"], "last": r["last"], "releases": r["releases"]},
            fixed_in=fixed, observed=r["text"], expected=rep["standard"]))
    return out


def write(rep: dict, got: dict, asker, kind: str, out) -> pathlib.Path:
    """``out/<parser>/findings.jsonl``; its path."""
    return record.write_findings(pathlib.Path(out) / rep["parser"], records(rep, got, asker, kind))
