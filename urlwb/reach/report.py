"""The reach report: ``reports/reach/report.md``, the same as ``report.html``, and
``summary.json``, each written atomically; and the terminal table.

Per parser: its tool, its files, functions entered of those the tool knows, lines (or
statements) and branches (or blocks) run, over all its code and over the functions some input
entered (the code the inputs can reach); then, per parser, the largest functions never entered
and the entered functions with the most branches never taken, each with file:line.
"""

from __future__ import annotations

import json
import pathlib

from urlwb import corpus_store
from urlwb.htmlpage import cell, page
from urlwb.reach.model import Reach, percent




def rows(reaches: list[Reach]) -> list[tuple[str, ...]]:
    out = []
    for r in reaches:
        a, e = r.totals(), r.totals(entered_only=True)
        out.append((r.parser, r.language, r.version, r.tool.split(" (")[0],
                    f"{a['entered']}/{a['functions']}",
                    f"{percent(a['lines_hit'], a['lines'])} of {a['lines']} {r.unit}",
                    f"{percent(a['branches_hit'], a['branches'])} of {a['branches']} {r.branch_unit}" if r.branch_unit else "—",
                    f"{percent(e['lines_hit'], e['lines'])}",
                    f"{percent(e['branches_hit'], e['branches'])}" if r.branch_unit else "—",
                    f"{r.seconds:.1f}"))
    return out


HEADER = ("parser", "language", "version", "tool", "functions entered", "lines (all)",
          "branches (all)", "lines (entered functions)", "branches (entered functions)", "s")


def terminal(reaches: list[Reach], skipped: dict[str, str]) -> str:
    table = [HEADER, *rows(reaches)]
    widths = [max(len(r[i]) for r in table) for i in range(len(HEADER))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines += [f"{name}: not measured: {why}" for name, why in skipped.items()]
    return "\n".join(lines)


def markdown(reaches: list[Reach], skipped: dict[str, str], inputs: str, command: str, top: int) -> str:
    lines = ["# Reach of each parser's own code", "",
             f"Inputs: {inputs}. Command: `{command}`.", "",
             "What each parser's own code (its parsing module or package, never the adapter) "
             "executes of itself on these inputs, by its language's own tool. *Entered "
             "functions*: those some input entered; their lines and branches are the code the "
             "inputs can reach, and a branch missed there is one an input could take.", "",
             "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows(reaches)]
    if skipped:
        lines += ["", "## Not measured", ""] + [f"- **{n}**: {cell(w)}" for n, w in skipped.items()]
    for r in reaches:
        lines += ["", f"## {r.parser} ({r.language}, {r.version})", "",
                  f"Tool: {r.tool}. Files: {', '.join(f'`{f}`' for f in r.files) or 'none'}. "
                  f"{r.inputs:,} inputs, {r.seconds:.1f} s." + (f" {r.note}" if r.note else "")]
        never = r.never_entered()
        lines += ["", f"Functions never entered: {len(never)} (largest first, top {top}).", ""]
        if never:
            lines += [f"| function | file:line | {r.unit} |", "|---|---|---|"]
            lines += [f"| `{cell(f.name)}` | `{cell(f.file)}:{f.line}` | {f.lines} |" for f in never[:top]]
        missed = r.missed_in_entered()
        what = r.branch_unit or "blocks"
        lines += ["", f"Entered functions with {what} never taken: {len(missed)} (most first, top {top}).", ""]
        if missed:
            lines += [f"| function | file:line | {r.unit} run | {what} run | lines of what is never taken |",
                      "|---|---|---|---|---|"]
            for f in missed[:top]:
                b = "—" if f.branches is None else f"{f.branches_hit}/{f.branches}"
                where = ", ".join(str(x) for x in f.missed[:12]) + (" …" if len(f.missed) > 12 else "")
                lines.append(f"| `{cell(f.name)}` | `{cell(f.file)}:{f.line}` | {f.lines_hit}/{f.lines} | {b} | {where} |")
    return "\n".join(lines) + "\n"


def summary(reaches: list[Reach], skipped: dict[str, str], inputs: str, command: str) -> dict:
    return {"inputs": inputs, "command": command, "not_measured": skipped,
            "parsers": {r.parser: {"language": r.language, "version": r.version, "tool": r.tool,
                                   "unit": r.unit, "branch_unit": r.branch_unit, "files": r.files,
                                   "all": r.totals(), "entered": r.totals(entered_only=True),
                                   "never_entered": [f"{f.file}:{f.line} {f.name}" for f in r.never_entered()],
                                   "seconds": round(r.seconds, 1)} for r in reaches}}


def write(reaches, skipped, inputs: str, command: str, out: pathlib.Path, top: int = 20) -> list[pathlib.Path]:
    md = markdown(reaches, skipped, inputs, command, top)
    title = "Reach of each parser's own code"
    files = {out / "report.md": md.encode("utf-8", "backslashreplace"),
             out / "report.html": page(title, md).encode("utf-8", "backslashreplace"),
             out / "summary.json": (json.dumps(summary(reaches, skipped, inputs, command), indent=1) + "\n").encode("utf-8")}
    for path, data in files.items():
        corpus_store.atomic_write(path, data)
    return list(files)
