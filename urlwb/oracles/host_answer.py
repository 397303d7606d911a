"""What a host-level oracle is and answers: the types the in-process host oracles
(:mod:`urlwb.oracles.hosts`), the protocol's host answers (:mod:`urlwb.oracles.protocol`) and the
supervised host adapters (:mod:`urlwb.oracles.supervisor`) share. It imports nothing of the
workbench, so that those three modules import it and not each other in a circle.

https://url.spec.whatwg.org/#hosts-(domains-and-ip-addresses)
"""

from __future__ import annotations

from typing import NamedTuple


class HostAnswer(NamedTuple):
    """``value``: the oracle's answer (ASCII domain, serialized address, public suffix or
    registrable domain); None with ``failure`` when rejected; ``crash`` when it raised otherwise."""

    failure: bool
    value: str | None = None
    crash: str | None = None



class HostOracle:
    name = ""
    #: which question: "to-ascii" (Unicode domain -> ASCII), "ip" (host text -> address),
    #: "public-suffix", "registrable-domain" (ASCII domain -> answer); some answer two.
    questions: tuple[str, ...] = ()
    version = ""

    def answer(self, question: str, text: str) -> HostAnswer:
        raise NotImplementedError
