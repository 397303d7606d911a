"""A shipped adapter built against another released version of its parser, in a cache outside the
checkout; and a shipped validator of ``urlwb ssrf`` (kind ``validator``, ``urlwb/ssrf/validators/``)
against another release of its library, the same way (:data:`~.catalog.VALIDATORS`: Guava's
``jvm-guava``; npm and PyPI validators are installed by ``urlwb.ssrf.install``).

Layout (:func:`cache_root`, ``$URLWB_VERSIONS_CACHE``, else ``${XDG_CACHE_HOME:-~/.cache}/urlwb/
versions``)::

    <root>/<parser>/<version>/built.json    written last, atomically: the build is complete (with
                                            the digest of the adapter source it was built from: a
                                            build of other source is built again)
    <root>/<parser>/<version>/failed.json   the registry said no (or the adapter did not compile):
                                            the one-line reason, reused until --rebuild
    <root>/<parser>/<version>/build.log     the build's own output
    <root>/_cargo-target/                   one cargo target folder for every Rust build (the
                                            crates they share compile once)

Invariant: a folder with ``built.json`` holds a runnable adapter for exactly that version (the
version went into the build as an exact requirement: ``url-parse@1.4.0`` in package.json,
``yarl==1.9.0``, ``<version>4.9.0</version>``, ``url = "=2.1.1"``, ``go get
golang.org/x/net@v0.10.0``); a build that fails leaves no ``built.json``. One build of one folder
at a time (``flock`` on ``<root>/<parser>/.lock``). The adapter's source is the shipped one,
copied unchanged; only the version requirement is rewritten.

No code of the release runs while it is installed (:mod:`.installs`' rules): npm with
``--ignore-scripts``, pip with ``--only-binary :all:``, Maven with ``--strict-checksums`` and only
the adapter's own pom's pinned plugins; ``--allow-install-scripts`` opts in.
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

from urlwb import children, progress, sandbox
from urlwb.errors import UsageError
from urlwb.oracles import HOST_SPECS, REGISTRY, VALIDATOR_SPECS, manifests
from urlwb.oracles.versions import installs
from urlwb.oracles.versions.catalog import Package

#: the checkout (the folder holding ``urlwb/``): the Python adapter's PYTHONPATH
CHECKOUT = pathlib.Path(__file__).resolve().parents[3]
ORACLES = manifests.ROOT
VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*\Z")
TIMEOUTS = {"npm": 300, "pypi": 300, "maven": 900, "crates": 1200, "go": 600}
#: what a registry (or a compiler) says when the version cannot be had: such a failure is final
#: and cached; any other (a time-out, a dropped connection) is tried again next time
FINAL = re.compile(r"ETARGET|notarget|No matching version|No matching distribution|Could not find a version|"
                   r"Could not find artifact|could not be resolved|failed to select a version|unknown revision|"
                   r"invalid version|cannot find symbol|error\[E\d+\]|COMPILATION ERROR|does not exist|"
                   r"E404|404 Not Found|no matching versions|version is not available|410 Gone|"
                   r"\.java:\[\d+,\d+\]|Compilation failure")


class BuildError(UsageError):
    """A version that does not resolve or does not build: one line, the registry's own reason."""


cache_root = installs.cache_root_of_versions
reason_of = installs.reason_of


def build_dir(parser: str, version: str) -> pathlib.Path:
    if not VERSION.match(version) or ".." in version:
        raise BuildError(f"{parser}@{version}: not a version (letters, digits and . _ + - only)")
    return cache_root() / parser / version


def _shipped_spec(pkg: Package) -> manifests.Spec | None:
    if pkg.kind == "validator":
        return VALIDATOR_SPECS.get(pkg.parser)
    entry = REGISTRY.get(pkg.parser)
    if entry is not None and entry.spec is not None:
        return entry.spec
    return HOST_SPECS.get(pkg.parser)


def source(pkg: Package) -> pathlib.Path:
    """The shipped folder a build copies its adapter from: ``urlwb/oracles/<folder>/``, or for a
    validator ``urlwb/ssrf/validators/<folder>/``."""
    return (manifests.VALIDATORS_ROOT if pkg.kind == "validator" else ORACLES) / pkg.folder


def cached(pkg: Package, version: str) -> manifests.Spec | None:
    """The spec of a complete build of ``pkg`` at ``version``, or None; BuildError when a
    previous build failed for good (the cached reason)."""
    d = build_dir(pkg.parser, version)
    failed = d / "failed.json"
    if (d / "built.json").is_file():
        meta = json.loads((d / "built.json").read_text(encoding="utf-8"))
        if meta.get("adapter") != adapter_digest(pkg):
            return None   # built from another adapter source: built again
        return spec_for(pkg, version, meta)
    if failed.is_file():
        why = json.loads(failed.read_text(encoding="utf-8"))["reason"]
        raise BuildError(f"{pkg.parser}@{version} does not build: {why} (cached in {failed}; --rebuild tries again)")
    return None


def adapter_digest(pkg: Package) -> str:
    """A digest of the adapter source a build copies (the shipped folder's sources; for a Python
    peer this adapter and the oracle's module): a build of other source is not reused."""
    import hashlib
    if pkg.folder is None:
        module = pkg.oracle_class.partition(":")[0]
        files = [pathlib.Path(__file__).with_name("pyadapter.py"),
                 CHECKOUT / (module.replace(".", "/") + ".py")]
    else:
        folder = source(pkg)
        files = sorted(p for p in folder.rglob("*") if p.is_file() and "build" not in p.relative_to(folder).parts
                       and "node_modules" not in p.parts and p.suffix in (".js", ".java", ".rs", ".go", ".xml", ".toml", ".mod", ".sum", ".lock"))
    h = hashlib.sha1()
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def spec_for(pkg: Package, version: str, meta: dict) -> manifests.Spec:
    """The oracle spec of a complete build: the shipped spec's limits and quirks, this build's
    command and folder, registered under ``parser@version`` (source "version")."""
    d = build_dir(pkg.parser, version)
    command = [str(d / c) if c.startswith("./") else c for c in meta["command"]]
    name = f"{pkg.parser}@{version}"
    env = {k: v.replace("{checkout}", str(CHECKOUT)) for k, v in meta.get("env", {}).items()}
    shipped = _shipped_spec(pkg)
    if shipped is not None:
        return dataclasses.replace(shipped, name=name, command=command, cwd=d, source="version",
                                   unready=None, probe=(), requires=(), env={**shipped.env, **env},
                                   folder=d)
    entry = REGISTRY.get(pkg.parser)
    return manifests.Spec(name=name, command=command, cwd=d, family=entry.family if entry else "other",
                          kind=pkg.kind, language=entry.language if entry else "Python", source="version",
                          env=env, folder=d, start_deadline=30.0)


def build(pkg: Package, version: str, rebuild: bool = False, log=None) -> manifests.Spec:
    """The spec of ``pkg`` at ``version``, built first when the cache has no complete build.
    ``log`` (a callable taking one line) hears what is built and how long it took."""
    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    d = build_dir(pkg.parser, version)
    d.parent.mkdir(parents=True, exist_ok=True)
    with open(d.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if rebuild and d.exists():
            shutil.rmtree(d)
        spec = cached(pkg, version)
        if spec is not None:
            return spec
        if d.exists():
            shutil.rmtree(d)   # an interrupted build: start again
        d.mkdir(parents=True)
        t0 = time.monotonic()
        log(f"urlwb: building {pkg.parser}@{version} ({pkg.coordinates}) in {d}")
        try:
            meta = BUILDERS[pkg.registry](pkg, version, d)
        except BuildError as exc:
            reason = str(exc)
            if FINAL.search(reason):
                _write_json(d / "failed.json", {"parser": pkg.parser, "version": version, "reason": reason})
            raise BuildError(f"{pkg.parser}@{version} does not build: {reason}") from None
        meta.update(parser=pkg.parser, version=version, registry=pkg.registry, package=pkg.package,
                    adapter=adapter_digest(pkg), seconds=round(time.monotonic() - t0, 1))
        _write_json(d / "built.json", meta)
        log(f"urlwb: built {pkg.parser}@{version} in {meta['seconds']:.1f} s")
        return spec_for(pkg, version, meta)


def _write_json(path: pathlib.Path, obj: dict) -> None:
    from urlwb import corpus_store
    corpus_store.atomic_write(path, (json.dumps(obj, indent=2) + "\n").encode("utf-8"))


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _run(cmd: list[str], d: pathlib.Path, registry: str, env: dict | None = None, refusal: str | None = None,
         confined: bool = False) -> str:
    """Run one build step in ``d``, its output appended to ``build.log``; BuildError with the
    reason when it fails or takes longer than the registry's time-out (a pip install refused for
    want of a wheel, ``refusal`` naming it: :func:`.installs.sdist_refusal`'s line). ``confined``:
    a step that runs the release's code (cargo's ``build.rs``), started as a foreign adapter is
    (:mod:`urlwb.sandbox`: no network, the caps)."""
    full_env = {**os.environ, **(env or {})}
    try:
        with progress.heartbeat(f"building {d.parent.name}/{d.name}: {' '.join(cmd)[:100]}", after=2):
            # a confined step runs the release's code (a build script): no network, the caps
            r = children.run(cmd, cwd=d, env=full_env, capture_output=True, text=True,
                             timeout=TIMEOUTS[registry], stdin=subprocess.DEVNULL,
                             **({"sandbox": sandbox.limits()} if confined else {}))
    except subprocess.TimeoutExpired:
        raise BuildError(f"`{' '.join(cmd)}` did not finish in {TIMEOUTS[registry]} s") from None
    except OSError as exc:
        raise BuildError(f"`{cmd[0]}` could not run ({exc.strerror or exc})") from None
    with open(d / "build.log", "a", encoding="utf-8") as fh:
        fh.write(f"$ {' '.join(cmd)}\n{r.stdout}{r.stderr}\n[exit {r.returncode}]\n")
    if r.returncode != 0:
        reason = reason_of(r.stdout + "\n" + r.stderr)
        if refusal and not installs.allowed() and re.search(r"No matching distribution|Could not find a version", reason):
            reason = installs.sdist_refusal(refusal, reason)
        raise BuildError(reason)
    return r.stdout + r.stderr


# --- the registries' builds --------------------------------------------------------------------

def _npm(pkg: Package, version: str, d: pathlib.Path) -> dict:
    (d / "package.json").write_text(json.dumps({
        "name": "urlwb-versioned-oracle", "private": True,
        "dependencies": {pkg.package: version}}, indent=2) + "\n", encoding="utf-8")
    shutil.copy2(source(pkg) / "adapter.js", d / "adapter.js")
    _run(["npm", "install", *installs.npm_flags(), "--prefer-offline"], d, "npm")
    installs.say_scripts(f"{pkg.parser}@{version}", d / "node_modules", _log)
    return {"command": ["node", "adapter.js", pkg.parser]}


def _pypi(pkg: Package, version: str, d: pathlib.Path) -> dict:
    base = getattr(sys, "_base_executable", sys.executable)
    _run([base, "-m", "venv", "--without-pip", str(d / "venv")], d, "pypi")
    _run([sys.executable, "-m", "pip", "--python", str(d / "venv" / "bin" / "python"), "install",
          "-q", *installs.pip_flags(), f"{pkg.package}=={version}"], d, "pypi", refusal=f"{pkg.package}=={version}")
    return {"command": [str(d / "venv" / "bin" / "python"), "-m", "urlwb.oracles.versions.pyadapter",
                        pkg.parser, pkg.oracle_class, pkg.kind],
            "env": {"PYTHONPATH": "{checkout}", "PYTHONDONTWRITEBYTECODE": "1"}}


def _maven_artifact(pkg: Package, version: str) -> tuple[str, str]:
    group, artifact = pkg.package.split(":")
    if artifact == "okhttp":
        # OkHttp 5 is a Kotlin multiplatform build: Maven takes okhttp-jvm from 5.0 on
        major = re.match(r"\d+", version)
        if major and int(major.group()) >= 5:
            artifact = "okhttp-jvm"
    return group, artifact


def _maven(pkg: Package, version: str, d: pathlib.Path) -> dict:
    src = source(pkg)
    shutil.copytree(src / "src", d / "src")
    pom = (src / "pom.xml").read_text(encoding="utf-8")
    group, artifact = _maven_artifact(pkg, version)
    block = re.compile(r"(<groupId>" + re.escape(group) + r"</groupId>\s*<artifactId>)[^<]+"
                       r"(</artifactId>\s*<version>)[^<]+(</version>)")
    pom, n = block.subn(lambda m: f"{m[1]}{artifact}{m[2]}{version}{m[3]}", pom, count=1)
    if n != 1:
        raise BuildError(f"{group} is not a dependency of {src / 'pom.xml'}")
    (d / "pom.xml").write_text(pom, encoding="utf-8")
    _run(["mvn", *installs.MAVEN_FLAGS, "package"], d, "maven")
    shipped = _shipped_spec(pkg)
    return {"command": list(shipped.command)}


_CARGO_DEP = {"url": "url", "idna": "idna"}


def _crates(pkg: Package, version: str, d: pathlib.Path) -> dict:
    src = source(pkg)
    for name in ("Cargo.lock", "build.rs"):
        shutil.copy2(src / name, d / name)
    shutil.copytree(src / "src", d / "src")
    toml = (src / "Cargo.toml").read_text(encoding="utf-8")
    toml, n = re.subn(rf'(?m)^{re.escape(pkg.package)} = "[^"]*"', f'{pkg.package} = "={version}"', toml)
    if n != 1:
        raise BuildError(f"{pkg.package} is not a dependency of {src / 'Cargo.toml'}")
    (d / "Cargo.toml").write_text(toml, encoding="utf-8")
    target = cache_root() / "_cargo-target"
    target.mkdir(parents=True, exist_ok=True)
    with open(cache_root() / ".cargo.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # the shared target folder's binary is copied out under it
        # the crates are fetched with the network (no build script runs then), and built without
        # it: each crate's build.rs (and proc macros) run in the build, confined
        _run(["cargo", "fetch", "--quiet"], d, "crates")
        _run(["cargo", "build", "--release", "--quiet", "--offline", "--target-dir", str(target)], d, "crates",
             confined=True)
        shutil.copy2(target / "release" / "urlwb-rust", d / "urlwb-rust")
    return {"command": ["./urlwb-rust", pkg.parser]}


def _go(pkg: Package, version: str, d: pathlib.Path) -> dict:
    src = source(pkg)
    for f in [*src.glob("*.go"), src / "go.mod", src / "go.sum"]:
        shutil.copy2(f, d / f.name)
    env = {"GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod"}
    _run(["go", "get", f"{pkg.package}@{version}"], d, "go", env)
    _run(["go", "build", "-buildvcs=false", "-trimpath", "-o", "urlwb-go", "."], d, "go", env)
    return {"command": ["./urlwb-go", pkg.parser]}


BUILDERS = {"npm": _npm, "pypi": _pypi, "maven": _maven, "crates": _crates, "go": _go}
