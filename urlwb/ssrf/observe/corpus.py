"""The committed SSRF findings (``corpus/ssrf/regress/``) observed through the real clients:
each sidecar's ``verdict.pairs`` says what each client was *seen* to reach, beside what the
resolver model computed (issue 26: "every SSRF finding names the client and what it was seen to
do"; issue 25: a hazard's pairs, "each with what the client was observed to reach").

The witnesses were found by the resolver model (:mod:`urlwb.ssrf.fetchers`): a sidecar's
``fetchers`` holds, per URL parser, the destination the model computed. Here every distinct
witness is fetched by every client in one observation run (:func:`urlwb.ssrf.observe.observe.observe`:
each client started once, in its own sealed network), and each sidecar's pairs become one per
client where it bites or where the model said it would:

- ``client``: the client's name (``curl``, ``go-net-http``...), ``reached``: ``"addr:port"`` it
  connected to directly, or null with ``error`` (the client's own error class and message, or
  why the fetch came to nothing); ``category``: the denied category of the address reached under
  the sidecar's ``deny``, or null; ``redirect``: where it connected after a ``302`` to the witness;
- ``parser`` and ``modelled``: the URL parser the model reads the client by
  (:data:`urlwb.ssrf.observe.model.MODEL_OF`) and the destination the model computed for it (null
  when the model did not flag that parser).

A pair is kept when the client reached a denied destination (directly or after the redirect) or
the model claimed it would. The sidecar's ``fetchers`` (the model's destinations for every parser,
clients or not) stays as it was. ``observation`` tallies the record: ``"reached"`` (a client was seen
to reach a denied destination), ``"model-only"`` (only the model claimed one).
"""

from __future__ import annotations

import ipaddress
import json
import pathlib

from urlwb import corpus_store
from urlwb.findings import record
from urlwb.ssrf import policy as policy_mod
from urlwb.ssrf.observe import findings as obs_findings
from urlwb.ssrf.observe import model
from urlwb.ssrf.observe import clients as clients_mod
from urlwb.ssrf.observe.observe import Fetch, Observed, Seen

#: client -> the model's parser; and back
PARSER_OF = {c: p for c, p in model.MODEL_OF.items() if p}


def _error(f: Fetch) -> str:
    """Why a fetch reached nothing, in one line."""
    if f.trouble is not None:
        return f"{f.trouble.what}: {f.trouble.detail}"[:300]
    if f.answer is not None and not f.answer.get("ok"):
        return f"{f.answer.get('error', '?')}: {f.answer.get('message', '')}"[:300]
    if f.note:
        return f.note
    if f.answer is not None:
        return f"answered {f.answer.get('status')} without a connection the listeners saw"
    return "no answer"


def _where(f: Fetch | None) -> dict:
    if f is None:
        return {"reached": None}
    out = {"reached": f.reached}
    if f.reached is None:
        out["error"] = _error(f)
    else:
        out["host"] = f.host
    return out


def pairs_of(meta: dict, obs: Observed) -> list[dict]:
    """The observed pairs of one sidecar ``meta`` (the validator -> client pairs where it bites
    or where the model said it would)."""
    validator = meta["validator"]
    pol = policy_mod.Policy(categories=tuple(c for c in meta.get("deny") or policy_mod.CATEGORIES
                                             if c in policy_mod.CATEGORIES))
    modelled = meta.get("fetchers") or {}
    out = []
    for client in obs.clients:
        seen = obs.of(client).get(meta["input"])
        if seen is None:
            continue
        cat = obs_findings.denied(pol, seen.direct)
        red_cat = obs_findings.denied(pol, seen.redirect)
        parser = PARSER_OF.get(client)
        m = modelled.get(parser) if parser else None
        if not (cat or red_cat or m):
            continue
        pair = {"validator": validator, "client": client, **_where(seen.direct), "category": cat,
                "parser": parser, "modelled": (m or {}).get("destination")}
        if seen.redirect is not None:
            red = _where(seen.redirect)
            pair["redirect"] = {**red, "category": red_cat}
        out.append(pair)
    return out


def tally_of(pairs: list[dict]) -> str:
    """``reached``: a client was seen to reach a denied destination; else ``model-only``."""
    if any(p.get("category") or (p.get("redirect") or {}).get("category") for p in pairs):
        return "reached"
    return "model-only"


def rewrite(meta: dict, obs: Observed, verdict_of, hosts: dict | None = None) -> dict:
    """The sidecar ``meta`` with its observed pairs, ``client`` (the first client seen to reach a
    denied destination, else the first the model named), ``validator_host`` (from ``hosts``:
    validator -> witness -> the host its own parser reads) and the verdict ``verdict_of(meta,
    pairs)`` gives."""
    pairs = pairs_of(meta, obs)
    new = dict(meta)
    if hosts is not None and meta["validator"] in hosts:
        new["validator_host"] = hosts[meta["validator"]].get(meta["input"])
    biting = [p["client"] for p in pairs if p.get("category") or (p.get("redirect") or {}).get("category")]
    if biting or pairs:
        new["client"] = (biting or [p["client"] for p in pairs])[0]
    if isinstance(new.get("observed"), str):   # this field's first name (the live records' "observed" is their pairs)
        del new["observed"]
    new["observation"] = tally_of(pairs)
    old = meta.get("verdict") if isinstance(meta.get("verdict"), dict) else {}
    v = verdict_of(new, pairs)
    if old.get("reason") and v.get("reason") != old.get("reason") and "Reviewed before:" in old["reason"]:
        v = dict(v, reason=old["reason"])
    new["verdict"] = v
    return new


def sidecars(folder: pathlib.Path) -> list[tuple[pathlib.Path, dict]]:
    out = []
    for f in sorted(folder.glob("*.json")):
        out.append((f, json.loads(f.read_text(encoding="utf-8"))))
    return out


def witnesses(items: list[tuple[pathlib.Path, dict]]) -> list[str]:
    return list(dict.fromkeys(m["input"] for _, m in items))


def apply(items: list[tuple[pathlib.Path, dict]], obs: Observed, verdict_of, write: bool = True,
          hosts: dict | None = None) -> dict:
    """Rewrite every sidecar of ``items`` (atomically, only when it changes); a tally:
    ``reached``, ``model-only`` (records), ``changed``, and per-witness counts."""
    tally = {"reached": 0, "model-only": 0, "changed": 0, "records": len(items)}
    by_witness: dict[str, set] = {}
    for path, meta in items:
        new = rewrite(meta, obs, verdict_of, hosts)
        record.check(new)
        tally[new["observation"]] += 1
        tally.setdefault("kind:" + new["verdict"]["kind"], 0)
        tally["kind:" + new["verdict"]["kind"]] += 1
        by_witness.setdefault(new["input"], set()).add(new["observation"])
        if new != meta:
            tally["changed"] += 1
            if write:
                corpus_store.write_sidecar(path.with_suffix(""), new)
    tally["witnesses"] = len(by_witness)
    tally["witnesses reached"] = sum("reached" in s for s in by_witness.values())
    tally["witnesses model-only"] = sum(s == {"model-only"} for s in by_witness.values())
    return tally


def address_of(host: str | None):
    """``host`` (as a parser read it) as an IP address, or None when it is not an IP literal."""
    if not host:
        return None
    try:
        return ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return None


def _fetch_of(d: dict | None) -> Fetch | None:
    if d is None:
        return None
    answer = {k: d[k] for k in ("ok", "status", "error", "message", "cause", "unchecked") if k in d}
    trouble = d.get("trouble")
    return Fetch(reached=d.get("reached"), host=d.get("host"), tls=bool(d.get("tls")),
                 answer=answer or None, note=d.get("note"),
                 trouble=None if trouble is None else clients_mod.Trouble(trouble["what"], trouble["detail"]))


def load_observed(path: pathlib.Path) -> Observed:
    """An ``observed.jsonl`` of an earlier run read back (its clients in order of appearance;
    their versions are not in the file)."""
    seen = []
    for line in path.read_text(encoding="utf-8", errors="surrogateescape").splitlines():
        if line.strip():
            d = json.loads(line)
            seen.append(Seen(d["input"], d["client"], _fetch_of(d), _fetch_of(d.get("redirect"))))
    names = dict.fromkeys(s.client for s in seen)
    return Observed(seen, {n: "?" for n in names}, {}, True, f"read from {path}")
