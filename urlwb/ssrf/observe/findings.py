"""What the observations make findings of, in the one findings record
(:mod:`urlwb.findings.record`), and ``observed.jsonl``.

- **ssrf** (a hazard, :func:`urlwb.verdicts.judge.judge_validator`): a validator allows an input
  and a client, fetching it (directly or after a redirect to it), was seen to connect to a denied
  destination. One finding per (validator, input); ``client`` is the first such client, the
  verdict's ``pairs`` every one, each with what it reached (``"addr:port"``), how (``via``
  direct or redirect) and the ``Host`` it sent.
- **crash** / **hang** (a bug of the client, against its own documentation: a fetch returns or
  raises its documented errors, it does not kill the process or block past its timeout): a client
  that died, hung or answered out of protocol on an input; and, following a redirect, an
  exception its fetch call does not document (the JVM clients mark one: not an IOException, which
  ``HttpClient.send`` and ``Call.execute`` document for a failed exchange; the URL the client was
  given was valid, the server's ``Location`` is what it could not take).
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import pathlib
import shlex

from urlwb import corpus_store
from urlwb.findings import record
from urlwb.ssrf.observe.observe import Fetch, Observed
from urlwb.ssrf.policy import Destination, Policy
from urlwb.differential import facts

OBSERVED_FILE = "observed.jsonl"


def denied(pol: Policy, f: Fetch | None) -> str | None:
    """The policy's category of the address ``f`` reached, or None."""
    if f is None or f.address is None:
        return None
    addr = ipaddress.ip_address(f.address)
    return pol.denied(Destination(f.address, addr))


def reproduce(input: str, client: str, validator: str | None = None, policy_flags: str = "") -> str:
    """The ``urlwb ssrf --inputs`` command that observes ``input`` through ``client`` again (and
    asks ``validator``), the input in a one-line file written by ``printf``."""
    v = f" --oracle {shlex.quote(validator)}" if validator else " --oracle ipaddress"
    return (f"printf '%s\\n' {shlex.quote(input)} > input.txt && urlwb ssrf --inputs input.txt{v} "
            f"--clients {shlex.quote(client)}{policy_flags}")


def _sig(*parts: str) -> str:
    return hashlib.sha1("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def ssrf_findings(obs: Observed, allowed: dict[str, dict[str, bool]], pol: Policy,
                  versions: dict[str, str], policy_flags: str = "",
                  own_hosts: dict[str, dict[str, str | None]] | None = None) -> list[dict]:
    """``allowed``: validator -> input -> it allowed it (True only for an ``allow: true``);
    ``policy_flags``: the run's ``--deny``/``--allow``, for the command that reproduces each;
    ``own_hosts``: validator -> input -> the host its own parser (its contract's ``reads``) read,
    where the run asked that parser (a bug when it misclassified an address it read itself:
    :func:`urlwb.verdicts.judge.misclassified`)."""
    out = []
    by_input: dict[str, list] = {}
    for s in obs.seen:
        for via, f in (("direct", s.direct), ("redirect", s.redirect)):
            cat = denied(pol, f)
            if cat:
                by_input.setdefault(s.input, []).append((s.client, via, f, cat))
    for v, answers in allowed.items():
        for s, hits in by_input.items():
            if not answers.get(s):
                continue
            pairs = [{"validator": v, "client": c, "reached": f.reached, "via": via, "host": f.host,
                      "category": cat} for c, via, f, cat in hits]
            own = (own_hosts or {}).get(v, {}).get(s)
            verdict = facts.validator_verdict(facts.Allowing(v, s, own, tuple(pairs), versions.get(v)))
            clients = sorted({p["client"] for p in pairs})
            where = sorted({f"{p['reached']} ({p['category']})" for p in pairs})
            out.append(record.make_finding(
                input=s, parser=clients[0], rule="ssrf", signature=f"ssrf:{v}:{_sig(s)}",
                verdict=verdict, validator=v, client=clients[0], parser_version=obs.clients.get(clients[0]),
                summary=f"{v} {versions.get(v, '')} allows {s!r}; observed: {', '.join(clients)} connected to "
                        f"{', '.join(where)}", command=reproduce(s, clients[0], v, policy_flags), observed=pairs))
    return out


def client_findings(obs: Observed) -> list[dict]:
    out = []
    for s in obs.seen:
        f = s.redirect
        if f is not None and f.answer is not None and f.answer.get("unchecked"):
            err, msg = f.answer.get("error", "?"), f.answer.get("message", "")
            v = record.verdict("bug", "own", f"{s.client}: a failed exchange is an IOException (its fetch call's "
                                             "documented failure)", "undocumented-exception",
                               reason=f"{s.client} threw {err} ({msg[:120]}) following a redirect to {s.input!r}")
            out.append(record.make_finding(
                input=s.input, parser=s.client, rule="crash", signature=f"undocumented:{s.client}:{err}",
                verdict=v, client=s.client, parser_version=obs.clients.get(s.client),
                summary=f"{s.client} throws {err} on a redirect to {s.input!r}", command=reproduce(s.input, s.client)))
        for via, f in (("direct", s.direct), ("redirect", s.redirect)):
            if f is None or f.trouble is None or f.trouble.what == "gone":
                continue
            rule = "hang" if f.trouble.what == "hung" else "crash"
            v = record.verdict("bug", "own", f"{s.client}: a fetch returns its response or raises its "
                                             "documented errors within its timeout", rule,
                               reason=f"{s.client} {f.trouble.what} fetching {s.input!r} ({via}): {f.trouble.detail}")
            out.append(record.make_finding(
                input=s.input, parser=s.client, rule=rule, signature=f"{rule}:{s.client}:{via}:{_sig(s.input)}",
                verdict=v, client=s.client, parser_version=obs.clients.get(s.client),
                summary=f"{s.client} {f.trouble.what} on {s.input!r} ({via})", command=reproduce(s.input, s.client)))
    return out


def write_observed(out: pathlib.Path, obs: Observed) -> pathlib.Path:
    """``OUT/observed.jsonl``: one line per (input, client), written atomically."""
    text = "".join(json.dumps(s.to_json(), ensure_ascii=False) + "\n" for s in obs.seen)
    path = out / OBSERVED_FILE
    out.mkdir(parents=True, exist_ok=True)
    corpus_store.atomic_write(path, text.encode("utf-8", "surrogateescape"))
    return path
