"""Every filed bypass (``corpus/ssrf/regress/``) still shows: its validator, at the version it
was filed against, still allows the witness, and each fetcher it names, where that fetcher is
built, still connects to a destination the entry's policy denies. An entry whose validator is
not built here, a release not installed in the cache (``urlwb ssrf --validator NAME@VERSION``
installs it), a user's own validator, or none of whose fetchers can start, is skipped with one
line, never passed. Validators and fetchers are started once for the whole file."""

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
            where = install.installed(base, version)
            if where is None:
                why = (f"{name} is not installed in {install.cache_root()} "
                       f"(`urlwb ssrf --validator {name}` installs it)")
            else:
                spec = install.versioned_spec(catalog.SHIPPED[base], base, version, where)
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


@pytest.fixture(scope="module")
def started():
    s = _Started()
    yield s
    s.close()


def test_entries_are_whole():
    for path, meta in regress.entries():
        assert path.read_bytes() == meta["input"].encode("utf-8", "surrogatepass"), path
        assert path.name == regress.entry_name(meta["validator"], meta["validator_version"], meta["input"])
        assert meta["target"] == "ssrf" and meta["fetchers"], path


@pytest.mark.parametrize("path,meta", list(_entries()))
def test_filed_bypass_still_shows(path, meta, started):
    validator, why = started.validator(meta)
    if validator is None:
        pytest.skip(why)
    witness = meta["input"]
    verdict = validator.check_many([witness])[0]
    assert verdict is not None and verdict.allow is True, (
        f"{meta['validator']} no longer allows {witness!r} ({verdict}): set the entry's status to fixed "
        f"({corpus_store.sidecar_path(path)})")
    pol = policy.parse(",".join(meta["deny"]), None)
    asked = 0
    for name, filed in meta["fetchers"].items():
        oracle = started.fetcher(name)
        if oracle is None:
            continue
        asked += 1
        dest = fetchers.destination(name, oracle.parse_many([(witness, None)])[0])
        assert pol.denied(dest), f"{name} now connects to {dest.show()}, filed {filed['destination']}"
    if not asked:
        pytest.skip(f"none of {', '.join(meta['fetchers'])} can start here")
