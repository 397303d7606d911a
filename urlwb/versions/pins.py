"""Every shipped pin against its package's newest release (issue 34, part 5): ``urlwb upstream --pins``.

A pin is read where the shipped adapter's build takes it: an npm adapter folder's
``package-lock.json`` (``packages["node_modules/NAME"]``), a Maven ``pom.xml`` dependency (OkHttp 5's
jar is ``okhttp-jvm``), ``Cargo.lock``, ``go.mod``; for the in-process Python peers, the installed
distribution (``importlib.metadata``). The newest release is the registry's
(:func:`urlwb.oracles.versions.registries.released`, pre-releases left out). A pin that cannot be
read is said so, not guessed.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import pathlib
import re
import tomllib
import xml.etree.ElementTree as ET

from urlwb.errors import UsageError
from urlwb.oracles import contracts
from urlwb.oracles.versions import catalog, registries

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: the adapter folders, by the shipped packages' ``folder`` (urlwb/oracles/<folder>, or the validators')
FOLDERS = {"validator": ROOT / "ssrf" / "validators"}
_MAVEN = "{http://maven.apache.org/POM/4.0.0}"


@dataclasses.dataclass
class Pin:
    names: list[str]
    registry: str
    package: str
    pinned: str | None
    newest: str | None = None
    why: str | None = None

    @property
    def state(self) -> str:
        if self.pinned is None or self.newest is None:
            return "unknown"
        return "newest" if self.pinned == self.newest else "behind"


def _folder(pkg: catalog.Package) -> pathlib.Path | None:
    if pkg.folder is None:
        return None
    return (FOLDERS["validator"] if pkg.kind == "validator" else ROOT / "oracles") / pkg.folder


def pinned(pkg: catalog.Package, folder: pathlib.Path | None = None) -> str | None:
    """The version the shipped adapter of ``pkg`` is built or run with; None when not found."""
    folder = folder or _folder(pkg)
    if pkg.registry == "pypi" and folder is None:
        try:
            return importlib.metadata.version(pkg.package)
        except importlib.metadata.PackageNotFoundError:
            return None
    if folder is None:
        return None
    if pkg.registry == "npm" and (folder / "package-lock.json").exists():
        lock = json.loads((folder / "package-lock.json").read_text(encoding="utf-8"))
        return (lock.get("packages", {}).get(f"node_modules/{pkg.package}") or {}).get("version")
    if pkg.registry == "maven" and (folder / "pom.xml").exists():
        group, artifact = pkg.package.split(":")
        for dep in ET.parse(folder / "pom.xml").getroot().iter(f"{_MAVEN}dependency"):
            g, a, v = (dep.findtext(f"{_MAVEN}{k}") for k in ("groupId", "artifactId", "version"))
            if g == group and a in (artifact, f"{artifact}-jvm"):
                return v
        return None
    if pkg.registry == "crates" and (folder / "Cargo.lock").exists():
        lock = tomllib.loads((folder / "Cargo.lock").read_text(encoding="utf-8"))
        found = [p["version"] for p in lock.get("package", []) if p.get("name") == pkg.package]
        return found[-1] if found else None
    if pkg.registry == "go" and (folder / "go.mod").exists():
        m = re.search(rf"^\s*(?:require\s+)?{re.escape(pkg.package)}\s+(v\S+)", (folder / "go.mod").read_text(), re.M)
        return m.group(1) if m else None
    return None


def shipped() -> list[Pin]:
    """Every shipped package (parsers, host oracles, validators; one row per package)."""
    rows: dict[tuple[str, str], Pin] = {}
    every = {**catalog.PACKAGES, **catalog.VALIDATORS, **_npm_validators()}
    for name, pkg in sorted(every.items()):
        key = (pkg.registry, pkg.package)
        if key in rows:
            rows[key].names.append(name)
            continue
        rows[key] = Pin([name], pkg.registry, pkg.package, pinned(pkg))
    return list(rows.values())


def _npm_validators() -> dict[str, catalog.Package]:
    """The npm validators (urlwb.ssrf.install's, not the versions catalog's), pinned in
    urlwb/ssrf/validators/npm/package-lock.json."""
    out = {}
    for name, row in contracts.table()["validator"].items():
        if row.package is not None and row.package[0] == "npm":
            out[name] = catalog.Package(name, "npm", row.package[1], "validator", "npm")
    return out


def newest(pins: list[Pin]) -> list[Pin]:
    """Each pin with its registry's newest release (or why it could not be listed)."""
    for p in pins:
        try:
            versions = registries.released(p.registry, p.package)
            p.newest = versions[-1] if versions else None
        except UsageError as exc:
            p.why = str(exc)
    return pins


def text(p: Pin) -> str:
    where = f"{p.registry}:{p.package}"
    if p.pinned is None:
        return f"{where}: pin not read ({', '.join(p.names)})"
    if p.newest is None:
        return f"{where} {p.pinned}: newest unknown ({p.why or 'no release listed'})"
    said = "the newest" if p.state == "newest" else f"behind: newest {p.newest}"
    return f"{where} {p.pinned}: {said} ({', '.join(p.names)})"
