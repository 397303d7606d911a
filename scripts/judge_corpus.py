#!/usr/bin/env python3
"""Judge every differential sidecar (corpus/differential/regress/*.json with an input and one
parser) by its parser's contract, with the real parsers, and every ssrf sidecar by its
validator's (no oracle needed): a tally of bugs and hazards and one line
per record (kind, parser, input, clause, cause). With ``--write`` the contract judge's verdict
replaces the one in each judged sidecar (atomically; the old ``reason`` is kept where the judge
gives none): the provisional verdicts of the migration (urlwb.findings.provisional) give way to
the contract's.

    python scripts/judge_corpus.py [--write]

The facts and the verdict are urlwb.differential.facts' (the one judge every command calls);
the verdict is urlwb.verdicts.judge's (issue 25). A parser that cannot start here is counted
under ``skipped`` with its reason.
"""
import collections
import glob
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from urlwb import oracles  # noqa: E402
from urlwb import corpus_store  # noqa: E402
from urlwb.findings import record as findings_record  # noqa: E402
from urlwb.hunt.report import json_text  # noqa: E402
from urlwb.differential import facts  # noqa: E402


#: what the judge's reason is followed by when a person's review came before it
REVIEWED = " Reviewed before: "


def kept_reason(judged: str | None, old: str | None) -> str | None:
    """The judge's reason, followed by a person's earlier review (an old reason that is not the
    hunt's "unreviewed" placeholder), once: a second run finds the review after REVIEWED."""
    if old and REVIEWED in old:
        old = old.split(REVIEWED, 1)[1]
    if not old or old.startswith("unreviewed") or old == judged:
        return judged or old
    return (judged + "." + REVIEWED + old) if judged else old


def judge_ssrf(write: bool) -> collections.Counter:
    """Every ssrf sidecar judged by its validator's contract (urlwb.verdicts.judge.judge_validator:
    no oracle is asked, the sidecar holds the witness, each client's observed pairs once
    scripts/observe_corpus.py ran, else the model's destinations, and the validator's own host)."""
    tally = collections.Counter()
    for f in sorted(glob.glob(str(ROOT / "corpus" / "ssrf" / "regress" / "*.json"))):
        meta = json.loads(pathlib.Path(f).read_text(encoding="utf-8"))
        validator = meta["validator"]
        if "observation" in meta or "observed" in meta:   # observed pairs (scripts/observe_corpus.py; "observed" its first name): kept
            pairs = (meta.get("verdict") or {}).get("pairs") or []
        else:
            pairs = [{"validator": validator, "client": c, "reached": (d or {}).get("destination")}
                     for c, d in sorted((meta.get("fetchers") or {}).items())]
        v = facts.validator_verdict(facts.Allowing(validator, meta["input"], meta.get("validator_host"), tuple(pairs),
                                                      meta.get("validator_version")))
        tally[v["kind"]] += 1
        if write:
            old = meta.get("verdict") if isinstance(meta.get("verdict"), dict) else {}
            meta["verdict"] = dict(v, reason=kept_reason(v.get("reason"), old.get("reason")))
            findings_record.check(meta)
            corpus_store.write_sidecar(pathlib.Path(f[:-len(".json")]), meta)
            tally["written"] += 1
    return tally


def _stored(answer: str | None, fields: dict | None):
    """An old release's reading as ``corpus/history`` stored it (its answer line and components)."""
    if answer is None:
        return None
    if answer == "failure":
        return oracles.FAILURE
    if answer.startswith(("crash", "CRASH", "HUNG")):
        return oracles.crash_record(answer)
    return oracles.Record(failure=False, **{k: (fields or {}).get(k) for k in
                                            ("scheme", "username", "password", "host", "port", "path", "query", "fragment")},
                          href=answer if "://" in answer or ":" in answer else None)


def started_engine():
    return oracles.load(["engine"])[0]["engine"]


def judge_history(write: bool, engine) -> collections.Counter:
    """Every ``corpus/history`` entry still provisional, judged by its parser's contract on the old
    release's reading the entry stored (no old release is built); the changelog's fix is kept as
    its upstream where the judge knows none."""
    tally = collections.Counter()
    for f in sorted(glob.glob(str(ROOT / "corpus" / "history" / "*" / "*.json"))):
        meta = json.loads(pathlib.Path(f).read_text(encoding="utf-8"))
        old_v = meta.get("verdict") if isinstance(meta.get("verdict"), dict) else {}
        if "not yet judged" not in (old_v.get("spec") or {}).get("clause", ""):
            continue
        old, input, base = meta["old"], meta["input"], meta.get("base")
        mine = _stored(meta["answers"].get(old), meta["records"].get(old))
        v = facts.verdict(facts.Reading(old, input, base, mine, engine.parse(input, base),
                                        version=old.partition("@")[2] or None))
        if v is None:
            tally["none (the readings agree)"] += 1
            continue
        tally[v["kind"]] += 1
        if write:
            v = dict(v, upstream=v["upstream"] or old_v.get("upstream"),
                     reason=kept_reason(v.get("reason"), old_v.get("reason")))
            meta["verdict"] = v
            findings_record.check(meta)
            corpus_store.atomic_write(pathlib.Path(f), (json_text(meta) + "\n").encode("utf-8"))
            tally["written"] += 1
    return tally


def main() -> int:
    write = "--write" in sys.argv[1:]
    paths = sorted(glob.glob(str(ROOT / "corpus" / "differential" / "regress" / "*.json")))
    records = [dict(json.loads(pathlib.Path(f).read_text(encoding="utf-8")), _path=f) for f in paths]
    records = [r for r in records if r.get("input") is not None and r.get("parser") in oracles.REGISTRY]
    started, skipped = oracles.load(["engine", *sorted({r["parser"] for r in records})])
    tally, rows = collections.Counter(), []
    try:
        for r in records:
            name, input, base = r["parser"], r["input"], r.get("base")
            if name not in started:
                tally["skipped"] += 1
                continue
            mine = started[name].parse_many([(oracles.to_usv(input), base)])[0]
            engine = started["engine"].parse(input, base)
            if mine is None:
                tally["not applicable"] += 1
                continue
            _, known = facts.cause(facts.Reading(name, input, base, mine, engine))
            if known and known.startswith("the engine's"):   # the engine's own deviation: no verdict on the parser
                tally["the engine's deviation"] += 1
                continue
            v = facts.verdict(facts.Reading(name, input, base, mine, engine, version=started[name].version))
            kind = v["kind"] if v else "none (the readings agree now)"
            if write and v:
                old = r.get("verdict") if isinstance(r.get("verdict"), dict) else {}
                v = dict(v, reason=kept_reason(v.get("reason"), old.get("reason")))
                meta = {k: val for k, val in r.items() if k != "_path"}
                meta["verdict"] = v
                findings_record.check(meta)
                corpus_store.write_sidecar(pathlib.Path(r["_path"][:-len(".json")]), meta)
                tally["written"] += 1
            tally[kind] += 1
            rows.append((kind, name, input, v["spec"]["clause"] if v else "", v["cause"] if v else ""))
    finally:
        oracles.close_all(started)
    print(", ".join(f"{k}: {n}" for k, n in sorted(tally.items())) + f" (of {len(records)} records)")
    history = judge_history(write, started_engine())
    print("history: " + ", ".join(f"{k}: {n}" for k, n in sorted(history.items())))
    ssrf = judge_ssrf(write)
    print("ssrf: " + ", ".join(f"{k}: {n}" for k, n in sorted(ssrf.items())))
    for name, why in skipped.items():
        print(f"skipped {name}: {why}")
    for kind, name, input, clause, cause in sorted(rows):
        print(f"{kind:<6} {name:<22} {input!r:<40} {cause:<14} {clause}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
