"""The campaign report: Markdown, and the same as one self-contained HTML page (the Markdown
rendered by urlwb.htmlpage, with inline SVG plots).

It is rendered from the campaign's record (``urlwb.campaign.run``): per target executions,
exec/s, libFuzzer coverage over time, corpus size, the engine's branch coverage before and after
the round, findings with their minimized inputs; then the differential round, when there is one.
"""

from __future__ import annotations

import html

from urlwb.campaign.record import CampaignRecord, TargetRun
from urlwb.cliutil import shorten
from urlwb.htmlpage import figure, page

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39")


def _pc(value) -> str:
    return "—" if value is None else f"{value:.1f}%"


def _delta(before, after) -> str:
    if before is None or after is None:
        return "—"
    return f"{before:.1f}% → {after:.1f}%" + (f" (+{after - before:.1f})" if after > before else "")


def svg_timeline(timeline: list, *, width: int = 260, height: int = 70, color: str = PALETTE[0],
                 label: str = "") -> str:
    """A small line plot of libFuzzer's ``cov`` against elapsed seconds (inline SVG)."""
    points = [(t[0], t[2]) for t in timeline]
    pad = 4
    if len(points) < 2:
        return (f'<svg width="{width}" height="{height}" role="img" aria-label="{html.escape(label)}">'
                f'<text x="{pad}" y="{height // 2}" font-size="11" fill="#888">too few status lines</text></svg>')
    t0, t1 = points[0][0], max(points[-1][0], points[0][0] + 1e-9)
    c0 = min(c for _, c in points)
    c1 = max(max(c for _, c in points), c0 + 1)

    def xy(t, c):
        x = pad + (width - 2 * pad) * (t - t0) / (t1 - t0)
        y = height - pad - 12 - (height - 2 * pad - 14) * (c - c0) / (c1 - c0)
        return f"{x:.1f},{y:.1f}"

    path = " ".join(xy(t, c) for t, c in points)
    return (f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{html.escape(label)}">'
            f'<polyline fill="none" stroke="{color}" stroke-width="1.6" points="{path}"/>'
            f'<text x="{pad}" y="{height - 2}" font-size="10" fill="#555">'
            f'cov {c0}→{points[-1][1]} in {t1 - t0:.0f}s</text></svg>')


def svg_overview(targets: list[TargetRun], *, width: int = 640, height: int = 220) -> str:
    """Every target's coverage growth on one plot, each relative to its own start (percent)."""
    pad_l, pad_b, pad = 40, 22, 8
    series = []
    for i, t in enumerate(targets):
        pts = [(p[0], p[2]) for p in t.timeline]
        if len(pts) >= 2 and pts[0][1] > 0:
            series.append((t.target, PALETTE[i % len(PALETTE)],
                           [(s - pts[0][0], 100.0 * (c - pts[0][1]) / pts[0][1]) for s, c in pts]))
    if not series:
        return ""
    tmax = max(p[0] for _, _, pts in series for p in pts) or 1.0
    gmax = max(max(p[1] for _, _, pts in series for p in pts), 1.0)
    out = [f'<svg width="{width}" height="{height + 16 * ((len(series) + 3) // 4)}" '
           f'role="img" aria-label="coverage growth per target">',
           f'<line x1="{pad_l}" y1="{height - pad_b}" x2="{width - pad}" y2="{height - pad_b}" stroke="#999"/>',
           f'<line x1="{pad_l}" y1="{pad}" x2="{pad_l}" y2="{height - pad_b}" stroke="#999"/>',
           f'<text x="{pad_l}" y="{height - 6}" font-size="10">0s</text>',
           f'<text x="{width - pad - 30}" y="{height - 6}" font-size="10">{tmax:.0f}s</text>',
           f'<text x="2" y="{pad + 8}" font-size="10">+{gmax:.0f}%</text>',
           f'<text x="2" y="{height - pad_b}" font-size="10">+0%</text>']
    for name, color, pts in series:
        coords = " ".join(
            f"{pad_l + (width - pad_l - pad) * s / tmax:.1f},"
            f"{height - pad_b - (height - pad_b - pad) * g / gmax:.1f}" for s, g in pts)
        out.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.5" points="{coords}">'
                   f'<title>{html.escape(name)}</title></polyline>')
    for i, (name, color, _) in enumerate(series):
        x, y = pad_l + (i % 4) * 150, height + 12 + 16 * (i // 4)
        out.append(f'<rect x="{x}" y="{y - 9}" width="10" height="10" fill="{color}"/>'
                   f'<text x="{x + 14}" y="{y}" font-size="11">{html.escape(name)}</text>')
    out.append("</svg>")
    return "".join(out)


#: the bar's letter for each round (anything else: "o"); "#" is fuzzing, "." idle
BAR_LETTERS = {"differential round": "d", "long-input round": "l", "triage": "t",
               "triage of earlier artifacts": "t", "coverage before": "c", "coverage after": "c",
               "report": "r", "report again": "r"}
BAR_WIDTH = 60


def time_bar(c: CampaignRecord, width: int = BAR_WIDTH) -> list[str]:
    """Where the minutes went, as one text bar of the machine's core-seconds (its cores times
    the campaign's wall seconds): fuzzing (each run's processes times its seconds), each other
    round (its processes times its seconds), and what is left: idle, or work outside the
    rounds (the campaign's own Python, the machine's other users). Then one line a part."""
    wall = max(1e-9, c.wall_seconds)
    capacity = max(1, c.cores) * wall
    fuzz = c.fuzz_core_seconds()
    parts: dict[str, list] = {}
    for row in c.rounds:
        if row["round"] == "fuzzing":
            continue
        name = "report" if row["round"] == "report again" else row["round"]
        part = parts.setdefault(name, [0.0, 0.0, row["processes"], row["start"]])
        part[0] += row["processes"] * row["seconds"]
        part[1] += row["seconds"]
    used = fuzz + sum(p[0] for p in parts.values())
    total = max(capacity, used)
    segments = [("#", fuzz)] + [(BAR_LETTERS.get(n, "o"), p[0]) for n, p in parts.items()] \
        + [(".", total - used)]
    exact = [width * v / total for _, v in segments]
    cells = [int(x) for x in exact]
    for i in sorted(range(len(exact)), key=lambda i: exact[i] - cells[i], reverse=True)[:width - sum(cells)]:
        cells[i] += 1
    bar = "".join(ch * n for (ch, _), n in zip(segments, cells))
    runs = len(c.targets)
    startup = sum(t.startup for t in c.targets)
    cpu = sum(t.cpu_seconds for t in c.targets)
    lines = [f"where the minutes went: {c.cores} cores x {wall:.0f} s wall = {capacity:.0f} core-seconds "
             f"(schedule {c.schedule}, --jobs {c.jobs})",
             f"  [{bar}]",
             f"  # fuzzing {fuzz:.0f} core-s: {fuzz / wall:.2f} per wall-second; {runs} runs of "
             f"{len({t.target for t in c.targets})} targets, {startup:.0f} s of it start-up, "
             f"{cpu:.0f} CPU-s"]
    for name, (core_s, seconds, processes, start) in parts.items():
        lines.append(f"  {BAR_LETTERS.get(name, 'o')} {name} {core_s:.0f} core-s ({seconds:.0f} s, "
                     f"{processes} process{'es' if processes != 1 else ''}, from {start:.0f} s)")
    if used > capacity:
        lines.append(f"  . none idle: the rounds' processes asked for {used - capacity:.0f} core-s more "
                     f"than the cores have (they shared them)")
    else:
        lines.append(f"  . idle or outside the rounds {capacity - used:.0f} core-s")
    return lines


def render_markdown(c: CampaignRecord) -> str:
    lines = [f"# Fuzzing campaign {c.stamp}", "",
             f"A {c.minutes:g}-minute round over {len({t.target for t in c.targets})} targets "
             f"({c.wall_seconds:.0f} s wall time in all), engine {c.engine_commit}.", "",
             f"- executions: {sum(t.execs for t in c.targets):,}",
             *([f"- seed of the differential round's generated inputs: {c.seed} "
                f"(`urlwb campaign --seed {c.seed}` repeats them)"] if c.seed is not None else []),
             *([f"- note: {c.coverage_note}"] if c.coverage_note else []),
             f"- engine branch coverage by the fuzz corpora: {_delta(c.branch_before, c.branch_after)}"
             + ("" if c.branch_after is not None else " (not measured: `urlwb campaign --coverage` "
                "measures it with coverage.py; libFuzzer's cov is in the Targets table)"),
             f"- new findings: {len(c.new_findings)}; duplicates of filed ones: {c.duplicates}; "
             f"open findings in corpus/*/regress/: {c.open_total}"
             + (f"; findings.jsonl: {c.findings_written['records']} records ({c.findings_written['bug']} bugs, "
                f"{c.findings_written['hazard']} hazards), each with its verdict" if c.findings_written else ""), "",
             "## Where the minutes went", "",
             "Each round's core-seconds (its processes times its wall seconds; a fuzzing run's "
             "processes times its seconds) on the machine's cores times the campaign's wall time. "
             "The rounds and runs, with their start, are in run.json (with the writing of this "
             "report, which the bar here cannot hold).", "",
             "```", *time_bar(c), "```", "",
             "## Coverage growth", "",
             "libFuzzer's edge coverage of the engine over the round, each target relative to its "
             "start (a plot in the HTML page).", "", figure("coverage"), "",
             "## Targets", "",
             "One row a run: a target the schedule came back to has more than one.", "",
             "| target | from | seconds | processes | start-up | ended | executions | exec/s | libFuzzer cov | corpus | engine branch coverage | crashes | new |",
             "|---|---:|---:|---:|---:|---|---:|---:|---|---:|---|---:|---:|"]
    for t in c.targets:
        lines.append(f"| {t.target} | {t.start:.0f} | {t.seconds:.0f} | {t.processes} | {t.startup:.1f} | "
                     f"{t.ended or '—'} | {t.execs:,} | {t.exec_per_s:.0f} | "
                     f"{t.cov_start or 0} → {t.cov_end} | {t.corpus} | "
                     f"{_delta(t.branch_before, t.branch_after)} | {t.crashes} | {t.new} |")
    lines += ["", "## Findings", ""]
    if not c.new_findings:
        lines.append("No new finding in this round.")
    for f in c.new_findings:
        lines += [f"### {f['target']}: `{f['signature']}`", "",
                  f"- entry: `{f['path']}` ({f['size']} bytes, minimized from {f['original_size']})",
                  f"- input: `{f['preview']}`", f"- bytes (hex): `{f['hex']}`",
                  f"- replay: `urlwb replay {f['target']}`", "", "```", f["detail"], "```", ""]
    if c.open_findings:
        lines += ["", "## Open findings (all rounds)", "", "| target | signature | input | note |", "|---|---|---|---|"]
        for f in c.open_findings:
            lines.append(f"| {f['target']} | `{f['signature']}` | `{f['preview']}` | {shorten(f['note'], 120)} |")
    if c.round_errors:
        lines += ["", "## Rounds that failed", "",
                  "Each was caught; the campaign went on without it.", ""]
        for e in c.round_errors:
            lines += [f"### {e['round']}: {e['error']}", "", "```", e["traceback"].rstrip(), "```", ""]
    lines += ["", "## Differential round", ""]
    diff = c.diff or {}
    if diff.get("markdown"):   # its headings nested under this section's
        lines += ["##" + x if x.startswith("#") else x for x in diff["markdown"].splitlines()]
    else:
        lines.append(f"Skipped: {diff.get('skipped', 'not run')}.")
    lines += ["", "## Time on long inputs", ""]
    growth = c.growth or {}
    if growth.get("markdown"):
        lines += ["##" + x if x.startswith("#") else x for x in growth["markdown"].splitlines()]
    else:
        lines.append(f"Skipped: {growth.get('skipped', 'not run')}.")
    lines += ["", "## Reproduce", "", "```", f"urlwb campaign --minutes {c.minutes:g}"
              + (f" --schedule {c.schedule}" if c.schedule != "gain" else ""),
              "urlwb list --findings", "urlwb replay", "```", ""]
    return "\n".join(lines)


def render_html(c: CampaignRecord) -> str:
    """The report's Markdown as one HTML page (urlwb.htmlpage), with the coverage plots."""
    plots = "".join(
        f"<figure style='display:inline-block;margin:4px'>"
        f"{svg_timeline(t.timeline, color=PALETTE[i % len(PALETTE)], label=t.target)}"
        f"<figcaption>{html.escape(t.target)}</figcaption></figure>"
        for i, t in enumerate(c.targets))
    return page(f"Fuzzing campaign {c.stamp}", render_markdown(c),
                {"coverage": svg_overview(c.targets) + "<div>" + plots + "</div>"})
