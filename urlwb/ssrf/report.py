"""``urlwb ssrf``'s report: the confusion matrix (rows validators, columns fetchers, each cell the
number of bypass inputs and the shortest witness), every fetcher's destination on each witness,
the history of a validator's releases, and what went wrong with a validator; in the terminal,
and as Markdown and HTML (:func:`urlwb.htmlpage.page`) plus ``bypasses.json``, written atomically.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib

from urlwb import corpus_store
from urlwb.cliutil import short
from urlwb.htmlpage import code_cell, page


@dataclasses.dataclass
class Run:
    """Everything a report shows."""

    validators: dict[str, dict]          # name -> {"version", "what", "counts", "findings", "incidents"}
    fetchers: dict[str, dict]            # name -> {"version", "resolver", "language"}
    skipped: dict[str, str]              # name -> one-line reason (validators and fetchers)
    policy: str
    seed: int
    minutes: float
    inputs: int
    systematic: int
    seconds: dict[str, float]
    cells: dict[tuple[str, str], dict]   # (v, f) -> {"count", "categories", "witness", "destination"}
    witnesses: dict[str, dict[str, str]]  # witness -> fetcher -> destination shown (+ " DENIED: cat")
    history: list[dict]                  # {"old", "new", "cells": {f: {"count", "witness", "destination"}}, "still": n}
    filed: list[str]
    guided: list[str] = dataclasses.field(default_factory=list)
    #: the observation's section (urlwb.ssrf.observe.report.markdown), when clients fetched
    observed: list[str] = dataclasses.field(default_factory=list)
    #: ``--inputs FILE``: the file the inputs came from (no hunt, no random inputs, no minimizing)
    inputs_file: str | None = None


def _cell_md(s: str, n: int = 60) -> str:
    return code_cell(short(s, n))


def terminal(run: Run) -> str:
    lines = []
    v_names = list(run.validators)
    f_names = [f for f in run.fetchers if any((v, f) in run.cells for v in v_names)]
    lines.append(f"bypasses (inputs the validator allows where the fetcher connects to a denied destination), "
                 f"{run.inputs:,} inputs, policy {run.policy}:")
    if not run.cells:
        lines.append("  none found")
    else:
        width = max(len(v) for v in v_names)
        lines.append("  " + " " * width + " " + " ".join(f"{i + 1:>5}" for i in range(len(f_names))))
        for v in v_names:
            row = [f"{run.cells[(v, f)]['count']:>5}" if (v, f) in run.cells else f"{'·':>5}" for f in f_names]
            lines.append(f"  {v:<{width}} " + " ".join(row))
        lines.append("  columns: " + ", ".join(f"{i + 1} {f}" for i, f in enumerate(f_names)))
        lines.append("shortest witnesses:")
        for (v, f), c in sorted(run.cells.items()):
            lines.append(f"  {v} / {f}: {short(c['witness'], 70)} -> {c['destination']}")
    for h in run.history:
        n = sum(c["count"] for c in h["cells"].values())
        lines.append(f"history {h['old']} -> {h['new']}: {n} (input, fetcher) bypasses the old allows and the new denies; "
                     f"the new still has {h['still']}")
        for f, c in sorted(h["cells"].items()):
            lines.append(f"  {f}: {short(c['witness'], 70)} -> {c['destination']}")
    for name, v in run.validators.items():
        for cls, what, inp, reason in v["findings"][:5]:
            lines.append(f"finding: {name} {cls} ({what}) on {short(inp, 50)}: {short(reason, 80)}")
    return "\n".join(lines)


def summary(run: Run) -> list[str]:
    """One row per validator: fetchers it is bypassed through, bypass inputs, the shortest
    witness over every fetcher and where it goes, and the shortest one whose destination host
    is an address (not a name such as localhost)."""
    out = ["| validator | version | fetchers bypassed | (input, fetcher) bypasses | shortest witness → destination (fetcher) "
           "| shortest to an address host |", "|---|---|---|---|---|---|"]
    n_f = len(run.fetchers)
    for name, v in run.validators.items():
        cells = {f: c for (vv, f), c in run.cells.items() if vv == name}
        if not cells:
            out.append(f"| {name} | {v['version']} | 0 of {n_f} | 0 | none found | |")
            continue
        pairs = [(per["witness"], per["destination"], f) for f, c in cells.items() for per in c["witnesses"].values()]
        best = min(pairs, key=lambda t: (len(t[0]), t[0], t[2]))
        addr = [t for t in pairs if "DNS name" not in t[1]]
        best_a = min(addr, key=lambda t: (len(t[0]), t[0], t[2])) if addr else None
        total = sum(c["count"] for c in cells.values())
        out.append(f"| {name} | {v['version']} | {len(cells)} of {n_f} | {total:,} | "
                   f"{_cell_md(best[0], 40)} → {_cell_md(best[1], 40)} ({best[2]}) | "
                   + (f"{_cell_md(best_a[0], 40)} → {_cell_md(best_a[1], 40)} ({best_a[2]})" if best_a else "") + " |")
    return out


def history_summary(run: Run) -> list[str]:
    out = ["| older → newer | (input, fetcher) pairs the older allows, the newer denies | shortest witness → destination (fetcher) "
           "| shortest to an address host | the newer still allows |", "|---|---|---|---|---|"]
    for h in run.history:
        cells = h["cells"]
        n = sum(c["count"] for c in cells.values())
        pairs = [(c["witness"], c["destination"], f) for f, c in cells.items() if "witness" in c]
        best = min(pairs, key=lambda t: (len(t[0]), t[0], t[2])) if pairs else None
        addr = [t for t in pairs if t[2].endswith("(address)")]
        best_a = min(addr, key=lambda t: (len(t[0]), t[0], t[2])) if addr else None
        show = lambda t: f"{_cell_md(t[0], 40)} → {_cell_md(t[1], 40)} ({t[2]})" if t else "none"  # noqa: E731
        out.append(f"| {h['old']} → {h['new']} | {n:,} | {show(best)} | {show(best_a)} | {h['still']:,} |")
    return out


def _what_ran(run: Run) -> str:
    """The report's first sentence: the inputs and how they were found (a hunt, or ``--inputs``)."""
    if run.inputs_file is not None:
        return (f"{run.inputs:,} inputs from {run.inputs_file} (--inputs): each judged and modelled once; "
                "no hunt, no random inputs, no minimizing.")
    return (f"{run.inputs:,} inputs (the guided finds if any, {run.systematic:,} systematic, then random ones from "
            f"seed {run.seed}); hunt {run.seconds.get('hunt', 0):.0f} s of {run.minutes:g} min, minimizing "
            f"{run.seconds.get('minimize', 0):.0f} s.")


def markdown(run: Run) -> str:
    v_names = list(run.validators)
    f_names = list(run.fetchers)
    out = ["# SSRF report: validators against fetchers", "",
           _what_ran(run) + f" Denied: {run.policy}. A bypass is an input the "
           "validator allows on which the fetcher's parser reads a host its resolver makes a denied "
           "destination (no network, no DNS: `urlwb/ssrf/resolvers.py`).", "",
           *(["Coverage-guided runs (their bypass inputs were sent first):", ""]
             + [f"- {g}" for g in run.guided] + [""] if run.guided else []),
           "## Validators", "", "| validator | version | what it checks | answered | denied by error | crashed | hung |",
           "|---|---|---|---|---|---|---|"]
    for name, v in run.validators.items():
        c = v["counts"]
        out.append(f"| {name} | {v['version']} | {_cell_md(v['what'], 90)} | {c.get('answered', 0):,} | "
                   f"{c.get('rejected', 0):,} | {c.get('crashed', 0):,} | {c.get('hung', 0):,} |")
    out += ["", "## Fetchers", "", "| fetcher | language | version | resolver |", "|---|---|---|---|"]
    for name, f in run.fetchers.items():
        out.append(f"| {name} | {f['language']} | {f['version']} | {f['resolver']} |")
    if run.skipped:
        out += ["", "Skipped: " + "; ".join(f"{n} ({r})" for n, r in run.skipped.items()) + "."]
    out += ["", "## Summary", ""] + summary(run)
    if run.history:
        out += ["", "History (details below):", ""] + history_summary(run)
    out += ["", "## Confusion matrix", "",
            "Rows: validators (`--oracle`); columns: fetchers (`--parsers`); each cell: the number of bypass inputs, and the shortest "
            "witness (minimized).", "",
            "| validator | " + " | ".join(f_names) + " |", "|---|" + "---|" * len(f_names)]
    for v in v_names:
        cells = []
        for f in f_names:
            c = run.cells.get((v, f))
            cells.append(f"{c['count']:,}: {_cell_md(c['witness'], 50)}" if c else "·")
        out.append(f"| {v} | " + " | ".join(cells) + " |")
    if run.cells:
        out += ["", "## Bypasses", "", "Each cell's shortest witness of each category, minimized.", "",
                "| validator | fetcher | category | inputs | shortest witness | destination |",
                "|---|---|---|---|---|---|"]
        for (v, f), c in sorted(run.cells.items()):
            for cat, per in c["witnesses"].items():
                out.append(f"| {v} | {f} | {cat} | {c['categories'][cat]:,} | {_cell_md(per['witness'], 80)} | "
                           f"{_cell_md(per['destination'], 60)} |")
        out += ["", "## Destinations of each witness", "",
                "What every fetcher computed: its parser's host, then its resolver's reading.", ""]
        for w, dests in run.witnesses.items():
            out += [f"### {_cell_md(w, 120)}", "", "| fetcher | destination |", "|---|---|"]
            out += [f"| {f} | {_cell_md(d, 80)} |" for f, d in dests.items()]
            out.append("")
    if run.history:
        out += ["", "## History", ""]
        for h in run.history:
            n = sum(c["count"] for c in h["cells"].values())
            out += [f"### {h['old']} → {h['new']}", "",
                    f"{n:,} (input, fetcher) bypasses that {h['old']} allows and {h['new']} judges denied (allow: false, not an error); "
                    f"{h['new']} still allows {h['still']:,}.", ""]
            if h["cells"]:
                out += ["| fetcher (destination host) | inputs | shortest witness | destination |", "|---|---|---|---|"]
                out += [f"| {f} | {c['count']:,} | {_cell_md(c['witness'], 80)} | {_cell_md(c['destination'], 60)} |"
                        for f, c in sorted(h["cells"].items())]
                out.append("")
    findings = [(n, *f) for n, v in run.validators.items() for f in v["findings"]]
    incidents = [(n, i) for n, v in run.validators.items() for i in v["incidents"]]
    if findings or incidents:
        out += ["", "## Validator findings", "", "A crash, a hang or an answer out of schema; the run went on.", ""]
        out += [f"- {n}: {cls} ({what}) on {_cell_md(inp, 60)}: {_cell_md(reason, 120)}"
                for n, cls, what, inp, reason in findings[:50]]
        out += [f"- {n}: incident: {_cell_md(i, 160)}" for n, i in incidents[:20]]
    if run.filed:
        out += ["", "## Filed", "", f"{len(run.filed)} new regress entries in corpus/ssrf/regress/."]
    if run.observed:
        out += [""] + run.observed
    return "\n".join(out) + "\n"


def write(run: Run, out: pathlib.Path) -> list[pathlib.Path]:
    md = markdown(run)
    data = {"policy": run.policy, "seed": run.seed, "inputs": run.inputs,
            "validators": {n: {k: v[k] for k in ("version", "what")} | {"counts": dict(v["counts"])}
                           for n, v in run.validators.items()},
            "fetchers": run.fetchers, "skipped": run.skipped,
            "cells": [{"validator": v, "fetcher": f, **c} for (v, f), c in sorted(run.cells.items())],
            "history": run.history}
    files = {out / "report.md": md.encode("utf-8", "backslashreplace"),
             out / "report.html": page("SSRF report", md).encode("utf-8", "backslashreplace"),
             out / "bypasses.json": (json.dumps(data, indent=1, ensure_ascii=True) + "\n").encode("ascii")}
    for path, blob in files.items():
        corpus_store.atomic_write(path, blob)
    return list(files)
