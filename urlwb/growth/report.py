"""The growth report: ``reports/growth/report.md``, the same as ``report.html``, and
``summary.json``, each written atomically.

It leads with the findings (parser, version, shape, the minimized count, its ratio and the
engine's), then one row per parser (its worst shape), then the whole matrix parser × shape (each
cell the ratio t(10n)/t(n), flagged ones in bold), then the shapes and where each piece comes
from.
"""

from __future__ import annotations

import json
import pathlib

from urlwb import corpus_store
from urlwb.findings.record import write_findings
from urlwb.growth import findings
from urlwb.growth.measure import FAST, HANG
from urlwb.growth.survey import GrowthResult
from urlwb.cliutil import short
from urlwb.htmlpage import cell, code_cell, page


def _code(s: str, n: int = 40) -> str:
    return code_cell(short(s, n))


def _ms(t: float | None) -> str:
    return "hung" if t is None else f"{t * 1e3:.2f}"


def _ratio(p) -> str:
    if p.ratio is None:
        return "**hang**" if p.verdict == HANG else "hang once (not confirmed)"
    text = f"{p.ratio:.1f}" + ("" if p.exponent is None or p.ratio < 1 else f" (n^{p.exponent:.1f})")
    if "not confirmed" in p.verdict:
        return text + "†"
    return f"**{text}**" if p.flagged else text


def _others(others: dict) -> str:
    return ", ".join(f"{k} ({'hang' if v is None else f'{v:.0f}'})" for k, v in others.items()) or "none"


def markdown(res: GrowthResult, title: str = "Time on long inputs") -> str:
    th = res.thresholds
    lines = [f"# {title}", "",
             f"Each parser's parse time at {res.count:,} and {res.count * res.scale:,} repetitions "
             f"of a piece (the least of {res.runs} runs), its ratio against the engine's "
             f"(`{res.engine_version}`) on the same two inputs. Flagged: ratio above "
             f"max({th.least_ratio:g}, {th.factor:g} × the engine's), or above "
             f"{res.scale}^{th.own_exponent:g} = {res.scale ** th.own_exponent:.1f} from the parser's "
             f"own times alone (n^k: the growth its two times show), with at least "
             f"{th.min_seconds * 1e3:g} ms at the longer length, measured twice, and more than 6 "
             f"times slower at 4 times the longer length (or 4^{th.own_exponent:g} on its own); or no answer "
             f"within the deadline (hang). A linear parser's ratio is about {res.scale}."]
    if res.command:
        lines += ["", f"Command: `{res.command}` ({res.seconds:.0f} s)."]
    lines += ["", "## Findings", ""]
    found = res.findings
    if not found:
        lines.append("None above the threshold.")
    else:
        lines += ["| class | parser | version | shape | minimized: count, ms, ratio | engine ratio | other shapes flagged | filed |",
                  "|---|---|---|---|---|---|---|---|"]
        for row, f in found:
            m = f.minimized
            filed = f"`{f.path}`" if f.path else ("already filed" if f.duplicate else "not filed")
            lines.append(f"| {m.verdict} | {row.name} | {cell(row.version)} | {m.shape.name} "
                         f"({_code(m.shape.make(2))}) | {m.count:,} / {m.count * m.scale:,}: "
                         f"{_ms(m.short)} / {_ms(m.long)} ms, {_ratio(m)} | "
                         f"{m.engine_ratio:.1f} | {_others(f.others)} | {filed} |")
    lines += ["", "## Parsers", "",
              "Worst shape: the highest ratio among the shapes above the time floor (none: every "
              "shape too fast to tell).", "",
              "| parser | language | version | shapes | worst shape | ms at n / 10n | ratio | engine ratio | seconds |",
              "|---|---|---|---|---|---|---|---|---|"]
    for row in res.rows:
        if row.skipped:
            lines.append(f"| {row.name} | {row.language} | | skipped: {cell(row.skipped)} | | | | | |")
            continue
        judged = [p for p in row.points if not p.verdict.startswith(FAST)]
        worst = max(judged, key=lambda p: float("inf") if p.ratio is None else p.ratio, default=None)
        if worst is None:
            lines.append(f"| {row.name} | {row.language} | {cell(row.version)} | {len(row.points)} | "
                         f"none above the time floor | | | | {row.seconds:.1f} |")
            continue
        more = f" (+{row.unmeasured} not measured: time)" if row.unmeasured else ""
        lines.append(f"| {row.name} | {row.language} | {cell(row.version)} | {len(row.points)}{more} | "
                     f"{worst.shape.name} | {_ms(worst.short)} / {_ms(worst.long)} | {_ratio(worst)} | "
                     f"{worst.engine_ratio:.1f} | {row.seconds:.1f} |")
    lines += ["", "## Every ratio", "", "t(10n)/t(n) per parser and shape (— not measured); "
              "*italic*: below the time floor, too fast to tell; † above the limit once, not confirmed "
              "(measured again, or at 40n).", ""]
    names = [r.name for r in res.rows if r.points]
    lines.append("| shape | engine | " + " | ".join(names) + " |")
    lines.append("|---|---|" + "---|" * len(names))
    by = {(r.name, p.shape.name): p for r in res.rows for p in r.points}
    engine_ratio = {p.shape.name: p.engine_ratio for r in res.rows for p in r.points}
    for shape in res.shapes:
        cells = []
        for n in names:
            p = by.get((n, shape.name))
            if p is None:
                cells.append("—")
            elif p.verdict.startswith("too fast") and p.ratio is not None:
                cells.append(f"*{p.ratio:.1f}*")
            else:
                cells.append(_ratio(p))
        er = engine_ratio.get(shape.name)
        lines.append(f"| {shape.name} | {'—' if er is None else f'{er:.1f}'} | " + " | ".join(cells) + " |")
    lines += ["", "## Shapes", "", "| shape | input (piece twice) | the piece comes from |", "|---|---|---|"]
    for s in res.shapes:
        lines.append(f"| {s.name} | {_code(s.make(2))} | {cell(s.source)} |")
    return "\n".join(lines) + "\n"


def summary(res: GrowthResult) -> dict:
    return {
        "count": res.count, "scale": res.scale, "runs": res.runs, "seconds": round(res.seconds, 1),
        "thresholds": vars(res.thresholds), "engine": res.engine_version,
        "findings": [{"class": f.minimized.verdict, "parser": r.name, "version": r.version,
                      "shape": f.minimized.shape.name, "count": f.minimized.count,
                      "other_shapes": f.others,
                      "ratio": f.minimized.ratio, "engine_ratio": f.minimized.engine_ratio,
                      "filed": f.path} for r, f in res.findings],
        "parsers": {r.name: {"version": r.version, "skipped": r.skipped, "shapes": len(r.points),
                             "unmeasured": r.unmeasured, "flagged": len(r.findings),
                             "ratios": {p.shape.name: p.ratio for p in r.points}}
                    for r in res.rows},
    }


def write(res: GrowthResult, out: pathlib.Path, title: str = "Time on long inputs") -> list[pathlib.Path]:
    md = markdown(res, title)
    files = {out / "report.md": md.encode("utf-8", "backslashreplace"),
             out / "report.html": page(title, md).encode("utf-8", "backslashreplace"),
             out / "summary.json": (json.dumps(summary(res), indent=1) + "\n").encode("utf-8")}
    for path, data in files.items():
        corpus_store.atomic_write(path, data)
    # findings.jsonl: each finding judged by its parser's contract
    return list(files) + [write_findings(out, findings.records(res))]
