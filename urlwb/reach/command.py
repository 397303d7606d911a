"""``urlwb reach PARSER [PARSER ...] [--corpus DIR ...] [--wpt] [--generate N] [--seed S]``: how
much of each parser's own code the inputs execute, by its language's own coverage tool.

    urlwb reach urllib yarl go-net-url okhttp url-parse     # WPT + generate(10000, seed=1)
    urlwb reach all --corpus corpus/differential/seed --corpus corpus/differential/distilled \\
        --corpus corpus/differential/regress
    urlwb reach mine --oracle mine=py:my.module:parse --wpt

Default inputs (none of --corpus, --wpt, --generate): ``--wpt --generate 10000 --seed 1``.
A parser no tool here measures, or that is not built, is one line with the reason. Exit status 0;
1 when a measurement failed (named in one line); 2 for a usage error (an unknown parser, a
corpus that is not a folder).
"""

from __future__ import annotations

import pathlib
import shlex
import sys

from urlwb import oracles
from urlwb.cliutil import count_flag
from urlwb.errors import UsageError
from urlwb.reach import golang, inputs, jvm, node, python, report, ruby
from urlwb.reach.targets import TARGETS, UNMEASURED

DEFAULT_OUT = pathlib.Path("reports") / "reach"


def add_arguments(p) -> None:
    p.add_argument("parsers", nargs="+", metavar="PARSER",
                   help="parser names or groups (all, other, go, java, javascript, python, ...)")
    p.add_argument("--corpus", action="append", default=[], type=pathlib.Path, metavar="DIR",
                   help="a folder of inputs, one a file, in the differential corpus's format")
    p.add_argument("--wpt", action="store_true", help="every WPT input (generate.wpt_cases())")
    p.add_argument("--generate", type=int, default=None, metavar="N", help="N generated inputs")
    p.add_argument("--seed", type=int, default=1, help="seed of --generate (default 1)")
    p.add_argument("--top", type=int, default=20, help="functions listed per parser (default 20)")
    p.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT, metavar="DIR",
                   help=f"report folder (default {DEFAULT_OUT})")
    p.add_argument("--oracle", action="append", default=[], metavar="NAME=CMD",
                   help="your own parser (NAME=py:package.module:function is measured by coverage.py)")


def resolve(names: list[str], flags: list[str]) -> list[str]:
    try:
        oracles.configure(flags, config=False)
        return oracles.resolve_names(names)
    except oracles.manifests.ManifestError as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:
        raise UsageError(f"PARSER: {exc}") from None


def measure_one(name: str, items, log=print):
    """One parser's :class:`~urlwb.reach.model.Reach`, or the one-line reason it is not measured."""
    entry = oracles.REGISTRY[name]
    if entry.skip:
        return f"not built here: {entry.skip}"
    if entry.spec is not None and entry.spec.callable:
        module = entry.spec.callable.partition(":")[0]
        return python.measure(name, "Python", (module,), items, [f"{name}={_flag(entry.spec)}"])
    target = TARGETS.get(name)
    if target is None:
        return UNMEASURED.get(name, "no coverage tool for it is wired into urlwb reach")
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
    count_flag("--top", args.top)
    names = resolve(args.parsers, args.oracle)
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
    for name in names:
        print(f"  {name} ...", flush=True)
        try:
            got = measure_one(name, items, log=lambda line: print(line, flush=True))
        except (RuntimeError, OSError) as exc:
            failed.append(f"{name}: {exc}")
            skipped[name] = f"the measurement failed: {exc}"
            continue
        if isinstance(got, str):
            skipped[name] = got
        else:
            reaches.append(got)
    command = " ".join(["urlwb reach", *(shlex.quote(a) for a in sys.argv[2:] if sys.argv[1:2] == ["reach"])])
    print(report.terminal(reaches, skipped))
    for path in report.write(reaches, skipped, described, command, args.out, args.top):
        print(f"report: {path}")
    for line in failed:
        print(f"urlwb reach: {line}", file=sys.stderr)
    return 1 if failed else 0
