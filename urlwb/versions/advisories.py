"""Published advisories for a package at a release (issue 34, part 5): OSV, PyPI's JSON API and
``npm audit``, each read into one shape: ``{"id", "aliases", "fixed": [...], "url", "source"}``.

- OSV (https://google.github.io/osv.dev/post-v1-query/): ``POST /v1/query`` with the package and
  version; each vulnerability's ``affected[].ranges[].events`` name the ``fixed`` releases.
- PyPI (https://docs.pypi.org/api/json/): ``/pypi/NAME/VERSION/json`` (``/pypi/NAME/json`` for the
  newest) lists ``vulnerabilities`` with ``fixed_in``.
- npm (``npm audit --json``, npm 7+): ``vulnerabilities.NAME.via[]`` objects (an advisory's
  ``url``, ``title``, ``range``) and ``fixAvailable``; an error body (``statusCode``, ``message``)
  is said in one line.

:func:`query` asks OSV, then PyPI for a PyPI package; each failure is one line, never a guess.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

#: the workbench's registry names -> OSV's ecosystems
ECOSYSTEMS = {"pypi": "PyPI", "npm": "npm", "crates": "crates.io", "maven": "Maven", "go": "Go"}


class AdvisoryError(RuntimeError):
    """An advisory source could not answer; one line."""


def from_osv(doc: dict) -> list[dict]:
    out = []
    for v in doc.get("vulns", []) or []:
        fixed = sorted({e["fixed"] for a in v.get("affected", []) for r in a.get("ranges", [])
                        for e in r.get("events", []) if "fixed" in e})
        refs = [r.get("url") for r in v.get("references", []) if r.get("type") == "ADVISORY"] or \
            [r.get("url") for r in v.get("references", [])]
        out.append({"id": v["id"], "aliases": v.get("aliases", []), "fixed": fixed,
                    "url": refs[0] if refs else f"https://osv.dev/vulnerability/{v['id']}", "source": "osv"})
    return out


def from_pypi(doc: dict) -> list[dict]:
    return [{"id": v["id"], "aliases": v.get("aliases", []), "fixed": list(v.get("fixed_in") or []),
             "url": v.get("link") or f"https://osv.dev/vulnerability/{v['id']}", "source": "pypi"}
            for v in doc.get("vulnerabilities", []) or [] if not v.get("withdrawn")]


def from_npm_audit(doc: dict) -> list[dict]:
    if "statusCode" in doc or "error" in doc and "vulnerabilities" not in doc:
        raise AdvisoryError(f"npm audit: {doc.get('message') or doc.get('error')}")
    out = []
    for name, v in (doc.get("vulnerabilities") or {}).items():
        fix = v.get("fixAvailable")
        for via in v.get("via", []):
            if isinstance(via, dict):
                url = via.get("url", "")
                out.append({"id": url.rsplit("/", 1)[-1] or str(via.get("source")), "aliases": [],
                            "fixed": [fix["version"]] if isinstance(fix, dict) and fix.get("name") == name else [],
                            "url": url, "source": "npm audit", "range": via.get("range"), "title": via.get("title")})
    return out


def _fetch(url: str, data: dict | None = None) -> dict:
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"} if body else {})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read().decode("utf-8"))
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise AdvisoryError(f"{url}: {getattr(exc, 'reason', exc)}") from None


def query(registry: str, package: str, version: str) -> list[dict]:
    """The advisories known for ``package`` at ``version``: OSV's, else PyPI's for a PyPI package;
    AdvisoryError naming every source that failed."""
    failed = []
    if registry in ECOSYSTEMS:
        try:
            return from_osv(_fetch("https://api.osv.dev/v1/query",
                                   {"package": {"name": package, "ecosystem": ECOSYSTEMS[registry]}, "version": version}))
        except AdvisoryError as exc:
            failed.append(str(exc))
    if registry == "pypi":
        try:
            return from_pypi(_fetch(f"https://pypi.org/pypi/{package}/{version}/json"))
        except AdvisoryError as exc:
            failed.append(str(exc))
    raise AdvisoryError("; ".join(failed) or f"no advisory source for {registry}")
