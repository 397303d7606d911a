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
             f"(WPT, then `generate.generate({s['generate']}, seed={s['seed']})`, inputs only), "
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
             f"| distilled | {s['distilled']} inputs in `{s['distilled_dir']}` |", ""]
    for stop in s["stops"]:
        lines.append(f"- {stop}")
    if s["stops"]:
        lines.append("")
    if s["findings"]:
        lines += ["## What the hunted inputs show", "",
                  "| signature | new vs generated | inputs | shortest input | minimized | filed |",
                  "|---|---|---|---|---|---|"]
        for f in sorted(s["findings"], key=lambda f: (not f["new"], f["signature"])):
            lines.append(f"| `{f['signature']}` | {'**new**' if f['new'] else 'also generated'} | "
                         f"{f['count']} | `{short(f['input'], 60)}` | "
                         f"{'`' + short(f['minimized'], 60) + '`' if f['minimized'] else '—'} | "
                         f"{'`' + f['filed'] + '`' if f['filed'] else '—'} |")
        lines.append("")
    return "\n".join(lines)


def write(summary: dict, out: pathlib.Path) -> list[pathlib.Path]:
    md = render(summary)
    paths = [out / "report.md", out / "report.html", out / "summary.json"]
    corpus_store.atomic_write(paths[0], md.encode("utf-8"))
    corpus_store.atomic_write(paths[1], htmlpage.page(f"urlwb hunt {summary['parser']}", md).encode("utf-8"))
    corpus_store.atomic_write(paths[2], json.dumps(summary, indent=1, ensure_ascii=False).encode("utf-8"))
    return paths
