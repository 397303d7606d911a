#!/usr/bin/env python3
"""Observe every committed SSRF witness (corpus/ssrf/regress/) through the real HTTP clients and
rewrite each sidecar's ``verdict.pairs`` with what each client was seen to reach, beside the
model's destination (urlwb.ssrf.observe.corpus). One observation run for all witnesses: each
client starts once, in its own sealed network. Atomic and idempotent (a sidecar is written only
when it changes); every record is checked against finding-v1. Then each verdict is re-judged by
its validator's contract with the observed pairs (urlwb.ssrf.regress.verdict_of).

    python scripts/observe_corpus.py [--dry-run] [--clients a,b] [--out DIR] [--observed FILE]

``--out DIR`` also keeps the run's observed.jsonl; ``--observed FILE`` reads such a file back
instead of observing again. Prints the tally: records and witnesses a
client was seen to take to a denied destination (``reached``), and those only the model claimed
(``model-only``).
"""
import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from urlwb import oracles  # noqa: E402
from urlwb.oracles import contracts  # noqa: E402
from urlwb.ssrf import regress  # noqa: E402
from urlwb.ssrf.observe import corpus, findings, observe, run  # noqa: E402


def validator_hosts(items) -> tuple[dict, dict]:
    """validator -> witness -> the host its own parser (its contract's ``reads``) reads; and the
    parsers that could not start, with why."""
    reads = {}
    for _, meta in items:
        c = contracts.contract(meta["validator"], "validator", role="validator")
        if c.reads:
            reads.setdefault(meta["validator"], (c.reads, set()))[1].add(meta["input"])
    started, skipped = oracles.load(sorted({r for r, _ in reads.values()}))
    out = {}
    try:
        for v, (parser, inputs) in reads.items():
            if parser not in started:
                continue
            ordered = sorted(inputs)
            recs = started[parser].parse_many([(oracles.to_usv(s), None) for s in ordered])
            out[v] = {s: (r.host if r is not None and not r.failure else None) for s, r in zip(ordered, recs)}
    finally:
        oracles.close_all(started)
    return out, skipped


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dry-run", action="store_true", help="tally only, write nothing")
    ap.add_argument("--clients", default=None, help="comma-separated clients (default: every declared one)")
    ap.add_argument("--out", default=None, help="a folder for the run's observed.jsonl")
    ap.add_argument("--observed", default=None, help="read an earlier run's observed.jsonl instead of observing")
    ap.add_argument("--no-hosts", action="store_true",
                    help="do not read each witness's host by its validator's own parser (no misclassification verdicts)")
    ap.add_argument("--folder", default=None, help="the regress folder (default: corpus/ssrf/regress)")
    a = ap.parse_args(argv)
    folder = pathlib.Path(a.folder) if a.folder else regress.folder()
    items = corpus.sidecars(folder)
    inputs = corpus.witnesses(items)
    if a.observed:
        obs = corpus.load_observed(pathlib.Path(a.observed))
        missing = set(inputs) - {s.input for s in obs.seen}
        if missing:
            sys.exit(f"observe_corpus: {a.observed} lacks {len(missing)} witnesses (e.g. {sorted(missing)[0]!r})")
    else:
        obs = observe.observe(inputs, run.client_names(a.clients), progress=lambda s: print(s, flush=True))
    for n, why in obs.skipped.items():
        print(f"skipped {n}: {why}")
    if a.out:
        findings.write_observed(pathlib.Path(a.out), obs)
    hosts = None
    if not a.no_hosts:
        hosts, why = validator_hosts(items)
        for name, reason in why.items():
            print(f"skipped {name} (a validator's parser): {reason}")
    tally = corpus.apply(items, obs, regress.observed_verdict, write=not a.dry_run, hosts=hosts)
    print(f"{len(inputs)} witnesses through {len(obs.clients)} clients ({', '.join(obs.clients)}); "
          f"{'sealed' if obs.sealed else 'NOT sealed'}")
    print(", ".join(f"{k}: {v}" for k, v in tally.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
