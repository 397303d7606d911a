"""``urlwb bench-fuzz [TARGET ...] [--seconds S]``: exec/s of each fuzz target on one core.

Each target runs in-process (no ``-fork``: one core) for ``--seconds`` of libFuzzer time from a
fresh copy of its seed corpus, with its ``.options`` and ``-seed=1``; exec/s is libFuzzer's own
count of executed units over that time (``-print_final_stats=1``). The peer is atheris driving
pywhatwgurl on a parse-and-reparse target (``fuzzers/peer_pywhatwgurl.py``) over the ``url``
seeds: the ratio column is target exec/s over peer exec/s. Issue 4's goals: at least 6,000 exec/s
on ``url``, 15,000 on ``host`` and ``percent``. A benchmark, not a test: figures depend on the
machine and its load.
"""

from __future__ import annotations

import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

from urlwb import corpus_store

GOALS = {"url": 6000, "host": 15000, "percent": 15000}
PEER = "peer_pywhatwgurl"
_STAT = re.compile(r"^stat::(\w+):\s+(\d+)", re.M)


def bench_one(script: pathlib.Path, seeds: pathlib.Path, flags: list[str], seconds: float) -> dict:
    from urlwb.minimize import fuzzer_env

    with tempfile.TemporaryDirectory(prefix="urlwb-bench-") as tmp:
        corpus = pathlib.Path(tmp, "corpus")
        shutil.copytree(seeds, corpus) if seeds.is_dir() else corpus.mkdir()
        cmd = [sys.executable, str(script), str(corpus), f"-max_total_time={max(1, int(seconds))}",
               "-print_final_stats=1", "-seed=1", f"-artifact_prefix={tmp}/", *flags]
        t0 = time.monotonic()
        proc = subprocess.run(cmd, cwd=tmp, env=fuzzer_env(), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, errors="replace")
        wall = time.monotonic() - t0
    stats = {k: int(v) for k, v in _STAT.findall(proc.stderr)}
    execs = stats.get("number_of_executed_units", 0)
    crashed = proc.returncode != 0
    return {"execs": execs, "exec_per_s": execs / seconds if seconds else 0.0, "wall": wall,
            "libfuzzer_avg": stats.get("average_exec_per_sec", 0), "crashed": crashed}


def add_arguments(parser) -> None:
    from urlwb.cliutil import one_line_errors

    one_line_errors(parser)
    parser.add_argument("targets", nargs="*", metavar="TARGET", help="targets (default: all)")
    parser.add_argument("--seconds", type=float, default=10.0, metavar="S",
                        help="libFuzzer time per target (default 10)")
    parser.add_argument("--no-peer", action="store_true", help="skip the pywhatwgurl peer")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")


def run(args) -> int:
    from urlwb.cli import UsageError
    from urlwb.fuzz import libfuzzer_flags

    if not args.seconds >= 1:
        raise UsageError("--seconds must be at least 1")
    targets = corpus_store.resolve_targets(args.targets)
    results = {}
    peer = None
    if not args.no_peer:
        print(f"peer: atheris + pywhatwgurl parse-and-reparse, {args.seconds:g} s ...", flush=True)
        peer = bench_one(corpus_store.FUZZERS_DIR / f"{PEER}.py", corpus_store.seed_dir("url"),
                         libfuzzer_flags("url"), args.seconds)
    for t in targets:
        print(f"{t}: {args.seconds:g} s ...", flush=True)
        results[t] = bench_one(corpus_store.ROOT / corpus_store.TARGETS[t], corpus_store.seed_dir(t),
                               libfuzzer_flags(t), args.seconds)
    rows = []
    for t, r in results.items():
        ratio = f"{r['exec_per_s'] / peer['exec_per_s']:.2f}x" if peer and peer["exec_per_s"] else "—"
        goal = GOALS.get(t)
        verdict = "" if goal is None else ("met" if r["exec_per_s"] >= goal else f"below {goal:,}")
        note = " (stopped on a failure)" if r["crashed"] else ""
        rows.append((t, f"{r['execs']:,}", f"{r['exec_per_s']:,.0f}", ratio, verdict + note))
    if peer:
        rows.append(("peer: pywhatwgurl", f"{peer['execs']:,}", f"{peer['exec_per_s']:,.0f}", "1.00x", ""))
    header = ("target", "executions", "exec/s", "vs peer", "goal (issue 4)")
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|---|---:|---:|---:|---|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        print(f"{header[0]:18} {header[1]:>11} {header[2]:>8} {header[3]:>8}  {header[4]}")
        for row in rows:
            print(f"{row[0]:18} {row[1]:>11} {row[2]:>8} {row[3]:>8}  {row[4]}")
    out = corpus_store.work_root() / "bench" / f"bench-fuzz-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"seconds": args.seconds, "peer": peer, "targets": results}, indent=1))
    print(f"(one core each, {args.seconds:g} s of libFuzzer time, seed corpus, -seed=1; saved {out})")
    return 0
