"""The resolver model held to the observations: for each client, where the model says it
connects (its parser's host through its resolver, :mod:`urlwb.ssrf.fetchers`), against where
the listeners saw it connect.

Each client is modelled by the URL parser of the registry it fetches with (its card's ``parser``,
:data:`MODEL_OF`); a client with none (httpx has its own parser, which no oracle wraps) is not
compared. The model's address is compared with the address the client reached, the port left
aside (the model has none). The model's unspecified addresses are read as Linux's ``connect``
reads them (0.0.0.0 and ``::`` reach the local host, 127.0.0.1 and ::1: the policy's
assumption, checked here by observation). A model that says "a DNS name", "refused" or "no
connection" predicts that the client reaches nothing in the sealed network (there is no DNS
there).
"""

from __future__ import annotations

import dataclasses
import ipaddress

from urlwb.ssrf.observe import clients
from urlwb.ssrf.policy import Destination

#: client -> the parser of urlwb.oracles.REGISTRY the model reads it by (its card's ``parser``,
#: where the card says why), None for a client the model has no parser for
MODEL_OF = {name: spec.parser for name, spec in clients.declared().items()}

_KERNEL = {ipaddress.ip_address("0.0.0.0"): "127.0.0.1", ipaddress.ip_address("::"): "::1"}


def predicted(dest: Destination) -> str | None:
    """The address the model says the client reaches, as the listener writes it, or None."""
    if dest.host is None or isinstance(dest.reading, str) or dest.reading is None:
        return None
    addr = dest.reading
    return _KERNEL.get(addr, str(addr))


@dataclasses.dataclass
class Pair:
    """One (input, client): the model's address and the observed one."""

    input: str
    client: str
    model: str | None
    model_shown: str
    observed: str | None

    @property
    def agree(self) -> bool:
        return self.model == self.observed


def compare(observed_by_client: dict[str, dict[str, str | None]],
            dests: dict[str, dict[str, Destination]]) -> list[Pair]:
    """Every (input, client) with a model: ``observed_by_client`` client -> input -> the address
    reached directly (or None); ``dests`` parser -> input -> the model's Destination."""
    out = []
    for client, seen in observed_by_client.items():
        parser = MODEL_OF.get(client)
        if parser is None or parser not in dests:
            continue
        for s, addr in seen.items():
            d = dests[parser].get(s)
            if d is None:
                continue
            out.append(Pair(s, client, predicted(d), d.show(), addr))
    return out


def agreement(pairs: list[Pair]) -> tuple[int, int]:
    """(pairs that agree, pairs compared)."""
    return sum(p.agree for p in pairs), len(pairs)
