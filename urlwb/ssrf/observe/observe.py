"""Observation: every input fetched by every client inside its own sealed network; where it
connected, straight and after a redirect.

For each client (side by side, :data:`WORKERS` at a time) a :class:`~.network.Network` and the
client inside it; for each input two fetches:

- **direct**: the input itself;
- **redirect**: ``http://127.0.0.1:40302/r/...`` on the redirector, answered ``302 Location:
  INPUT`` (:mod:`.listen`); what the client did then is what it connected to after the
  redirector (an input holding CR or LF cannot be a header value: not tried, said so).

:class:`Seen` is one (input, client) line of ``observed.jsonl``: ``reached`` is the first
connection that carried a request (an HTTP request line, or a TLS hello), as ``"addr:port"``, or
None; then the ``Host`` header (or TLS server name), every connection, the client's own answer
(status, or error class and message), and the same for the redirect under ``"redirect"``.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import ipaddress
from collections.abc import Callable

from urlwb import progress as progress_mod
from urlwb.ssrf.observe import clients as clients_mod
from urlwb.ssrf.observe import network

WORKERS = 3


#: how the note of an input held back on the host's network begins (:attr:`Fetch.held`)
NOT_FETCHED = "not fetched: no network namespace, and "


@dataclasses.dataclass
class Fetch:
    """What one fetch came to."""

    reached: str | None = None          # "addr:port" (IPv6 in brackets), or None
    host: str | None = None             # the Host header, or the TLS server name
    tls: bool = False
    connections: list[dict] = dataclasses.field(default_factory=list)
    answer: dict | None = None          # the client's own {"ok", "status" | "error", "message"}
    trouble: clients_mod.Trouble | None = None
    note: str | None = None             # why it was not tried, or the redirector was not reached

    @property
    def held(self) -> bool:
        """Not fetched at all (no namespace, and not loopback by the model): no observation."""
        return (self.note or "").startswith(NOT_FETCHED)

    @property
    def address(self) -> str | None:
        """The address part of ``reached``."""
        if self.reached is None:
            return None
        return self.reached.rsplit(":", 1)[0].strip("[]")

    def to_json(self) -> dict:
        out = {"reached": self.reached, "host": self.host}
        if self.tls:
            out["tls"] = True
        if self.answer is not None:
            out.update({k: v for k, v in self.answer.items() if k in ("ok", "status", "error", "message", "cause", "unchecked")})
        if self.trouble is not None:
            out["trouble"] = {"what": self.trouble.what, "detail": self.trouble.detail}
        if len(self.connections) > 1:
            out["connections"] = [_where(c) for c in self.connections]
        if self.note:
            out["note"] = self.note
        return out


@dataclasses.dataclass
class Seen:
    """One (input, client) observation: direct and after a redirect."""

    input: str
    client: str
    direct: Fetch
    redirect: Fetch | None = None

    def to_json(self) -> dict:
        out = {"input": self.input, "client": self.client, **self.direct.to_json()}
        if self.redirect is not None:
            out["redirect"] = self.redirect.to_json()
        return out


@dataclasses.dataclass
class Observed:
    """Every observation of a run, and how it ran."""

    seen: list[Seen]
    clients: dict[str, str]              # name -> version
    skipped: dict[str, str]              # name -> one-line reason
    sealed: bool
    network_line: str                    # how the network was made, one line
    restarts: dict[str, int] = dataclasses.field(default_factory=dict)

    def of(self, client: str) -> dict[str, Seen]:
        return {s.input: s for s in self.seen if s.client == client}


def _where(conn: dict) -> str:
    addr = conn["local"]
    return f"[{addr}]:{conn['port']}" if ":" in addr else f"{addr}:{conn['port']}"


def _fetch(client: clients_mod.Client, net: network.Network, url: str, redirected: bool) -> Fetch:
    answer = client.fetch(url)
    conns = net.mark()
    f = Fetch()
    if isinstance(answer, clients_mod.Trouble):
        f.trouble = answer
    else:
        f.answer = answer
    if redirected:
        if not any(c.get("redirector") for c in conns):
            f.note = "the client did not reach the redirector"
        conns = [c for c in conns if not c.get("redirector")]
    f.connections = conns
    carried = [c for c in conns if c.get("path") is not None or c.get("tls")]
    first = (carried or conns or [None])[0]
    if first is not None:
        f.reached, f.host, f.tls = _where(first), first.get("host"), bool(first.get("tls"))
    return f


#: why an input is not fetched on the host's network when no gate says otherwise
UNGATED = NOT_FETCHED + "nothing to say this client stays on loopback"


def _one_client(spec, inputs: list[str], ports: list[int], sealed: bool, redirects: bool,
                tick: Callable[[], None], notes: set[str],
                gate: Callable[[str, str], str | None] | None = None) -> tuple[list[Seen], str, int]:
    net = network.Network(ports, sealed)
    if net.note:
        notes.add(net.note)
    try:
        leaked = net.listeners_outside() if sealed else []
        if leaked:
            raise network.NetworkError(f"listeners outside the sealed namespace: {', '.join(leaked)}")
        client = clients_mod.Client(spec, net.netns)
        try:
            out = []
            for s in inputs:
                # on the host's network (no namespace) only what stays on loopback is fetched:
                # anything else would leave the machine (a user's 169.254.169.254 is real there)
                held = None if sealed else (gate(spec.name, s) if gate is not None else UNGATED)
                if held:
                    out.append(Seen(s, spec.name, Fetch(note=held)))
                    tick()
                    continue
                direct = _fetch(client, net, s, False)
                red = None
                if redirects:
                    if "\r" in s or "\n" in s:
                        red = Fetch(note="not tried: a Location header cannot hold CR or LF")
                    else:
                        red = _fetch(client, net, network.redirect_url(s), True)
                out.append(Seen(s, spec.name, direct, red))
                tick()
            return out, client.version, client.restarts
        finally:
            client.close()
    finally:
        net.close()


def observe(inputs: list[str], names: list[str] | None = None, *, redirects: bool = True,
            progress: Callable[[str], None] = print, specs: dict | None = None,
            gate: Callable[[str, str], str | None] | None = None) -> Observed:
    """Every input through every client of ``names`` (default: every declared one that can
    start), each in a sealed network of its own; ``progress`` gets the one line saying the
    network is the host's (k of N goes through :mod:`urlwb.progress`).

    Where no namespace can be made, the clients run on the host's network, which the loopback
    listeners do not seal: an input is fetched there only when ``gate(client, input)`` returns
    None (:func:`urlwb.ssrf.observe.run.loopback_gate`: the model reads it as a loopback
    address); otherwise, or without a gate, its observation is the note why it was not fetched."""
    declared = specs if specs is not None else clients_mod.declared()
    if names:
        unknown = [n for n in names if n not in declared]
        if unknown:
            raise ValueError(f"no client {unknown[0]!r} (clients: {', '.join(declared)})")
        declared = {n: declared[n] for n in names}
    why = network.available()
    sealed = why is None
    if sealed:
        line = ("each client in a network namespace of its own: lo only, carrying 127.0.0.1, ::1, "
                "10.0.0.1, 169.254.169.254, fd00::1 and, by a local route, every other address; "
                "nothing leaves it, no DNS")
    else:
        line = network.unavailable_line(why)
        progress(line)
    skipped: dict[str, str] = {}
    ready = {}
    for n, spec in declared.items():
        reason = spec.skip
        if reason:
            skipped[n] = reason
        else:
            ready[n] = spec
    ports = network.ports_of(inputs)
    seen: list[Seen] = []
    versions: dict[str, str] = {}
    restarts: dict[str, int] = {}
    notes: set[str] = set()
    with progress_mod.task(f"observing {len(inputs):,} inputs through {len(ready)} clients",
                           total=len(inputs) * len(ready)) as bar, \
            concurrent.futures.ThreadPoolExecutor(max_workers=WORKERS) as pool:
        futures = {pool.submit(_one_client, spec, inputs, ports, sealed, redirects, bar.advance, notes, gate): n
                   for n, spec in ready.items()}
        for fut in concurrent.futures.as_completed(futures):
            n = futures[fut]
            try:
                out, version, r = fut.result()
            except (clients_mod.ClientError, network.NetworkError, OSError) as exc:
                skipped[n] = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
                continue
            seen += out
            versions[n] = version
            restarts[n] = r
    if notes:  # an address or a port the network could not carry (iproute2 missing, a port taken)
        line += "; but: " + "; ".join(sorted(notes))
        progress("urlwb ssrf: the sealed network is short: " + "; ".join(sorted(notes)))
    order = {n: i for i, n in enumerate(declared)}
    index = {s: i for i, s in enumerate(inputs)}
    seen.sort(key=lambda x: (index[x.input], order[x.client]))
    return Observed(seen, dict(sorted(versions.items(), key=lambda kv: order[kv[0]])), skipped,
                    sealed, line, restarts)


def loopback_address(addr: str | None) -> bool:
    if addr is None:
        return False
    try:
        return ipaddress.ip_address(addr).is_loopback
    except ValueError:
        return False
