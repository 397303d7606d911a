"""The report of ``urlwb mutants``: in the terminal, in Markdown and as one self-contained HTML
page, from the session's mutants (``urlwb.mutation.mutants.collect``).

The kill rate is killed / (killed + survived), equivalent mutants (listed, with a reason, in
``corpus/mutants/equivalent.toml``) left out; mutants cosmic-ray could not apply and mutants not
judged yet are counted apart. A mutant whose engine does not even import is killed by
``import``; the rate without those is given too, as they say nothing of the checks.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict

from urlwb import htmlpage
from urlwb.cliutil import shorten


def _rate(killed: int, survived: int) -> float | None:
    return None if killed + survived == 0 else 100.0 * killed / (killed + survived)


def _pc(rate: float | None) -> str:
    return "—" if rate is None else f"{rate:.1f}%"


def _killer_group(m) -> str:
    return f"{m.killer} ({m.check})" if m.killer in ("timeout", "crash") else m.killer


def summarize(mutants: list, meta: dict) -> dict:
    """The figures: counts, rates, per module and function, killers, times."""
    count = Counter(m.status for m in mutants)
    killed = [m for m in mutants if m.status == "killed"]
    at_import = sum(1 for m in killed if m.killer == "import")

    def rows(key):
        groups = defaultdict(Counter)
        for m in mutants:
            groups[key(m)][m.status] += 1
        return [{"name": name, "killed": c["killed"], "survived": c["survived"],
                 "equivalent": c["equivalent"], "rate": _rate(c["killed"], c["survived"])}
                for name, c in sorted(groups.items())]

    killers = defaultdict(list)
    for m in killed:
        killers[_killer_group(m)].append(m.seconds)
    return {
        "sample": meta.get("sample"), "seed": meta.get("seed"),
        "population": meta.get("population"), "in_annotations": meta.get("in_annotations"),
        "judged": len(mutants) - count["pending"],
        "killed": count["killed"], "survived": count["survived"],
        "survivors_reviewed": sum(1 for m in mutants if m.status == "survived" and m.reason),
        "equivalent": count["equivalent"], "no_mutation": count["no-mutation"],
        "pending": count["pending"], "killed_at_import": at_import,
        "rate": _rate(count["killed"], count["survived"]),
        "rate_without_import": _rate(count["killed"] - at_import, count["survived"]),
        "timeouts": sum(1 for m in killed if m.killer == "timeout"),
        "median_seconds_to_kill": statistics.median([m.seconds for m in killed]) if killed else None,
        "killed_within_5s": sum(1 for m in killed if m.seconds <= 5.0),
        "elapsed_seconds": meta.get("elapsed"),
        "suite_seconds": (meta.get("baseline") or {}).get("__total__"),
        "modules": rows(lambda m: m.module),
        "functions": rows(lambda m: f"{m.module} {m.function}"),
        "killers": sorted(({"killer": k, "killed": len(v), "median_seconds": statistics.median(v)}
                           for k, v in killers.items()), key=lambda r: (-r["killed"], r["killer"])),
    }


def _headline(s: dict) -> list[str]:
    lines = [
        f"sample {s['sample']} (seed {s['seed']}) of cosmic-ray's {s['population']} mutants of engine/ "
        f"(less {s['in_annotations']} in annotations, never evaluated): {s['judged']} judged, "
        f"{s['pending']} pending",
        f"kill rate {_pc(s['rate'])}: {s['killed']} killed, {s['survived']} survived, "
        f"{s['equivalent']} equivalent (left out), {s['no_mutation']} not applicable",
        f"without the {s['killed_at_import']} killed at import: {_pc(s['rate_without_import'])}",
        f"survivors with a reviewed reason (corpus/mutants/survivors.toml): "
        f"{s['survivors_reviewed']} of {s['survived']}",
    ]
    if s["median_seconds_to_kill"] is not None:
        lines.append(f"time to kill: median {s['median_seconds_to_kill']:.1f} s, "
                     f"{s['killed_within_5s']} of {s['killed']} within 5 s; {s['timeouts']} killed by timeout")
    if s["elapsed_seconds"]:
        lines.append(f"the run took {s['elapsed_seconds'] / 60:.1f} min (the whole kill suite "
                     f"on the unmutated engine: {s['suite_seconds'] or 0:.1f} s)")
    return lines


def _survivors(mutants: list) -> list:
    return [m for m in mutants if m.status == "survived"]


def render_terminal(s: dict, mutants: list, problems: list[str]) -> str:
    out = _headline(s) + ["", f"{'module':28} {'killed':>6} {'surv.':>6} {'equiv.':>6} {'rate':>7}"]
    for r in s["modules"]:
        out.append(f"{r['name']:28} {r['killed']:>6} {r['survived']:>6} {r['equivalent']:>6} "
                   f"{_pc(r['rate']):>7}")
    out += ["", f"{'killer':60} {'killed':>6} {'median s':>8}"]
    for r in s["killers"]:
        out.append(f"{shorten(r['killer'], 60):60} {r['killed']:>6} {r['median_seconds']:>8.1f}")
    survivors = _survivors(mutants)
    if survivors:
        out += ["", f"survivors ({len(survivors)}): work items (a check to add, or a reviewed "
                    f"entry of corpus/mutants/equivalent.toml); why each survives, where "
                    f"corpus/mutants/survivors.toml says"]
        for m in survivors:
            original, mutated = _change(m)
            out.append(f"  {m.module}:{m.line} {m.function} [{m.operator}] "
                       f"{shorten(original, 50)!r} -> {shorten(mutated, 50)!r}")
            out.append(f"      {shorten(m.reason, 110) if m.reason else 'not reviewed yet'}")
    out += [f"PROBLEM: {p}" for p in problems]
    return "\n".join(out)


def _change(m) -> tuple[str, str]:
    return (m.key.original, m.key.mutated) if m.key else ("", "")


def render_markdown(s: dict, mutants: list, problems: list[str]) -> str:
    out = ["# Mutation testing of the engine", "", *[f"- {line}" for line in _headline(s)], ""]
    out += [f"**Problem:** {p}" for p in problems]
    out += ["## Per module", "", "| module | killed | survived | equivalent | kill rate |",
            "|---|---:|---:|---:|---:|"]
    out += [f"| `{r['name']}` | {r['killed']} | {r['survived']} | {r['equivalent']} | {_pc(r['rate'])} |"
            for r in s["modules"]]
    out += ["", "## Per function", "", "| function | killed | survived | equivalent | kill rate |",
            "|---|---:|---:|---:|---:|"]
    out += [f"| `{r['name']}` | {r['killed']} | {r['survived']} | {r['equivalent']} | {_pc(r['rate'])} |"
            for r in sorted(s["functions"], key=lambda r: (-r["survived"], r["name"]))]
    out += ["", "## Killers", "", "| check | mutants killed first | median seconds to kill |",
            "|---|---:|---:|"]
    out += [f"| `{r['killer']}` | {r['killed']} | {r['median_seconds']:.1f} |" for r in s["killers"]]
    survivors = _survivors(mutants)
    out += ["", f"## Survivors ({len(survivors)})", ""]
    for m in survivors:
        out += [f"### `{m.module}:{m.line}` {m.function} ({m.operator})", "",
                f"Why it survives: {m.reason}" if m.reason else
                "Not reviewed yet (no entry in corpus/mutants/survivors.toml).", "", "```diff",
                m.diff.rstrip("\n"), "```", ""]
    equivalent = [m for m in mutants if m.status == "equivalent"]
    if equivalent:
        out += [f"## Equivalent ({len(equivalent)}, from corpus/mutants/equivalent.toml)", ""]
        out += [f"- `{m.module}:{m.line}` {m.function} ({m.operator}): {m.reason}" for m in equivalent]
    return "\n".join(out) + "\n"


def render_html(s: dict, mutants: list, problems: list[str]) -> str:
    """The Markdown report as one self-contained page (urlwb.htmlpage)."""
    return htmlpage.page("Mutation testing of the engine", render_markdown(s, mutants, problems))
