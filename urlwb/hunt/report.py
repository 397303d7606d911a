"""The report of one hunt: Markdown, the same as one HTML page, and ``summary.json``.

Everything in it is measured in that run: the fuzzer's executions and exec/s, the inputs it kept,
reach in the parser's own code from the generated inputs and after hunting, and each signature the
hunted inputs show (new: the generated inputs do not show it), with its shortest input and, when
filed, its minimized input and regress entry.
"""

from __future__ import annotations

import json
import pathlib

from urlwb import corpus_store, htmlpage
from urlwb.cliutil import short
from urlwb.htmlpage import code_cell


def _reach(r) -> str:
    if r is None:
        return "—"
    if isinstance(r, dict):
        return f"{r['branch_percent']}% of branches ({r['branches']}/{r['of']}; coverage.py total {r['percent']}%)"
    return str(r)


def render(s: dict) -> str:
    judged = f"{s['judged']:,} inputs" if s["judged_on"] else "no (--no-judge)"
    lines = [f"# urlwb hunt {s['parser']}", "",
             f"`{s['command']}`", "",
             f"{s['parser']} {s['version']} ({s['language']}), guided by the coverage of "
             f"{', '.join(f'`{m}`' for m in s['instrument'])}; seeds: {s['seeds']:,} inputs "
             + (f"(WPT, then `generate.generate({s['generate']}, seed={s['seed']})`, inputs only), "
                if s.get("seed_kind", "wpt") == "wpt" else
                f"(`urlwb.hunt.seeds.grammar_inputs({s['generate']}, seed={s['seed']})`: the grammar alone, no WPT input), ")
             + 
             f"dictionary `fuzzers/fuzz_url.dict`.", "",
             "| | |", "|---|---|",
             f"| fuzzing | {s['seconds']:.0f} s, {s['execs']:,} executions, {s['exec_per_s']:,.0f} exec/s |",
             f"| kept by the fuzzer | {s['kept']:,} inputs beyond the seeds |",
             f"| libFuzzer edges (seeds loaded → end) | {s['cov_start'] if s['cov_start'] is not None else '—'} → {s['cov_end'] if s['cov_end'] is not None else '—'} |",
             f"| reach of the generated inputs | {_reach(s['reach_generated'])} |",
             f"| reach after hunting | {_reach(s['reach_hunted'])} |",
             f"| judged | {judged} |",
             f"| signatures in the generated inputs | {s['generated_signatures']} |",
             f"| signatures in the hunted inputs | {len(s['findings'])} ({sum(f['new'] for f in s['findings'])} new) |",
             f"| distilled | {s['distilled']} inputs in `{s['distilled_dir']}` |" if s['distilled_dir']
             else "| distilled | no: not the shipped release |", ""]
    for stop in s["stops"]:
        lines.append(f"- {stop}")
    if s["stops"]:
        lines.append("")
    if s["findings"]:
        lines += ["## What the hunted inputs show", "",
                  "| signature | new vs generated | inputs | shortest input | minimized | filed |",
                  "|---|---|---|---|---|---|"]
        for f in sorted(s["findings"], key=lambda f: (not f["new"], f["signature"])):
            lines.append(f"| {code_cell(f['signature'])} | {'**new**' if f['new'] else 'also generated'} | "
                         f"{f['count']} | {code_cell(short(f['input'], 60))} | "
                         f"{code_cell(short(f['minimized'], 60)) if f['minimized'] else '—'} | "
                         f"{code_cell(f['filed']) if f['filed'] else '—'} |")
        lines.append("")
    lines += _history(s.get("history"))
    return "\n".join(lines)


KINDS = {"fixed": "fixed: the old release shows it, the new one agrees with the Standard",
         "still": "still: both releases show it",
         "changed": "changed: the new release disagrees otherwise",
         "regressed": "regressed: only the new release shows it"}


def _history(h: dict | None) -> list[str]:
    if not h:
        return []
    if h.get("skipped"):
        return [f"## {h['old']} against {h['new']}", "", f"Not compared: {h['skipped']}.", ""]
    lines = [f"## {h['old']} ({h['old_version']}) against {h['new']} ({h['new_version']})", "",
             f"{h['inputs']:,} inputs (the seeds and what the fuzzer kept), each asked of the engine "
             f"and both releases.", ""]
    for kind, title in KINDS.items():
        rows = [c for c in h["changes"] if c["kind"] == kind]
        lines += [f"### {title} ({len(rows)})", ""]
        if not rows:
            lines += ["none", ""]
            continue
        if kind in ("fixed", "regressed"):
            lines += ["| signature | inputs | first shown by | minimized | in WPT | engine | old | new | filed |",
                      "|---|---|---|---|---|---|---|---|---|"]
            for c in rows:
                a = c.get("answers") or {}
                vals = list(a.values()) + ["—"] * (3 - len(a))
                lines.append(f"| {code_cell(c['signature'])} | {c['count']} | {c['seen_in']} | "
                             f"{code_cell(short(c['minimized'] or c['input'], 50))} | {'yes' if c.get('in_wpt') else 'no'} | "
                             + " | ".join(code_cell(short(v, 40)) for v in vals[:3])
                             + f" | {code_cell(c['filed']) if c.get('filed') else '—'} |")
        else:
            lines += ["| signature | inputs | first shown by | shortest input |", "|---|---|---|---|"]
            for c in rows:
                lines.append(f"| {code_cell(c['signature'])} | {c['count']} | {c['seen_in']} | {code_cell(short(c['input'], 60))} |")
        lines.append("")
    return lines


def json_text(obj) -> str:
    """``obj`` as JSON, readable (non-ASCII as itself) unless a lone surrogate (an input that
    is not valid UTF-16, as fuzzers make them) needs ``\\u`` escapes to be written as UTF-8."""
    text = json.dumps(obj, indent=1, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(obj, indent=1)
    return text


def write(summary: dict, out: pathlib.Path) -> list[pathlib.Path]:
    md = render(summary)
    paths = [out / "report.md", out / "report.html", out / "summary.json"]
    corpus_store.atomic_write(paths[0], md.encode("utf-8"))
    corpus_store.atomic_write(paths[1], htmlpage.page(f"urlwb hunt {summary['parser']}", md).encode("utf-8"))
    corpus_store.atomic_write(paths[2], json_text(summary).encode("utf-8"))
    return paths
