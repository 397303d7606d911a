"""A shipped validator at another release: ``--oracle ip@1.1.8`` installs that release of its
package into a cache outside the checkout, once, and runs the shipped adapter against it.

Cache: ``$URLWB_CACHE/validators/<package>/<version>/`` (default ``~/.cache/urlwb``); an install
goes to a temporary folder beside it and is renamed into place when complete, so a folder there
is whole. npm packages: ``npm install --prefix DIR --ignore-scripts PACKAGE@VERSION``, and a copy
of the adapter in DIR (Node resolves the package from the adapter's own folder). PyPI packages:
``pip install --only-binary :all: --target DIR/site PACKAGE==VERSION``, handed to the adapter as
``URLWB_VALIDATOR_SITE``. No code of the release runs while it is installed
(:mod:`urlwb.oracles.versions.installs`' rules; ``--allow-install-scripts`` opts in). A version
that does not resolve is a one-line UsageError.

A validator whose library comes from Maven (``jvm-guava``: Guava) is built instead by
:mod:`urlwb.oracles.versions.builds`, in its cache and its way (a copy of the validator's pom with
the one version rewritten, ``mvn -q -B package``, ``built.json`` last, ``failed.json`` with the
registry's reason): :func:`release` chooses. A validator that ships with its runtime
(``go-parseip``: Go's ``net.ParseIP``; ``ipaddress``: Python's) has no other release: one line.

npm and PyPI stay here rather than in that cache: one install serves the validators of one
package (``ip`` and ``ip-url-parse``), where a build there is one parser's; a version that does
not resolve leaves nothing behind (a build there caches the registry's refusal in
``failed.json``); and the PyPI build there runs an in-process peer's adapter, not the validator's.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from urlwb import children
from urlwb.errors import UsageError
from urlwb.oracles import manifests
from urlwb.oracles.versions import builds, installs
from urlwb.oracles.versions.builds import reason_of
from urlwb.oracles.versions.catalog import VALIDATORS, VALIDATORS_NO_REGISTRY

#: shipped validator -> (registry, package)
PACKAGES = {
    "ip": ("npm", "ip"), "ip-url-parse": ("npm", "ip"), "private-ip": ("npm", "private-ip"),
    "private-ip-url-parse": ("npm", "private-ip"), "is-localhost-ip": ("npm", "is-localhost-ip"),
    "validators": ("pypi", "validators"),
}
VERSION = re.compile(r"[0-9][0-9A-Za-z.+-]*\Z")
#: seconds an install may take
TIMEOUT = 300


def cache_root() -> pathlib.Path:
    return pathlib.Path(os.environ.get("URLWB_CACHE") or pathlib.Path.home() / ".cache" / "urlwb") / "validators"


def folder(package: str, version: str) -> pathlib.Path:
    return cache_root() / package / version


def installed(name: str, version: str) -> pathlib.Path | None:
    """The cache folder of ``name`` at ``version`` if it is installed, else None."""
    registry, package = PACKAGES[name]
    path = folder(package, version)
    return path if (path / ".installed").is_file() else None


def _run(cmd: list[str], what: str) -> None:
    try:
        r = children.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise UsageError(f"{what}: the install did not finish in {TIMEOUT} s") from None
    except OSError as exc:
        raise UsageError(f"{what}: {cmd[0]} cannot run ({exc.strerror or exc})") from None
    if r.returncode != 0:   # the registry's own words, picked as PARSER@VERSION builds pick them
        said = reason_of(r.stdout + "\n" + r.stderr)
        if what.startswith("PyPI") and not installs.allowed() and re.search(
                r"No matching distribution|Could not find a version", said):
            raise UsageError(installs.sdist_refusal(what, said[:200]))
        raise UsageError(f"{what}: does not resolve or does not install ({said[:200]})")


def release(spec: manifests.Spec, version: str, progress=print) -> manifests.Spec:
    """The shipped validator ``spec`` at another ``version``: installed (npm, PyPI) or built
    (Maven) first when the cache has none; UsageError in one line when it cannot be had."""
    name = spec.name
    if name in VALIDATORS_NO_REGISTRY:
        raise UsageError(f"--oracle {name}@{version}: {name} has no registry version: it "
                         f"{VALIDATORS_NO_REGISTRY[name]}")
    if name in VALIDATORS:
        return builds.build(VALIDATORS[name], version, log=progress)
    where = install(name, version, spec.cwd / spec.command[1], progress)
    return versioned_spec(spec, name, version, where)


def present(spec: manifests.Spec, version: str) -> manifests.Spec | None:
    """The shipped validator ``spec`` at ``version`` if the cache has it, else None (nothing is
    installed or built)."""
    if spec.name in VALIDATORS:
        try:
            return builds.cached(VALIDATORS[spec.name], version)
        except builds.BuildError:
            return None
    where = installed(spec.name, version) if spec.name in PACKAGES else None
    return versioned_spec(spec, spec.name, version, where) if where else None


def install(name: str, version: str, adapter: pathlib.Path, progress=print) -> pathlib.Path:
    """The cache folder of ``name`` (a key of :data:`PACKAGES`) at ``version``, installed now if
    it is not there; UsageError (one line) when the version does not resolve."""
    if name not in PACKAGES:
        raise UsageError(f"--oracle {name}@{version}: {name} has no other releases here "
                         f"(npm, PyPI and Maven validators only: {', '.join([*PACKAGES, *VALIDATORS])})")
    if not VERSION.match(version):
        raise UsageError(f"--oracle {name}@{version}: a version is an exact release such as 1.1.8")
    done = installed(name, version)
    registry, package = PACKAGES[name]
    if done:
        if registry == "npm":
            _same_adapter(adapter, done / adapter.name)
        return done
    final = folder(package, version)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix=f".{version}.", dir=final.parent))
    progress(f"installing {package}@{version} from {registry} into {final}")
    try:
        if registry == "npm":
            _run(["npm", "install", "--prefix", str(tmp), *installs.npm_flags(),
                  f"{package}@{version}"], f"npm {package}@{version}")
            installs.say_scripts(f"{package}@{version}", tmp / "node_modules", progress)
            shutil.copy2(adapter, tmp / adapter.name)
        else:
            _run([sys.executable, "-m", "pip", "install", "-q", *installs.pip_flags(),
                  "--target", str(tmp / "site"), f"{package}=={version}"], f"PyPI {package}=={version}")
        (tmp / ".installed").write_text(f"{package} {version}\n", encoding="utf-8")
        if final.exists():
            shutil.rmtree(final)
        os.replace(tmp, final)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return final


def _same_adapter(shipped: pathlib.Path, copy: pathlib.Path) -> None:
    """The copy of the adapter beside an installed release is the shipped one's: an install made
    before the adapter changed gets the new one (written beside it, then renamed over it)."""
    data = shipped.read_bytes()
    if copy.is_file() and copy.read_bytes() == data:
        return
    tmp = copy.with_name(f".{copy.name}.{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, copy)


def versioned_spec(spec: manifests.Spec, name: str, version: str, where: pathlib.Path) -> manifests.Spec:
    """The shipped ``spec`` run against the release installed in ``where``."""
    registry, _ = PACKAGES[name]
    if registry == "npm":
        command = [spec.command[0], str(where / "adapter.mjs"), *spec.command[2:]]
        return dataclasses.replace(spec, command=command, cwd=where, source="version", unready=None)
    return dataclasses.replace(spec, env={**spec.env, "URLWB_VALIDATOR_SITE": str(where / "site")},
                               source="version", unready=None)
