"""The provisional verdict: what a sidecar gets when it is shaped without its parser's contract.

Since ``urlwb.verdicts`` landed, the commands judge by contract themselves (``findings.jsonl`` of
``diff``, ``hunt``, ``ssrf``, ``growth``, ``bisect``; the hunt's and ssrf's filed sidecars), and
``scripts/judge_corpus.py --write`` replaced every provisional verdict of the committed corpus;
this one remains for what is shaped without a judge (a fuzz target's engine finding, a growth
filing, an old sidecar listed by ``urlwb list``).

Issue 25 asks for each parser to be judged by its own contract (its declared spec, an RFC 3986
judge beside the engine, a known-upstream table). That judge is built elsewhere
(``urlwb.verdicts.judge``); until it is merged every writer of a finding calls :func:`judge` here,
so that swapping it is one line::

    from urlwb.verdicts import judge   # instead of the body below

What this judge can say without a contract per parser, and no more:

- the WHATWG family (the engine included) is held to the WHATWG URL Standard, as the engine reads
  it: a disagreement is a ``bug`` under ``whatwg-url`` (https://url.spec.whatwg.org/#url-parsing);
- a crash (an undocumented exception, the adapter's ``oracle-crashed`` class), a hang or a
  super-linear time breaks any parser's contract: a ``bug`` under the parser's spec
  (``whatwg-url`` for the family, else ``own``: what the parser documents of itself);
- every other differential of a parser outside the family, and every ssrf bypass, is a
  ``hazard`` under ``own`` with the clause "not yet judged by its contract": the reading differs
  from the Standard's, and whether the parser's own spec allows it is the contract judge's call.

The verdict's ``reason`` keeps what a person wrote before (an old sidecar's string verdict or
note); ``upstream`` a fix the record itself names (``corpus/history/``: the release that changed).
"""

from __future__ import annotations

import re

from urlwb.findings.record import verdict

STANDARD = "https://url.spec.whatwg.org/#url-parsing"
NOT_JUDGED = "not yet judged by its contract"

#: rules that break any parser's contract, with the clause each breaks
CONTRACT_BREAKS = {
    "crash": "an exception its API does not document",
    "oracle-crashed": "an exception its API does not document (the adapter's answer: crashed)",
    "hang": "no answer within the deadline: a hang",
    "superlinear": "time super-linear in the input's length",
    "oom": "memory exhausted on one input",
}


def _rule_head(rule: str) -> str:
    return rule.split("/", 1)[0]


def judge(finding: dict) -> dict:
    """A verdict object (:func:`urlwb.findings.record.verdict`) for ``finding``: a dict with at
    least ``rule`` and ``parser``, and where known ``family`` (``whatwg`` or another), ``cause``,
    ``reason``, ``upstream`` and, for ssrf, ``pairs``."""
    rule = finding["rule"]
    head = _rule_head(rule)
    family = finding.get("family")
    whatwg = family == "whatwg" or finding["parser"] == "engine"
    spec = "whatwg-url" if whatwg else "own"
    cause = finding.get("cause") or (rule.split("/", 1)[1] if "/" in rule else head)
    extra = {"reason": finding.get("reason") or None, "upstream": finding.get("upstream")}
    if head in CONTRACT_BREAKS:
        return verdict("bug", spec, CONTRACT_BREAKS[head], cause, **extra)
    if head == "ssrf":
        return verdict("hazard", "own", NOT_JUDGED, cause, pairs=finding.get("pairs") or [], **extra)
    if whatwg:
        clause = {"invariant": "an invariant of the Standard's algorithms (fuzz target check)",
                  "unreproducible": "a failure the replay did not reproduce"}.get(
            head, f"the basic URL parser ({STANDARD}): the engine's reading is the Standard's")
        return verdict("bug", "whatwg-url", clause, cause, **extra)
    return verdict("hazard", "own", NOT_JUDGED, cause, **extra)


_ISSUE = re.compile(r"\b([\w.-]+/[\w.-]+)#(\d+)\b")
_URL = re.compile(r"https?://\S+[^\s.,;:)\"']")


_VERSION = re.compile(r"\b\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?")


def upstream_fix(confirmed_by: str | None) -> dict | None:
    """The upstream object of a change a changelog line confirms: its URL (a link in the line, or
    an ``owner/repo#N`` reference read as a GitHub issue), ``fixed``, and the release the line
    names first (None if it names none: the newer release compared is only an upper bound);
    None when the line names no place a maintainer can open."""
    if not confirmed_by:
        return None
    m = _URL.search(confirmed_by)
    url = m.group(0) if m else None
    if url is None and (m := _ISSUE.search(confirmed_by)):
        url = f"https://github.com/{m.group(1)}/issues/{m.group(2)}"
    if url is None:
        return None
    version = _VERSION.search(confirmed_by)
    return {"url": url, "state": "fixed", "fixed_in": version.group(0) if version else None,
            "source": confirmed_by}
