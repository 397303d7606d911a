"""``urlwb reach --parsers LIST [--corpus DIR ...] [--wpt] [--generate N] [--seed S]``: how
much of each parser's own code the inputs execute, by its language's own coverage tool.

    urlwb reach --parsers urllib,yarl,go-net-url,okhttp,url-parse     # WPT + generate(10000, seed=1)
    urlwb reach --parsers all --corpus corpus/differential/seed --corpus corpus/differential/distilled \\
        --corpus corpus/differential/regress
    urlwb reach --oracle mine=py:my.module:parse --wpt

Default inputs (none of --corpus, --wpt, --generate): ``--wpt --generate 10000 --seed 1``.
A parser no tool here measures, or that is not built, is one line with the reason. Exit status 0;
1 when a measurement failed (named in one line); 2 for a usage error (an unknown parser, a
corpus that is not a folder).
"""

from __future__ import annotations

import pathlib
import shlex
import sys

from urlwb import exitcodes, oracles, progress
from urlwb.cliutil import DEPRECATED, MOST_COUNT, check_outputs, count, add_oracle, add_out, add_parsers, add_seed, count_flag
from urlwb.errors import UsageError
from urlwb.reach import golang, inputs, jvm, node, python, report, ruby
from urlwb.reach.targets import Target
from urlwb.reach.targets import target as target_of

DEFAULT_OUT = pathlib.Path("reports") / "reach"


def add_arguments(p) -> None:
    add_parsers(p, "and languages (go, java, javascript, python, ...)", None)
    p.add_argument("words", nargs="*", metavar="PARSER",
                   help="deprecated: the parsers as words (say --parsers)")
    p.add_argument("--corpus", action="append", default=[], type=pathlib.Path, metavar="DIR",
                   help="a folder of inputs, one a file, in the differential corpus's format")
    p.add_argument("--wpt", action="store_true", help="every WPT input (generate.wpt_cases())")
    p.add_argument("--generate", type=count(0, MOST_COUNT), default=None, metavar="N", help="N generated inputs")
    add_seed(p, "--generate")
    p.add_argument("--top", type=count(0, MOST_COUNT), default=20, help="functions listed per parser (default 20)")
    add_out(p, "the report folder", DEFAULT_OUT)
    add_oracle(p, "NAME=py:package.module:function is measured by coverage.py")


def resolve(names: list[str], flags: list[str]) -> list[str]:
    try:
        oracles.configure(flags)   # urlwb.toml's parsers too: a card's [reach] says what to measure
        return oracles.resolve_names(names)
    except oracles.manifests.ManifestError as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:
        raise UsageError(f"--parsers: {exc}") from None


def measure_one(name: str, items, log=print):
    """One parser's :class:`~urlwb.reach.model.Reach`, or the one-line reason it is not measured."""
    entry = oracles.REGISTRY[name]
    if entry.skip:
        return f"not built here: {entry.skip}"
    target = target_of(name)
    if entry.spec is not None and entry.spec.callable:
        # a py: adapter: its card's modules (the parser's own), else the adapter's module
        module = entry.spec.callable.partition(":")[0]
        code = target.code if isinstance(target, Target) and target.tool == "python" else (module,)
        return python.measure(name, "Python", code, items, [f"{name}={_flag(entry.spec)}"])
    if isinstance(target, str):
        return target
    if target.tool == "python":
        r = python.measure(name, entry.language, target.code, items, [])
    elif target.tool == "go":
        r = golang.measure(name, entry.language, target.code, items, log)
    elif target.tool == "jvm":
        r = jvm.measure(name, entry.language, target.code, target.jars, items, log)
    elif target.tool == "ruby":
        r = ruby.measure(name, entry.language, target.code, items, log)
    else:
        r = node.measure(name, entry.language, target.code, items, log)
    r.note = " ".join(x for x in (r.note, target.note) if x)
    return r


def _flag(spec) -> str:
    return f"py:{spec.callable}"


def run(args) -> int:
    check_outputs(args)
    count_flag("--top", args.top)
    if args.words:
        print("urlwb reach: " + DEPRECATED.format(old="PARSER words", new="--parsers"), file=sys.stderr)
    chosen = [*(args.parsers.split(",") if args.parsers else []), *args.words]
    if not chosen and not args.oracle:
        raise UsageError("name the parsers: --parsers LIST (or --oracle)")
    chosen = chosen or [spec.partition("=")[0] for spec in args.oracle]   # your own are measured
    names = resolve(chosen, args.oracle)
    wpt, n = args.wpt, args.generate or 0
    if not args.corpus and not args.wpt and args.generate is None:
        wpt, n = True, 10000
    items = inputs.collect(wpt, n, args.seed, args.corpus)
    if not items:
        raise UsageError("no inputs (the corpus folders are empty)")
    what = ", ".join(filter(None, [
        *(f"corpus {d}" for d in args.corpus), "WPT" if wpt else "",
        f"generate({n}, seed={args.seed})" if n else ""]))
    described = f"{len(items):,} ({what})"
    print(f"reach: {len(names)} parsers, {described}", flush=True)
    reaches, skipped, failed = [], {}, []
    with progress.task(f"urlwb reach: {described}", total=len(names), beat=True) as said:
        for name in names:
            said.advance(0, note=f"now {name}")
            try:
                got = measure_one(name, items, log=lambda line: print(line, flush=True))
            except (RuntimeError, OSError) as exc:
                failed.append(f"{name}: {exc}")
                skipped[name] = f"the measurement failed: {exc}"
                said.advance(note=f"{name} failed")
                continue
            if isinstance(got, str):
                skipped[name] = got
            else:
                reaches.append(got)
            said.advance(note=name)
    command = " ".join(["urlwb reach", *(shlex.quote(a) for a in sys.argv[2:] if sys.argv[1:2] == ["reach"])])
    print(report.terminal(reaches, skipped))
    for path in report.write(reaches, skipped, described, command, args.out, args.top):
        print(f"report: {path}")
    for line in failed:
        print(f"urlwb reach: {line}", file=sys.stderr)
    return exitcodes.INCOMPLETE if failed else exitcodes.OK   # a measurement that failed: the run did not complete
