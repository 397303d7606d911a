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

from urlwb.findings import provisional
from urlwb.findings.record import check, make_finding
from urlwb.findings.sidecar import in_project
from urlwb.ssrf import catalog, regress
from urlwb.verdicts.judge import judge_validator

#: the validator's failure class -> the finding's rule
FAILURE_RULES = {"oracle-crashed": "crash", "oracle-hung": "hang"}


def finding_records(per_vw: dict[tuple[str, str], dict], validators: dict, declared: dict,
                    categories: list[str], observed: list[dict] | None = None) -> list[dict]:
    """The bypasses (``observed``: the findings real clients showed, :mod:`urlwb.ssrf.observe`,
    when the run observed; else the model's, ``per_vw``), then the validators' own failures."""
    out = list(observed) if observed is not None else []
    for (v, w), fs in per_vw.items() if observed is None else ():
        base = declared[v].base if v in declared else None
        rec = regress.record(v, base, validators[v].version, w, fs, categories)
        # judged by the validator's own contract (a URL-syntax validator accepting a non-URI is
        # its bug; else a hazard with the pairs where it bites), as urlwb verdict judges it
        judged = judge_validator(base or v, w, True, pairs=rec["verdict"].get("pairs") or [])
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
