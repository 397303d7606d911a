"""``urlwb diff``: one input, many parsers, a verdict table, or a report.

https://url.spec.whatwg.org/#url-parsing

    urlwb diff [INPUT ...] [--base URL] [--file F] [--corpus TARGET] [--wpt] [--generate N]
               [--seed S] [--parsers LIST] [--reference NAME] [--out DIR] [--no-reparse]
               [--oracle NAME=CMD | NAME=py:package.module:function ...] [--sarif F] [--junit F]
               [--fail-on bug|hazard|never] [--baseline FILE]

The differential itself is :mod:`urlwb.differential.run`; its reports, :mod:`urlwb.differential.report`.
Up to ``--table-max`` inputs: a table in the terminal. More: a report in ``--out`` (Markdown, the
same as one self-contained HTML page, ``findings.json`` for ``urlwb export-wpt``,
``summary.json``, and ``parsers/<name>.json`` per parser outside the WHATWG family). Either way
``--out`` (default ``reports/diff``) gets ``findings.jsonl``: one record per disagreement, judged
by the parser's own contract (:mod:`urlwb.differential.findings`). ``--sarif``/``--junit``: the
findings, one per signature, as SARIF 2.1.0 and JUnit XML (:mod:`urlwb.report_formats`).
"""

from __future__ import annotations

import pathlib
import re
import sys
import time

from urlwb import oracles
from urlwb.cliutil import MOST_COUNT, add_minutes, add_oracle, check_outputs, count, minutes_flag, add_out, add_parsers, add_seed
from urlwb.differential import findings, generate, releases
from urlwb.findings.record import read_findings
from urlwb.differential.report import sandbox_line, summarize, summary_text, terminal_table, write_report
from urlwb.differential.run import (MOST_ANSWERS, collect_inputs, corpus_cases, decode_case, diff, encode_case,
                                trouble_lines, working_cases)
from urlwb import exitcodes, report_formats
from urlwb.errors import Incomplete, UsageError
from urlwb.oracles import contracts
from urlwb.oracles.versions import installs
from urlwb.oracles.versions.names import resolve_names as versioned_names

__all__ = ["add_arguments", "run", "campaign_round", "decode_case", "encode_case"]

DEFAULT_OUT = pathlib.Path("reports") / "diff"
#: the most ``--generate`` asks for: drawn lazily, as the time and the memory allow (:func:`run`)
MOST_GENERATED = 10**12


def add_arguments(p) -> None:
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="URL strings to compare")
    p.add_argument("--base", help="base URL for the INPUTs given on the command line")
    p.add_argument("--file", action="append", default=[], metavar="F",
                   help="inputs, one a line (a line in double quotes is a JSON string), or a "
                        "urltestdata-format JSON file")
    p.add_argument("--corpus", action="append", default=[], metavar="TARGET",
                   help="the seed and regress inputs of a URL fuzz target (url, differential), "
                        "or hunt: the corpora urlwb hunt distilled (corpus/hunt/<parser>/)")
    p.add_argument("--wpt", action="store_true", help="every input of the vendored WPT "
                   "urltestdata.json and toascii.json")
    p.add_argument("--generate", type=count(0, MOST_GENERATED), default=0, metavar="N",
                   help="N confusion-aware generated inputs (mutated WPT inputs and grammar)")
    add_seed(p, "--generate")
    add_minutes(p, "asking the parsers (and drawing --generate's inputs): the inputs not asked "
                   "by then are dropped, the others compared and reported; default: no limit", None)
    add_parsers(p, "the engine and --oracle's run too")
    p.add_argument("--reference", default=None, metavar="NAME",
                   help="the parser others are counted against (default engine, else ada_url)")
    add_out(p, f"the report folder (default {DEFAULT_OUT})", None)
    p.add_argument("--table-max", type=count(0, MOST_COUNT), default=10, metavar="N",
                   help="up to N inputs: a terminal table instead of a report (default 10)")
    p.add_argument("--no-reparse", action="store_true",
                   help="skip the reparse-stability check of the WHATWG parsers")
    p.add_argument("--no-hosts", action="store_true", help="skip the host-level oracles")
    add_oracle(p, "NAME=COMMAND (a program speaking docs/oracle-protocol.md), "
                  "or NAME=py:package.module:function; also read from "
                  "[tool.urlwb.oracles] in urlwb.toml or pyproject.toml here")
    installs.add_flag(p)   # NAME@VERSION installs run no package code without it
    report_formats.add_arguments(p)
    exitcodes.add_arguments(p)
    p.epilog = ("exit status (docs/cli.md): 0 when no new finding is at or above --fail-on; 1 when "
                "one is (an oracle that crashed or hung on an input is such a finding, judged by "
                "its contract, and named in one line with the input); 2 for a usage error or a "
                "misconfigured oracle; 3 when an oracle of yours, or every parser, could not start.")


def run(args) -> int:
    check_outputs(args, args.out or DEFAULT_OUT)
    installs.from_args(args)
    try:
        flagged = oracles.configure(args.oracle)
        names = versioned_names(args.parsers)   # PARSER@VERSION: built and registered first
    except oracles.manifests.ManifestError as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:
        raise UsageError(f"--parsers: {exc}") from None
    names += [n for n in flagged if n not in names]
    pairs = releases.release_pairs(names)
    if pairs and "engine" not in names:
        names.insert(0, "engine")   # the Standard's reading: what each release is judged beside
    budget = None if args.minutes is None else minutes_flag("--minutes", args.minutes) * 60
    deadline = None if budget is None else time.monotonic() + budget
    # drawing --generate's inputs takes at most a fifth of the budget: the rest is for asking
    items = collect_inputs(args, MOST_ANSWERS // max(1, len(names)),
                           None if budget is None else time.monotonic() + budget / 5)
    if args.generate and any(contracts.describe(n).contract.role == "validator" for n in names):
        # first: an adapter given up after its restarts (Django's TypeError kills the example's)
        # answers nothing after that, and these are what a validator's contract is judged on
        no_uri = [(i, None, "generated") for i in dict.fromkeys(generate.no_uri_inputs(min(args.generate, 500), args.seed))]
        items = no_uri + [x for x in items if (x[0], x[1]) not in {(i, None) for i, _, _ in no_uri}]
    if not items:
        raise UsageError("no inputs (give INPUTs, --file, --corpus, --wpt or --generate N)")
    if args.reference and args.reference not in names:
        raise UsageError(f"--reference {args.reference}: not among --parsers")
    many = len(items) > args.table_max
    users = [n for n in names if oracles.REGISTRY[n].spec is not None and oracles.REGISTRY[n].spec.source != "manifest"]
    result = diff(items, names, reference=args.reference, reparse=not args.no_reparse,
                  hosts=not args.no_hosts and many, progress=many, required=users, deadline=deadline)
    if result.cut:
        print(f"urlwb diff: --minutes {args.minutes:g} ran out: {result.cut:,} inputs not asked, "
              f"{len(result.items):,} compared", file=sys.stderr)
    if not result.records:
        raise Incomplete("no parser could start: " + "; ".join(f"{k}: {v}" for k, v in result.skipped.items()))
    found = releases.explore(result, pairs, seed=args.seed) if pairs else []
    result.changes = releases.records(result, found)
    if not many:
        print(terminal_table(result))
        written = findings.write_findings(result, args.out or DEFAULT_OUT)
        print(f"findings: {written} ({findings.tally(written)}, each judged by its parser's contract)")
    else:
        out = args.out or DEFAULT_OUT
        said = "\n".join(releases.lines(result, found))
        fence = "`" * max(3, 1 + max(map(len, re.findall("`+", said)), default=0))   # longer than any run inside
        note = (f"**What changed between the releases** (every cause and its witnesses in findings.jsonl):"
                f"\n\n{fence}\n{said}\n{fence}") if said else ""
        paths = write_report(result, out, note=note)
        print(summary_text(result))
        for p in paths:
            print(f"report: {p}")
    for line in releases.lines(result, found):
        print(line)
    confined = sandbox_line(result.parsers)
    if confined:
        print(confined)
    trouble = trouble_lines(result)
    for line in trouble:
        print(f"urlwb diff: {line}", file=sys.stderr)
    # the status, --sarif and --junit from the records findings.jsonl holds (read back: judged once)
    return exitcodes.conclude(args, read_findings(args.out or DEFAULT_OUT), "diff", args.out or DEFAULT_OUT)


#: generated inputs the campaign's differential round always sends, whatever its estimate: the
#: generator reaches spellings a short fuzzing round does not (dot segments in mixed case, "0X")
GENERATED_FLOOR = 2_000
#: and at most, when the budget would allow more
GENERATED_CAP = 10_000


def campaign_round(out_dir: pathlib.Path, seconds: float, seed: int = 0,
                   floor: int = GENERATED_FLOOR, names: list[str] | None = None) -> dict:
    """The campaign's differential round: every WPT input, the ``differential`` fuzz target's
    corpus (seed, regress, and the working corpus the round grew: what coverage-guided fuzzing
    found reaches the oracles outside the process here, in batches), then generated inputs from
    ``seed``: as many as ``seconds`` allow (cost estimated from a WPT probe), never fewer than
    ``floor`` (GENERATED_FLOOR) nor more than GENERATED_CAP, across every available parser, the user's own
    included (``names``: these parsers instead). Returns {"markdown", "summary"} (the summary names the seed and the count, so that
    a round can be repeated) and writes them into ``out_dir/diff/``."""
    t0 = time.perf_counter()
    deadline = time.monotonic() + seconds   # the round's end: no parser is asked after it
    names = names or _all_names()
    wpt = [(i, b, "wpt") for i, b in generate.wpt_cases()]
    seen = {(i, b) for i, b, _ in wpt}
    corpus = []
    for i, b in corpus_cases("differential") + working_cases("differential") + corpus_cases("hunt"):
        if (i, b) not in seen:
            seen.add((i, b))
            corpus.append((i, b, "corpus:differential"))
    started = oracles.load(names)   # once, for the probe and the round (a start is seconds each)
    try:
        probe = diff(wpt[:200], names, hosts=False, reparse=False, deadline=deadline, started=started)
        per_input = max(1e-6, probe.seconds / max(1, len(probe.items)))
        budget = seconds - (time.perf_counter() - t0) - per_input * (len(wpt) + len(corpus)) * 1.5
        n = int(max(floor, min(GENERATED_CAP, budget / (per_input * 1.5))))
        gen = [(i, b, "generated") for i, b in generate.generate(n, seed=seed) if (i, b) not in seen]
        print(f"  {len(wpt):,} WPT inputs, {len(corpus):,} from the differential corpus, "
              f"{len(gen):,} generated (generate({n}, seed={seed}))", flush=True)
        res = diff(wpt + corpus + gen, names, reparse=True, hosts=True, deadline=deadline, started=started)
    finally:
        oracles.close_all(started[0])
    note = (f"Inputs: {len(wpt):,} WPT, {len(corpus):,} from the differential corpus, "
            f"{len(gen):,} generated from seed {seed} (`urlwb campaign --seed {seed}` repeats them)."
            + (f" The round's {seconds:.0f} s ran out: the last {res.cut:,} were not asked." if res.cut else ""))
    paths = write_report(res, pathlib.Path(out_dir) / "diff", "Differential round", note)
    for line in trouble_lines(res):
        print(f"  {line}")
    md = paths[0].read_text(encoding="utf-8")
    summary = summarize(res)
    summary["generated"] = {"seed": seed, "asked": n, "sent": len(gen)}
    return {"markdown": md, "summary": summary}


def _all_names() -> list[str]:
    return list(oracles.REGISTRY)
