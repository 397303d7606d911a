"""``urlwb campaign [--minutes M]``: the main job (``make run``): a bounded round over every
target, then a report.

1. file any artifact an earlier, interrupted round left untriaged;
2. measure the engine's branch coverage reached by each target's corpus (seed, regress, working);
3. fuzz every target in turn, the time split evenly (``urlwb.fuzz``, live progress);
4. triage the round's crash artifacts into ``corpus/<target>/regress/`` (minimized, deduplicated);
5. measure the coverage again (the corpus before, plus the inputs the round added);
6. write ``reports/campaign-<stamp>/report.md`` and ``report.html`` (and ``run.json``), point
   ``reports/latest`` at it, then run the differential round (``urlwb.diff.campaign_round``) when
   that module is there, and write the report again with its section.

Findings are filed as soon as they are triaged and every write is atomic, so stopping the
campaign at any moment loses nothing: the next round triages what was left.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from urlwb import corpus_store, coverage, triage
from urlwb.cliutil import seconds_flag
from urlwb.diff import campaign_round
from urlwb.errors import UsageError
from urlwb.fuzz import Progress, fuzz_target, jobs_flag
from urlwb.listing import preview
from urlwb.report import render_html, render_markdown

DIFF_SHARE = 0.15          # of the time budget, for the differential round when it exists
RESERVE_SECONDS = 25.0     # kept back for triage, the second coverage measurement and the report
MIN_TARGET_SECONDS = 4.0   # libFuzzer's -max_total_time is whole seconds, after imports


def _cache_path(target: str) -> pathlib.Path:
    """Where the coverage data of ``target``'s current corpus on the current engine is kept:
    keyed by the engine's sources and the corpus listing, so a round starts from the last one's
    'after' measurement instead of replaying everything again."""

    h = hashlib.sha1(coverage.engine_fingerprint().encode())
    for p in coverage.corpus_paths(target):
        h.update(os.fsencode(f"{p.parent.name}/{p.name}") + b"\0")
    folder = coverage.cov_dir() / "cache"
    folder.mkdir(exist_ok=True)
    return folder / f"{target}-{h.hexdigest()[:16]}.data"


def _measure_each(targets: list[str], folder: pathlib.Path, tag: str) -> dict[str, pathlib.Path]:
    """Each target's whole corpus replayed under coverage (two targets at a time), or taken from
    the cache when neither the engine nor the corpus changed since it was measured."""

    def one(t):
        out, cached = folder / f"{tag}-{t}.data", _cache_path(t)
        if cached.exists():
            shutil.copyfile(cached, out)
            return out
        coverage.measure_corpus([t], out, workers=1, log=lambda _: None)
        shutil.copyfile(out, cached)
        return out

    with ThreadPoolExecutor(max_workers=2) as pool:
        files = dict(zip(targets, pool.map(one, targets)))
    for t in targets:
        print(f"  {t:14} {len(coverage.corpus_paths(t)):6} inputs")
    return files


def _measure_added(targets, folder, before_files, snapshots) -> dict[str, pathlib.Path]:
    """The 'before' data plus the inputs the round added to each working corpus (libFuzzer may
    also have replaced some inputs by smaller ones with the same features: not replayed)."""

    def one(t):
        work = corpus_store.work_root() / "corpus" / t
        prefix = folder / f"new-{t}.data-part"
        coverage.replay_covered(t, [work / n for n in sorted(_work_files(t) - snapshots[t])], prefix)
        return coverage.combine([before_files[t], *coverage._parts(prefix)], folder / f"after-{t}.data")

    with ThreadPoolExecutor(max_workers=2) as pool:
        files = dict(zip(targets, pool.map(one, targets)))
    for t, f in files.items():
        shutil.copyfile(f, _cache_path(t))
    return files


def _git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=corpus_store.ROOT,
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or "?"
    except OSError:
        return "?"


def _work_files(target: str) -> set[str]:
    folder = corpus_store.work_root() / "corpus" / target
    return {p.name for p in folder.iterdir()} if folder.is_dir() else set()


def _finding_record(entry: pathlib.Path, meta: dict) -> dict:
    data = entry.read_bytes()
    return {"target": meta["target"], "signature": meta["signature"], "kind": meta["kind"],
            "detail": str(meta.get(meta["kind"], ""))[:2000], "path": str(entry.relative_to(corpus_store.ROOT))
            if entry.is_relative_to(corpus_store.ROOT) else str(entry),
            "size": len(data), "original_size": meta.get("original_size", len(data)),
            "preview": preview(data, 100), "hex": data[:200].hex(" "), "note": meta.get("note", ""),
            "status": meta["status"]}


def _link_latest(reports: pathlib.Path, out_dir: pathlib.Path) -> None:
    tmp = reports / f".latest-{os.getpid()}"
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    tmp.symlink_to(out_dir.name)
    os.replace(tmp, reports / "latest")


def write_report(record: dict, out_dir: pathlib.Path) -> None:
    corpus_store.atomic_write(out_dir / "run.json", json.dumps(record, indent=1, default=str).encode())
    corpus_store.atomic_write(out_dir / "report.md", render_markdown(record).encode("utf-8"))
    corpus_store.atomic_write(out_dir / "report.html", render_html(record).encode("utf-8"))


def add_arguments(parser) -> None:
    parser.add_argument("--minutes", type=float, default=2.5, metavar="M",
                        help="wall time of the whole round, about; fuzzing gets what the "
                             "measurements leave, split between the targets (default 2.5)")
    parser.add_argument("--targets", nargs="+", metavar="TARGET", help="only these targets")
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help="libFuzzer -fork=N (default 1)")
    parser.add_argument("--no-coverage", action="store_true", help="skip the coverage.py measurements")
    parser.add_argument("--no-diff", action="store_true", help="skip the differential round")
    parser.add_argument("--minimize-seconds", type=float, default=10.0, metavar="S",
                        help="time to minimize each new finding (default 10)")
    parser.add_argument("--out", type=pathlib.Path, default=corpus_store.ROOT / "reports",
                        help="folder for campaign-<stamp>/ and the latest link (default reports/)")


def run(args) -> int:
    seconds_flag("--minutes (in seconds)", args.minutes * 60)
    jobs_flag(args.jobs)
    seconds_flag("--minimize-seconds", args.minimize_seconds)
    targets = corpus_store.resolve_targets(args.targets)
    t_start = time.monotonic()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out_dir = args.out / f"campaign-{stamp}"
    out_dir.mkdir(parents=True, exist_ok=True)

    diff_round, diff_skip = (None, "--no-diff") if args.no_diff else (campaign_round, None)
    budget = args.minutes * 60
    diff_seconds = max(10.0, DIFF_SHARE * budget) if diff_round else 0.0
    reserve = diff_seconds + RESERVE_SECONDS
    print(f"campaign {stamp}: {len(targets)} targets in about {args.minutes:g} min"
          + (f", differential round {diff_seconds:.0f} s" if diff_round else f" (differential round skipped: {diff_skip})"))

    leftovers = triage.triage(targets, minimize_seconds=args.minimize_seconds, log=print)
    if leftovers:
        print(f"filed {sum(t.verdict == 'new' for t in leftovers)} findings left by an earlier round")

    cov_folder = coverage.cov_dir() / f"campaign-{stamp}"
    cov_folder.mkdir(parents=True, exist_ok=True)
    before_files, branch_before, fingerprint = {}, {}, coverage.engine_fingerprint()
    if not args.no_coverage:
        print("engine coverage of the corpora before the round:")
        before_files = _measure_each(targets, cov_folder, "before")
        branch_before = {t: coverage.branch_percent(f) for t, f in before_files.items()}
        branch_before_all = coverage.branch_percent(
            coverage.combine(list(before_files.values()), cov_folder / "before-all.data"))
        print(f"  ({time.monotonic() - t_start:.0f} s)")

    progress = Progress()
    results, snapshots = [], {}
    for i, t in enumerate(targets):
        left = budget - (time.monotonic() - t_start) - reserve
        seconds = max(MIN_TARGET_SECONDS, left / (len(targets) - i))
        snapshots[t] = _work_files(t)
        results.append(fuzz_target(t, seconds, args.jobs, progress=progress))

    print("triage:")
    triaged = triage.triage(targets, minimize_seconds=args.minimize_seconds, log=print)

    branch_after, after_files, coverage_note = {}, {}, ""
    if not args.no_coverage:
        if coverage.engine_fingerprint() != fingerprint:
            coverage_note = ("the engine's sources changed during the round: 'before' was measured on "
                             "the old engine, 'after' on the new one, both by replaying the corpus")
            print(f"note: {coverage_note}")
            after_files = _measure_each(targets, cov_folder, "after")
        else:
            print("engine coverage after the round (the corpus before, plus the inputs the round added):")
            after_files = _measure_added(targets, cov_folder, before_files, snapshots)
        for t in targets:
            branch_after[t] = coverage.branch_percent(after_files[t])
            print(f"  {t:14} {branch_before[t]:5.1f}% -> {branch_after[t]:5.1f}%")

    record = {
        "stamp": stamp, "minutes": args.minutes, "engine_commit": _git_commit(),
        "targets": [], "new_findings": [], "duplicates": sum(t.verdict == "duplicate" for t in triaged),
        "unreproducible": sum(t.verdict == "unreproducible" for t in triaged),
    }
    for r in results:
        record["targets"].append({
            "target": r.target, "seconds": r.seconds, "execs": r.execs, "exec_per_s": r.exec_per_s,
            "cov_start": r.cov_start, "cov_end": r.cov_end, "ft_end": r.ft_end, "corpus": r.corpus,
            "crashes": max(r.crashes, len(r.artifacts)), "restarts": r.restarts, "timeline": r.timeline,
            "new": sum(x.target == r.target and x.verdict == "new" for x in triaged),
            "branch_before": branch_before.get(r.target), "branch_after": branch_after.get(r.target),
            "log": r.log})
    for x in triaged + leftovers:
        if x.verdict == "new" and x.entry:
            record["new_findings"].append(_finding_record(x.entry, corpus_store.load_sidecar(
                corpus_store.sidecar_path(x.entry))))
    open_entries = [e for e in corpus_store.iter_regress() if e.sidecar and e.status == "open"]
    record["open_total"] = len(open_entries)
    record["open_findings"] = [_finding_record(e.path, e.sidecar) for e in open_entries]
    if not args.no_coverage:
        record["branch_before"] = branch_before_all
        record["branch_after"] = coverage.branch_percent(
            coverage.combine(list(after_files.values()), cov_folder / "after-all.data"))
    record["coverage_note"] = coverage_note
    record["diff"] = {"skipped": diff_skip} if diff_skip else {"skipped": "running"}
    record["wall_seconds"] = time.monotonic() - t_start
    write_report(record, out_dir)
    _link_latest(args.out, out_dir)

    if diff_round:
        print(f"differential round ({diff_seconds:.0f} s):")
        result = diff_round(out_dir / "differential", diff_seconds)
        record["diff"] = {"markdown": result.get("markdown", ""), "html": result.get("html", ""),
                          "summary": result.get("summary", {})}
        record["wall_seconds"] = time.monotonic() - t_start
        write_report(record, out_dir)

    print()
    print(f"{sum(t['execs'] for t in record['targets']):,} executions, "
          f"{len(record['new_findings'])} new findings, {record['open_total']} open in corpus/*/regress/")
    if not args.no_coverage:
        print(f"engine branch coverage by the corpora: {record['branch_before']:.1f}% -> {record['branch_after']:.1f}%")
    print(f"report: {out_dir / 'report.md'}")
    print(f"        {out_dir / 'report.html'}  (latest: {args.out / 'latest'})")
    return 0


if __name__ == "__main__":
    sys.exit("use: urlwb campaign")
