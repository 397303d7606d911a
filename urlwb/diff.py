"""``urlwb diff``: one input, many parsers, a verdict table.

https://url.spec.whatwg.org/#url-parsing

    urlwb diff [INPUT ...] [--base URL] [--file F] [--corpus TARGET] [--wpt] [--generate N]
               [--seed S] [--parsers LIST] [--reference NAME] [--out DIR] [--no-reparse]

Every input goes to every available parser (batched; Node through one long-lived process); each
pair of answers that differs gets a class (:mod:`urlwb.classify`), and known deviations of peers
are tagged rather than re-reported. Up to ``--table-max`` inputs: a table in the terminal. More: a
report in ``--out`` (Markdown and a self-contained HTML page: parser versions, per-parser cost, a
parser × parser agreement matrix, counts per class and parser, the shortest witnesses of each
(class, pair), host-level oracles) and ``findings.json`` for ``urlwb export-wpt``.
"""

from __future__ import annotations

import datetime
import html
import json
import pathlib
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from urlwb.errors import UsageError

DEFAULT_OUT = pathlib.Path("reports") / "diff"
WITNESSES = 3


def add_arguments(p) -> None:
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="URL strings to compare")
    p.add_argument("--base", help="base URL for the INPUTs given on the command line")
    p.add_argument("--file", action="append", default=[], metavar="F",
                   help="inputs, one a line (a line in double quotes is a JSON string), or a "
                        "urltestdata-format JSON file")
    p.add_argument("--corpus", action="append", default=[], metavar="TARGET",
                   help="the seed and regress inputs of a URL fuzz target (url, differential)")
    p.add_argument("--wpt", action="store_true", help="every input of the vendored WPT "
                   "urltestdata.json and toascii.json")
    p.add_argument("--generate", type=int, default=0, metavar="N",
                   help="N confusion-aware generated inputs (mutated WPT inputs and grammar)")
    p.add_argument("--seed", type=int, default=0, help="seed of --generate (default 0)")
    p.add_argument("--parsers", default="all", metavar="LIST",
                   help="comma list of parsers or groups: all, whatwg, other (default all)")
    p.add_argument("--reference", default=None, metavar="NAME",
                   help="the parser others are counted against (default engine, else ada_url)")
    p.add_argument("--out", type=pathlib.Path, default=None, metavar="DIR",
                   help=f"report folder (default {DEFAULT_OUT})")
    p.add_argument("--table-max", type=int, default=10, metavar="N",
                   help="up to N inputs: a terminal table instead of a report (default 10)")
    p.add_argument("--no-reparse", action="store_true",
                   help="skip the reparse-stability check of the WHATWG parsers")
    p.add_argument("--no-hosts", action="store_true", help="skip the host-level oracles")


# --- inputs ------------------------------------------------------------------------------------

def read_file(path: pathlib.Path) -> list[tuple[str, str | None]]:
    try:
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError as exc:
        raise UsageError(f"--file {path}: {exc.strerror or exc}") from None
    if path.suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"--file {path}: not JSON ({exc})") from None
        if not isinstance(data, list):
            raise UsageError(f"--file {path}: expected a urltestdata-format list")
        return [(c["input"], c.get("base")) for c in data if isinstance(c, dict) and "input" in c]
    items = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith('"'):
            try:
                line = json.loads(line)
            except json.JSONDecodeError as exc:
                raise UsageError(f"--file {path}:{n}: bad JSON string ({exc.msg})") from None
        items.append((line, None))
    return items


def collect_inputs(args) -> list[tuple[str, str | None, str]]:
    """(input, base, source) triples from every input option, in order, duplicates dropped."""
    from urlwb import generate
    out: list[tuple[str, str | None, str]] = [(i, args.base, "argv") for i in args.inputs]
    for f in args.file:
        out += [(i, b, "file") for i, b in read_file(pathlib.Path(f))]
    for target in args.corpus:
        out += [(i, b, f"corpus:{target}") for i, b in corpus_cases(target)]
    if args.wpt:
        out += [(i, b, "wpt") for i, b in generate.wpt_cases()]
    if args.generate < 0:
        raise UsageError("--generate must be 0 or more")
    if args.generate:
        out += [(i, b, "generated") for i, b in generate.generate(args.generate, args.seed)]
    seen, unique = set(), []
    for i, b, s in out:
        if (i, b) not in seen:
            seen.add((i, b))
            unique.append((i, b, s))
    return unique


def corpus_cases(target: str) -> list[tuple[str, str | None]]:
    from urlwb import corpus_store
    if target not in ("url", "differential"):
        raise UsageError(f"--corpus {target}: diff reads URL targets only (url, differential)")
    if target not in corpus_store.TARGETS:
        raise UsageError(f"--corpus {target}: no fuzz target fuzzers/fuzz_{target}.py")
    cases = []
    paths = list(corpus_store.iter_seeds(target)) + [e.path for e in corpus_store.iter_regress(target)]
    for path in paths:
        data = corpus_store.read_input(path)
        if data is not None:
            cases.append(decode_case(data))
    return cases


def decode_case(data: bytes) -> tuple[str, str | None]:
    """A URL target's input as (input, base): a trailing choice, with or without a base; with
    one, a length-prefixed base text; the rest is the input (``fuzzers/fuzz_url.py``'s format)."""
    from urlwb.fuzzdata import Reader
    r = Reader(data)
    base = r.text(r.length()) if r.choice((False, True)) else None
    return r.rest(), base


def encode_case(input: str, base: str | None) -> bytes:
    """The inverse of :func:`decode_case`."""
    from urlwb.fuzzdata import Writer, encode_text
    w = Writer().choice(1 if base is not None else 0, 2)
    if base is not None:
        b = encode_text(base)
        w.integer(0, 0xFFFF, len(b)).raw(b)
    return w.rest(input).data()


# --- the differential --------------------------------------------------------------------------

@dataclass
class Finding:
    index: int                 # into DiffResult.items
    a: str
    b: str
    cls: str
    cause: str | None
    fields: tuple[str, ...]
    known: str | None = None   # the documented deviation, if any


@dataclass
class DiffResult:
    items: list[tuple[str, str | None, str]]
    parsers: list[str]
    reference: str | None
    versions: dict[str, str]
    skipped: dict[str, str]
    records: dict[str, list]
    reparsed: dict[str, list] = field(default_factory=dict)
    cost: dict[str, float] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    compared: Counter = field(default_factory=Counter)      # (a, b) -> inputs compared
    disagree: Counter = field(default_factory=Counter)      # (a, b) -> inputs that differ
    host_findings: list[dict] = field(default_factory=list)
    host_compared: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    summary: dict | None = None


def run(args) -> int:
    from urlwb import oracles
    try:
        names = oracles.resolve_names(args.parsers)
    except ValueError as exc:
        raise UsageError(f"--parsers: {exc}") from None
    items = collect_inputs(args)
    if not items:
        raise UsageError("no inputs (give INPUTs, --file, --corpus, --wpt or --generate N)")
    if args.reference and args.reference not in names:
        raise UsageError(f"--reference {args.reference}: not among --parsers")
    many = len(items) > args.table_max
    result = diff(items, names, reference=args.reference, reparse=not args.no_reparse,
                  hosts=not args.no_hosts and many, progress=many)
    if not result.records:
        raise UsageError("no parser could start: " + "; ".join(f"{k}: {v}" for k, v in result.skipped.items()))
    if not many:
        print(terminal_table(result))
        return 0
    out = args.out or DEFAULT_OUT
    paths = write_report(result, out)
    print(summary_text(result))
    for p in paths:
        print(f"report: {p}")
    return 0


def diff(items, names, reference=None, reparse=True, hosts=True, progress=False) -> DiffResult:
    """Parse every (input, base, source) with every named parser and classify each disagreement."""
    from urlwb import oracles
    loaded, skipped = oracles.load(names)
    for name, reason in skipped.items():
        print(f"urlwb diff: {name} skipped: {reason}", file=sys.stderr)
    reference = reference or next((n for n in ("engine", "ada_url") if n in loaded), None)
    if reference and reference not in loaded:
        reference = next(iter(loaded), None)
    res = DiffResult(items, list(loaded), reference, {n: o.version for n, o in loaded.items()},
                     skipped, {})
    start = time.perf_counter()
    pairs = [(oracles.to_usv(i), None if b is None else oracles.to_usv(b)) for i, b, _ in items]
    try:
        for name, oracle in loaded.items():
            t0 = time.perf_counter()
            if oracle.supports_base:
                recs = oracle.parse_many(pairs)
            else:
                recs = [None if b is not None else r for (i, b), r in
                        zip(pairs, oracle.parse_many([(i, None) for i, _ in pairs]))]
            if reparse and oracles.family(name) == "whatwg":
                hrefs = [(r.href, None) for r in recs if r is not None and r.ok]
                again = iter(oracle.parse_many(hrefs))
                res.reparsed[name] = [next(again) if r is not None and r.ok else None for r in recs]
            res.records[name] = recs
            res.cost[name] = time.perf_counter() - t0
            if progress:
                print(f"  {name:<12} {len(recs):>7} inputs  {res.cost[name]:7.2f} s "
                      f"({1e6 * res.cost[name] / max(1, len(recs)):7.1f} µs/input)", file=sys.stderr)
    finally:
        oracles.close_all(loaded)
    _compare(res, pairs)
    if hosts and reference:
        t0 = time.perf_counter()
        host_round(res, pairs)
        res.cost["host oracles"] = time.perf_counter() - t0
    res.seconds = time.perf_counter() - start
    return res


def _compare(res: DiffResult, pairs) -> None:
    from urlwb import classify, oracles
    names = res.parsers
    lenient_of = {n: oracles.family(n) != "whatwg" for n in names}
    keys = {n: {False: [classify.key(r, False) for r in res.records[n]],
                True: [classify.key(r, True) for r in res.records[n]]} for n in names}
    found_cache: dict[int, list[str]] = {}
    for ai, a in enumerate(names):
        for b in names[ai + 1:]:
            is_lenient = lenient_of[a] or lenient_of[b]
            ka, kb = keys[a][is_lenient], keys[b][is_lenient]
            ra, rb = res.records[a], res.records[b]
            for idx, (x, y) in enumerate(zip(ka, kb)):
                if x is None or y is None:
                    continue
                res.compared[a, b] += 1
                if x == y:
                    continue
                res.disagree[a, b] += 1
                inp = pairs[idx][0]
                if idx not in found_cache:
                    found_cache[idx] = classify.ingredients(inp)
                v = classify.classify(inp, ra[idx], rb[idx], is_lenient, found_cache[idx], (x, y))
                known = classify.known_deviation(b, ra[idx], rb[idx], inp, pairs[idx][1]) or \
                    classify.known_deviation(a, rb[idx], ra[idx], inp, pairs[idx][1])
                res.findings.append(Finding(idx, a, b, v.cls, v.cause, v.fields, known))
    for name, again in res.reparsed.items():
        for idx, (r, r2) in enumerate(zip(res.records[name], again)):
            if r2 is None:
                continue
            res.compared[name, name] += 1
            if classify.key(r2, False) != classify.key(r, False):
                res.disagree[name, name] += 1
                res.findings.append(Finding(idx, name, name, "unstable", None, ("href",)))


def host_round(res: DiffResult, pairs) -> None:
    """Ask the host-level oracles about the reference parser's hosts and compare with the engine:
    domain to ASCII (from the domain's Unicode form), IP address forms (from the host as written),
    public suffix and registrable domain (from the ASCII domain)."""
    from urlwb import classify
    from urlwb.oracles.hosts import load_hosts
    try:
        import engine
        to_unicode, suffix, registrable = (engine.domain_to_unicode, engine.public_suffix,
                                           engine.registrable_domain)
    except (ImportError, AttributeError) as exc:
        res.skipped["host oracles"] = f"the engine's host functions are not available ({exc})"
        return
    oracles_, skipped = load_hosts()
    res.skipped.update(skipped)
    for name, o in oracles_.items():
        res.versions[name] = o.version
    ref = res.records[res.reference]
    seen = set()
    for idx, r in enumerate(ref):
        if r is None or not r.ok or not r.host or r.scheme not in classify.SPECIAL_SCHEMES:
            continue
        host = r.host
        if host in seen:
            continue
        seen.add(host)
        is_ip = host.startswith("[") or classify._is_canonical_ipv4(host)
        questions = []
        if is_ip:
            written = classify.raw_host(pairs[idx][0])
            if written is not None:
                questions.append(("ip", written, host, "ipv4"))
        else:
            try:
                uni = to_unicode(host)
                questions.append(("to-ascii", uni, host, "idna"))
                questions.append(("public-suffix", host, suffix(host), "public-suffix"))
                questions.append(("registrable-domain", host, registrable(host), "public-suffix"))
            except engine.Failure:
                continue
        for name, o in oracles_.items():
            for q, text, expected, cls in questions:
                if q not in o.questions:
                    continue
                ans = o.answer(q, text)
                res.host_compared[name] += 1
                exp = expected.rstrip(".") if expected and cls == "public-suffix" else expected
                got = ans.value.rstrip(".") if ans.value and cls == "public-suffix" else ans.value
                if ans.crash:
                    verdict = "oracle-crashed"
                elif ans.failure:
                    verdict = "accept-reject"
                elif got != exp:
                    verdict = cls
                else:
                    continue
                res.host_findings.append({"oracle": name, "question": q, "text": text,
                                          "index": idx, "engine": expected,
                                          "oracle_answer": ans.crash or ("failure" if ans.failure else ans.value),
                                          "cls": verdict})


# --- presentation ------------------------------------------------------------------------------

def _answer(r) -> str:
    if r is None:
        return "n/a"
    if r.crash:
        return f"CRASH {r.crash}"
    if r.failure:
        return "failure"
    return r.href


def _short(s: str, n: int = 60) -> str:
    r = repr(s)[1:-1]
    return r if len(r) <= n else r[: n - 1] + "…"


def terminal_table(res: DiffResult) -> str:
    from urlwb import classify
    lines = []
    by_input = defaultdict(list)
    for f in res.findings:
        by_input[f.index].append(f)
    ref = res.reference
    notes: dict[str, int] = {}
    for idx, (inp, base, _) in enumerate(res.items):
        lines.append(f"input {inp!r}" + (f"  base {base!r}" if base is not None else ""))
        lines.append(f"  {'parser':<12} {'host':<24} {'answer':<56} verdict vs {ref}")
        for name in res.parsers:
            r = res.records[name][idx]
            verdict = "(reference)" if name == ref else "="
            for f in by_input[idx]:
                if {f.a, f.b} == {name, ref} and f.a != f.b:
                    verdict = classify.TITLES[f.cls].split(" (")[0] + (f" via {f.cause}" if f.cause else "")
                    if f.known:
                        notes.setdefault(f.known, len(notes) + 1)
                        verdict += f"  [known deviation {notes[f.known]}]"
                elif f.a == f.b == name:
                    verdict += "; reparse differs"
            host = "" if r is None or not r.ok else ("(null)" if r.host is None else r.host)
            lines.append(f"  {name:<12} {_short(host, 24):<24} {_short(_answer(r), 56):<56} {verdict}")
        lines.append("")
    lines += [f"[known deviation {n}] {why}" for why, n in notes.items()]
    lines.append(versions_line(res))
    return "\n".join(lines)


def versions_line(res: DiffResult) -> str:
    v = ", ".join(f"{n} {res.versions[n]}" for n in res.versions)
    s = "; ".join(f"{n}: {why}" for n, why in res.skipped.items())
    return f"versions: {v}" + (f"\nskipped: {s}" if s else "")


def summarize(res: DiffResult) -> dict:
    """The figures of a run, JSON-ready (computed once per result)."""
    if res.summary is None:
        res.summary = _summarize(res)
    return res.summary


def _summarize(res: DiffResult) -> dict:
    ref = res.reference
    against_ref = defaultdict(list)
    for f in res.findings:
        if f.a != f.b and ref in (f.a, f.b):
            against_ref[f.b if f.a == ref else f.a].append(f)
    unstable = Counter(f.a for f in res.findings if f.a == f.b)
    per_parser = {}
    for name in res.parsers:
        rows = against_ref.get(name, [])
        recs = res.records[name]
        per_parser[name] = {
            "version": res.versions.get(name, "?"),
            "seconds": round(res.cost.get(name, 0.0), 3),
            "us_per_input": round(1e6 * res.cost.get(name, 0.0) / max(1, len(recs)), 1),
            "compared": res.compared.get((name, ref), res.compared.get((ref, name), 0)) if name != ref else len(recs),
            "failures": sum(1 for r in recs if r is not None and r.failure),
            "crashes": sum(1 for r in recs if r is not None and r.crash),
            "disagreements": sum(1 for f in rows if not f.known),
            "known": sum(1 for f in rows if f.known),
            "unstable": unstable.get(name, 0),
            "by_class": dict(Counter(f.cls for f in rows if not f.known)),
        }
    sources = Counter(s for _, _, s in res.items)
    return {"inputs": len(res.items), "sources": dict(sources), "reference": ref,
            "parsers": per_parser, "skipped": res.skipped, "versions": res.versions,
            "seconds": round(res.seconds, 2),
            "host_oracles": {n: {"compared": c, "disagreements": sum(1 for h in res.host_findings if h["oracle"] == n)}
                             for n, c in res.host_compared.items()}}


def summary_text(res: DiffResult) -> str:
    s = summarize(res)
    lines = [f"{s['inputs']} inputs ({', '.join(f'{k} {v}' for k, v in s['sources'].items())}), "
             f"reference {s['reference']}, {s['seconds']} s"]
    lines.append(f"  {'parser':<12} {'version':<28} {'s':>7} {'µs/in':>8} {'differ':>7} {'known':>6} {'crash':>6} {'unstable':>8}")
    for name, p in s["parsers"].items():
        lines.append(f"  {name:<12} {p['version'][:28]:<28} {p['seconds']:>7.2f} {p['us_per_input']:>8.1f} "
                     f"{p['disagreements']:>7} {p['known']:>6} {p['crashes']:>6} {p['unstable']:>8}")
    for name, h in s["host_oracles"].items():
        lines.append(f"  {name:<12} host-level: {h['compared']} questions, {h['disagreements']} differ")
    for name, why in s["skipped"].items():
        lines.append(f"  skipped {name}: {why}")
    return "\n".join(lines)


def _witnesses(res: DiffResult) -> dict[tuple[str, str, str], list[Finding]]:
    groups: dict[tuple[str, str, str], list[Finding]] = defaultdict(list)
    for f in res.findings:
        if not f.known:
            groups[f.cls, f.a, f.b].append(f)
    out = {}
    for k, fs in groups.items():
        fs.sort(key=lambda f: (len(res.items[f.index][0]) + len(res.items[f.index][1] or ""),
                               res.items[f.index][0]))
        uniq, seen = [], set()
        for f in fs:
            if f.index not in seen:
                seen.add(f.index)
                uniq.append(f)
            if len(uniq) == WITNESSES:
                break
        out[k] = uniq
    return dict(sorted(out.items(), key=lambda kv: (_rank(kv[0][0]), kv[0][1], kv[0][2])))


def _rank(cls: str) -> int:
    from urlwb import classify
    return classify.RANK.get(cls, 99)


def _matrix(res: DiffResult) -> list[list[str]]:
    rows = []
    for a in res.parsers:
        row = []
        for b in res.parsers:
            k = (a, b) if (a, b) in res.compared else (b, a)
            n = res.compared.get(k, 0)
            row.append("–" if not n else f"{100 * (n - res.disagree.get(k, 0)) / n:.1f}")
        rows.append(row)
    return rows


def _md_cell(s: str) -> str:
    return "`" + _short(s, 80).replace("`", "'").replace("|", "\\|") + "`"


def markdown(res: DiffResult, title: str = "Differential report") -> str:
    from urlwb import classify
    s = summarize(res)
    when = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    out = [f"# {title}", "",
           f"{s['inputs']} inputs ({', '.join(f'{k}: {v}' for k, v in s['sources'].items())}); "
           f"reference parser **{s['reference']}**; {s['seconds']} s; {when}.", "",
           "## Parsers", "",
           "| parser | family | version | s | µs/input | rejects | crashes | differ from reference | known deviations | reparse unstable |",
           "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    from urlwb import oracles
    for name, p in s["parsers"].items():
        out.append(f"| {name} | {oracles.family(name)} | {p['version']} | {p['seconds']:.2f} | "
                   f"{p['us_per_input']:.1f} | {p['failures']} | {p['crashes']} | {p['disagreements']} | "
                   f"{p['known']} | {p['unstable']} |")
    for name, h in s["host_oracles"].items():
        out.append(f"| {name} | host | {res.versions.get(name, '?')} | | | | | "
                   f"{h['disagreements']} of {h['compared']} questions | | |")
    for name, why in s["skipped"].items():
        out.append(f"\nSkipped **{name}**: {why}")
    out += ["", "## Agreement matrix (% of inputs on which the two agree)", "",
            "| | " + " | ".join(res.parsers) + " |", "|---" * (len(res.parsers) + 1) + "|"]
    for name, row in zip(res.parsers, _matrix(res)):
        out.append(f"| **{name}** | " + " | ".join(row) + " |")
    out += ["", "The diagonal is reparse stability (WHATWG parsers: the href, parsed again, gives the same URL).", "",
            f"## Disagreements with {s['reference']}, per class and parser (known deviations excluded)", ""]
    others = [n for n in res.parsers if n != res.reference]
    out += ["| class | " + " | ".join(others) + " |", "|---" * (len(others) + 1) + "|"]
    for cls, title_ in classify.CLASSES:
        counts = [s["parsers"][n]["by_class"].get(cls, 0) for n in others]
        if any(counts):
            out.append(f"| {title_} | " + " | ".join(str(c) for c in counts) + " |")
    # Known deviations of a parser, as found against the reference (pairs of two other parsers
    # would name the wrong one).
    known = Counter((f.a if f.b == res.reference else f.b, f.known) for f in res.findings
                    if f.known and res.reference in (f.a, f.b))
    if known:
        out += ["", "## Known deviations (tagged, not re-reported)", "", "| parser | inputs | reason |", "|---|---:|---|"]
        for (name, why), n in sorted(known.items()):
            out.append(f"| {name} | {n} | {why} |")
    out += ["", "## Shortest witnesses per (class, pair)", ""]
    cur = None
    for (cls, a, b), fs in _witnesses(res).items():
        if cls != cur:
            out += ["", f"### {classify.TITLES[cls]}", "", f"| pair | input | base | {'answer A'} | answer B |", "|---|---|---|---|---|"]
            cur = cls
        for f in fs:
            inp, base, _ = res.items[f.index]
            ans_b = _answer((res.reparsed.get(b) or res.records[b])[f.index]) if a == b else _answer(res.records[b][f.index])
            pair = f"{a} / {b}" + (" (reparse)" if a == b else "") + (f" via {f.cause}" if f.cause else "")
            out.append(f"| {pair} | {_md_cell(inp)} | {_md_cell(base) if base is not None else ''} | "
                       f"{_md_cell(_answer(res.records[a][f.index]))} | {_md_cell(ans_b)} |")
    if res.host_findings:
        out += ["", "## Host-level oracles (compared with the engine)", "",
                "| oracle | class | question | host | engine | oracle | cases |", "|---|---|---|---|---|---|---:|"]
        groups = defaultdict(list)
        for h in res.host_findings:
            groups[h["oracle"], h["cls"], h["question"]].append(h)
        for (o, cls, q), hs in sorted(groups.items()):
            hs.sort(key=lambda h: (len(h["text"]), h["text"]))
            for h in hs[:WITNESSES]:
                out.append(f"| {o} | {cls} | {q} | {_md_cell(h['text'])} | {_md_cell(str(h['engine']))} | "
                           f"{_md_cell(str(h['oracle_answer']))} | {len(hs)} |")
    return "\n".join(out) + "\n"


_CSS = """body{font:14px/1.45 system-ui,sans-serif;margin:2em;max-width:1400px;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:3px 7px;
text-align:left;vertical-align:top}th{background:#f3f3f3}code{font:12px ui-monospace,monospace;
white-space:pre-wrap;word-break:break-all}td.n{text-align:right}"""


def html_report(md: str, res: DiffResult, title: str = "Differential report") -> str:
    """A self-contained HTML page of the Markdown report (tables, headings, code; no scripts),
    with the agreement matrix shaded."""
    body = []
    in_table = False
    for line in md.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in _split_row(line)]
            if all(set(c) <= set("-:") for c in cells if c):
                continue
            tag = "th" if not in_table else "td"
            if not in_table:
                body.append("<table>")
                in_table = True
            body.append("<tr>" + "".join(f"<{tag}{_shade(c)}>{_inline(c)}</{tag}>" for c in cells) + "</tr>")
            continue
        if in_table:
            body.append("</table>")
            in_table = False
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            body.append(f"<h{level}>{_inline(line[level:].strip())}</h{level}>")
        elif line.strip():
            body.append(f"<p>{_inline(line)}</p>")
    if in_table:
        body.append("</table>")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body>" + "\n".join(body) + "</body></html>\n")


def _split_row(line: str) -> list[str]:
    cells, cur, i, in_code = [], "", 1, False
    while i < len(line):
        c = line[i]
        if c == "\\" and i + 1 < len(line) and line[i + 1] == "|":
            cur += "|"
            i += 2
            continue
        if c == "`":
            in_code = not in_code
        if c == "|" and not in_code:
            cells.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    return cells


def _shade(cell: str) -> str:
    try:
        v = float(cell)
    except ValueError:
        return ""
    if "." not in cell or not 0 <= v <= 100:
        return " class=n"
    hue = int(120 * v / 100)
    return f" class=n style='background:hsl({hue},70%,85%)'"


def _inline(text: str) -> str:
    parts = text.split("`")
    out = []
    for i, p in enumerate(parts):
        if i % 2:
            out.append(f"<code>{html.escape(p)}</code>")
        else:
            e = html.escape(p)
            while "**" in e:
                e = e.replace("**", "<b>", 1).replace("**", "</b>", 1)
            out.append(e)
    return "".join(out)


def findings_json(res: DiffResult) -> list[dict]:
    """Every disagreement of a WHATWG parser with the reference (known ones tagged), for export."""
    from urlwb import oracles
    out = []
    for f in res.findings:
        if res.reference not in (f.a, f.b) and f.a != f.b:
            continue
        peer = f.b if f.a == res.reference else f.a
        inp, base, source = res.items[f.index]
        out.append({"input": inp, "base": base, "source": source, "class": f.cls, "cause": f.cause,
                    "reference": res.reference, "parser": peer, "family": oracles.family(peer),
                    "known": f.known, "fields": list(f.fields),
                    "reference_answer": _answer(res.records[res.reference][f.index]),
                    "parser_answer": _answer(res.records[peer][f.index]) if f.a != f.b
                    else _answer(res.reparsed[peer][f.index])})
    return out


def write_report(res: DiffResult, out: pathlib.Path, title: str = "Differential report") -> list[pathlib.Path]:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out {out}: {exc.strerror or exc}") from None
    md = markdown(res, title)
    paths = [out / "report.md", out / "report.html", out / "findings.json", out / "summary.json"]
    paths[0].write_text(md, encoding="utf-8")
    paths[1].write_text(html_report(md, res, title), encoding="utf-8")
    # a lone surrogate (urlwb.generate makes them) -> its JSON escape
    paths[2].write_text(json.dumps(findings_json(res), indent=1, ensure_ascii=False) + "\n", encoding="utf-8",
                        errors="backslashreplace")
    paths[3].write_text(json.dumps(summarize(res), indent=1, ensure_ascii=False) + "\n", encoding="utf-8",
                        errors="backslashreplace")
    return paths


def campaign_round(out_dir: pathlib.Path, seconds: float) -> dict:
    """The campaign's differential round: every WPT input, then generated inputs as many as
    ``seconds`` allow (cost estimated from the WPT pass, at most 10,000), across every available
    parser. Returns {"markdown", "html", "summary"} and writes them into ``out_dir/diff/``."""
    from urlwb import generate
    t0 = time.perf_counter()
    wpt = [(i, b, "wpt") for i, b in generate.wpt_cases()]
    seen = {(i, b) for i, b, _ in wpt}
    probe = diff(wpt[:200], _all_names(), hosts=False, reparse=False)
    per_input = max(1e-6, probe.seconds / max(1, len(probe.items)))
    budget = seconds - (time.perf_counter() - t0) - per_input * len(wpt) * 1.5
    n = int(max(0, min(10_000, budget / (per_input * 1.5))))
    gen = [(i, b, "generated") for i, b in generate.generate(n, seed=0) if (i, b) not in seen]
    res = diff(wpt + gen, _all_names(), reparse=True, hosts=True)
    title = "Differential round"
    paths = write_report(res, pathlib.Path(out_dir) / "diff", title)
    md = paths[0].read_text(encoding="utf-8")
    return {"markdown": md, "html": paths[1].read_text(encoding="utf-8"), "summary": summarize(res)}


def _all_names() -> list[str]:
    from urlwb import oracles
    return list(oracles.REGISTRY)
