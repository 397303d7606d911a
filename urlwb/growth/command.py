"""``urlwb growth [--parsers LIST] [--lengths A,B] [--shapes LIST] [--shape T ...] [--runs R] [--out DIR]``:
every parser's time on long inputs, judged from its own times at two lengths and against the
engine's, findings filed into ``corpus/growth/regress/``; and ``growth_round``, the campaign's
short round of it.

    urlwb growth                                  # every available parser, 2,000 and 20,000 pieces
    urlwb growth --parsers go,java --lengths 500,5000
    urlwb growth --parsers urllib3@1.26.4,urllib3@1.26.5   # releases (urlwb.oracles.versions)
    urlwb growth --oracle mine=py:my.module:parse --parsers mine --shape 'data:,{x:a}'
    urlwb growth --parsers mine --shape 'mailto:{x}' --piece 'a@b,' --shapes all

``--shape TEMPLATE`` (repeatable) is a shape of yours: one ``{x:PIECE}`` (or ``{x}`` and
``--piece``) where the piece is repeated; given alone it replaces the shipped shapes (``--shapes
all`` or a list keeps them too).

Exit status: 0 when no parser is flagged, 1 when one is (each filed, or named as filed
already), 2 for a usage error.
"""

from __future__ import annotations

import pathlib
import random
import shlex
import sys
import time

from urlwb import exitcodes, oracles, report_formats
from urlwb.cliutil import add_oracle, check_outputs, add_out, add_parsers, add_runs, count_flag
from urlwb.errors import UsageError
from urlwb.growth import regexes, report, shapes
from urlwb.growth.measure import Thresholds
from urlwb.findings.record import read_findings
from urlwb.growth.survey import survey
from urlwb.growth.timing import timer_for
from urlwb.oracles.versions.names import resolve_names as versioned_names, spec_of

DEFAULT_OUT = pathlib.Path("reports") / "growth"
#: long enough that a quadratic term shows over a parser's linear one: at 1,000/10,000 the
#: quadratic pywhatwgurl and OkHttp were flagged in one run and not in another (load average 16);
#: a linear parser takes well under a second at 20,000 pieces (80,000 code points at most)
DEFAULT_LENGTHS = (2000, 20000)
#: the campaign's round: the same lengths, two runs per figure, each parser a share of the time
CAMPAIGN_LENGTHS = (2000, 20000)
#: seconds each parser gets at least in the campaign's round; the parsers are taken in-process
#: ones first, then the others in an order that changes with the seed, until the time is gone
CAMPAIGN_SHARE = 4.0
#: the campaign's round leaves out the browsers (a start of several seconds each; ``urlwb growth``
#: measures them)
CAMPAIGN_LEAVES_OUT = ("chromium", "firefox")


def add_arguments(p) -> None:
    add_parsers(p, "the engine is the reference")
    p.add_argument("--lengths", default=",".join(map(str, DEFAULT_LENGTHS)), metavar="A,B",
                   help="repetitions of the piece: A and B, B a multiple of A (default %(default)s)")
    p.add_argument("--shapes", default=None, metavar="LIST",
                   help="comma list of shape names, or all (default all, or none with --shape; see the report's Shapes)")
    p.add_argument("--shape", action="append", default=[], metavar="TEMPLATE",
                   help="a shape of yours, repeatable: one {x:PIECE} (or {x} and --piece) where the "
                        "piece is repeated, e.g. 'data:,{x:a}'")
    p.add_argument("--piece", default=None, metavar="TEXT",
                   help="the piece of the --shape templates written {x}")
    p.add_argument("--regexes", action="store_true",
                   help="also each NAME@VERSION's own regexes (a user's npm or PyPI package): attack "
                        "strings from recheck / regexploit, each a shape (alone unless --shapes is given)")
    add_runs(p, "the least kept", 3)
    add_out(p, "the report folder", DEFAULT_OUT)
    p.add_argument("--no-file", action="store_true", help="report findings without filing them")
    add_oracle(p, "NAME=COMMAND or NAME=py:package.module:function")
    report_formats.add_arguments(p)
    exitcodes.add_arguments(p)


def parse_lengths(text: str) -> tuple[int, int]:
    try:
        a, b = (int(x) for x in text.split(","))
    except ValueError:
        raise UsageError(f"--lengths {text!r}: expected two whole numbers A,B") from None
    if a < 1 or b <= a or b % a:
        raise UsageError(f"--lengths {text!r}: need 1 <= A < B with B a multiple of A")
    if b > 200_000:
        raise UsageError(f"--lengths {text!r}: B above 200000 repetitions (an oracle takes "
                         "at most 1,000,000 code points)")
    return a, b


def parse_shapes(text: str | None, templates: list[str] | None = None,
                 piece: str | None = None) -> list[shapes.Shape]:
    """The shapes named by ``--shapes`` (all when None, unless ``templates`` are given), then the
    user's ``--shape`` templates."""
    try:
        yours = [shapes.template(t, piece) for t in templates or []]
    except ValueError as exc:
        raise UsageError(f"--shape {exc}") from None
    if piece is not None and not any("{x}" in t for t in templates or []):
        raise UsageError("--piece fills the {x} of a --shape template; none was given")
    if text is None or text.strip() == "all":
        return ([] if yours and text is None else list(shapes.SHAPES)) + yours
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in shapes.BY_NAME]
    if unknown or not names:
        raise UsageError(f"--shapes: unknown {', '.join(map(repr, unknown)) or 'none named'} "
                         f"(known: {', '.join(shapes.BY_NAME)})")
    return [shapes.BY_NAME[n] for n in names] + yours


def resolve(parsers: str, flags: list[str]) -> list[str]:
    """The parsers: names, groups, your own (``--oracle``), and ``PARSER@VERSION`` (built in the
    versions cache and registered first, :func:`urlwb.oracles.versions.names.resolve_names`)."""
    try:
        flagged = oracles.configure(flags)
        names = versioned_names(parsers)
    except oracles.manifests.ManifestError as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:
        raise UsageError(f"--parsers: {exc}") from None
    return names + [n for n in flagged if n not in names]


def run(args) -> int:
    check_outputs(args)
    a, b = parse_lengths(args.lengths)
    chosen = parse_shapes(args.shapes, args.shape, args.piece)
    count_flag("--runs", args.runs)
    names = resolve(args.parsers, args.oracle)
    if args.regexes and not (args.shapes or args.shape):
        chosen = []
    print(f"growth: {len(names)} parsers × {len(chosen)} shapes"
          f"{' and the shapes of their own regexes' if args.regexes else ''} at {a:,} and {b:,} repetitions, "
          f"{args.runs} runs each, judged on their own and against the engine", flush=True)
    log = lambda line: print(line, flush=True)   # noqa: E731
    if args.regexes:
        res = _survey_regexes(names, chosen, a, b // a, args.runs,
                              not args.no_file, log)
    else:
        res = survey(names, count=a, scale=b // a, runs=args.runs, shapes=chosen, file=not args.no_file, log=log)
    res.command = " ".join(["urlwb growth", *(shlex.quote(x) for x in sys.argv[2:] if sys.argv[1:2] == ["growth"])])
    for path in report.write(res, args.out):
        print(f"report: {path}")
    for row, f in res.findings:
        where = f.path or ("already filed" if f.duplicate else "not filed (--no-file)")
        print(f"urlwb growth: {f.minimized.verdict}: {row.name} {row.version} on "
              f"{f.minimized.shape.name!r} × {f.minimized.count} ({where})", file=sys.stderr)
    if not res.findings:
        print("none above the threshold")
    # every finding counts, an already filed one too (as diff's): --baseline says what is not new
    return exitcodes.conclude(args, read_findings(args.out), "growth", args.out)   # what findings.jsonl holds


def _survey_regexes(names, chosen, count, scale, runs, file, log):
    """Each parser on ``chosen`` and on the shapes of its own package's regexes
    (:mod:`urlwb.growth.regexes`); a flagged regex shape timed again at four lengths."""
    results = []
    for name in names:
        spec = spec_of(name)
        if spec is None:
            raise UsageError(f"--regexes: {name} is not a package at a release")
        t0 = time.monotonic()
        found, asked = regexes.attacks(spec)
        mine = regexes.shapes(found)
        log(f"  {name}: {asked} regexes in its source, {len(found)} with an attack string "
            f"({len(mine)} shapes), {time.monotonic() - t0:.1f} s")
        for a in found:
            log(f"    {regexes.short_path(a.file)}:{a.line}: /{a.source[:80]}/{a.flags}  {a.checker}, {a.complexity}")
        if not chosen + mine:
            log(f"  {name}: no shape to measure (no attack string, no --shapes)")
            continue
        res = survey([name], count=count, scale=scale, runs=runs, shapes=chosen + mine, file=file, log=log)
        _four_lengths(res, log)
        results.append(res)
    if not results:
        return survey([], count=count, scale=scale, runs=runs, shapes=chosen or [], file=file, log=log)
    first = results[0]
    for other in results[1:]:
        first.rows += other.rows
        first.shapes += [s for s in other.shapes if s not in first.shapes]
        first.seconds += other.seconds
    return first


def _four_lengths(res, log) -> None:
    """Each finding on a regex's shape timed at four lengths: the longer length it was flagged at
    (10n), and its half, quarter and eighth (the minimized count is too short to time well)."""
    for row, f in res.findings:
        p = f.found
        if p.shape.regex is None:
            continue
        started, _ = oracles.load([row.name])
        if row.name not in started:
            continue
        timer = timer_for(row.name, started[row.name])
        try:
            f.lengths = regexes.four_lengths(timer, p.shape, max(1, p.count * p.scale // 8))
        finally:
            timer.close()
        log(f"  {row.name}: {p.shape.name} at four lengths: " + ", ".join(
            f"{x['code_points']:,} cp {'no answer' if x['seconds'] is None else format(x['seconds'], '.3f') + ' s'}"
            for x in f.lengths))


def growth_round(out_dir: pathlib.Path, seconds: float, names: list[str] | None = None,
                 seed: int | None = None, lengths: tuple[int, int] = CAMPAIGN_LENGTHS) -> dict:
    """The campaign's round: every available parser but the browsers, at CAMPAIGN_LENGTHS, two
    runs per figure, within ``seconds``: in-process parsers first, then the others in an order
    shuffled by ``seed`` (default: the clock), each an even share of what is left but at least
    CAMPAIGN_SHARE seconds (``lengths``: the repetitions), until the time is gone (the rest are listed, not measured: another
    campaign takes them in another order). Findings are filed unminimized (a bisection would
    outlast the round; ``urlwb growth`` minimizes, and one parser and class is filed once).
    Returns {"markdown",
    "summary"} and writes them into ``out_dir/growth/``. ``names``: the parsers (default every
    registered one but the browsers)."""
    t0 = time.monotonic()
    if names is None:
        names = [n for n in oracles.REGISTRY if n not in CAMPAIGN_LEAVES_OUT]
    seed = int(time.time()) if seed is None else seed
    inside = [n for n in names if oracles.REGISTRY[n].in_process]
    outside = [n for n in names if n not in inside]
    random.Random(seed).shuffle(outside)
    a, b = lengths
    res = survey(inside + outside, count=a, scale=b // a, runs=2, seconds=seconds,
                 least_share=CAMPAIGN_SHARE, minimize=False, log=lambda line: print(line, flush=True))
    res.command = (f"urlwb campaign (growth round, {seconds:g} s, lengths {a},{b}, parsers in the "
                   f"order of seed {seed})")
    res.seconds = time.monotonic() - t0
    title = "Time on long inputs (the campaign's round)"
    paths = report.write(res, pathlib.Path(out_dir) / "growth", title)
    return {"markdown": paths[0].read_text(encoding="utf-8"), "summary": report.summary(res)}
