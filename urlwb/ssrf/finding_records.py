"""An ssrf hunt's findings as ``finding-v1`` records (:mod:`urlwb.findings.record`), the shape
SARIF and JUnit are rendered from (:mod:`urlwb.report_formats`).

When real HTTP clients observed the witnesses (:mod:`urlwb.ssrf.observe`): the findings they
showed, those of ``findings.jsonl`` in ``--out``. When none did (``--clients none``, or none could
start): each minimized bypass of the model (validator, witness) as its regress sidecar would hold
it (:func:`urlwb.ssrf.regress.record`, filed or not), judged by the validator's contract
(:func:`urlwb.verdicts.judge.judge_validator`). Then each validator's own failure on an input (a
crash, a hang, an answer out of the protocol's schema), a finding about the validator."""

from __future__ import annotations

import shlex

from urlwb.differential.findings import no_uri_character
from urlwb.findings import provisional
from urlwb.findings.record import check, make_finding, verdict
from urlwb.findings.sidecar import in_project
from urlwb.oracles import contracts
from urlwb.ssrf import catalog, regress
from urlwb.differential import facts
from urlwb.verdicts.judge import REFERENCE_CLAUSES, RFC_NAMES

#: the validator's failure class -> the finding's rule
FAILURE_RULES = {"oracle-crashed": "crash", "oracle-hung": "hang"}


def finding_records(per_vw: dict[tuple[str, str], dict], validators: dict, declared: dict,
                    categories: list[str], observed: list[dict] | None = None, asker=None) -> list[dict]:
    """The bypasses (``observed``: the findings real clients showed, :mod:`urlwb.ssrf.observe`,
    when the run observed; else the model's, ``per_vw``), then the validators' own failures;
    ``asker`` (:class:`urlwb.ssrf.hunt.Asker`): where each validator's own parser read the host."""
    out = list(observed) if observed is not None else []
    for (v, w), fs in per_vw.items() if observed is None else ():
        base = declared[v].base if v in declared else None
        own = facts.own_host(asker, v, w) if asker is not None else None
        rec = regress.record(v, base, validators[v].version, w, fs, categories, own)
        # judged by the validator's own contract (a URL-syntax validator accepting a non-URI is
        # its bug; one that misclassified an address it read itself too; else a hazard with the
        # pairs where it bites): the one judge, with the same facts as every other path
        judged = facts.validator_verdict(facts.Allowing(base or v, w, own, tuple(rec["verdict"].get("pairs") or []),
                                                              validators[v].version))
        if judged is not None:
            rec = check({**rec, "verdict": judged})
        path = regress.folder() / regress.entry_name(v, validators[v].version, w)
        if path.exists():
            rec["filed"] = str(path)
        out.append(rec)
    for name, val in validators.items():
        seen = set()
        for cls, what, inp, reason in val.findings:
            rule = FAILURE_RULES.get(cls, "crash")
            signature = f"{rule}:{name}:{what}"
            if signature in seen:
                continue
            seen.add(signature)
            out.append(make_finding(
                input=inp, parser=name, validator=name, rule=rule, signature=signature,
                parser_version=val.version, summary=f"{name}: {what}: {reason}"[:500],
                command=in_project(f"urlwb ssrf --oracle {shlex.quote(name)}", catalog.project_of(name)),
                verdict=provisional.judge({"rule": rule, "parser": name, "reason": reason})))
    return out


def no_uri_records(verdicts: dict[str, dict], declared: dict) -> list[dict]:
    """A validator of URL syntax that declares an RFC (``spec = "rfc3986"``) and allows
    an input holding a character no URI holds (a control, a space, DEL) breaks its contract, a
    bug, whatever a client then does with it: one record per validator and character, on the
    shortest input. ``verdicts``: each validator's answers (:attr:`urlwb.ssrf.hunt.Asker.verdicts`)."""
    out = []
    for name, answers in verdicts.items():
        d = declared.get(name)
        c = contracts.contract(d.base if d is not None and d.base else name, "validator",
                               declared=d.spec if d is not None else None, role="validator")
        # a validator of URL syntax: a shipped one that says so (checks = "url-syntax"; one that
        # classifies a host's address, as ipaddress does, is not held to the URI grammar), or the
        # user's, whose declared RFC is the grammar it says it accepts
        if c.spec not in RFC_NAMES or not (c.checks == "url-syntax" or (c.checks is None and c.origin == "config")):
            continue
        keep: dict[str, str] = {}
        for s, v in answers.items():
            what = no_uri_character(s) if v is not None and v.allow is True else None
            if what is not None and (what not in keep or (len(s), s) < (len(keep[what]), keep[what])):
                keep[what] = s
        for what, s in sorted(keep.items()):
            rfc = RFC_NAMES[c.spec]
            out.append(make_finding(
                input=s, parser=name, validator=name, rule=f"accepts-no-uri/{_rule_part(what)}",
                signature=f"accepts-no-uri/{_rule_part(what)}:{name}",
                summary=f"{name} (a validator, {rfc}) allows an input holding a {what}",
                command=in_project(f"urlwb ssrf --oracle {shlex.quote(name)}", catalog.project_of(name)),
                verdict=verdict("bug", c.spec, f"{REFERENCE_CLAUSES[c.spec]} (Appendix A: no {what} in any URI)",
                                "accepts-no-uri", documented=c.docs,
                                reason=f"{name} is a validator declaring {rfc}; it allows {s!r}, which holds a "
                                       f"{what}: no URI reference of {rfc} does")))
    return out


def _rule_part(what: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in what.lower()).strip("-")
