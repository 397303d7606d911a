"""scripts/observe_corpus.py's step (urlwb/ssrf/observe/corpus.py): committed SSRF witnesses
observed through clients, their sidecars' ``verdict.pairs`` rewritten with what each client was
seen to reach beside the model's destination, and validators judged by their own documentation.

Each check with what it kills:

- a witness a planted client really takes to loopback gets an observed pair (``reached``
  "127.0.0.1:80", ``modelled`` kept beside it) and counts as ``reached``;
- a planted model that claims a connection no client made (the sidecar's model says
  ``example.com`` goes to 127.0.0.1; no client connects anywhere, there is no DNS) shows up as
  ``model-only``, with the client's error; a rewrite that copied the model into ``reached``
  fails it;
- a planted validator whose documentation says it rejects loopback and that allows
  ``http://127.1/``, read by its own parser as 127.0.0.1, which a client reached: a bug; one
  that reads another host (``safe.example``) than where the client went (10.0.0.1): a hazard;
- a second run changes nothing; every record fits finding-v1;
- ``urlwb ssrf --inputs`` judges the same way: private-ip allowing ``http://[::ffff:a00:1]/``,
  which node-fetch takes to 10.0.0.1, is a bug (with the validator's own host not passed to the
  judge, planted in run.py, it failed).
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
import sys

import pytest
from built import built

from urlwb import corpus_store
from urlwb.findings import record
from urlwb.oracles import contracts, manifests
from urlwb.ssrf import regress
from urlwb.ssrf.observe import corpus, network, observe
from urlwb.verdicts import judge

HERE = pathlib.Path(__file__).resolve().parent
WHY = network.available()

PLANTED = dataclasses.replace(
    contracts.contract("planted-validator", "validator", role="validator"), spec="whatwg-url", checks="host-address",
    reads="engine", rejects={"categories": ["loopback"], "url": "https://example.invalid/docs",
                             "says": "rejects every loopback address"})


def _planted(mode: str) -> manifests.Spec:
    return manifests.Spec(name=f"planted-{mode}", command=[sys.executable, str(HERE / "planted_client.py"), mode],
                          cwd=HERE, kind="client")


def _verdict(meta: dict, pairs: list[dict]) -> dict:
    return judge.judge_validator(meta["validator"], meta["input"], True, pairs=pairs, contract=PLANTED,
                                 own_host=meta.get("validator_host"))


def _file(folder: pathlib.Path, witness: str, own_host: str, fetchers: dict) -> pathlib.Path:
    meta = regress.record("planted-validator", "planted-validator", "1", witness, fetchers, ["loopback", "private"])
    meta["validator_host"] = own_host
    path = folder / regress.entry_name("planted-validator", "1", witness)
    corpus_store.atomic_write(path, witness.encode())
    corpus_store.write_sidecar(path, meta)
    return path


def test_the_misclassification_rule_without_clients():
    pair = [{"validator": "v", "client": "c", "reached": "127.0.0.1:80"}]
    assert judge.judge_validator("v", "http://127.1/", True, pairs=pair, contract=PLANTED,
                                 own_host="127.0.0.1")["kind"] == "bug"
    # another host read by the validator (a name; another address than the client reached), or an
    # address class its documentation does not name
    assert judge.judge_validator("v", "http://127.0.0.1/", True, contract=PLANTED, own_host="127.0.0.1",
                                 pairs=[{"validator": "v", "client": "c", "reached": "10.0.0.1:80"}])["kind"] == "hazard"
    assert judge.judge_validator("v", "http://127.1/", True, pairs=pair, contract=PLANTED,
                                 own_host="safe.example")["kind"] == "hazard"
    v = judge.judge_validator("v", "http://10.0.0.1/", True, contract=PLANTED, own_host="10.0.0.1",
                              pairs=[{"validator": "v", "client": "c", "reached": "10.0.0.1:80"}])
    assert v["kind"] == "hazard" and "names loopback among what it rejects, not this (private)" in v["reason"]
    # the unspecified address reaches loopback: a bug only where the documentation names it
    zero = [{"validator": "v", "client": "c", "reached": None, "redirect": {"reached": "[::1]:80"}}]
    assert judge.judge_validator("v", "ftp://[::]", True, pairs=zero, contract=PLANTED, own_host="[::]")["kind"] == "hazard"
    local = dataclasses.replace(PLANTED, rejects=dict(PLANTED.rejects, categories=["loopback", "unspecified"]))
    assert judge.judge_validator("v", "ftp://[::]", True, pairs=zero, contract=local, own_host="[::]")["kind"] == "bug"


@pytest.mark.skipif(WHY is not None, reason=f"no network namespace here: {WHY}")
def test_observed_pairs_model_only_and_verdicts(tmp_path, monkeypatch):
    monkeypatch.setattr(corpus, "PARSER_OF", {"planted-honest": "urllib", "planted-lying": "urllib"})
    model = {"urllib": {"host": "127.1", "destination": "127.0.0.1", "category": "loopback", "version": "1"}}
    bug = _file(tmp_path, "http://127.1/", "127.0.0.1", model)
    hazard = _file(tmp_path, "http://safe.example/", "safe.example", {})
    lie = _file(tmp_path, "http://example.com/", "example.com",
                {"urllib": {"host": "example.com", "destination": "127.0.0.1", "category": "loopback", "version": "1"}})
    items = corpus.sidecars(tmp_path)
    obs = observe.observe(corpus.witnesses(items), redirects=False, progress=lambda s: None,
                          specs={"planted-honest": _planted("honest"), "planted-lying": _planted("lying")})
    tally = corpus.apply(items, obs, _verdict)
    assert tally["changed"] == 3 and tally["reached"] == 2 and tally["model-only"] == 1
    read = {p: json.loads(corpus_store.sidecar_path(p).read_text()) for p in (bug, hazard, lie)}
    for meta in read.values():
        record.check(meta)
    b = read[bug]
    assert b["observation"] == "reached" and b["verdict"]["kind"] == "bug"
    assert b["verdict"]["cause"] == "misclassified-address"
    assert {(p["client"], p["reached"], p["modelled"]) for p in b["verdict"]["pairs"]} == {
        ("planted-honest", "127.0.0.1:80", "127.0.0.1"), ("planted-lying", "127.0.0.1:80", "127.0.0.1")}
    h = read[hazard]
    assert h["observation"] == "reached" and h["verdict"]["kind"] == "hazard" and h["client"] == "planted-lying"
    assert [(p["client"], p["reached"], p["category"], p["modelled"]) for p in h["verdict"]["pairs"]] == [
        ("planted-lying", "10.0.0.1:80", "private", None)]
    m = read[lie]
    assert m["observation"] == "model-only" and m["verdict"]["kind"] == "hazard"
    assert all(p["reached"] is None and p["error"] and p["modelled"] == "127.0.0.1" for p in m["verdict"]["pairs"])
    # idempotent: a second run changes nothing
    again = corpus.apply(corpus.sidecars(tmp_path), obs, _verdict)
    assert again["changed"] == 0
    assert {p: json.loads(corpus_store.sidecar_path(p).read_text()) for p in (bug, hazard, lie)} == read


@pytest.mark.skipif(WHY is not None, reason=f"no network namespace here: {WHY}")
def test_urlwb_ssrf_inputs_judges_a_misclassified_address(tmp_path, capsys):
    """The live path: private-ip (documented: "Check if IP address is private") allows
    ``http://[::ffff:a00:1]/``, which its own parser (node's URL) reads as that address, the
    IPv4-mapped 10.0.0.1, and node-fetch connects to 10.0.0.1: a bug. ``http://0x7f.1/`` (node
    reads 127.0.0.1, which private-ip denies) gives no finding."""
    from urlwb import cli
    built("private-ip", "node-fetch")
    listing = tmp_path / "inputs.txt"
    listing.write_text("http://[::ffff:a00:1]/\nhttp://0x7f.1/\n", encoding="utf-8")
    code = cli.main(["ssrf", "--inputs", str(listing), "--oracle", "private-ip", "--clients", "node-fetch",
                     "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 1, out[-2000:]   # the bug it finds: exit status 1 (docs/cli.md)
    recs = [json.loads(x) for x in (tmp_path / "out" / "findings.jsonl").read_text(encoding="utf-8").splitlines()]
    ssrf = {r["input"]: r for r in recs if r["rule"] == "ssrf"}
    assert set(ssrf) == {"http://[::ffff:a00:1]/"}
    v = ssrf["http://[::ffff:a00:1]/"]["verdict"]
    assert v["kind"] == "bug" and v["cause"] == "misclassified-address", v
    assert "private-ip" in v["spec"]["clause"] and "Check if IP address is private" in v["spec"]["clause"]
