"""``urlwb upstream``: each bug cause asked at its package's newest release (issue 34, part 5).

    urlwb upstream [--from FILE] [--parsers NAMES] [--out DIR]
    urlwb upstream --pins

For every bug cause (:mod:`urlwb.findings.causes`) of a parser with a registry package (a shipped
one's, ``contracts.toml``; a user's, its table's ``package``), its shortest witness is asked of
``PARSER@NEWEST`` through the versions machinery (built or installed as ``urlwb bisect`` does it)
and judged by the one judge (:mod:`urlwb.differential.facts`): a bug with the same cause there is
**still in NEWEST (newest)**; otherwise the releases from the one the record was made at to the
newest are bisected for the first that no longer shows it: **fixed in Y**. A cause whose package
has no registry version (a runtime's, a Debian package's) or whose releases cannot be listed is
said so in one line. ``--out`` (default ``reports/upstream``) gets ``status.json``. ``--pins``:
every shipped pin against its registry's newest release (:mod:`urlwb.versions.pins`), ``pins.json``.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
import sys

from urlwb import corpus_store
from urlwb.cliutil import add_out, add_parsers
from urlwb.differential import facts
from urlwb.errors import UsageError
from urlwb.findings import catalog, causes
from urlwb.oracles.versions import installs, names, registries
from urlwb.versions import advisories, bisect, pins

DEFAULT_OUT = pathlib.Path("reports") / "upstream"
#: causes one reading cannot show
TIMED = ("superlinear", "hang")


def add_arguments(p) -> None:
    p.add_argument("--from", dest="from_files", action="append", default=[], type=pathlib.Path, metavar="FILE",
                   help="also the bug causes of a command's findings.jsonl (a file or its folder)")
    add_parsers(p, "only the causes of these parsers", default=None)
    add_out(p, f"the report folder (default {DEFAULT_OUT})", None)
    p.add_argument("--advisories", action="store_true",
                   help="also the published advisories (OSV, PyPI) for each cause's package at its recorded release")
    p.add_argument("--pins", action="store_true",
                   help="instead: every shipped pin (lock files, pom.xml, Cargo.lock, go.mod, the installed "
                        "Python packages) against its registry's newest release")
    installs.add_flag(p)


def _package(parser: str):
    """(Package, its registry source or None, user's adapter or not); UsageError when none."""
    mine = names.user_spec(parser)
    if mine is not None:
        return bisect.user_package(mine), mine.registry, True
    return names.package(parser), None, False


def ask(parser: str, version: str, input: str, base: str | None, asker: bisect.Asker) -> dict | None:
    """The one judge's verdict on ``parser@version``'s reading of ``input`` (None: no finding,
    or the release could not be asked: ``{"skipped": why}``)."""
    a = asker.ask(version)
    if a.skipped:
        return {"skipped": a.skipped}
    return facts.verdict(facts.Reading(f"{parser}@{version}", input, base, a.answer, asker.standard,
                                       version=a.shown or version))


def status(parser: str, release: str | None, input: str, base: str | None, cause: str, log=None) -> dict:
    """Where the bug ``cause`` of ``parser`` (seen at ``release``) on ``input`` stands at the
    package's newest release: ``{"state": "still", "newest"}`` or ``{"state": "fixed",
    "fixed_in", "newest"}``, with the releases asked; ``{"state": "unknown", "why"}`` when it cannot
    be asked."""
    log = log or (lambda line: None)
    if cause in TIMED:
        return {"state": "unknown", "why": f"{cause} is measured over input lengths (urlwb growth --parsers "
                                           f"{parser}@VERSION), not by one reading"}
    try:
        pkg, source, user = _package(parser)
        versions = registries.released(pkg.registry, pkg.package, source=source)
    except UsageError as exc:
        return {"state": "unknown", "why": str(exc)}
    if not versions:
        return {"state": "unknown", "why": f"{parser}: no released version listed"}
    asker = bisect.Asker(pkg, input, base, None, False, log, user=user)
    asked: dict[str, str] = {}

    def still(v: str) -> bool | None:
        got = ask(parser, v, input, base, asker)
        if got is not None and "skipped" in got:
            asked[v] = "skipped: " + got["skipped"]
            return None
        there = got is not None and got["kind"] == "bug" and got["cause"] == cause
        asked[v] = "bug" if there else ("no finding" if got is None else f"{got['kind']} ({got['cause']})")
        return there

    newest = versions[-1]
    now = still(newest)
    if now is None:
        return {"state": "unknown", "why": f"{parser}@{newest} could not be asked ({asked[newest]})",
                "newest": newest, "asked": asked}
    if now:
        return {"state": "still", "newest": newest, "asked": asked}
    key = registries.sort_key(pkg.registry)
    lo = max((i for i, v in enumerate(versions) if release and key(v) <= key(release)), default=0)
    hi = len(versions) - 1
    if not still(versions[lo]):
        return {"state": "unknown", "newest": newest, "asked": asked,
                "why": f"not shown at {versions[lo]} either (the record's release {release or '(not recorded)'}): "
                       f"not shown at the newest {newest}, and no release found that shows it"}
    while hi - lo > 1:   # the first release without it, between one with it and the newest
        mid = (lo + hi) // 2
        got = still(versions[mid])
        if got is None:
            break
        lo, hi = (mid, hi) if got else (lo, mid)
    return {"state": "fixed", "fixed_in": versions[hi], "newest": newest, "asked": asked}


def text(s: dict) -> str:
    if s["state"] == "still":
        return f"still in {s['newest']} (newest)"
    if s["state"] == "fixed":
        return (f"fixed in {s['fixed_in']}" if s.get("fixed_in") else "fixed") + f" (newest {s['newest']})"
    return f"unknown: {s['why']}"


def _advisories(parser: str, release: str | None) -> dict:
    """{"found": [...]} or {"why": one line}: the advisories of the parser's package at ``release``."""
    if not release:
        return {"why": "the record names no release"}
    try:
        pkg, _, _ = _package(parser)
        return {"found": advisories.query(pkg.registry, pkg.package, release)}
    except (UsageError, advisories.AdvisoryError) as exc:
        return {"why": str(exc)}


def advisory_text(a: dict) -> str:
    if "why" in a:
        return f"not known ({a['why']})"
    if not a["found"]:
        return "none published"
    return "; ".join(f"{x['id']}" + (f" fixed in {', '.join(x['fixed'])}" if x["fixed"] else "") for x in a["found"])


def run_pins(args) -> int:
    rows = pins.newest(pins.shipped())
    for p in sorted(rows, key=lambda p: (p.state != "behind", p.registry, p.package)):
        print(f"  {pins.text(p)}")
    behind = sum(p.state == "behind" for p in rows)
    print(f"pins: {len(rows)} packages, {behind} behind the newest release, "
          f"{sum(p.state == 'unknown' for p in rows)} unknown")
    path = pathlib.Path(args.out or DEFAULT_OUT) / "pins.json"
    corpus_store.atomic_write(path, (json.dumps([dict(dataclasses.asdict(p), state=p.state) for p in rows],
                                                indent=1) + "\n").encode("utf-8"))
    print(f"report: {path}")
    return 0


def run(args) -> int:
    installs.from_args(args)
    if args.pins:
        return run_pins(args)
    wanted = None if args.parsers is None else {p.strip() for p in args.parsers.split(",") if p.strip()}
    items = [i for i in catalog.corpus() + catalog.from_files(args.from_files)
             if i.record["verdict"]["kind"] == "bug" and not i.record.get("validator")]
    found = causes.group(items)
    rows = []
    for c in found:
        r = c.shortest.record
        parser = (r.get("parser_base") or r["parser"]).partition("@")[0]
        if wanted is not None and parser not in wanted:
            continue
        release = r["parser"].partition("@")[2] or None
        if c.shortest.room == "fuzz" and r.get("target") not in (None, "differential"):
            # an engine fuzz target's finding (a property, not one reading): its replay asks it
            s = {"state": "unknown", "why": f"a fuzz target's finding: urlwb replay {r.get('target') or 'TARGET'} asks it"}
            rows.append({"cause": c.title(), "parser": parser, "records": len(c.records), "input": r["input"],
                         "release": release, **s})
            print(f"  {c.title()}: {len(c.records)} records; {text(s)}")
            continue
        print(f"urlwb upstream: {c.title()}: asking {parser}'s newest release", file=sys.stderr, flush=True)
        s = status(parser, release, r["input"], r.get("base"), r["verdict"]["cause"],
                   log=lambda line: print(line, file=sys.stderr, flush=True))
        if args.advisories:
            s["advisories"] = _advisories(parser, release or r.get("parser_version") or s.get("newest"))
        rows.append({"cause": c.title(), "parser": parser, "records": len(c.records), "input": r["input"],
                     "release": release, **s})
        print(f"  {c.title()}: {len(c.records)} records; {text(s)}")
        if args.advisories:
            print(f"      advisories: {advisory_text(s['advisories'])}")
    out = args.out or DEFAULT_OUT
    path = pathlib.Path(out) / "status.json"
    corpus_store.atomic_write(path, (json.dumps(rows, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    print(f"report: {path}")
    return 0
