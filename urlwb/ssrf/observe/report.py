"""The observations in a report: per input and client, the listener reached (straight, and after
a redirect), the model-versus-observation agreement and where they part, the clients' troubles.
Markdown lines, for ``urlwb ssrf``'s report (:mod:`urlwb.ssrf.report`) and the terminal.
"""

from __future__ import annotations

from urlwb.cliutil import short
from urlwb.ssrf.observe.model import Pair, agreement
from urlwb.ssrf.observe.observe import Fetch, Observed


def _md(s: str, n: int = 60) -> str:
    return "`" + short(s, n).replace("`", "'").replace("|", "\\|") + "`"


def cell(f: Fetch | None) -> str:
    """What a fetch came to, in a few characters: the listener reached, else the error class."""
    if f is None:
        return "·"
    if f.trouble is not None:
        return f"**{f.trouble.what}**"
    if f.reached is not None:
        return f.reached + (" (tls)" if f.tls else "")
    if f.note and f.answer is None:
        return "not tried"
    err = (f.answer or {}).get("error") or "no connection"
    return "✗ " + short(err.rsplit(".", 1)[-1], 24)


def per_client(pairs: list[Pair]) -> dict[str, tuple[int, int]]:
    """client -> (pairs that agree, pairs compared)."""
    out: dict[str, tuple[int, int]] = {}
    for p in pairs:
        a, n = out.get(p.client, (0, 0))
        out[p.client] = (a + p.agree, n + 1)
    return out


def markdown(obs: Observed, pairs: list[Pair], allowed: dict[str, dict[str, bool]] | None = None) -> list[str]:
    names = list(obs.clients)
    out = ["## Observed: where real clients connected", "",
           f"Network: {obs.network_line}. Clients: "
           + ", ".join(f"{n} {v}" for n, v in obs.clients.items()) + "."]
    if obs.skipped:
        out += ["", "Clients skipped: " + "; ".join(f"{n} ({r})" for n, r in obs.skipped.items()) + "."]
    agree, total = agreement(pairs)
    if total:
        out += ["", f"Model against observation (direct fetches, address reached): **{agree} of {total} "
                    f"(input, client) pairs agree, {100 * agree / total:.0f}%**. By client: "
                    + ", ".join(f"{c} {a}/{n}" for c, (a, n) in per_client(pairs).items()) + "."]
    out += ["", "Each cell: the listener the client reached directly (address:port), else its error; "
                "then after `302 Location: INPUT`.", "",
            "| input | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    by = {(s.input, s.client): s for s in obs.seen}
    inputs = list(dict.fromkeys(s.input for s in obs.seen))
    for s in inputs:
        row = []
        for n in names:
            x = by.get((s, n))
            row.append(f"{cell(x.direct if x else None)} / {cell(x.redirect if x else None)}")
        allow = ""
        if allowed:
            yes = [v for v, a in allowed.items() if a.get(s)]
            allow = f" (allowed by {len(yes)} of {len(allowed)})" if yes else ""
        out.append(f"| {_md(s, 50)}{allow} | " + " | ".join(row) + " |")
    parted = [p for p in pairs if not p.agree]
    if parted:
        out += ["", "### Where the model and the observation part", "",
                "| input | client | model | observed |", "|---|---|---|---|"]
        out += [f"| {_md(p.input, 50)} | {p.client} | {_md(p.model_shown, 50)} → {p.model or 'nothing'} | "
                f"{p.observed or 'nothing'} |" for p in parted[:300]]
    troubles = [(s, via, f) for s in obs.seen for via, f in (("direct", s.direct), ("redirect", s.redirect))
                if f is not None and f.trouble is not None]
    if troubles:
        out += ["", "### Clients that crashed or hung", ""]
        out += [f"- {s.client} {f.trouble.what} on {_md(s.input)} ({via}): {_md(f.trouble.detail, 120)}"
                for s, via, f in troubles[:50]]
    return out


def terminal(obs: Observed, pairs: list[Pair]) -> list[str]:
    agree, total = agreement(pairs)
    lines = [f"observed {len(obs.seen):,} (input, client) pairs through {len(obs.clients)} clients ({obs.network_line})"]
    for n, r in obs.skipped.items():
        lines.append(f"  client {n} skipped: {r}")
    if total:
        lines.append(f"model against observation: {agree} of {total} pairs agree ({100 * agree / total:.0f}%; "
                     + ", ".join(f"{c} {a}/{n}" for c, (a, n) in per_client(pairs).items()) + ")")
    for s in obs.seen[:40]:
        lines.append(f"  {short(s.input, 40):<42} {s.client:<16} {cell(s.direct):<24} redirect: {cell(s.redirect)}")
    if len(obs.seen) > 40:
        lines.append(f"  ... {len(obs.seen) - 40:,} more in observed.jsonl")
    return lines
