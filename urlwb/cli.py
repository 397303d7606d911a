"""The ``urlwb`` command.

Each subcommand lives in its own module, which defines ``add_arguments(parser)`` and
``run(args) -> int``. Modules are imported only when their subcommand runs (``urlwb --help``
imports none), so a broken or slow
part never stands in the way of the others. The exit status is one contract for every command
(:mod:`urlwb.exitcodes`, docs/cli.md): usage errors exit with status 2 and a one-line message, a run
that could not complete with 3 and one line.

The engine is the exception: it is the reference every differential compares against and the code
every fuzz target and property checks, so an engine that cannot be imported stops every command
(status 2, one line saying why) before anything runs, rather than leaving commands to run without
it. ``--help`` runs nothing and imports the engine only where the command's module does: a
``--help`` imports that module alone and builds no grammar (the RFC judges' grammars are built on
first use, :mod:`urlwb.verdicts.rfc3986`); ``urlwb bench help`` times each.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from urlwb.errors import Incomplete, UsageError



def engine_unavailable() -> str | None:
    """Why the engine cannot be imported (one line), or None when it can."""
    try:
        import engine  # noqa: F401  (the reference every command needs)
    except Exception as exc:  # noqa: BLE001 - whatever the engine raised, it cannot be used
        return " ".join(f"{type(exc).__name__}: {exc}".split())
    return None

#: subcommand -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "campaign": ("urlwb.campaign.run", "the main job: a bounded round over every target, then a report"),
    "fuzz": ("urlwb.fuzzing.fuzz", "run fuzz targets under libFuzzer with live progress, then triage"),
    "triage": ("urlwb.fuzzing.triage", "minimize, deduplicate and file crash artifacts into corpus/*/regress/"),
    "minimize": ("urlwb.fuzzing.minimize", "minimize one crashing input"),
    "replay": ("urlwb.fuzzing.replay", "replay seed and regress corpora through their targets' checks"),
    "merge": ("urlwb.fuzzing.merge", "distil the working corpus into corpus/<target>/distilled/ (libFuzzer -merge=1)"),
    "list": ("urlwb.fuzzing.listing", "list targets, corpora and findings"),
    "coverage": ("urlwb.measure.coverage", "engine branch coverage reached by WPT, properties and corpora"),
    "diff": ("urlwb.differential.command", "differential: one input, many parsers, a verdict table"),
    "oracle": ("urlwb.differential.oracle_check", "oracles: check an adapter against the protocol; list them all"),
    "export-wpt": ("urlwb.differential.export_wpt", "export findings as WPT urltestdata-format JSON"),
    "export-hypothesis": ("urlwb.fuzzing.export_hypothesis", "turn Hypothesis failures into regress entries"),
    "export": ("urlwb.export.command", "export tests: each finding about a parser as a test in its own language (Go, Java, Python, JS)"),
    "bench": ("urlwb.measure.bench", "benchmarks: hosts, urls, growth, memory (ratios against peers); campaign (its schedules)"),
    "bench-fuzz": ("urlwb.fuzzing.bench", "exec/s of each fuzz target on one core"),
    "compare-rev": ("urlwb.measure.compare_rev", "the engine against its own version at a git revision"),
    "mutants": ("urlwb.mutation.mutants", "mutation testing of the engine: which wrong engines the checks notice"),
    "bisect": ("urlwb.versions.bisect", "which released versions of a parser give which answer on one input"),
    "upstream": ("urlwb.versions.status", "each bug cause asked at its package's newest release: still in X (newest), or fixed in Y"),
    "cache": ("urlwb.versions.cache", "the releases installed for PARSER@VERSION: clean removes them (--dry-run lists sizes)"),
    "ssrf": ("urlwb.ssrf.command", "validators against fetchers: inputs a validator allows where a fetcher connects to a denied address"),
    "reach": ("urlwb.reach.command", "how much of a parser's own code the inputs execute (its language's coverage tool)"),
    "growth": ("urlwb.growth.command", "every parser's time on long inputs against the engine's (superlinear, hang)"),
    "hunt": ("urlwb.hunt.command", "coverage-guided fuzzing inside another parser, judged by the Standard"),
    "verdict": ("urlwb.verdict_command", "one input judged by a parser's own contract (its spec, docs, upstream); --headline re-judges the README's findings"),
}


class _Parser(argparse.ArgumentParser):
    """Bad flags and arguments in one line (exit status 2), not argparse's usage block;
    ``--help`` still shows the usage. Subcommand parsers are of this class too."""

    def error(self, message: str):
        print(f"{self.prog}: {message} (see --help)", file=sys.stderr)
        sys.exit(2)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``urlwb`` parser. Every subcommand is listed with its one-line help, but only
    ``only``'s module is imported and asked for its arguments (all of them when ``only`` is None,
    as the tests that walk every subparser want): ``urlwb --help`` imports no command's module."""
    parser = _Parser(
        prog="urlwb",
        description="url-workbench: fuzzing, properties and differentials for the WHATWG URL Standard",
    )
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND")
    for name, (module, help_) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_, description=help_)
        if only is not None and name != only:
            continue
        try:
            mod = importlib.import_module(module)
        except ImportError as exc:  # a part not built yet, or missing its dependency
            if engine_unavailable() is not None:
                raise   # the engine's one line (main), not this command's
            why = str(exc)
            if isinstance(exc, ModuleNotFoundError) and (exc.name or "").partition(".")[0] not in ("urlwb", "engine", "properties"):
                # installed for the strategies alone: the command's stack is an extra (pyproject.toml)
                why += "; the urlwb command needs the workbench extra: pip install 'url-workbench[workbench]'"
            p.set_defaults(_unavailable=f"{name}: unavailable ({why})")
            p.add_argument("_rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)   # said instead of a flag error
            continue
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def _chosen(argv: list[str]) -> str:
    """The subcommand named in ``argv`` (the first word that is one), or "" for none: the
    top-level flags are only ``-h``/``--help``, so the first non-flag word is the command."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in SUBCOMMANDS else ""
    return ""


def _engine_stop() -> int | None:
    """2, after the one line saying why, when the engine cannot be imported; else None."""
    why = engine_unavailable()
    if why is None:
        return None
    print(f"urlwb: the engine cannot be imported, and every command needs it ({why})", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    # --help runs no command: it needs no engine (importing it is a third of a --help's time),
    # unless the command's module imports it, and then a broken engine is the same one line
    if not {"-h", "--help"} & set(argv) and (stop := _engine_stop()) is not None:
        return stop
    try:
        parser = build_parser(only=_chosen(argv))
    except Exception:
        if (stop := _engine_stop()) is not None:
            return stop
        raise
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:   # a bad flag (one line, already said) or --help: its status
        return exc.code if isinstance(exc.code, int) else 2
    if args.subcommand is None:
        parser.print_help()
        return 2
    if getattr(args, "_unavailable", None):
        print(f"urlwb: {args._unavailable}", file=sys.stderr)
        return 2
    try:
        if hasattr(args, "baseline"):   # --baseline and urlwb.toml's ignore entries: read before the run
            from urlwb import exitcodes   # imported here: urlwb --help imports no command's parts
            exitcodes.prepare(args)
        return int(args._run(args) or 0)
    except UsageError as exc:
        print(f"urlwb {args.subcommand}: {exc}", file=sys.stderr)
        return UsageError.status
    except Incomplete as exc:
        print(f"urlwb {args.subcommand}: could not complete: {exc}", file=sys.stderr)
        return Incomplete.status
    except KeyboardInterrupt:
        print(f"urlwb {args.subcommand}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (urlwb list | head): stop quietly, as a Unix filter does; the
        # stream is pointed at /dev/null so that Python's own flush at exit does not fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
