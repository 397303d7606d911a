"""The differential's reports: the terminal table, the Markdown report and its HTML page, the
JSON files (``findings.json`` for ``urlwb export-wpt``, ``summary.json``, and one file per parser
outside the WHATWG family for its maintainers).

https://url.spec.whatwg.org/#url-parsing

The Markdown report leads with what a security reviewer looks for first:

1. the confusion matrix, parser × kind of confusion (the classes of the 2022 Claroty/Snyk study,
   scheme, slashes, backslash, URL-encoded data, scheme mixup, and the report's other classes),
   each cell a count of inputs on which that parser reads otherwise than the Standard and its
   shortest witness, linked to the witness's full row (every parser's answer);
2. the inputs on which two parsers both accept and read different hosts (the SSRF class), per
   pair of languages;
3. the browsers beside the Standard: where Chromium, Firefox and the Standard disagree, with the
   WPT test the input resembles;

then the parsers (version, time, answered / rejected / crashed / hung / not applicable), the
agreement matrix, the counts per class, the known deviations, the witnesses, the host-level
oracles. The HTML page is the same Markdown, rendered (:mod:`urlwb.htmlpage`).
"""

from __future__ import annotations

import datetime
import json
import pathlib
import re
from collections import Counter, defaultdict

from urlwb import corpus_store, oracles
from urlwb.differential import classify, findings
from urlwb.differential import generate
from urlwb.cliutil import short
from urlwb.differential.run import DiffResult, Finding
from urlwb.htmlpage import code_cell, page

WITNESSES = 3
#: rows per group in the browsers' section
BROWSER_ROWS = 12
BROWSERS = ("chromium", "firefox")


answer = oracles.answer_text   # the one renderer of an answer


def language(name: str) -> str:
    entry = oracles.REGISTRY.get(name)
    return "the Standard (engine)" if name == "engine" else (entry.language if entry else "?")


# --- the terminal ------------------------------------------------------------------------------

def terminal_table(res: DiffResult) -> str:
    lines = []
    by_input = defaultdict(list)
    for f in res.findings:
        by_input[f.index].append(f)
    ref = res.reference
    notes: dict[str, int] = {}
    width = max(map(len, res.parsers), default=6)
    for idx, (inp, base, _) in enumerate(res.items):
        size = f"  ({len(inp):,} code points)" if len(inp) > 200 else ""
        lines.append(f"input '{short(inp, 200)}'" + (f"  base '{short(base, 120)}'" if base is not None else "") + size)
        lines.append(f"  {'parser':<{width}} {'host':<24} {'answer':<56} verdict vs {ref}")
        for name in res.parsers:
            r = res.records[name][idx]
            verdict = "(reference)" if name == ref else "="
            for f in by_input[idx]:
                if f.a == ref and f.b == name:
                    verdict = classify.TITLES[f.cls].split(" (")[0] + (f" via {f.cause}" if f.cause else "")
                    if f.known:
                        notes.setdefault(f.known, len(notes) + 1)
                        verdict += f"  [known deviation {notes[f.known]}]"
                elif f.a == f.b == name:
                    verdict += "; reparse differs"
            host = "" if r is None or not r.ok else ("(null)" if r.host is None else r.host)
            missing = (f"n/a: longer than the {res.limits[name]:,} code points it takes"
                       if name in res.limits and len(inp) > res.limits[name] else "n/a")
            lines.append(f"  {name:<{width}} {short(host, 24):<24} {short(answer(r, missing), 56):<56} {verdict}")
        lines.append("")
    lines += [f"[known deviation {n}] {why}" for why, n in notes.items()]
    lines.append(versions_line(res))
    return "\n".join(lines)


def sandbox_line(parsers) -> str | None:
    """How the foreign adapters among ``parsers`` (those run outside the process) ran: one line
    (``urlwb.sandbox.describe``: without network, under which caps), None when there were none."""
    from urlwb import sandbox
    foreign = [n for n in parsers if n in oracles.REGISTRY and oracles.REGISTRY[n].spec is not None]
    return f"sandbox: {sandbox.describe()} ({len(foreign)} here)" if foreign else None


def versions_line(res: DiffResult) -> str:
    v = ", ".join(f"{n} {res.versions[n]}" for n in res.versions)
    s = "; ".join(f"{n}: {why}" for n, why in res.skipped.items())
    return f"versions: {v}" + (f"\nskipped: {s}" if s else "")


# --- figures -----------------------------------------------------------------------------------

def summarize(res: DiffResult) -> dict:
    """The figures of a run, JSON-ready (computed once per result)."""
    if res.summary is None:
        res.summary = _summarize(res)
    return res.summary


def _summarize(res: DiffResult) -> dict:
    ref = res.reference
    against_ref = defaultdict(list)
    for f in res.findings:
        if f.a == ref and f.b != ref:
            against_ref[f.b].append(f)
    unstable = Counter(f.a for f in res.findings if f.a == f.b)
    per_parser = {}
    for name in res.parsers:
        rows = against_ref.get(name, [])
        recs = res.records[name]
        cost = res.cost.get(name, 0.0)
        per_parser[name] = {
            "version": res.versions.get(name, "?"),
            "family": oracles.family(name),
            "language": language(name),
            "seconds": round(cost, 3),
            "inputs_per_second": round(len(recs) / cost) if cost else None,
            "us_per_input": round(1e6 * cost / max(1, len(recs)), 1),
            "compared": res.compared.get((ref, name), res.compared.get((name, ref), 0)) if name != ref else len(recs),
            "failures": sum(1 for r in recs if r is not None and r.failure),
            "crashes": sum(1 for r in recs if r is not None and r.crash),
            "answers": answer_counts(recs),
            "incidents": res.incidents.get(name, []),
            "disagreements": sum(1 for f in rows if not f.known),
            "known": sum(1 for f in rows if f.known),
            "unstable": unstable.get(name, 0),
            "by_class": dict(Counter(f.cls for f in rows if not f.known)),
            "by_confusion": dict(Counter(classify.confusion(f.cls, f.cause) for f in rows if not f.known)),
        }
    sources = Counter(s for _, _, s in res.items)
    return {"inputs": len(res.items), "sources": dict(sources), "reference": ref,
            "parsers": per_parser, "skipped": res.skipped, "versions": res.versions,
            "seconds": round(res.seconds, 2),
            "languages": sorted({p["language"] for p in per_parser.values()}),
            "host_splits": {f"{a} / {b}": n for (a, b), (n, _) in res.host_splits.items()},
            "host_oracles": {n: {"compared": c, "disagreements": sum(1 for h in res.host_findings if h["oracle"] == n)}
                             for n, c in res.host_compared.items()}}


def answer_counts(recs: list) -> dict[str, int]:
    """A parser's records counted as answered / rejected / crashed / hung / not applicable."""
    c = Counter("not applicable" if r is None else "hung" if r.hung else "crashed" if r.crash
                else "rejected" if r.failure else "answered" for r in recs)
    return {k: c.get(k, 0) for k in ("answered", "rejected", "crashed", "hung", "not applicable")}


def summary_text(res: DiffResult) -> str:
    s = summarize(res)
    lines = [f"{s['inputs']} inputs ({', '.join(f'{k} {v}' for k, v in s['sources'].items())}), "
             f"reference {s['reference']}, {len(s['parsers'])} parsers in {len(s['languages'])} "
             f"languages, {s['seconds']} s wall time"]
    lines.append(f"  {'parser':<28} {'language':<11} {'version':<26} {'s':>6} {'inputs/s':>9} "
                 f"{'answered':>8} {'rejected':>8} {'crashed':>7} {'hung':>5} {'n/a':>6} "
                 f"{'differ':>7} {'known':>6} {'unstable':>8}")
    for name, p in s["parsers"].items():
        a = p["answers"]
        lines.append(f"  {name:<28} {p['language'][:11]:<11} {p['version'][:26]:<26} "
                     f"{p['seconds']:>6.2f} {p['inputs_per_second'] or 0:>9,} "
                     f"{a['answered']:>8} {a['rejected']:>8} {a['crashed']:>7} {a['hung']:>5} "
                     f"{a['not applicable']:>6} {p['disagreements']:>7} {p['known']:>6} {p['unstable']:>8}")
        for line in p["incidents"]:
            lines.append(f"  {'':<28} {line}")
    for name, h in s["host_oracles"].items():
        lines.append(f"  {name:<28} host-level: {h['compared']} questions, {h['disagreements']} differ")
    for name, why in s["skipped"].items():
        lines.append(f"  skipped {name}: {why}")
    return "\n".join(lines)


# --- the Markdown report -----------------------------------------------------------------------

def _length(res: DiffResult, idx: int) -> tuple:
    inp, base, _ = res.items[idx]
    return len(inp) + len(base or ""), inp


def _headline(res: DiffResult, idxs, a: str, b: str) -> int:
    """The input a table heads a cell with: the shortest on which ``a`` and ``b`` both accept
    the input as a URL a client fetches and read two different hosts (a host confusion:
    :func:`classify.host_read`), else the shortest on which they merely differ. The shortest
    difference alone is a poor headline: in the userinfo class it was ``sc://@/`` (an empty
    userinfo of a non-special URL) where a second '@' sent two parsers to two hosts (issue 27)."""
    idxs = set(idxs)
    confused = [i for i in idxs if _host_confusion(res, i, a, b)]
    return min(confused or idxs, key=lambda i: _length(res, i))


def _host_confusion(res: DiffResult, idx: int, a: str, b: str) -> bool:
    ha, hb = classify.host_read(res.records[a][idx]), classify.host_read(res.records[b][idx])
    return ha is not None and hb is not None and ha != hb


def _md_cell(s: str, n: int = 80) -> str:
    return code_cell(short(s, n))


class _Witnesses:
    """The inputs a report quotes, each given one "Witness N" row with every parser's answer."""

    def __init__(self):
        self.order: dict[int, int] = {}

    def link(self, res: DiffResult, idx: int, n: int = 60) -> str:
        number = self.order.setdefault(idx, len(self.order) + 1)
        return f"[{_md_cell(res.items[idx][0], n)}](#witness-{number})"

    def section(self, res: DiffResult) -> list[str]:
        out = ["", "## Witnesses", "",
               "Every parser's answer on each input the tables above quote.", ""]
        for idx, number in sorted(self.order.items(), key=lambda kv: kv[1]):
            inp, base, source = res.items[idx]
            out += [f"### Witness {number}", "",
                    f"Input {_md_cell(inp, 300)}" + (f", base {_md_cell(base, 200)}" if base is not None else "")
                    + f" ({source}; ingredients: {', '.join(classify.ingredients(inp)) or 'none'}).", "",
                    "| parser | language | host | answer |", "|---|---|---|---|"]
            for name in res.parsers:
                r = res.records[name][idx]
                host = "" if r is None or not r.ok else ("(null)" if r.host is None else _md_cell(r.host, 40))
                out.append(f"| {name} | {language(name)} | {host} | {_md_cell(answer(r), 100)} |")
            out.append("")
        return out


def _confusion_matrix(res: DiffResult, w: _Witnesses) -> list[str]:
    ref = res.reference
    cells: dict[tuple[str, str], list[int]] = defaultdict(list)
    for f in res.findings:
        if f.a == ref and f.b != ref and not f.known:
            cells[f.b, classify.confusion(f.cls, f.cause)].append(f.index)
    columns = [c for c in classify.CONFUSIONS if any(k[1] == c for k in cells)]
    rows = [n for n in res.parsers if n != ref]
    out = ["## Confusion matrix: parser × kind of confusion", "",
           f"Inputs on which the parser reads otherwise than {ref} (the Standard), by the kind of "
           "confusion behind the difference (for a different host or a rejection, the "
           "ingredient of the input that caused it); each cell: the count, and its headline "
           "witness, linked to every parser's answer on it: the shortest input on which the two "
           "read different hosts (marked \"hosts differ\"), else the shortest that differs at "
           "all. Known, documented deviations are "
           "left out (see below).", ""]
    if not columns:
        return out + ["No disagreement.", ""]
    out += ["| parser | language | " + " | ".join(columns) + " |", "|---|---" + "|---" * len(columns) + "|"]
    for name in rows:
        row = []
        for c in columns:
            idxs = cells.get((name, c))
            if not idxs:
                row.append("")
                continue
            unique = set(idxs)
            head = _headline(res, unique, ref, name)
            mark = " (hosts differ)" if _host_confusion(res, head, ref, name) else ""
            row.append(f"{len(unique)}: {w.link(res, head, 24)}{mark}")
        out.append(f"| **{name}** | {language(name)} | " + " | ".join(row) + " |")
    out += ["", "Kinds: " + "; ".join(f"**{c}**: {classify.TITLES.get(c, 'anything else')}"
                                      for c in columns) + ".", ""]
    return out


def _host_splits(res: DiffResult, w: _Witnesses) -> list[str]:
    by_languages: dict[tuple[str, str], list] = defaultdict(list)
    for (a, b), (n, idx) in res.host_splits.items():
        la, lb = sorted((language(a), language(b)))
        by_languages[la, lb].append((n, idx, a, b))
    out = ["## Both accept, different hosts: the SSRF class, per pair of languages", "",
           "Inputs on which two parsers both accept the input as a URL a client fetches (http, "
           "https, ws, wss, ftp) and read two different hosts (compared in one spelling: "
           "lowercase, IP addresses canonical, Unicode domains in ASCII): a check made with one "
           "and a request made with the other go to two places.", ""]
    if not by_languages:
        return out + ["None.", ""]
    out += ["| languages | parser pairs | inputs (most for one pair) | shortest witness | hosts read |",
            "|---|---:|---:|---|---|"]
    for (la, lb), rows in sorted(by_languages.items(), key=lambda kv: -max(r[0] for r in kv[1])):
        n, idx, a, b = min(rows, key=lambda r: _length(res, r[1]))
        most = max(rows)
        ha = classify.host_read(res.records[a][idx])
        hb = classify.host_read(res.records[b][idx])
        out.append(f"| {la} × {lb} | {len(rows)} | {most[0]} ({most[2]} / {most[3]}) | "
                   f"{w.link(res, idx)} | {a}: {_md_cell(ha, 30)}, {b}: {_md_cell(hb, 30)} |")
    return out + [""]


_SHAPE = re.compile(r"[A-Za-z0-9]+")


def _shape(s: str) -> str:
    return _SHAPE.sub("a", s)


def _resembles(wpt_by_shape: dict, inp: str) -> str:
    """The WPT urltestdata input of the same shape (letters and digits runs folded), if any."""
    match = wpt_by_shape.get(_shape(inp))
    return _md_cell(match, 40) if match is not None else ""


def _browsers(res: DiffResult, w: _Witnesses) -> list[str]:
    present = [b for b in BROWSERS if b in res.parsers]
    ref = res.reference
    if not present or ref is None:
        return []
    differs = {b: {f.index for f in res.findings if f.a == ref and f.b == b and not f.known} for b in present}
    wpt_by_shape = {}
    for i, _ in generate.wpt_cases():
        wpt_by_shape.setdefault(_shape(i), i)
    groups: dict[str, list[int]] = defaultdict(list)
    for idx in set().union(*differs.values()):
        against = [b for b in present if idx in differs[b]]
        if len(present) == 2 and len(against) == 2:
            rb = [classify.key(res.records[b][idx], False) for b in present]
            label = "both browsers agree, against the Standard" if rb[0] == rb[1] else "all three differ"
        else:
            label = f"{against[0]} alone"
        groups[label].append(idx)
    out = ["## Browsers beside the Standard", "",
           f"Inputs on which {' or '.join(present)} reads otherwise than the Standard ({ref}), "
           "known deviations left out; the shortest of each group, with the WPT urltestdata "
           "input of the same shape, if any.", ""]
    if not groups:
        return out + ["None.", ""]
    header = "| input | base | Standard | " + " | ".join(present) + " | resembles WPT |"
    for label in sorted(groups, key=lambda g: -len(groups[g])):
        idxs = sorted(groups[label], key=lambda i: _length(res, i))
        out += [f"### {label}: {len(idxs)} inputs", "", header, "|---" * (4 + len(present)) + "|"]
        for idx in idxs[:BROWSER_ROWS]:
            inp, base, _ = res.items[idx]
            out.append(f"| {w.link(res, idx, 40)} | {_md_cell(base, 30) if base is not None else ''} | "
                       f"{_md_cell(answer(res.records[ref][idx]), 50)} | "
                       + " | ".join(_md_cell(answer(res.records[b][idx]), 50) for b in present)
                       + f" | {_resembles(wpt_by_shape, inp)} |")
        out.append("")
    return out


def _matrix(res: DiffResult) -> list[list[str]]:
    rows = []
    for a in res.parsers:
        row = []
        for b in res.parsers:
            k = (a, b) if (a, b) in res.compared else (b, a)
            n = res.compared.get(k, 0)
            row.append("–" if not n else f"{100 * (n - res.disagree.get(k, 0)) / n:.0f}")
        rows.append(row)
    return rows


def _witness_rows(res: DiffResult) -> dict[tuple[str, str, str], list[Finding]]:
    groups: dict[tuple[str, str, str], list[Finding]] = defaultdict(list)
    for f in res.findings:
        if not f.known:
            groups[f.cls, f.a, f.b].append(f)
    out = {}
    for k, fs in groups.items():
        # host confusions first (see _headline), each group shortest first
        fs.sort(key=lambda f: (f.a == f.b or not _host_confusion(res, f.index, f.a, f.b), _length(res, f.index)))
        uniq, seen = [], set()
        for f in fs:
            if f.index not in seen:
                seen.add(f.index)
                uniq.append(f)
            if len(uniq) == WITNESSES:
                break
        out[k] = uniq
    return dict(sorted(out.items(), key=lambda kv: (classify.RANK.get(kv[0][0], 99), kv[0][1], kv[0][2])))


def markdown(res: DiffResult, title: str = "Differential report", note: str = "") -> str:
    """The report's Markdown; ``note``, when given, is a paragraph under the opening line."""
    s = summarize(res)
    w = _Witnesses()
    when = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    out = [f"# {title}", "",
           f"{s['inputs']} inputs ({', '.join(f'{k}: {v}' for k, v in s['sources'].items())}); "
           f"{len(s['parsers'])} parsers in {len(s['languages'])} languages "
           f"({', '.join(s['languages'])}); reference parser **{s['reference']}**; "
           f"{s['seconds']} s wall time; {when}.", ""]
    if note:
        out += [note, ""]
    out += _confusion_matrix(res, w)
    out += _host_splits(res, w)
    out += _browsers(res, w)
    out += ["## Parsers", "",
            "| parser | family | language | version | s | inputs/s | answered | rejected | crashed | hung | not applicable | differ from reference | known deviations | reparse unstable |",
            "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, p in s["parsers"].items():
        a = p["answers"]
        out.append(f"| {name} | {p['family']} | {p['language']} | {p['version']} | {p['seconds']:.2f} | "
                   f"{p['inputs_per_second'] or ''} | {a['answered']} | {a['rejected']} | {a['crashed']} | "
                   f"{a['hung']} | {a['not applicable']} | {p['disagreements']} | "
                   f"{p['known']} | {p['unstable']} |")
    for name, h in s["host_oracles"].items():
        out.append(f"| {name} | host | {language(name)} | {res.versions.get(name, '?')} | | | | | | | | "
                   f"{h['disagreements']} of {h['compared']} questions | | |")
    confined = sandbox_line(res.parsers)
    if confined:
        out += ["", confined]
    for name, p in s["parsers"].items():
        for line in p["incidents"]:
            out.append(f"\n**{name}** {line}")
    for name, why in s["skipped"].items():
        out.append(f"\nSkipped **{name}**: {why}")
    out += ["", "## Agreement matrix (% of inputs on which the two agree)", "",
            "| | " + " | ".join(res.parsers) + " |", "|---" * (len(res.parsers) + 1) + "|"]
    for name, row in zip(res.parsers, _matrix(res)):
        out.append(f"| **{name}** | " + " | ".join(row) + " |")
    out += ["", "Two WHATWG parsers are compared strictly, any other pair leniently (spellings that "
            "mean the same URL count as agreement). The diagonal is reparse stability.", "",
            f"## Disagreements with {s['reference']}, per class and parser (known deviations excluded)", ""]
    others = [n for n in res.parsers if n != res.reference]
    out += ["| class | " + " | ".join(others) + " |", "|---" * (len(others) + 1) + "|"]
    for cls, title_ in classify.CLASSES:
        counts = [s["parsers"][n]["by_class"].get(cls, 0) for n in others]
        if any(counts):
            out.append(f"| {title_} | " + " | ".join(str(c) for c in counts) + " |")
    known = Counter((f.b, f.known) for f in res.findings if f.known and f.a == res.reference)
    if known:
        out += ["", "## Known deviations (tagged, not re-reported)", "", "| parser | inputs | reason |", "|---|---:|---|"]
        for (name, why), n in sorted(known.items()):
            out.append(f"| {name} | {n} | {why} |")
    out += ["", "## Shortest witnesses per (class, parser)", "",
            "Inputs on which the two read different hosts first (see the confusion matrix), then the "
            "others, each group shortest first.", ""]
    cur = None
    for (cls, a, b), fs in _witness_rows(res).items():
        if cls != cur:
            out += ["", f"### {classify.TITLES[cls]}", "", "| pair | input | base | answer A | answer B |", "|---|---|---|---|---|"]
            cur = cls
        for f in fs:
            inp, base, _ = res.items[f.index]
            ans_b = answer((res.reparsed.get(b) or res.records[b])[f.index]) if a == b else answer(res.records[b][f.index])
            pair = f"{a} / {b}" + (" (reparse)" if a == b else "") + (f" via {f.cause}" if f.cause else "")
            out.append(f"| {pair} | {_md_cell(inp)} | {_md_cell(base) if base is not None else ''} | "
                       f"{_md_cell(answer(res.records[a][f.index]))} | {_md_cell(ans_b)} |")
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
    out += w.section(res)
    return "\n".join(out) + "\n"


# --- JSON --------------------------------------------------------------------------------------

def _record_json(r) -> dict | str | None:
    if r is None:
        return None
    if r.crash or r.failure:
        return answer(r)
    return {f: getattr(r, f) for f in ("scheme", "username", "password", "host", "port", "path",
                                       "query", "fragment", "href")}


def findings_json(res: DiffResult) -> list[dict]:
    """Every disagreement of a WHATWG-family parser with the reference (known ones tagged), and
    every reparse instability, for ``urlwb export-wpt`` (the other parsers' are in
    ``parsers/<name>.json``)."""
    out = []
    for f in res.findings:
        if f.a != res.reference and f.a != f.b or oracles.family(f.b) != "whatwg":
            continue
        peer = f.b
        inp, base, source = res.items[f.index]
        out.append({"input": inp, "base": base, "source": source, "class": f.cls, "cause": f.cause,
                    "confusion": classify.confusion(f.cls, f.cause),
                    "reference": res.reference, "parser": peer, "family": oracles.family(peer),
                    "version": res.versions.get(peer, "?"),
                    "known": f.known, "fields": list(f.fields),
                    "reference_answer": answer(res.records[res.reference][f.index]),
                    "parser_answer": answer(res.records[peer][f.index]) if f.a != f.b
                    else answer(res.reparsed[peer][f.index])})
    return out


#: cases per parser in parsers/<name>.json (the shortest; the file says how many there were)
PER_PARSER_CASES = 1000


def per_parser_json(res: DiffResult) -> dict[str, list[dict]]:
    """For each parser outside the WHATWG family: what it reads otherwise than the Standard, one
    case per input (the shortest first, at most PER_PARSER_CASES), with the Standard's reading
    beside its own, for its maintainers to turn into tests or documentation."""
    out: dict[str, list[dict]] = defaultdict(list)
    seen = set()
    for f in sorted(res.findings, key=lambda f: _length(res, f.index)):
        if f.a != res.reference or f.b == f.a or oracles.family(f.b) == "whatwg" or f.known:
            continue
        if (f.b, f.index) in seen or len(out[f.b]) >= PER_PARSER_CASES:
            continue
        seen.add((f.b, f.index))
        inp, base, _ = res.items[f.index]
        out[f.b].append({"input": inp, "base": base, "class": f.cls, "confusion":
                         classify.confusion(f.cls, f.cause), "differing": list(f.fields),
                         "standard": _record_json(res.records[res.reference][f.index]),
                         "parser": _record_json(res.records[f.b][f.index])})
    return dict(out)


def _json_bytes(value, indent: int | None = None) -> bytes:
    # A parser may answer with a lone surrogate (a Java or JavaScript string can hold one): in a
    # JSON string, backslashreplace writes it as its own escape (\udc80), which reads back as is.
    # (Large files unindented, one value a line: json's C encoder, five times as fast.)
    if indent is None and isinstance(value, list):
        text = "[\n" + ",\n".join(json.dumps(v, ensure_ascii=False) for v in value) + "\n]"
    else:
        text = json.dumps(value, indent=indent, ensure_ascii=False)
    return (text + "\n").encode("utf-8", "backslashreplace")


def _parser_file(header: dict, cases: list[dict]) -> bytes:
    """One JSON object: the header's fields, then "cases", one case a line."""
    fields = "".join(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},\n" for k, v in header.items())
    body = ",\n  ".join(json.dumps(c, ensure_ascii=False) for c in cases)
    return ("{\n" + fields + f' "cases": [\n  {body}\n ]\n}}\n').encode("utf-8", "backslashreplace")


def write_report(res: DiffResult, out: pathlib.Path, title: str = "Differential report",
                 note: str = "") -> list[pathlib.Path]:
    """report.md, report.html, findings.json, summary.json, findings.jsonl (each finding judged by
    its parser's contract, :mod:`urlwb.differential.findings`), and parsers/<parser>.json per parser
    outside the WHATWG family; every file written atomically (a full disk is one line). ``note``:
    a paragraph under the report's opening line (:func:`markdown`)."""
    md = markdown(res, title, note)
    files = {out / "report.md": md.encode("utf-8", "backslashreplace"),
             out / "report.html": page(title, md).encode("utf-8", "backslashreplace"),
             out / "findings.json": _json_bytes(findings_json(res)),
             out / "summary.json": _json_bytes(summarize(res), indent=1)}
    totals = summarize(res)["parsers"]
    for name, cases in per_parser_json(res).items():
        files[out / "parsers" / f"{name}.json"] = _parser_file({
            "parser": name, "language": language(name), "version": res.versions.get(name, "?"),
            "standard": f"{res.reference} {res.versions.get(res.reference, '')}".strip(),
            "inputs_that_differ": totals[name]["disagreements"], "cases_shown": len(cases)}, cases)
    for path, data in files.items():
        corpus_store.atomic_write(path, data)
    # findings.jsonl: each disagreement judged by its parser's contract
    return list(files)[:4] + [findings.write_findings(res, out)]
