"""Every filed bypass (``corpus/ssrf/regress/``) still shows: its validator, at the version it
was filed against, still allows the witness (one whose status is ``fixed`` denies it), and each fetcher it names, where that fetcher is
built, still connects to a destination the entry's policy denies. An entry whose validator is
not built here, a release not installed in the cache (``urlwb ssrf --oracle NAME@VERSION``
installs it), a user's own validator, or none of whose fetchers can start, is skipped with one
line, never passed. Validators and fetchers are started once for the whole file, and each is
asked about all its entries in one batch. The fetchers in this process are replayed always; those
outside it (programs, browsers) by the test marked slow."""

from __future__ import annotations

import pytest

from urlwb import corpus_store, oracles
from urlwb.ssrf import catalog, fetchers, install, policy, regress


def _entries():
    for path, meta in regress.entries():
        yield pytest.param(path, meta, id=f"{meta['validator']}/{path.name[:12]}")


class _Started:
    def __init__(self):
        self.validators, self.fetchers, self.why = {}, {}, {}

    def validator(self, meta):
        name, base, version = meta["validator"], meta.get("validator_base"), meta["validator_version"]
        if name in self.validators or name in self.why:
            return self.validators.get(name), self.why.get(name)
        why = None
        if base not in catalog.SHIPPED:
            why = f"{name}: a user's validator, not shipped: cannot be replayed here"
        elif "@" in name:
            spec = install.present(catalog.SHIPPED[base], version)
            if spec is None:
                why = (f"{name} is not installed in the cache "
                       f"(`urlwb ssrf --oracle {name}` installs or builds it)")
        else:
            spec = catalog.SHIPPED[base]
            why = spec.skip
        if why is None:
            started, skipped = catalog.start([catalog.Declared(name, spec=spec, base=base)])
            why = skipped.get(name)
            if started:
                v = started[name]
                if v.version != version:
                    why = f"{name} is now {v.version}; the entry is about {version}"
                    v.close()
                else:
                    self.validators[name] = v
        if why:
            self.why[name] = why
        return self.validators.get(name), why

    def fetcher(self, name):
        if name not in self.fetchers and name not in self.why:
            entry = oracles.REGISTRY.get(name)
            if entry is None:
                self.why[name] = f"fetcher {name} is not in the registry"
            else:
                loaded, skipped = oracles.load([name])
                self.fetchers.update(loaded)
                self.why.update(skipped)
        return self.fetchers.get(name)

    def close(self):
        for v in self.validators.values():
            v.close()
        oracles.close_all(self.fetchers)


def _in_process(name: str) -> bool:
    entry = oracles.REGISTRY.get(name)
    return entry is not None and entry.in_process


def _answers(in_process: bool):
    """Every entry's witness asked of its validator and of its fetchers in this process (or of
    those outside it), in one batch each."""
    s = _Started()
    entries = regress.entries()
    by_v: dict[str, list[str]] = {}
    by_f: dict[str, list[str]] = {}
    for _, meta in entries:
        wanted = [f for f in meta["fetchers"] if _in_process(f) == in_process]
        if not wanted:
            continue
        v, why = s.validator(meta)
        if v is not None:
            by_v.setdefault(meta["validator"], []).append(meta["input"])
        for name in wanted:
            if s.fetcher(name) is not None:
                by_f.setdefault(name, []).append(meta["input"])
    verdicts = {n: dict(zip(xs, s.validators[n].check_many(xs))) for n, xs in by_v.items()}
    dests = {n: {x: fetchers.destination(n, r) for x, r in zip(xs, s.fetchers[n].parse_many([(x, None) for x in xs]))}
             for n, xs in by_f.items()}
    return s, verdicts, dests


@pytest.fixture(scope="module")
def answers():
    s, verdicts, dests = _answers(in_process=True)
    yield s, verdicts, dests
    s.close()


@pytest.fixture(scope="module")
def program_answers():
    s, verdicts, dests = _answers(in_process=False)
    yield s, verdicts, dests
    s.close()


def test_entries_are_whole():
    for path, meta in regress.entries():
        assert path.read_bytes() == meta["input"].encode("utf-8", "surrogatepass"), path
        assert path.name == regress.entry_name(meta["validator"], meta["validator_version"], meta["input"])
        assert meta["target"] == "ssrf" and meta["fetchers"], path


@pytest.mark.parametrize("path,meta", list(_entries()))
def test_filed_bypass_still_shows(path, meta, answers):
    _replay(path, meta, *answers)


@pytest.mark.slow
@pytest.mark.parametrize("path,meta", list(_entries()))
def test_filed_bypass_still_shows_in_fetchers_outside_the_process(path, meta, program_answers):
    """Slow: starting every fetcher program (JVMs, Node, the browsers) takes about 45 s on a
    loaded 2-core machine."""
    _replay(path, meta, *program_answers)


def _replay(path, meta, started, verdicts, dests):
    name, witness = meta["validator"], meta["input"]
    if name not in verdicts:
        pytest.skip(started.why.get(name, f"{name} cannot start here"))
    asked = [f for f in meta["fetchers"] if f in dests and witness in dests[f]]
    if not asked:
        pytest.skip(f"none of {', '.join(meta['fetchers'])} can start here (or runs in this part)")
    verdict = verdicts[name][witness]
    if meta.get("status") == "fixed":   # kept as a witness of what was fixed (or was an artefact): denied now
        assert verdict is not None and verdict.allow is not True, f"{name} allows {witness!r} again ({path})"
        return
    assert verdict is not None and verdict.allow is True, (
        f"{name} no longer allows {witness!r} ({verdict}): set the entry's status to fixed "
        f"({corpus_store.sidecar_path(path)})")
    pol = policy.parse(",".join(meta["deny"]), None)
    for f in asked:
        dest = dests[f][witness]
        assert pol.denied(dest), f"{f} now connects to {dest.show()}, filed {meta['fetchers'][f]['destination']}"
