"""Bypass findings as regress entries: ``corpus/ssrf/regress/<sha1>`` holds the witness, its
sidecar (``<sha1>.json``, the fields ``urlwb.corpus_store`` requires) the validator's name and
version and, per fetcher, the destination it computed and the policy category it broke.

One entry per (validator at its version, witness): the file name is the SHA-1 of
``NAME@VERSION`` NUL witness, so that two validators with the same witness file two entries. An
entry already there is left as it is (its ``first_seen`` stays). Both files are written
atomically (:func:`urlwb.corpus_store.atomic_write`).
"""

from __future__ import annotations

import hashlib
import pathlib

from urlwb import corpus_store
from urlwb.findings import sidecar
from urlwb.differential import facts

TARGET = "ssrf"


def folder() -> pathlib.Path:
    return corpus_store.regress_dir(TARGET)


def entry_name(validator: str, version: str, witness: str) -> str:
    return hashlib.sha1(f"{validator}@{version}\0{witness}".encode("utf-8", "surrogatepass")).hexdigest()


def file(validator: str, base: str | None, version: str, witness: str, fetchers: dict[str, dict],
         categories: list[str], own_host: str | None = None) -> pathlib.Path | None:
    """File one bypass; its path, or None when it is filed already."""
    name = entry_name(validator, version, witness)
    path = folder() / name
    with corpus_store.filing():
        if path.exists() and corpus_store.sidecar_path(path).exists():
            return None
        meta = record(validator, base, version, witness, fetchers, categories, own_host)
        corpus_store.atomic_write(path, witness.encode("utf-8", "surrogatepass"))
        corpus_store.write_sidecar(path, meta)
    return path


def record(validator: str, base: str | None, version: str, witness: str, fetchers: dict[str, dict],
           categories: list[str], own_host: str | None = None) -> dict:
    """The sidecar of one bypass, a ``finding-v1`` record (also what ``--sarif``/``--junit``
    render, filed or not); ``own_host``: the host as the validator's own parser reads it (kept as
    ``validator_host``, and judged with: :mod:`urlwb.differential.facts`)."""
    name = entry_name(validator, version, witness)
    shown = ", ".join(f"{f} connects to {d['destination']} ({d['category']})" for f, d in sorted(fetchers.items()))
    asked = validator if validator.endswith(f"@{version}") else f"{validator}@{version}"
    meta = {"target": TARGET, "sha1": name, "signature": f"ssrf:{asked}:{name[:12]}",
            "kind": "invariant",
            "invariant": f"{validator} {version} allows {witness!r}; {shown}"[:2000],
            "first_seen": corpus_store.now(), "status": "open", "note": "",
            "input": witness, "validator": validator, "validator_base": base, "validator_version": version,
            "deny": categories, "fetchers": fetchers}
    meta = sidecar.shape(meta)
    if own_host is not None:
        meta["validator_host"] = own_host
    meta["verdict"] = verdict_of(validator, witness, [
        {"validator": validator, "client": f, "reached": d["destination"]} for f, d in sorted(fetchers.items())],
        own_host, version)
    return meta


def verdict_of(validator: str, witness: str, pairs: list[dict], own_host: str | None = None,
               version: str | None = None) -> dict:
    """The verdict of ``validator`` allowing ``witness`` by its contract (issue 25), with the
    validator -> client ``pairs`` where it bites; ``own_host``: the host as the validator's own
    parser reads it (see urlwb.verdicts.judge.misclassified)."""
    return facts.validator_verdict(facts.Allowing(validator, witness, own_host, tuple(pairs), version))


def entries() -> list[tuple[pathlib.Path, dict]]:
    """Every filed bypass and its sidecar (validated by corpus_store)."""
    return [(e.path, e.sidecar) for e in corpus_store.iter_regress(TARGET) if e.sidecar]


def observed_verdict(meta: dict, pairs: list[dict]) -> dict:
    """The verdict of a filed bypass ``meta`` once its pairs are observed (:mod:`urlwb.ssrf.observe.corpus`)."""
    return verdict_of(meta["validator"], meta["input"], pairs, meta.get("validator_host"), meta.get("validator_version"))
