"""Every committed sidecar is a finding in the one shape (urlwb/findings/schema/finding-v1.json).

``corpus/*/regress/*.json`` and ``corpus/history/*/*.json`` are held to the schema, each with a
verdict (``kind``, ``spec``); ``scripts/migrate_findings.py`` brings an old sidecar into it, once
(a second run changes nothing); the ssrf filer writes a validator's version once.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys

import pytest

from urlwb.findings import record, sidecar

ROOT = pathlib.Path(__file__).resolve().parents[2]
MIGRATE = ROOT / "scripts" / "migrate_findings.py"


def _sidecars(root: pathlib.Path) -> list[pathlib.Path]:
    return sorted(root.glob("*/regress/*.json")) + sorted(root.glob("history/*/*.json"))


def violations(root: pathlib.Path) -> list[str]:
    """One line per sidecar under ``root`` that does not fit the schema."""
    out = []
    for path in _sidecars(root):
        try:
            meta = json.loads(path.read_text(encoding="utf-8"))
            record.check(meta)
        except (ValueError, record.FindingError) as exc:
            out.append(f"{path.relative_to(root)}: {exc}")
    return out


def test_every_committed_sidecar_fits_the_schema():
    found = _sidecars(ROOT / "corpus")
    assert len(found) >= 300, "the corpus holds its 267 regress sidecars and 39 history entries"
    assert violations(ROOT / "corpus") == []


def test_no_ssrf_signature_repeats_its_version():
    sigs = [json.loads(p.read_text())["signature"] for p in (ROOT / "corpus" / "ssrf" / "regress").glob("*.json")]
    assert sigs and all(sidecar.dedupe_ssrf_signature(s) == s for s in sigs)
    assert len(set(sigs)) == len(sigs)


@pytest.mark.parametrize("breakage", [
    lambda m: m.pop("verdict"),
    lambda m: m.update(verdict="unreviewed"),                       # the old string verdict
    lambda m: m["verdict"].update(kind="maybe"),
    lambda m: m["verdict"]["spec"].pop("clause"),
    lambda m: m.pop("schema"),
    lambda m: m.update(rule="Differential/Port"),
])
def test_a_planted_broken_sidecar_is_named(tmp_path, breakage):
    src = ROOT / "corpus" / "growth" / "regress"
    dst = tmp_path / "growth" / "regress"
    shutil.copytree(src, dst)
    victim = sorted(dst.glob("*.json"))[0]
    meta = json.loads(victim.read_text())
    breakage(meta)
    victim.write_text(json.dumps(meta))
    bad = violations(tmp_path)
    assert len(bad) == 1 and victim.name in bad[0]


OLD_DIFFERENTIAL = {
    "target": "differential", "sha1": "x", "signature": "accept-reject/port:engine~go-net-url",
    "kind": "invariant", "invariant": "one accepts, one rejects", "first_seen": "2026-12-01T00:00:00+00:00",
    "status": "open", "note": "", "input": "HTTP://:", "base": None, "parser": "go-net-url",
    "verdict": "unreviewed (found by urlwb hunt): not yet checked"}
OLD_SSRF = {
    "target": "ssrf", "sha1": "y", "signature": "ssrf:ip@1.1.8@1.1.8:0123456789ab", "kind": "invariant",
    "invariant": "ip allows", "first_seen": "2026-12-01T00:00:00+00:00", "status": "open", "note": "",
    "input": "http://0x7f.1/", "validator": "ip@1.1.8", "validator_base": "ip", "validator_version": "1.1.8",
    "deny": ["loopback"], "fetchers": {"curl": {"host": "0x7f.1", "destination": "127.0.0.1", "category": "loopback"}}}


def _migrate(corpus: pathlib.Path, *flags) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(MIGRATE), str(corpus), *flags], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_the_migration_shapes_old_sidecars_once_and_keeps_their_fields(tmp_path):
    for meta in (OLD_DIFFERENTIAL, OLD_SSRF):
        folder = tmp_path / meta["target"] / "regress"
        folder.mkdir(parents=True)
        (folder / "ab").write_text(meta["input"])
        (folder / "ab.json").write_text(json.dumps(meta, indent=2))
    assert len(violations(tmp_path)) == 2
    assert _migrate(tmp_path, "--check").returncode == 1
    first = _migrate(tmp_path)
    assert first.returncode == 0, first.stderr
    assert violations(tmp_path) == []
    before = {p: p.read_bytes() for p in _sidecars(tmp_path)}
    assert _migrate(tmp_path, "--check").returncode == 0
    assert _migrate(tmp_path).returncode == 0
    assert {p: p.read_bytes() for p in _sidecars(tmp_path)} == before       # idempotent
    diff = json.loads((tmp_path / "differential" / "regress" / "ab.json").read_text())
    assert diff["verdict"]["reason"] == OLD_DIFFERENTIAL["verdict"]
    assert diff["verdict"]["kind"] == "hazard" and diff["rule"] == "accept-reject/port"
    assert diff["command"] == "urlwb diff HTTP://: --parsers engine,go-net-url"
    assert {k: diff[k] for k in OLD_DIFFERENTIAL if k != "verdict"} == {k: v for k, v in OLD_DIFFERENTIAL.items() if k != "verdict"}
    ssrf = json.loads((tmp_path / "ssrf" / "regress" / "ab.json").read_text())
    assert ssrf["signature"] == "ssrf:ip@1.1.8:0123456789ab"
    assert (ssrf["validator"], ssrf["client"]) == ("ip@1.1.8", "curl")
    assert ssrf["verdict"]["pairs"] == [{"validator": "ip@1.1.8", "client": "curl", "reached": "127.0.0.1"}]


def test_the_ssrf_filer_writes_the_version_once(tmp_path, monkeypatch):
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path))
    from urlwb.ssrf import regress
    path = regress.file("ip@1.1.8", "ip", "1.1.8", "http://0x7f.1/",
                        {"curl": {"host": "0x7f.1", "destination": "127.0.0.1", "category": "loopback"}},
                        ["loopback"])
    meta = json.loads(path.with_name(path.name + ".json").read_text())
    assert meta["signature"].startswith("ssrf:ip@1.1.8:") and record.check(meta)
    path = regress.file("ip", "ip", "2.0.1", "http://0x7f.1/", {}, ["loopback"])
    assert json.loads(path.with_name(path.name + ".json").read_text())["signature"].startswith("ssrf:ip@2.0.1:")
