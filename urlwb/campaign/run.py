"""``urlwb campaign [--minutes M]``: the main job (``make run``): a bounded round over every
target, then a report.

1. file any artifact an earlier, interrupted round left untriaged;
2. fuzz every target on every core (``--jobs``, default the cores): ``urlwb.fuzzing.schedule``
   keeps that many libFuzzer processes running, one target each, each target first for an even
   share, then the cores to the targets gaining most new coverage features per second
   (libFuzzer's own counters), a running target kept as long as it gains (its start-up paid
   once); the differential round (``urlwb.differential.command.campaign_round``: WPT, the
   differential corpus, at least 2,000 generated inputs from the round's seed) and the long-input
   round (``urlwb.growth.command.growth_round``) run beside it on one core from the start;
3. triage the round's crash artifacts into ``corpus/<target>/regress/`` (minimized, deduplicated),
   once, after every fuzzing process has ended;
4. write ``reports/campaign-<stamp>/report.md`` and ``report.html`` (and ``run.json``: each
   round's wall seconds and processes, each run's processes), point ``reports/latest`` at it.

``--coverage`` adds the engine's branch coverage by each corpus, measured with coverage.py before
and after the round (a replay of every corpus, cached by corpus listing and engine sources).
``--schedule even`` is the schedule before this one (``urlwb bench campaign`` compares them):
coverage before, every target in turn (an even split, then the rest to the gainers), triage,
coverage after, the report, the differential round, the long-input round, one after another.

Findings are filed as soon as they are triaged and every write is atomic, so stopping the
campaign at any moment loses nothing: the next round triages what was left.

Nothing stops the campaign: an exception of any type in a round (fuzzing, triage, coverage, the
differential round, the report) is caught there, written into the report with its traceback
(and, where it concerns one input, with that input), and the campaign goes on to the next
round. The exit status is the one contract (:mod:`urlwb.exitcodes`): the campaign's findings are
the round's new regress entries (every other open entry is already filed: the corpus is its
baseline, and the SARIF marks those ``unchanged``); 0 when none of them is at or above
``--fail-on``, 1 when one is, 2 a usage error before anything ran, 3 a round that failed.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

from urlwb import children, corpus_store, exitcodes, oracles, report_formats
from urlwb import progress as speaking
from urlwb.measure import coverage
from urlwb.fuzzing import triage
from urlwb.cliutil import (add_jobs, check_outputs, add_minimize_seconds, add_minutes, add_out, add_seconds, add_seed,
                           add_targets, jobs_flag, minutes_flag, seconds_flag)
from urlwb.differential.command import campaign_round
from urlwb.growth.command import growth_round
from urlwb.errors import UsageError, WriteError
from urlwb.findings import sidecar
from urlwb.findings.baseline import baseline_key
from urlwb.findings.record import read_findings, write_findings
from urlwb.fuzzing.fuzz import Progress
from urlwb.fuzzing.fuzz import fuzz_target as _fuzz_target
from urlwb.fuzzing.schedule import Side, fuzz_parallel
from urlwb.fuzzing.listing import preview
from urlwb.campaign.record import CampaignRecord, TargetRun
from urlwb.campaign.finding_records import finding_records
from urlwb.campaign.report import render_html, render_markdown, time_bar

DIFF_SHARE = 0.15          # of the time budget, for the differential round when it exists
GROWTH_SECONDS = 20.0      # the long-input round's budget (urlwb.growth), by default
FIRST_SHARE = 0.6          # of the fuzzing time, split evenly; the rest goes to the gainers
MAX_GAINERS = 4            # targets that get a second share
RESERVE_SECONDS = 25.0     # kept back for triage, the second coverage measurement and the report
MIN_TARGET_SECONDS = 4.0   # libFuzzer's -max_total_time is whole seconds, after imports
FINAL_SECONDS = 6.0        # the gain schedule's reserve: the last triage and the report
SCHEDULES = ("gain", "even")


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
        work = corpus_store.work_path(t)
        prefix = folder / f"new-{t}.data-part"
        coverage.replay_covered(t, [work / n for n in sorted(_work_files(t) - snapshots[t])], prefix)
        return coverage.combine([before_files[t], *coverage.data_parts(prefix)], folder / f"after-{t}.data")

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
    folder = corpus_store.work_path(target)
    return {p.name for p in folder.iterdir()} if folder.is_dir() else set()


def finding_record(entry: pathlib.Path, meta: dict) -> dict:
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


def write_report(record: CampaignRecord, out_dir: pathlib.Path, errors: list[dict] | None = None) -> None:
    """run.json, report.md and report.html; if rendering fails, the report says so, with the
    traceback, and the campaign goes on (a write that cannot happen is still a WriteError)."""
    corpus_store.atomic_write(out_dir / "run.json", json.dumps(record.as_json(), indent=1, default=str).encode())
    try:
        md, page = render_markdown(record), render_html(record)
    except Exception as exc:  # noqa: BLE001 - a report that cannot render must not lose the round
        line = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        if errors is not None:
            errors.append({"round": "report", "error": line, "traceback": traceback.format_exc()})
        md = f"# Campaign {record.stamp}\n\nThe report could not be rendered: {line}\n\n" \
             f"```\n{traceback.format_exc()}```\n\nThe round's data is in run.json.\n"
        page = "<!doctype html><meta charset=utf-8><pre>" + html.escape(md) + "</pre>"
    corpus_store.atomic_write(out_dir / "report.md", md.encode("utf-8"))
    corpus_store.atomic_write(out_dir / "report.html", page.encode("utf-8"))


def add_arguments(parser) -> None:
    add_minutes(parser, "the whole round's wall time; fuzzing gets what the measurements leave, "
                        "split between the targets", 2.5)
    add_targets(parser)
    add_jobs(parser, "fuzz targets at once (--schedule even: libFuzzer -fork workers for each "
                     "target)", default=children.cores(), why="the cores this process may use")
    parser.add_argument("--schedule", choices=SCHEDULES, default="gain",
                        help="gain: every core fuzzing, time by measured gain, the other rounds "
                             "beside it on one core; even: the previous schedule, one target after "
                             "another, an even split, each round after the other (default gain)")
    parser.add_argument("--coverage", action="store_true",
                        help="also measure the engine's branch coverage by each corpus with "
                             "coverage.py before and after the round (a replay of every corpus; "
                             "measured by default only with --schedule even)")
    parser.add_argument("--no-coverage", action="store_true", help="skip the coverage.py measurements")
    parser.add_argument("--no-diff", action="store_true", help="skip the differential round")
    add_seconds(parser, "the long-input round: every parser's time on long inputs against the "
                        "engine's (urlwb growth for a longer one)", GROWTH_SECONDS, name="--growth-seconds")
    parser.add_argument("--no-growth", action="store_true", help="skip the long-input round")
    add_seed(parser, "the differential round's generated inputs", default=None,
             why="in the report too, so that a round can be repeated")
    add_minimize_seconds(parser, 10.0, why="the campaign's rounds are short")
    add_out(parser, "the folder for campaign-<stamp>/ and the latest link", corpus_store.ROOT / "reports")
    report_formats.add_arguments(parser)
    exitcodes.add_arguments(parser)


def load_average() -> list[float]:
    """The machine's 1, 5 and 15 minute load averages (what ``uptime`` prints)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


class Rounds:
    """Where the minutes went: each round's start, wall seconds and processes, as it ends."""

    def __init__(self, t_start: float, errors: list[dict]):
        self.t_start, self.errors, self.rows = t_start, errors, []

    def add(self, name: str, start: float, seconds: float, processes: int) -> None:
        self.rows.append({"round": name, "start": round(start, 2), "seconds": round(seconds, 2),
                          "processes": processes})
        self.rows.sort(key=lambda r: r["start"])

    def run(self, name: str, processes: int, run_round, default):
        """``guarded`` and timed."""
        t0 = time.monotonic()
        try:
            return guarded(self.errors, name, run_round, default)
        finally:
            self.add(name, t0 - self.t_start, time.monotonic() - t0, processes)


def report_folder(out: pathlib.Path) -> tuple[str, pathlib.Path]:
    """(stamp, ``out/campaign-<stamp>/``, made): the stamp is the time and the pid, so that two
    campaigns started in the same second with the same ``--out`` never share a folder (the
    second report overwrote the first)."""
    stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}"
    folder = pathlib.Path(out) / f"campaign-{stamp}"
    try:
        folder.mkdir(parents=True, exist_ok=False)
    except OSError as exc:
        raise WriteError(f"cannot make the report folder {folder}: {exc.strerror or exc}") from None
    return stamp, folder


def run(args) -> int:
    check_outputs(args)
    minutes_flag("--minutes", args.minutes)
    jobs_flag(args.jobs)
    seconds_flag("--minimize-seconds", args.minimize_seconds)
    if not args.no_growth:
        seconds_flag("--growth-seconds", args.growth_seconds)
    targets = corpus_store.resolve_targets(args.targets)
    if not args.no_diff:
        try:  # the user's own oracles, for the differential round: misconfigured is exit 2, now
            oracles.configure(config=True)
        except oracles.manifests.ManifestError as exc:
            raise UsageError(str(exc)) from None
    t_start = time.monotonic()
    stamp, out_dir = report_folder(args.out)
    gain = args.schedule == "gain"

    diff_round, diff_skip = (None, "--no-diff") if args.no_diff else (campaign_round, None)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    budget = args.minutes * 60
    diff_seconds = max(10.0, DIFF_SHARE * budget) if diff_round else 0.0
    growth_seconds = 0.0 if args.no_growth else args.growth_seconds
    reserve = FINAL_SECONDS if gain else diff_seconds + growth_seconds + RESERVE_SECONDS
    load_start = load_average()
    print(f"campaign {stamp}: {len(targets)} targets in about {args.minutes:g} min, schedule "
          f"{args.schedule}, {args.jobs} {'processes at once' if gain else '-fork workers per target'} "
          f"({children.cores()} cores; load average {' '.join(map(str, load_start))})"
          + (f", differential round {diff_seconds:.0f} s (seed {seed})" if diff_round else f" (differential round skipped: {diff_skip})"))

    errors: list[dict] = []   # rounds that failed, each with its traceback
    rounds = Rounds(t_start, errors)
    leftovers = rounds.run("triage of earlier artifacts", 1, lambda: triage.triage(
        targets, minimize_seconds=args.minimize_seconds, log=print), default=[])
    if leftovers:
        print(f"filed {sum(t.verdict == 'new' for t in leftovers)} findings left by an earlier round")

    cov_folder = coverage.cov_dir() / f"campaign-{stamp}"
    before_files, branch_before, fingerprint = {}, {}, coverage.engine_fingerprint()
    measure = (args.coverage or not gain) and not args.no_coverage
    if measure:
        cov_folder.mkdir(parents=True, exist_ok=True)
        print("engine coverage of the corpora before the round:")
        before_files = rounds.run("coverage before", 2, lambda: _measure_each(
            targets, cov_folder, "before"), default=None)
        measure = before_files is not None
    if measure:
        branch_before = {t: coverage.branch_percent(f) for t, f in before_files.items()}
        branch_before_all = coverage.branch_percent(
            coverage.combine(list(before_files.values()), cov_folder / "before-all.data"))
        print(f"  ({time.monotonic() - t_start:.0f} s)")

    snapshots = {t: _work_files(t) for t in targets}
    side: list[Side] = []
    def left(planned: float) -> float:
        """A side round's seconds when it starts: as planned, but never past the campaign's own
        end (less the final reserve): a round that starts late is cut, not the campaign lengthened."""
        return max(1.0, min(planned, t_start + budget - FINAL_SECONDS - time.monotonic()))

    if gain:   # the differential and long-input rounds on one core beside the fuzzing
        if diff_round:
            side.append(Side("differential round", diff_seconds,
                             lambda: diff_round(out_dir / "differential", left(diff_seconds), seed)))
        if growth_seconds:
            side.append(Side("long-input round", growth_seconds,
                             lambda: growth_round(out_dir / "growth", left(growth_seconds), seed=seed)))
        # on one core the side rounds run after the fuzzing (schedule.fuzz_parallel): leave them room
        deadline = t_start + budget - reserve - (sum(x.seconds for x in side) if args.jobs < 2 else 0.0)
        t_fuzz = time.monotonic()
        outcome = guarded(errors, "fuzzing", lambda: fuzz_parallel(
            targets, deadline, args.jobs, side=side, t_origin=t_start,
            reserve=lambda artifacts: _triage_reserve(artifacts, args.minimize_seconds, budget)),
            default=([], []))
        results, run_errors = outcome
        errors.extend(run_errors)
        rounds.add("fuzzing", t_fuzz - t_start, time.monotonic() - t_fuzz, args.jobs)
        for s in side:
            if s.start is not None:
                rounds.add(s.name, s.start, (s.end or s.start) - s.start, 1)
            if s.error:
                errors.append(s.error)
    else:
        fuzz_budget = budget - (time.monotonic() - t_start) - reserve
        results = rounds.run("fuzzing", args.jobs + (args.jobs > 1), lambda: fuzz_round(
            targets, fuzz_budget, args.jobs, Progress(), t_start), default=[])

    print("triage:")
    triaged = rounds.run("triage", 1, lambda: triage.triage(
        targets, minimize_seconds=args.minimize_seconds, log=print), default=[])

    branch_after, after_files, coverage_note = {}, {}, ""
    if measure:
        if coverage.engine_fingerprint() != fingerprint:
            coverage_note = ("the engine's sources changed during the round: 'before' was measured on "
                             "the old engine, 'after' on the new one, both by replaying the corpus")
            print(f"note: {coverage_note}")
            after_files = rounds.run("coverage after", 2, lambda: _measure_each(
                targets, cov_folder, "after"), default=None)
        else:
            print("engine coverage after the round (the corpus before, plus the inputs the round added):")
            after_files = rounds.run("coverage after", 2, lambda: _measure_added(
                targets, cov_folder, before_files, snapshots), default=None)
        measure = after_files is not None
    if measure:
        for t in targets:
            branch_after[t] = coverage.branch_percent(after_files[t])
            print(f"  {t:14} {branch_before[t]:5.1f}% -> {branch_after[t]:5.1f}%")

    record = CampaignRecord(
        stamp=stamp, minutes=args.minutes, engine_commit=_git_commit(), seed=seed,
        duplicates=sum(t.verdict == "duplicate" for t in triaged),
        unreproducible=sum(t.verdict == "unreproducible" for t in triaged),
        schedule=args.schedule, jobs=args.jobs, cores=children.cores(),
        load={"start": load_start})
    counted: set[str] = set()   # a target's new findings counted on its first run only
    for r in results:
        record.targets.append(TargetRun(
            target=r.target, seconds=r.seconds, execs=r.execs, exec_per_s=r.exec_per_s,
            cov_start=r.cov_start, cov_end=r.cov_end, ft_end=r.ft_end, corpus=r.corpus,
            crashes=max(r.crashes, len(r.artifacts)), restarts=r.restarts, timeline=r.timeline,
            new=0 if r.target in counted else sum(x.target == r.target and x.verdict == "new" for x in triaged),
            branch_before=branch_before.get(r.target), branch_after=branch_after.get(r.target),
            log=r.log, start=r.start, processes=r.processes, startup=r.startup,
            cpu_seconds=r.cpu_seconds, ended=r.ended))
        counted.add(r.target)
    for x in triaged + leftovers:
        if x.verdict == "new" and x.entry:
            record.new_findings.append(finding_record(x.entry, corpus_store.load_sidecar(
                corpus_store.sidecar_path(x.entry))))
    open_entries = [e for e in corpus_store.iter_regress() if e.sidecar and e.status == "open"]
    record.open_total = len(open_entries)
    record.open_findings = [finding_record(e.path, e.sidecar) for e in open_entries]
    if measure:
        record.branch_before = branch_before_all
        record.branch_after = coverage.branch_percent(
            coverage.combine(list(after_files.values()), cov_folder / "after-all.data"))
    record.coverage_note = coverage_note
    record.round_errors = errors
    record.rounds = rounds.rows
    record.diff = {"skipped": diff_skip} if diff_skip else {"skipped": "running"}
    record.growth = {"skipped": "--no-growth"} if not growth_seconds else {"skipped": "running"}
    for s in side:
        part = {"skipped": "the round failed (see Rounds that failed)"} if s.error or s.result is None \
            else {"markdown": s.result.get("markdown", ""), "summary": s.result.get("summary", {})}
        setattr(record, "diff" if s.name == "differential round" else "growth", part)

    def report(name: str) -> None:
        t0 = time.monotonic()
        record.wall_seconds = t0 - t_start
        record.load["end"] = load_average()
        write_report(record, out_dir, errors)
        rounds.add(name, t0 - t_start, time.monotonic() - t0, 1)
        record.rounds = rounds.rows
        record.wall_seconds = time.monotonic() - t_start

    report("report")
    _link_latest(args.out, out_dir)

    if diff_round and not gain:
        print(f"differential round ({diff_seconds:.0f} s):")
        result = rounds.run("differential round", 1, lambda: diff_round(
            out_dir / "differential", diff_seconds, seed), default=None)
        record.diff = {"skipped": "the round failed (see Rounds that failed)"} if result is None \
            else {"markdown": result.get("markdown", ""),
                  "summary": result.get("summary", {})}
        report("report again")

    if growth_seconds and not gain:
        print(f"long inputs ({growth_seconds:.0f} s):")
        grown = rounds.run("long-input round", 1, lambda: growth_round(
            out_dir / "growth", growth_seconds, seed=seed), default=None)
        record.growth = {"skipped": "the round failed (see Rounds that failed)"} if grown is None \
            else {"markdown": grown.get("markdown", ""), "summary": grown.get("summary", {})}
        report("report again")
    written = guarded(errors, "findings.jsonl", lambda: campaign_findings(out_dir, [
        x.entry for x in triaged + leftovers if x.verdict == "new" and x.entry]), default=None)
    if written is not None:   # the summary counts every record the run wrote (issue 34)
        record.findings_written = written_counts(written)
        write_report(record, out_dir, errors)   # report.md says it too (written before findings.jsonl)
    # the last write, with its own time in the bar
    corpus_store.atomic_write(out_dir / "run.json", json.dumps(record.as_json(), indent=1, default=str).encode())

    print()
    print(summary(record))
    print(f"report: {out_dir / 'report.md'}")
    print(f"        {out_dir / 'report.html'}  (latest: {args.out / 'latest'})")
    new_paths = {x.entry for x in triaged + leftovers if x.verdict == "new" and x.entry}
    for e in errors:
        print(f"round failed: {e['round']}: {e['error']}", file=sys.stderr)
    records = finding_records(open_entries, new_paths)
    return exitcodes.conclude(args, records, "campaign", out_dir,
                              known=[baseline_key(r) for r in records if not r.get("new")],
                              incomplete=[f"round failed: {e['round']}: {e['error']}" for e in errors])


def campaign_findings(out_dir: pathlib.Path, entries: list[pathlib.Path]) -> pathlib.Path:
    """``out_dir/findings.jsonl`` (``finding-v1``): the regress entries the round filed (their
    sidecars, in the shape already: :func:`urlwb.findings.sidecar.shape` keeps a shaped one as
    it is), then the findings the differential and long-input rounds wrote in their folders
    (each judged by its parser's contract there)."""
    found = [sidecar.shape(corpus_store.load_sidecar(corpus_store.sidecar_path(e)), data=corpus_store.read_input(e))
             for e in entries]
    for sub in sorted(out_dir.glob("*/**/findings.jsonl")):
        found += read_findings(sub)
    return write_findings(out_dir, found)


def written_counts(path: pathlib.Path) -> dict:
    """{"records", "bug", "hazard"} of a findings.jsonl: every record the run wrote, the
    differential's and the long-input round's with the filed ones (its report once said "new
    findings: 0" while the differential round had written two)."""
    kinds = [r["verdict"]["kind"] for r in read_findings(path)]
    return {"records": len(kinds), "bug": kinds.count("bug"), "hazard": kinds.count("hazard")}


def summary(record: CampaignRecord) -> str:
    """The terminal's last lines: executions and findings, then where the minutes went."""
    execs = sum(t.execs for t in record.targets)
    wall = max(1e-9, record.wall_seconds)
    w = record.findings_written
    lines = [f"{execs:,} executions ({execs / wall:,.0f} per wall-second), {len(record.new_findings)} "
             f"new findings filed, {record.open_total} open in corpus/*/regress/"
             + (f"; findings.jsonl: {w['records']} records ({w['bug']} bugs, {w['hazard']} hazards), "
                "each with its verdict" if w else ""),
             *time_bar(record)]
    # measured only with --coverage (or --schedule even), and only when both rounds succeeded
    if record.branch_before is not None and record.branch_after is not None:
        lines.append(f"engine branch coverage by the corpora: {record.branch_before:.1f}% -> "
                     f"{record.branch_after:.1f}%")
    return "\n".join(lines)


def _triage_reserve(artifacts: dict, minimize_seconds: float, budget: float) -> float:
    """Seconds to keep for triaging the artifacts seen so far (a replay and a minimization each,
    at most two a target: most artifacts of one target are the same bug again), at most a fifth
    of the round."""
    each = minimize_seconds + 1.0
    return min(budget / 5, sum(min(n, 2) for n in artifacts.values()) * each)


def guarded(errors: list[dict], round_name: str, run_round, default):
    """Run one round of the campaign; an exception of any type is written down (round, one
    line, traceback) and the campaign goes on with ``default``. KeyboardInterrupt still stops
    the campaign (Ctrl-C): findings filed so far are on disk. A round is heard from every few
    seconds (:mod:`urlwb.progress`), but the fuzzing, which has its live line."""
    try:
        if round_name == "fuzzing":
            return run_round()
        with speaking.heartbeat(f"campaign: {round_name}", after=speaking.EVERY):
            return run_round()
    except Exception as exc:  # noqa: BLE001 - whatever a round raises must not stop the others
        line = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        print(f"round failed: {round_name}: {line} (the campaign goes on)", file=sys.stderr)
        errors.append({"round": round_name, "error": line, "traceback": traceback.format_exc()})
        return default


def fuzz_round(targets: list[str], seconds: float, jobs: int, progress, t_origin: float) -> list:
    """The even schedule (``--schedule even``, the campaign's schedule before the gain one):
    fuzz every target in turn, FIRST_SHARE of ``seconds`` split evenly, then the rest to the
    (at most MAX_GAINERS) targets that gained most per second in their first share. One RunResult
    per run, in order (``start``: seconds after ``t_origin``)."""
    results = []
    first = max(MIN_TARGET_SECONDS, FIRST_SHARE * seconds / max(1, len(targets)))
    t0 = time.monotonic()

    def fuzz_target(t, share, jobs, progress):
        started = time.monotonic() - t_origin
        r = _fuzz_target(t, share, jobs, progress=progress)
        r.start = started
        return r

    for t in targets:
        results.append(fuzz_target(t, first, jobs, progress=progress))
    left = seconds - (time.monotonic() - t0)
    gainers = sorted(((gain_rate(r), r.target) for r in results if gain_rate(r) > 0),
                     reverse=True)[:MAX_GAINERS]
    gainers = [(rate, t) for rate, t in gainers if left / max(1, len(gainers)) >= MIN_TARGET_SECONDS]
    total = sum(rate for rate, _ in gainers)
    for rate, t in gainers:
        share = left * rate / total
        if share >= MIN_TARGET_SECONDS:
            print(f"  {t}: {share:.0f} s more (gained {rate:.2f} features/s)")
            results.append(fuzz_target(t, share, jobs, progress=progress))
    return results


def gain_rate(result) -> float:
    """New coverage features per second over a run's second half (its early seconds replay the
    corpus and always gain), plus one per crash: how much more time the target is worth."""
    line = [row for row in result.timeline if row[0] > 0]
    if len(line) < 2 or not result.seconds:
        return float(result.crashes + len(result.artifacts))
    half = [row for row in line if row[0] >= line[-1][0] / 2] or line[-1:]
    span = max(1e-9, line[-1][0] - half[0][0])
    return max(0.0, (line[-1][3] - half[0][3]) / span) + result.crashes + len(result.artifacts)


if __name__ == "__main__":
    sys.exit("use: urlwb campaign")
