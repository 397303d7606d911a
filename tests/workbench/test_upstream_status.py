"""Upstream status measured (issue 34, part 5): a bug cause asked at its package's newest release
through the versions machinery, from a local registry (a folder of wheels: no network)."""

from __future__ import annotations

import json
import pathlib

import pytest

from local_registries import wheel
from urlwb import cli, oracles
from urlwb.findings import record
from urlwb.oracles.versions import installs, names

ADAPTER = '''
import json, sys
import urlwb_planted_rfc as planted
print(json.dumps({"hello": "urlwb-oracle/1", "name": "planted-rfc", "parser": "urlwb-planted-rfc", "language": "Python",
                  "version": planted.VERSION, "family": "other", "kind": "url", "base": False}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    print(json.dumps({"id": req["id"], **planted.parse(req["input"])}), flush=True)
'''
#: a URI parser that keeps the port in the host (RFC 3986 §3.2.2: a bug) until it is fixed
PLANTED = '''
import urllib.parse
VERSION = %(version)r
def parse(s):
    u = urllib.parse.urlsplit(s)
    host = u.netloc.rpartition("@")[2] if %(buggy)r else u.hostname
    return {"scheme": u.scheme, "username": None, "password": None, "host": host, "port": u.port,
            "path": u.path, "query": u.query or None, "fragment": u.fragment or None, "href": s}
'''
INPUT = "http://h:8080/"


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("URLWB_VERSIONS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    (tmp_path / "corpus").mkdir()
    monkeypatch.delenv(installs.ALLOW_ENV, raising=False)
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.chdir(folder)
    (folder / "adapter.py").write_text(ADAPTER, encoding="utf-8")
    before = set(oracles.REGISTRY)
    yield folder
    for name in set(oracles.REGISTRY) - before:
        del oracles.REGISTRY[name]
    names.VALIDATORS.clear()


def _registry(tmp_path: pathlib.Path, package: str, releases: dict[str, bool]) -> pathlib.Path:
    folder = tmp_path / f"pypi-{package}"
    folder.mkdir()
    for version, buggy in releases.items():
        wheel(folder, package, version, {"urlwb_planted_rfc/__init__.py": PLANTED % {"version": version, "buggy": buggy}})
    return folder


def _config(project: pathlib.Path, name: str, package: str, folder: pathlib.Path) -> None:
    (project / "urlwb.toml").write_text(
        f"[tool.urlwb.oracles.{name}]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in {
            "command": f"python {project / 'adapter.py'}", "package": f"pypi:{package}", "registry": str(folder),
            "spec": "rfc3986"}.items()), encoding="utf-8")


def _status(project, tmp_path, name: str, capsys) -> dict:
    bug = record.verdict("bug", "rfc3986", "RFC 3986 §3.2.2 host", "host")
    record.write_findings(tmp_path / "run", [record.make_finding(
        input=INPUT, parser=f"{name}@1.0", rule="contract/host", signature=f"contract/host:bug~{name}", verdict=bug)])
    assert cli.main(["upstream", "--from", str(tmp_path / "run"), "--parsers", name, "--out", str(tmp_path / "up")]) == 0
    out = capsys.readouterr().out
    (row,) = json.loads((tmp_path / "up" / "status.json").read_text(encoding="utf-8"))
    return row, out


def test_a_bug_fixed_in_a_newer_release_is_fixed_in_that_release(project, tmp_path, capsys):
    """Kills a status read from a table by hand: the planted package keeps the port in the host
    at 1.0 and 1.1 and reads it apart from 1.2: asked at the newest (2.0, no bug) and bisected,
    the cause is fixed in 1.2."""
    folder = _registry(tmp_path, "urlwb-planted-rfc", {"1.0": True, "1.1": True, "1.2": False, "2.0": False})
    _config(project, "planted-rfc", "urlwb-planted-rfc", folder)
    row, out = _status(project, tmp_path, "planted-rfc", capsys)
    assert row["state"] == "fixed" and row["fixed_in"] == "1.2" and row["newest"] == "2.0", row
    assert "fixed in 1.2 (newest 2.0)" in out
    assert row["asked"]["2.0"] == "no finding" and row["asked"]["1.1"] == "bug"


def test_a_bug_in_the_newest_release_is_still_there(project, tmp_path, capsys):
    folder = _registry(tmp_path, "urlwb-planted-rfc", {"1.0": True, "2.0": True})
    _config(project, "planted-rfc", "urlwb-planted-rfc", folder)
    row, out = _status(project, tmp_path, "planted-rfc", capsys)
    assert row["state"] == "still" and "still in 2.0 (newest)" in out, row


def test_every_shipped_pin_is_read_and_held_to_the_newest(monkeypatch):
    """Kills a pin list kept by hand: each shipped package's pin is read from where its adapter
    is built or run (a lock file, pom.xml, Cargo.lock, go.mod, the installed distribution) and
    compared with the registry's newest (here a recorded listing: the newest is one past the pin
    for whatwg-url, as npm listed it on 2026-12-03: 16.0.1 pinned, 17.3.0 newest)."""
    from urlwb.versions import pins
    rows = pins.shipped()
    by = {(p.registry, p.package): p for p in rows}
    assert all(p.pinned for p in rows), [p.names for p in rows if not p.pinned]
    assert by["maven", "com.squareup.okhttp3:okhttp"].pinned.startswith("5.")   # the okhttp-jvm artifact
    assert {"ip", "ip-url-parse"} <= set(by["npm", "ip"].names)
    listed = {("npm", "whatwg-url"): ["15.1.0", "16.0.1", "17.0.0", "17.3.0"]}
    monkeypatch.setattr(pins.registries, "released",
                        lambda registry, package, **kw: listed.get((registry, package), [by[registry, package].pinned]))
    rows = {(p.registry, p.package): p for p in pins.newest(rows)}
    assert rows["npm", "whatwg-url"].state == "behind" and rows["npm", "whatwg-url"].newest == "17.3.0"
    assert "behind: newest 17.3.0" in pins.text(rows["npm", "whatwg-url"])
    assert rows["pypi", "rfc3986"].state == "newest"


ADVISORIES = pathlib.Path(__file__).with_name("advisories")


def _doc(name: str) -> dict:
    return json.loads((ADVISORIES / name).read_text(encoding="utf-8"))


def test_the_advisory_sources_are_read_into_one_shape(monkeypatch):
    """Each source against a stored response: PyPI's JSON for urllib3 (recorded live, none
    published at 2.8.0), npm audit's refusal here (recorded live: one line, never an empty
    list), and OSV's and npm audit's answer shapes (written by hand, as each file says: OSV does
    not resolve from this machine and the registry proxy refuses the audit POST)."""
    from urlwb.versions import advisories, status
    assert advisories.from_pypi(_doc("pypi-urllib3.json")) == []
    assert status.advisory_text({"found": []}) == "none published"
    with pytest.raises(advisories.AdvisoryError, match="405 Method Not Allowed"):
        advisories.from_npm_audit(_doc("npm-audit-405.json"))
    (osv,) = advisories.from_osv(_doc("osv-urllib3-1.26.4.json"))
    assert osv["id"] == "GHSA-q2q7-5pp4-w6pg" and osv["fixed"] == ["1.26.5"] and "CVE-2021-33503" in osv["aliases"]
    assert status.advisory_text({"found": [osv]}) == "GHSA-q2q7-5pp4-w6pg fixed in 1.26.5"
    (npm,) = advisories.from_npm_audit(_doc("npm-audit-planted.json"))
    assert npm["id"] == "GHSA-plnt-0000-0000" and npm["fixed"] == ["1.2.0"] and npm["range"] == "<1.2.0"

    def unreachable(url, data=None):
        raise advisories.AdvisoryError(f"{url}: [Errno -2] Name or service not known")
    monkeypatch.setattr(advisories, "_fetch", unreachable)
    with pytest.raises(advisories.AdvisoryError, match="api.osv.dev.*pypi.org"):
        advisories.query("pypi", "urllib3", "1.26.4")
