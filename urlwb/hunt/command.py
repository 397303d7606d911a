"""``urlwb hunt PARSER``: coverage-guided fuzzing inside the parser under test, judged by the Standard.

    urlwb hunt PARSER [--minutes M] [--seed S] [--generate N] [--seeds wpt|grammar] [--no-judge] [--bench]
                      [--oracle NAME=py:package.module:function] [--instrument MODULE ...]
    urlwb hunt PARSER@OLD [--against PARSER@NEW] ...

The fuzzer follows PARSER's own coverage (atheris for Python parsers, Go's native fuzzer for
``go-net-url``, Jazzer for JVM parsers, libfuzzer-sys for ``rust-url``, V8's block coverage for
npm parsers and a user's program run by ``node``: ``urlwb.hunt.runners``), starting from WPT's inputs and
``generate.generate(N, seed=S)``'s, with ``fuzzers/fuzz_url.dict``. The generated inputs are
judged first; then, every few seconds while it runs, what the fuzzer kept goes to the
differential (the engine and PARSER, as ``urlwb diff`` compares them); a signature the generated
inputs do not show is minimized and filed in ``corpus/differential/regress/`` against PARSER
(``urlwb.hunt.judge``). Afterwards: the kept inputs distilled into ``corpus/hunt/PARSER/``
(``urlwb.hunt.distill``), reach in PARSER's code from the generated inputs and after hunting
(``urlwb.hunt.reach``), and a report in ``reports/hunt/PARSER/`` (Markdown, HTML, summary.json).

``PARSER@OLD`` hunts in that release (built in the versions cache, ``urlwb.oracles.versions``;
the fuzzer follows that release's code), and compares every input with the shipped release, or
``--against PARSER@NEW``: what the old release gets wrong that the new one fixed, what both get
wrong, and what only the new one does (``urlwb.hunt.history``); each fixed signature is minimized
and filed in ``corpus/history/PARSER/``. Nothing of another release goes to
``corpus/differential/regress/`` or ``corpus/hunt/``.

``--bench`` runs the fuzzer twice for M minutes each, judged and not (``--no-judge``), and
prints the ratio of their exec/s; nothing is filed or distilled.
"""

from __future__ import annotations

import pathlib
import sys
import time

from urlwb import exitcodes, oracles, progress, report_formats
from urlwb.cliutil import (MOST_COUNT, check_outputs, count, add_minutes, add_oracle, add_out, add_seconds, add_seed, alias, count_flag,
                           minutes_flag, seconds_flag)
from urlwb.errors import Incomplete, UsageError
from urlwb.fuzzdata import decode_text, encode_text
from urlwb.hunt import distill, history, reach, report, runners, seeds, targets
from urlwb.findings.record import write_findings
from urlwb.hunt.finding_records import finding_records
from urlwb.hunt.judge import Judge, records as judge_records
from urlwb.fuzzing.minimize import fuzzer_env

DEFAULT_OUT = pathlib.Path("reports") / "hunt"


def add_arguments(p) -> None:
    p.add_argument("parser", metavar="PARSER",
                   help=f"the parser to hunt in ({', '.join(targets.huntable())}, or your own py: "
                        f"oracle or program run by node); PARSER@VERSION hunts inside another release")
    add_minutes(p, "fuzzing", 5.0)
    add_seed(p, "the generated inputs; libFuzzer's -seed is N+1")
    p.add_argument("--generate", type=count(0, MOST_COUNT), default=2000, metavar="N",
                   help="generated inputs the hunt starts from, beside WPT's (default 2000)")
    p.add_argument("--seeds", choices=sorted(seeds.SEED_KINDS), default="wpt",
                   help="what the hunt starts from: " + "; ".join(f"{k}: {v}" for k, v in seeds.SEED_KINDS.items())
                        + " (default wpt; grammar for a hunt that no published test input guides)")
    p.add_argument("--executions", type=count(0, MOST_COUNT), default=0, metavar="N", dest="runs",
                   help="stop after N executions (libFuzzer -runs, Go -fuzztime=Nx), within "
                        "--minutes: with --seed, a hunt that does the same whatever the load")
    p.add_argument("--no-judge", action="store_true",
                   help="fuzz only: nothing judged, filed or counted as a finding")
    p.add_argument("--bench", action="store_true",
                   help="exec/s judged against --no-judge, M minutes each; nothing filed")
    alias(p, "--runs", "--executions")
    add_oracle(p, "NAME=py:MOD:FN (Python, atheris) or NAME='node adapter.mjs' "
                  "(JavaScript, V8 block coverage; docs/oracle-protocol.md)")
    p.add_argument("--instrument", action="append", default=[], metavar="MODULE",
                   help="a module whose code guides the fuzzer (default: the parser's package); for "
                        "JavaScript a folder, relative to the adapter's (default: its script's folder)")
    add_seconds(p, "waiting between two batches sent to the judge", 15.0, name="--every-seconds",
                dest="every")
    alias(p, "--every", "--every-seconds")
    add_out(p, f"the report folder (default {DEFAULT_OUT}/PARSER)", None)
    p.add_argument("--no-distill", action="store_true",
                   help="leave corpus/hunt/PARSER/ as it is")
    p.add_argument("--no-reach", action="store_true",
                   help="skip measuring reach in the parser's code")
    p.add_argument("--against", metavar="REF", default=None,
                   help="for PARSER@OLD: the release to compare with (PARSER@NEW; default the "
                        "shipped PARSER): what the old release gets wrong that it fixed, filed in "
                        "corpus/history/PARSER/")
    report_formats.add_arguments(p)
    exitcodes.add_arguments(p)
    p.epilog = ("exit status (docs/cli.md): 0 when no new finding is at or above --fail-on, 1 when "
                "one is; 2 for a usage error (an unknown parser, one that cannot be guided, a "
                "toolchain missing); 3 when its oracle cannot start.")


def run(args) -> int:
    check_outputs(args)
    minutes_flag("--minutes", args.minutes, most=24 * 60)
    seconds = args.minutes * 60
    count_flag("--generate", args.generate, least=0)
    count_flag("--executions", args.runs, least=0)
    seconds_flag("--every-seconds", args.every)
    try:
        flagged = oracles.configure(args.oracle)   # urlwb.toml's parsers too: a card's [hunt] guides
    except oracles.manifests.ManifestError as exc:
        raise UsageError(str(exc)) from None
    target = targets.resolve(args.parser, args.instrument)
    # its oracle's start and the runner's preparation (a build, a JVM) say so at once: on a
    # loaded machine they took ten seconds before the fuzzing's first line (issue 39)
    args.against = _against(target, args.against)
    with progress.heartbeat(f"urlwb hunt: preparing {target.name} (its oracle and its runner)",
                            after=progress.EVERY):
        args.version = _require_oracle(target.name)
        runner = runners.runner_for(target, (args.oracle if flagged else []) + _declared(target.name))
        runner.prepare()
    if args.bench:
        return _bench(args, target, seconds)
    summary = hunt(args, target, runner, seconds)
    out = args.out or DEFAULT_OUT / target.name
    for path in report.write(summary, out):
        print(f"report: {path}")
    # one list of records for findings.jsonl, --sarif and --junit: each signature asked again and
    # judged by the parser's contract when the hunt judged against the engine, else as filed
    records = judge_records(target.name, summary) if summary["judged_on"] else finding_records(summary)
    print(f"report: {write_findings(out, records)}")
    return exitcodes.conclude(args, records, "hunt", out)


def _declared(name: str) -> list[str]:
    """The ``--oracle`` flag that declares ``name`` in the fuzzing child when urlwb.toml declared
    it (a ``py:`` adapter: the child reads no config), else none."""
    spec = oracles.REGISTRY[name].spec if name in oracles.REGISTRY else None
    if spec is not None and spec.source == "config" and spec.callable:
        return [f"{name}=py:{spec.callable}"]
    return []


def _against(target: targets.Target, ref: str | None) -> str | None:
    """The release a hunt of ``PARSER@OLD`` is compared with: ``ref`` (``PARSER@NEW`` or
    ``PARSER``), built and registered; the shipped parser by default. None for a shipped target."""
    if target.build is None:
        if ref is not None:
            raise UsageError(f"--against compares a hunt of PARSER@OLD with a newer release; "
                             f"{target.name} is the shipped release (hunt {target.name}@VERSION)")
        return None
    if ref is None and target.flags:
        return None   # a user's py: adapter at a release: no shipped release to compare with
    if ref is None or ref == target.base:
        _require_oracle(target.base)
        return target.base
    from urlwb.oracles.versions import names
    parser, _ = names.split(ref)
    if parser != target.base:
        raise UsageError(f"--against {ref}: not a release of {target.base}")
    name = names.register(ref)
    _require_oracle(name)
    return name


def _require_oracle(name: str) -> str:
    """The judge asks the parser through its oracle: one that cannot start is a run that cannot
    complete (exit status 3). The parser's version, as its oracle says."""
    loaded, skipped = oracles.load([name])
    oracles.close_all(loaded)
    if name not in loaded:
        raise Incomplete(f"{name}: its oracle cannot start: {skipped.get(name)}")
    return loaded[name].version


def _progress(said: progress.Task, judge: Judge | None):
    """The fuzzer's status lines as progress: seconds of the budget, executions, kept, found."""
    def show(elapsed: float, stats: runners.Stats) -> None:
        found = "" if judge is None else (f", signatures {len(judge.hunted)} "
                                          f"({sum(f.new for f in judge.hunted.values())} new)")
        said.advance(0, note=f"execs {stats.execs:,}, kept {stats.kept}{found}")
    return show


def hunt(args, target: targets.Target, runner: runners.Runner, seconds: float) -> dict:
    """One hunt, start to end; the report's summary."""
    kind = getattr(args, "seeds", "wpt")
    inputs = seeds.seed_inputs(args.generate, args.seed, kind)
    runner.reset()
    runner.seed(inputs)
    runner.random_seed = args.seed + 1
    runner.runs = args.runs
    command = (f"urlwb hunt {target.name} --minutes {args.minutes:g} --seed {args.seed} "
               f"--generate {args.generate}" + (f" --executions {args.runs}" if args.runs else "")
               + (f" --seeds {kind}" if kind != "wpt" else ""))
    against = getattr(args, "against", None)
    if against:
        command += f" --against {against}"
    judge = None
    if not args.no_judge:
        # another release's disagreements are history (compared with --against, filed in
        # corpus/history/), not open findings of the shipped parser
        judge = Judge(target.name, found_by=command, file=target.build is None)
        t0 = time.monotonic()
        print(f"urlwb hunt: judging the {len(inputs):,} seed inputs ({kind})", file=sys.stderr, flush=True)
        with progress.heartbeat(f"urlwb hunt: judging the {len(inputs):,} seed inputs", after=progress.EVERY):
            judge.baseline(inputs)
        print(f"urlwb hunt: {len(judge.generated)} signatures in the seed inputs "
              f"({time.monotonic() - t0:.1f} s)", file=sys.stderr, flush=True)
        if judge.crashed:
            # judged already; as seeds they would stop the fuzzer each time it loads them
            dropped = sum(runner.drop_seed(encode_text(t)) for t in judge.crashed)
            print(f"urlwb hunt: {dropped} seed inputs crash {target.name} (judged as findings); "
                  f"the fuzzer starts without them", file=sys.stderr, flush=True)

    def on_batch(batch: list[bytes]) -> None:
        judge.judge([decode_text(b) for b in batch])

    print(f"urlwb hunt: fuzzing {target.name} for {seconds:.0f} s "
          f"({target.language}, guided by {', '.join(target.instrument) or 'its folder and NODE_PATH'})", file=sys.stderr, flush=True)
    with progress.task(f"urlwb hunt {target.name}: seconds of fuzzing", total=int(seconds), beat=True,
                       timed=True) as said:
        stats = runners.hunt_loop(runner, seconds, on_batch if judge else None, every=args.every,
                                  progress=_progress(said, judge))
    if judge is not None:
        judge.close()
    kept = [decode_text(b) for b in runner.kept().values()]
    distilled = []
    if target.build is not None and not args.no_distill:
        print(f"urlwb hunt: not distilling into corpus/hunt/: {target.name} is not the shipped release",
              file=sys.stderr, flush=True)
    elif not args.no_distill:
        print("urlwb hunt: distilling what the fuzzer kept", file=sys.stderr, flush=True)
        with progress.heartbeat("urlwb hunt: distilling", after=progress.EVERY):
            distilled = distill.distill(runner)
    before = after = None
    if not args.no_reach:
        print("urlwb hunt: measuring reach", file=sys.stderr, flush=True)
        with progress.heartbeat("urlwb hunt: measuring reach", after=progress.EVERY):
            before, after = _reach(target, runner, inputs, kept, runner.oracle_flags)
    version = judge.version if judge and judge.version != "?" else getattr(args, "version", "?")
    findings = [] if judge is None else [
        {"signature": f.signature, "cls": f.cls, "cause": f.cause, "new": f.new, "count": f.count,
         "input": f.input, "minimized": f.minimized, "filed": f.filed}
        for f in judge.hunted.values()]
    hist = None
    if against and judge is not None:
        with progress.heartbeat(f"urlwb hunt: asking {target.base}@{against}", after=progress.EVERY):
            hist = history.compare(target.name, against, target.base, inputs, kept)
        for change in hist["changes"]:
            if change["kind"] == "fixed":
                change["filed"] = history.file_entry(target.base, hist, change, command)
    summary = {
        "history": hist,
        "parser": target.name, "version": version, "language": target.language,
        "instrument": list(target.instrument), "command": command, "seed": args.seed,
        "generate": args.generate, "seeds": len(inputs), "seed_kind": kind, "minutes": args.minutes,
        "seconds": stats.seconds, "execs": stats.execs, "exec_per_s": stats.exec_per_s,
        "kept": stats.kept, "cov_start": stats.cov_start, "cov_end": stats.cov_end,
        "reach_generated": before, "reach_hunted": after, "judged_on": judge is not None,
        "judged": judge.judged if judge else 0,
        "generated_signatures": len(judge.generated) if judge else None,
        "generated_classes": sorted({f.cls for f in judge.generated.values()}) if judge else [],
        "findings": findings, "stops": stats.stops, "distilled": len(distilled),
        "distilled_dir": str(distill.hunt_corpus_dir(target.name)) if target.build is None else None,
    }
    print(f"urlwb hunt {target.name}: {stats.execs:,} executions in {stats.seconds:.0f} s "
          f"({stats.exec_per_s:,.0f}/s), {stats.kept:,} inputs kept, reach {_short(before)} -> "
          f"{_short(after)}" + ("" if judge is None else
                                f", {len(findings)} signatures in hunted inputs "
                                f"({sum(f['new'] for f in findings)} new vs generated)"))
    return summary


def _short(r) -> str:
    if r is None:
        return "?"
    return f"{r['branch_percent']}% branches" if isinstance(r, dict) else str(r)


def _reach(target, runner, inputs, kept, flags):
    if target.language == "python":
        env = targets.child_env(target, fuzzer_env())
        return (reach.python_reach(target.base, list(target.instrument), inputs, flags, env=env),
                reach.python_reach(target.base, list(target.instrument), inputs + kept, flags, env=env))
    if target.language == "go":
        a, b = runner.reach(inputs), runner.reach(inputs + kept)
        return (None if a is None else f"{a}% of net/url's statements",
                None if b is None else f"{b}% of net/url's statements")
    if target.language == "js":
        s = runner.stats
        return (None if s.cov_start is None else f"{s.cov_start} V8 block ranges",
                None if s.cov_end is None else f"{s.cov_end} V8 block ranges")
    s = runner.stats   # Jazzer and the Rust binary: libFuzzer's edges
    return (None if s.cov_start is None else f"{s.cov_start} edges (libFuzzer)",
            None if s.cov_end is None else f"{s.cov_end} edges (libFuzzer)")


def _bench(args, target, seconds: float) -> int:
    rates = {}
    for judged in (True, False):
        runner = runners.runner_for(target, args.oracle)
        runner.prepare()
        args.no_judge = not judged
        args.no_distill = True
        label = "judged" if judged else "--no-judge"
        print(f"urlwb hunt --bench: {target.name}, {label}, {seconds:.0f} s", file=sys.stderr, flush=True)
        summary = _bench_one(args, target, runner, seconds)
        rates[label] = summary
    a, b = rates["judged"]["exec_per_s"], rates["--no-judge"]["exec_per_s"]
    print(f"| parser | exec/s judged | exec/s --no-judge | ratio |")
    print(f"| {target.name} | {a:,.0f} | {b:,.0f} | {a / b if b else float('nan'):.2f} |")
    return 0


def _bench_one(args, target, runner, seconds):
    inputs = seeds.seed_inputs(args.generate, args.seed, args.seeds)
    runner.reset()
    runner.seed(inputs)
    runner.random_seed = args.seed + 1
    judge = None if args.no_judge else Judge(target.name, found_by="urlwb hunt --bench", file=False)
    if judge:
        judge.baseline(inputs)
    stats = runners.hunt_loop(runner, seconds,
                              None if judge is None else (lambda batch: judge.judge([decode_text(b) for b in batch])),
                              every=args.every)
    if judge:
        judge.close()
    return {"exec_per_s": stats.exec_per_s, "execs": stats.execs, "seconds": stats.seconds}
