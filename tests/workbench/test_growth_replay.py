"""Every growth finding in ``corpus/growth/regress/`` replays against its parser where that
parser is built: its time at the filed input and at four times its length, the ratio against the
engine's measured in the same run (never a timed assertion: :func:`urlwb.growth.filing.replay`).
An open finding must still show (when it does not, the parser got faster: set the sidecar's
status to fixed); a fixed one must not. Where the parser is not
built here, the entry is skipped with one line.
"""

from __future__ import annotations

import pytest

from urlwb import corpus_store, oracles
from urlwb.growth import filing
from urlwb.growth.measure import Probe
from urlwb.growth.timing import InProcessTimer, timer_for


def _entries():
    for entry in filing.entries():
        yield pytest.param(entry, id=f"{entry.sidecar['parser']}:{entry.sidecar['shape']}")


def test_every_entry_has_a_sidecar_of_its_own_folder():
    for path in sorted(corpus_store.regress_dir(filing.TARGET).glob("*")) if corpus_store.regress_dir(filing.TARGET).is_dir() else []:
        if path.suffix == ".json" or path.name.startswith("."):
            continue
        meta = corpus_store.load_sidecar(corpus_store.sidecar_path(path))
        assert meta["target"] == filing.TARGET and meta["kind"] == "timeout"
        assert {"parser", "version", "shape", "count", "scale", "class"} <= set(meta)


@pytest.mark.parametrize("entry", list(_entries()))
def test_replay(entry):
    meta = entry.sidecar
    name = meta["parser"]
    registered = oracles.REGISTRY.get(name)
    if registered is None:
        pytest.skip(f"{name}: not an oracle here")
    if registered.skip:
        pytest.skip(f"{name}: {registered.skip}")
    started, skipped = oracles.load([name, "engine"])
    if name not in started:
        pytest.skip(f"{name}: {skipped.get(name)}")
    probe = Probe(timer_for(name, started[name]), InProcessTimer(started["engine"]), runs=2)
    try:
        p, still = filing.replay(entry, probe)
    finally:
        probe.timer.close()
        probe.engine.close()
    ratio = "hang" if p.ratio is None else f"{p.ratio:.1f}"
    if meta["status"] == "fixed":
        assert not still, f"{name} {meta['version']}: fixed, but {filing.describe(name, p)}"
    else:
        assert still, (f"{name}: open finding no longer shows ({filing.describe(name, p)}; ratio "
                       f"{ratio}): set its status to fixed in {corpus_store.sidecar_path(entry.path)}")
