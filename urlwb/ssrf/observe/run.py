"""``urlwb ssrf``'s observation step, in both of its uses:

- ``urlwb ssrf --inputs FILE``: the user's inputs (one URL a line; a line beginning ``# `` is a
  comment; a trailing CR is dropped) in place of the generated ones. Every validator judges
  every input, the resolver model reads every input through each client's parser, and every
  client fetches every input in its sealed network; ``--out`` gets ``observed.jsonl``,
  ``findings.jsonl``, ``agreement.jsonl`` (one line per (input, client) the model was compared
  on) and the report.
- after a generated hunt: the model is the fast pre-filter over many inputs, and what it flagged
  (each cell's minimized witnesses) is then observed (:func:`observe_flagged`).
"""

from __future__ import annotations

import json
import pathlib
import shlex
from collections.abc import Callable

from urlwb import corpus_store, progress
from urlwb.errors import UsageError
from urlwb.findings import record
from urlwb.oracles import contracts
from urlwb.ssrf.observe import clients, findings, model, observe, report

NONE = "none"


def client_names(spec: str | None) -> list[str] | None:
    """``--clients``: None for every declared client, [] for none, else the names."""
    if spec is None:
        return None
    if spec.strip() == NONE:
        return []
    names = [n.strip() for n in spec.split(",") if n.strip()]
    known = clients.declared()
    for n in names:
        if n not in known:
            raise UsageError(f"--clients: no client {n!r} (clients: {', '.join(known)}, or none)")
    return names


def read_inputs(path: pathlib.Path) -> list[str]:
    """The inputs of ``--inputs FILE``, in order, each once."""
    try:
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError as exc:
        raise UsageError(f"--inputs: cannot read {path}: {exc.strerror or exc}") from None
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]
    out = list(dict.fromkeys(ln for ln in lines if ln and not ln.startswith("# ")))
    if not out:
        raise UsageError(f"--inputs: {path} holds no input (one URL a line)")
    return out


def policy_flags(deny: str | None, allow: str | None) -> str:
    """The run's ``--deny`` and ``--allow``, as flags to repeat in a reproducing command."""
    return "".join(f" {flag} {shlex.quote(v)}" for flag, v in (("--deny", deny), ("--allow", allow)) if v)


def model_parsers(names: list[str] | None) -> list[str]:
    """The URL parsers the model reads the given clients by (every client's when None)."""
    chosen = clients.declared() if names is None else names
    return list(dict.fromkeys(p for c in chosen if (p := model.MODEL_OF.get(c))))


def loopback_gate(dests: dict) -> Callable[[str, str], str | None]:
    """For a run without a network namespace: a client fetches an input only when the model
    (its parser's host through its resolver, ``dests[parser][input]``) says it connects to a
    loopback address (127.0.0.0/8, ::1, or 0.0.0.0 and :: as Linux reads them). Else the reason it
    was not: a client with no model (httpx), a name (DNS is not cut off there), any other address."""
    def gate(client: str, input: str) -> str | None:
        parser = model.MODEL_OF.get(client)
        if parser is None:
            return observe.NOT_FETCHED + "no model of this client to say it stays on loopback"
        dest = dests.get(parser, {}).get(input)
        addr = model.predicted(dest) if dest is not None else None
        if addr is None or not observe.loopback_address(addr):
            return (observe.NOT_FETCHED + f"the model reads it as {addr or 'no address'} "
                    "(only loopback is fetched on the host's network)")
        return None
    return gate


def observe_and_record(inputs: list[str], names: list[str] | None, asker, pol, out: pathlib.Path,
                       versions: dict[str, str], policy_flags: str = "") -> tuple:
    """Observe ``inputs`` through the clients; compare with the model's destinations
    (``asker.dests``); write ``observed.jsonl``, ``agreement.jsonl`` and ``findings.jsonl``.
    Returns (Observed, pairs, findings, markdown lines, terminal lines)."""
    # the clients' lines go to stdout; a heartbeat keeps stderr from going silent meanwhile
    with progress.heartbeat(f"urlwb ssrf: observing {len(inputs):,} inputs through real clients",
                            after=progress.EVERY):
        asker.ask(inputs)  # cached: what the hunt already asked is not asked again
        obs = observe.observe(inputs, names, progress=lambda s: print(s, flush=True),
                              gate=loopback_gate(asker.dests))
    # an input not fetched (no namespace, not loopback by the model) is held to no model
    by_client = {c: {s.input: s.direct.address for s in obs.seen if s.client == c and not s.direct.held}
                 for c in obs.clients}
    pairs = model.compare(by_client, asker.dests)
    allowed = {v: {s: asker.allows(v, s) for s in inputs} for v in asker.validators}
    own_hosts = {}
    for v in asker.validators:
        reads = contracts.contract(v, "validator", role="validator").reads
        if reads in asker.dests:
            own_hosts[v] = {s: d.host for s, d in asker.dests[reads].items()}
    found = (findings.ssrf_findings(obs, allowed, pol, versions, policy_flags, own_hosts)
             + findings.client_findings(obs))
    found = list({f["signature"]: f for f in reversed(found)}.values())[::-1]  # the first of each signature
    findings.write_observed(out, obs)
    corpus_store.atomic_write(out / "agreement.jsonl", "".join(
        json.dumps({"input": p.input, "client": p.client, "model": p.model, "model_reading": p.model_shown,
                    "observed": p.observed, "agree": p.agree}, ensure_ascii=False) + "\n"
        for p in pairs).encode("utf-8", "surrogateescape"))
    record.write_findings(out, found)
    return obs, pairs, found, report.markdown(obs, pairs, allowed), report.terminal(obs, pairs)
