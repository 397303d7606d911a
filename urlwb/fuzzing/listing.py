"""``urlwb list [TARGET ...] [--findings] [--kind bug|hazard] [--bugs] [--parser NAME] [--room ROOM]
[--signature TEXT] [--from FILE] [--drafts DIR]``: targets, their corpora and their findings.

The fuzz targets' table first; then, with ``--findings`` or a filter, every finding of every room
(the engine's fuzz targets, ``differential``, ``hunt``, ``ssrf``, ``growth``, ``history``, and any
``findings.jsonl`` named with ``--from``: :mod:`urlwb.findings.catalog`), by verdict: the bugs
first, each with its parser, input, the contract's clause and the upstream report or fix when
known; then the hazards, grouped by validator -> client pair (ssrf) or by parser. ``--drafts DIR``
writes, for each bug listed, a folder with its reproducer in the parser's own language and a
draft upstream report (:mod:`urlwb.findings.reproduce`).
"""

from __future__ import annotations

import json
import pathlib
import re
from collections import defaultdict

from urlwb import corpus_store, oracles
from urlwb.cliutil import MOST_COUNT, add_parsers, check_output_folder, count, add_targets, alias, shorten
from urlwb.errors import UsageError
from urlwb.findings import catalog, causes, reproduce
from urlwb.fuzzing.fuzz import load_stats
from urlwb.fuzzdata import decode_text
from urlwb.fuzzing.triage import artifact_dir, pending_artifacts


def _count(folder) -> int:
    return sum(1 for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")) \
        if folder.is_dir() else 0


def preview(data: bytes, width: int = 60) -> str:
    """The input as text (its front part, where a target keeps its strings), shortened."""
    return shorten(repr(decode_text(data)), width)


def add_arguments(parser) -> None:
    add_targets(parser)
    parser.add_argument("--findings", action="store_true", help="list every regress entry")
    parser.add_argument("--status", choices=("open", "fixed"), help="only findings of this status")
    parser.add_argument("--kind", choices=("bug", "hazard"), help="only findings with this verdict")
    parser.add_argument("--bugs", action="store_true", help="only bugs (--kind bug)")
    add_parsers(parser, "only findings of these parsers, validators or clients", default=None)
    alias(parser, "--parser", "--parsers")
    parser.add_argument("--room", choices=catalog.ROOMS, help="only findings of this room")
    parser.add_argument("--signature", metavar="TEXT", help="only findings whose signature starts with TEXT "
                        "(one finding's draft: --signature SIG --drafts DIR)")
    parser.add_argument("--from", dest="from_files", action="append", default=[], type=pathlib.Path,
                        metavar="FILE", help="also the findings.jsonl of a command's --out (a file or its folder)")
    parser.add_argument("--per-group", type=count(0, MOST_COUNT), default=5, metavar="N",
                        help="hazards shown per group (default 5; 0: all)")
    parser.add_argument("--drafts", type=pathlib.Path, metavar="DIR",
                        help="for each bug listed: DIR/<signature>/ with a reproducer and a draft upstream report")


def run(args) -> int:
    stats = load_stats()
    targets = corpus_store.resolve_targets(args.targets)
    rows = []
    findings = []
    for t in targets:
        entries = list(corpus_store.iter_regress(t))
        findings += entries
        work = corpus_store.work_path(t)
        rows.append((t, corpus_store.TARGETS[t], _count(corpus_store.seed_dir(t)), _count(work),
                     sum(e.status == "open" for e in entries), sum(e.status == "fixed" for e in entries),
                     len(pending_artifacts(t)) if artifact_dir(t).is_dir() else 0,
                     stats.get(t, {}).get("execs", 0)))
    print(f"{'target':14} {'module':30} {'seeds':>5} {'work':>6} {'open':>4} {'fixed':>5} {'untriaged':>9} "
          f"{'executions (all runs)':>21}")
    for r in rows:
        print(f"{r[0]:14} {r[1]:30} {r[2]:>5} {r[3]:>6} {r[4]:>4} {r[5]:>5} {r[6]:>9} {r[7]:>21,}")
    kind = "bug" if args.bugs else args.kind
    if not (args.findings or args.status or kind or args.parsers or args.room or args.from_files or args.drafts
            or args.signature):
        items = catalog.corpus()
        bugs = sum(i.record["verdict"]["kind"] == "bug" for i in items)
        print(f"\nfindings: {bugs} bugs, {len(items) - bugs} hazards in corpus/ (urlwb list --findings)")
        return 0
    for e in findings:
        if e.sidecar is None:
            print(f"{e.target:14} ORPHAN {e.path.name[:12]} (input without sidecar)")
    check_output_folder("--drafts", args.drafts)
    every = catalog.corpus() + catalog.from_files(args.from_files)
    _check_names(args.parsers, every)
    items, seen = [], set()
    for i in every:   # a filed finding once
        key = (i.record["signature"], i.record["input"], i.record.get("base"))
        if key not in seen and catalog.matches(i, kind=kind, parser=args.parsers, room=args.room, status=args.status) \
                and i.record["signature"].startswith(args.signature or ""):
            seen.add(key)
            items.append(i)
    show_findings(items, args.per_group)
    if args.drafts:
        try:   # urlwb.toml's parsers too: a card's [reproducer] writes their reproducers
            oracles.configure()
        except oracles.manifests.ManifestError as exc:
            raise UsageError(str(exc)) from None
        write_drafts([i for i in items if i.record["verdict"]["kind"] == "bug"], args.drafts)
    return 0


def _check_names(parsers: str | None, every: list[catalog.Listed]) -> None:
    """Each name of ``--parsers`` is a shipped parser's or one some finding names (a parser, a
    validator, a client), else one line: a misspelt name would list "0 bugs" as if all were well."""
    if not parsers:
        return
    known = set(oracles.REGISTRY)
    for i in every:
        r = i.record
        known |= {r["parser"], r["parser"].partition("@")[0], r.get("validator"), r.get("client"),
                  r.get("parser_base")}
        known |= {p["client"] for p in r["verdict"].get("pairs") or []}
    unknown = [n for n in parsers.split(",") if n not in known]
    if unknown:
        raise UsageError(f"--parsers {unknown[0]}: no shipped parser, and no finding names it")


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _plain(text: str, width: int) -> str:
    """``text`` shortened, its control characters written as escapes (a terminal shows them)."""
    return shorten(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text), width)


def _upstream(v: dict) -> str:
    up = v.get("upstream")
    if not up:
        return "none known"
    return f"{up['state']}{' in ' + up['fixed_in'] if up.get('fixed_in') else ''}: {up['url']}"


def show_findings(items: list[catalog.Listed], per_group: int = 5) -> None:
    """Bugs first, each in full; then hazards by pair or parser, ``per_group`` each (0: all)."""
    bugs = [i for i in items if i.record["verdict"]["kind"] == "bug"]
    hazards = [i for i in items if i.record["verdict"]["kind"] == "hazard"]
    rooms = defaultdict(int)
    for i in items:
        rooms[i.room] += 1
    bug_causes = causes.group(bugs)
    print(f"\nfindings: {len(bugs)} bugs, {len(hazards)} hazards ("
          + ", ".join(f"{r} {n}" for r, n in sorted(rooms.items())) + ")"
          + (f"; the bugs are {len(bug_causes)} causes" if bugs else ""))
    if bugs:
        print(f"\nBUGS ({len(bugs)}) in {len(bug_causes)} causes: each breaks its parser's own contract")
    for c in bug_causes:
        i = c.shortest
        r, v = i.record, i.record["verdict"]
        releases = f" {', '.join(c.releases)}" if c.releases else ""
        print(f"  {_plain(c.title(), 70)}: {len(c.records)} records{releases}, {len(c.witnesses)} spellings")
        for fam, w in sorted(c.witnesses.items(), key=lambda kv: (len(kv[1].record["input"]), kv[0]))[:per_group or None]:
            print(f"      {shorten(repr(w.record['input']), 50):<50} {_plain(fam, 40)}")
        if per_group and len(c.witnesses) > per_group:
            print(f"      ... {len(c.witnesses) - per_group} more spellings (--per-group 0)")
        print(f"  {'':4} spec    {v['spec']['name']}: {_plain(v['spec']['clause'], 100)}")
        print(f"  {'':4} upstream {_upstream(v)}")
        print(f"  {'':4} {i.room}, {r.get('status', 'open')}: {_plain(r.get('command') or i.source, 100)}")
    groups: dict[str, list] = defaultdict(list)
    for i in hazards:
        groups[catalog.group_key(i)].append(i)
    if hazards:
        print(f"\nHAZARDS ({len(hazards)}): each keeps its contract and still reads otherwise, by pair or parser")
    for key in sorted(groups, key=lambda k: (-len(groups[k]), k)):
        group = sorted(groups[key], key=lambda i: (len(i.record["input"]), i.record["input"]))
        print(f"  {_plain(key, 100)} ({len(group)})")
        for i in group[:per_group or None]:
            r, v = i.record, i.record["verdict"]
            reached = "; ".join(f"{p['client']} reaches {p['reached']}" for p in v.get("pairs") or [] if p.get("reached"))
            print(f"      {shorten(repr(r['input']), 50):<50} {v['spec']['name']}: {_plain(v['spec']['clause'], 60)}"
                  + (f"  [{_plain(reached, 60)}]" if reached else ""))
        if per_group and len(group) > per_group:
            print(f"      ... {len(group) - per_group} more (--per-group 0)")


def write_drafts(bugs: list[catalog.Listed], folder: pathlib.Path) -> None:
    """One draft per cause (:mod:`urlwb.findings.causes`), on its shortest witness:
    ``folder/<signature>/``, the reproducer (its language's file) and ``report.md``, which lists
    the cause's other spellings and the releases its records span."""
    written = 0
    for c in causes.group(bugs):
        r = c.shortest.record
        repro = reproduce.reproducer(r)
        where = folder / reproduce.slug(r)
        others = [w.record["input"] for w in c.witnesses.values() if w is not c.shortest]
        cause_lines = [f"## One cause, {len(c.records)} records", "",
                       f"{c.title()}; releases: {', '.join(c.releases) or 'the one above'}.", ""]
        cause_lines += [f"- another spelling: `{json.dumps(x, ensure_ascii=False)}`" for x in others]
        files = {where / "report.md": reproduce.draft(r, repro) + "\n" + "\n".join(cause_lines) + "\n"}
        if repro is not None:
            files[where / repro.file] = repro.code
        for path, text in files.items():
            corpus_store.atomic_write(path, text.encode("utf-8", "surrogatepass"))
        written += 1
    print(f"\ndrafts: {written} in {folder} (a reproducer and report.md each)")
