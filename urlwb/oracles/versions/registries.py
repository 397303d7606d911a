"""The released versions of a package, oldest first, from the registry's own list.

Each registry's answer is read by a pure function (``parse_npm``, ``parse_pypi``,
``parse_maven``, ``parse_crates``, ``parse_go``) that the tests hold to recorded answers in
``tests/data/versions/``; :func:`released` fetches it with the registry's ordinary client where it
has a listing command (``npm view PKG versions --json``, ``go list -m -versions MODULE``) and over
HTTPS where the registry's documented list is a file (PyPI's JSON API, Maven Central's
``maven-metadata.xml``, the crates.io sparse index). Yanked releases (PyPI, crates.io) are left
out: they do not resolve for a new lockfile either. Pre-releases are left out unless asked for.

Invariant: :func:`released` returns distinct versions, sorted by the registry's own ordering
rule (semantic versioning for npm, crates.io and Go; PEP 440 for PyPI; Maven's
ComparableVersion order, simplified, for Maven), oldest first; a registry that says no is one
line (:class:`RegistryError`) carrying what it said.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

from packaging.tags import sys_tags
from packaging.utils import InvalidWheelFilename, parse_wheel_filename
from packaging.version import InvalidVersion, Version

from urlwb import children, progress
from urlwb.errors import UsageError

TIMEOUT = 60.0


class RegistryError(UsageError):
    """A registry that did not give the list: one line, with the registry's own words."""


# --- ordering ----------------------------------------------------------------------------------

_SEMVER = re.compile(r"v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?\Z")


def _pre_key(pre: str) -> tuple:
    # semver 11.4: numeric identifiers below alphanumeric ones, compared as numbers
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split("."))


def semver_key(v: str) -> tuple:
    m = _SEMVER.match(v)
    if not m:
        return ((), 0, generic_key(v))
    nums = tuple(int(x) for x in m.group(1, 2, 3))
    pre = m.group(4)
    return (nums, 1 if pre is None else 0, _pre_key(pre) if pre else ())


def semver_pre(v: str) -> bool:
    m = _SEMVER.match(v)
    return m is None or m.group(4) is not None


_MAVEN_QUALIFIERS = {"alpha": 0, "a": 0, "beta": 1, "b": 1, "milestone": 2, "m": 2, "rc": 3,
                     "cr": 3, "preview": 3, "ea": 3, "snapshot": 4, "": 5, "ga": 5, "final": 5,
                     "release": 5, "jre": 5, "android": 5, "sp": 6}
_MAVEN_PRE = {"alpha", "beta", "milestone", "rc", "cr", "snapshot", "preview", "ea", "a", "b", "m"}


def generic_key(v: str) -> tuple:
    """Maven's ordering, simplified: numbers as numbers; the qualifiers alpha < beta < milestone <
    rc < snapshot < the release itself (``.RELEASE``, ``-jre``, ``.Final``: a release) < sp <
    any other (``.SEC01``); zeros that end a run of numbers do not count (1.0 == 1, 1.0-rc1 ==
    1-rc-1)."""
    items: list[tuple] = []
    run: list[tuple] = []

    def close_run():
        while run and run[-1] == (2, 0, ""):
            run.pop()
        items.extend(run)
        run.clear()

    for tok in re.findall(r"\d+|[A-Za-z]+", v):
        if tok.isdigit():
            run.append((2, int(tok), ""))
            continue
        close_run()
        rank = _MAVEN_QUALIFIERS.get(tok.lower())
        if rank != 5:   # a release's own qualifier is the release
            items.append((1, rank, "") if rank is not None else (1, 7, tok.lower()))
    close_run()
    return (*items, (1, 5, ""))


def maven_pre(v: str) -> bool:
    """A qualifier token (``-RC1``, ``.M2``, ``-alpha``, ``-SNAPSHOT``) of a pre-release; ``.RELEASE``,
    ``-jre``, ``.SEC01`` are releases."""
    return any(tok.lower() in _MAVEN_PRE for tok in re.findall(r"[A-Za-z]+", v))


def pep440_key(v: str):
    try:
        return (0, Version(v))
    except InvalidVersion:  # not PEP 440: generic order, after every PEP 440 version
        return (1, generic_key(v))


def pep440_pre(v: str) -> bool:
    try:
        return Version(v).is_prerelease
    except InvalidVersion:  # not PEP 440: a pre-release is its safe reading
        return bool(re.search(r"(?i)(a|b|rc|dev|alpha|beta|pre)\d*", v))


ORDER = {"npm": (semver_key, semver_pre), "crates": (semver_key, semver_pre),
         "go": (semver_key, semver_pre), "pypi": (pep440_key, pep440_pre),
         "maven": (generic_key, maven_pre)}


def ordered(registry: str, versions, pre: bool = False) -> list[str]:
    """``versions`` distinct, oldest first by ``registry``'s rule; pre-releases only with ``pre``."""
    key, is_pre = ORDER[registry]
    uniq = list(dict.fromkeys(versions))
    return sorted((v for v in uniq if pre or not is_pre(v)), key=key)


def sort_key(registry: str):
    return ORDER[registry][0]


# --- the registries' answers -------------------------------------------------------------------

def parse_npm(text: str) -> list[str]:
    """``npm view PKG versions --json``: a JSON list (a string when there is one version)."""
    data = json.loads(text)
    return [data] if isinstance(data, str) else [v for v in data if isinstance(v, str)]


def parse_pypi(text: str) -> list[str]:
    """PyPI's JSON API (``/pypi/PKG/json``): the releases with at least one file not yanked."""
    data = json.loads(text)
    return [v for v, files in data.get("releases", {}).items()
            if any(not f.get("yanked", False) for f in files)]


def parse_maven(text: str) -> list[str]:
    """Maven Central's ``maven-metadata.xml``: every ``versioning/versions/version``."""
    root = ET.fromstring(text)
    return [e.text.strip() for e in root.iter("version") if e.text and e.text.strip()]


def parse_crates(text: str) -> list[str]:
    """The crates.io sparse index file of a crate: one JSON object a line, ``vers`` and
    ``yanked``."""
    out = []
    for line in text.splitlines():
        if line.strip():
            rec = json.loads(line)
            if not rec.get("yanked", False):
                out.append(rec["vers"])
    return out


def parse_go(text: str) -> list[str]:
    """``go list -m -versions MODULE``: the module path, then its tagged versions."""
    return text.split()[1:]


# --- fetching ----------------------------------------------------------------------------------

def _get(url: str, who: str) -> str:
    req = urllib.request.Request(url, headers={"User-Agent": "url-workbench (urlwb bisect)"})
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
            return r.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        raise RegistryError(f"{who} says {exc.code} {exc.reason} for {url}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise RegistryError(f"{who} could not be reached for {url}: {getattr(exc, 'reason', exc)}") from None


def _run(cmd: list[str], who: str) -> str:
    said = f"{who}: {' '.join(cmd)[:100]}"
    try:
        with tempfile.TemporaryDirectory() as tmp, progress.heartbeat(said, after=progress.EVERY):
            r = children.run(cmd, cwd=tmp, capture_output=True, text=True, timeout=TIMEOUT,
                             stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RegistryError(f"`{' '.join(cmd)}` could not run: {exc}") from None
    if r.returncode != 0:
        raise RegistryError(f"{who}: {first_error(r.stderr or r.stdout)}")
    return r.stdout


def first_error(text: str) -> str:
    """The first line of a client's output that says what went wrong, as one short line."""
    lines = [x.strip() for x in text.splitlines() if x.strip()]
    for pat in (r"(?i)\bE[A-Z0-9]{3,}\b|No matching|Could not find|failed to select|unknown revision|"
                r"invalid version|not found|404|cannot find symbol|error\[|error:|ERROR"):
        for line in lines:
            if re.search(pat, line):
                return " ".join(line.split())[:300]
    return " ".join(lines[-1].split())[:300] if lines else "no output"


def crates_index_path(name: str) -> str:
    """The sparse index's path of a crate (https://doc.rust-lang.org/cargo/reference/registry-index.html)."""
    n = name.lower()
    if len(n) <= 2:
        return f"{len(n)}/{n}"
    if len(n) == 3:
        return f"3/{n[0]}/{n}"
    return f"{n[:2]}/{n[2:4]}/{n}"


def parse_pypi_files(names, package: str) -> list[str]:
    """The versions in a PyPI index's file names (a ``--find-links`` folder, a simple-API page):
    ``NAME-VERSION-....whl`` and ``NAME-VERSION.tar.gz`` (``.zip``) of ``package``, names
    compared as PEP 503 normalizes them."""
    def norm(n: str) -> str:
        return re.sub(r"[-_.]+", "-", n).lower()

    out = []
    for f in names:
        m = (re.match(r"([^-]+)-([^-]+)-.*\.whl\Z", f) or re.match(r"(.+)-([^-]+)\.(?:tar\.gz|zip)\Z", f))
        if m and norm(m[1]) == norm(package):
            out.append(m[2])
    return out


def _source_url(source: str) -> str:
    """A registry given as a folder or a URL, as a URL (``file://`` for a folder)."""
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", source):
        return source.rstrip("/")
    import pathlib
    return pathlib.Path(source).resolve().as_uri()


def fetch(registry: str, package: str, source: str | None = None) -> list[str]:
    """Every released version of ``package`` as the registry lists it (unordered, unfiltered);
    ``source``: a user's package's own registry (``registry = ...`` of its table: an npm registry
    URL, a PyPI index URL or folder of files, a Maven repository URL or folder)."""
    if registry == "npm":
        from urlwb.oracles.versions.installs import npm_home_flags
        where = ["--registry", source] if source else []
        return parse_npm(_run(["npm", "view", *npm_home_flags(), *where, package, "versions", "--json"], "npm"))
    if registry == "pypi":
        if source:
            url = _source_url(source)
            if url.startswith("file://"):
                import pathlib
                import urllib.parse
                folder = pathlib.Path(urllib.parse.unquote(url[len("file://"):]))
                if not folder.is_dir():
                    raise RegistryError(f"{source}: not a folder of PyPI files")
                return parse_pypi_files([f.name for f in folder.iterdir()], package)
            page = _get(f"{url}/{re.sub(r'[-_.]+', '-', package).lower()}/", "the PyPI index")
            return parse_pypi_files([h.rsplit("/", 1)[-1].split("#")[0]
                                     for h in re.findall(r'href="([^"]+)"', page)], package)
        return parse_pypi(_get(f"https://pypi.org/pypi/{package}/json", "PyPI"))
    if registry == "maven":
        group, artifact = package.split(":")
        base = _source_url(source) if source else "https://repo1.maven.org/maven2"
        return parse_maven(_get(f"{base}/{group.replace('.', '/')}/{artifact}/maven-metadata.xml",
                                "the Maven repository" if source else "Maven Central"))
    if registry == "crates":
        return parse_crates(_get(f"https://index.crates.io/{crates_index_path(package)}", "crates.io"))
    if registry == "go":
        return parse_go(_run(["go", "list", "-m", "-versions", package], "the Go module proxy"))
    raise ValueError(registry)


def released(registry: str, package: str, pre: bool = False, source: str | None = None) -> list[str]:
    """The released versions, oldest first (pre-releases only with ``pre``)."""
    return ordered(registry, fetch(registry, package, source), pre)


# --- PyPI: a release that runs on this Python -----------------------------------------------------

def parse_pypi_wheels(text: str) -> dict[str, list[str]]:
    """PyPI's JSON API (``/pypi/PKG/json``): each release's wheel file names, yanked ones left out."""
    data = json.loads(text)
    return {v: [f["filename"] for f in files if f.get("filename", "").endswith(".whl") and not f.get("yanked", False)]
            for v, files in data.get("releases", {}).items()}


def wheel_runs_here(filename: str, tags: frozenset | None = None) -> bool:
    """True when the wheel ``filename`` installs on the running Python (one of its tags is one
    of ``packaging.tags.sys_tags()``)."""
    try:
        file_tags = parse_wheel_filename(filename)[3]
    except InvalidWheelFilename:
        return False
    return bool(file_tags & (tags if tags is not None else frozenset(sys_tags())))


def nearest_with_wheel(wheels: dict[str, list[str]], version: str, tags: frozenset | None = None) -> str | None:
    """``version`` when it has a wheel for the running Python; else the release nearest to it in
    PEP 440 order that has one (pre-releases aside; the older of two as near, which is likelier
    to keep what ``version`` had); None when no release has."""
    runs = {v for v, files in wheels.items() if any(wheel_runs_here(f, tags) for f in files)}
    if version in runs:
        return version
    releases = ordered("pypi", [*wheels, version])
    if version not in releases:
        releases = sorted([*releases, version], key=pep440_key)
    at = releases.index(version)
    near = sorted((abs(i - at), i > at, v) for i, v in enumerate(releases) if v in runs)
    return near[0][2] if near else None


def pypi_wheels(package: str) -> dict[str, list[str]]:
    """Each release's wheel file names on PyPI (RegistryError when PyPI cannot say)."""
    return parse_pypi_wheels(_get(f"https://pypi.org/pypi/{package}/json", "PyPI"))
