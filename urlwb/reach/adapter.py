"""An adapter of ``urlwb/oracles/<folder>/`` run under a coverage tool: its manifest's
:class:`~urlwb.oracles.manifests.Spec` with another command or environment, fed every input
through the supervisor (the protocol, pipelined), then given the end of its input and waited
for: the tools write their data when the program exits normally (Go's ``GOCOVERDIR`` files,
JaCoCo's ``destfile`` at JVM shutdown, ``NODE_V8_COVERAGE``), so it is not killed after the
supervisor's short grace period.
"""

from __future__ import annotations

import dataclasses
import subprocess

from urlwb import children, oracles
from urlwb.oracles.supervisor import SubprocessOracle

#: seconds the adapter has to write its coverage and exit after its input ends
EXIT_WAIT = 120.0
#: inputs per parse_many call
CHUNK = 2000


def spec_of(name: str):
    entry = oracles.REGISTRY.get(name)
    if entry is None or entry.spec is None or entry.spec.callable:
        raise ValueError(f"{name}: not an oracle behind the protocol")
    return entry.spec


def run(name: str, items, *, command: list[str] | None = None, env: dict | None = None,
        deadline: float | None = None) -> tuple[str, dict]:
    """Feed ``items`` to oracle ``name`` started with ``command`` (default its own) and ``env``
    added; its version (the hello line's) and the supervisor's counts. RuntimeError (one line)
    when it cannot start, or does not exit within EXIT_WAIT after its input ends."""
    spec = spec_of(name)
    spec = dataclasses.replace(spec, command=command or spec.command,
                               env={**spec.env, **(env or {})},
                               deadline=deadline or max(spec.deadline, 10.0),
                               start_deadline=max(spec.start_deadline, 30.0), max_restarts=0)
    oracle = SubprocessOracle(spec)
    try:
        oracle.ready()
    except oracles.Unavailable as exc:
        oracle.close()
        raise RuntimeError(f"{name} under the coverage tool did not start: {exc}") from None
    for i in range(0, len(items), CHUNK):
        oracle.parse_many(items[i:i + CHUNK])
    sup = oracle.sup
    child = sup.child
    child.requests.put(None)          # the end of its input: it exits and writes its coverage
    try:
        status = child.proc.wait(timeout=EXIT_WAIT)
    except subprocess.TimeoutExpired:
        status = None
    child.killed = True
    children.release(child.proc)
    if sup.restarts or sup.given_up:
        raise RuntimeError(f"{name} died or hung under the coverage tool ({'; '.join(sup.incidents)[:200]}): "
                           "its coverage is of a part of the inputs")
    if status is None:
        raise RuntimeError(f"{name} did not exit within {EXIT_WAIT:g} s of the end of its input")
    return oracle.version, dict(sup.counts)
