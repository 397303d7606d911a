"""A user's adapter at any release of its package: ``NAME@VERSION`` for an adapter declared with
``package = "npm:parse-url"`` (``pypi:NAME``, ``maven:GROUP:ARTIFACT``) in ``[tool.urlwb.oracles]``
or ``[tool.urlwb.validators]``; and the rules every install of the workbench follows, so that
installing a release runs none of its code (:func:`npm_flags`, :func:`pip_flags`,
:data:`MAVEN_FLAGS`).

The release is installed in the cache, never in the checkout or on the user's global paths::

    <versions cache>/_packages/<registry>[-<digest of a non-public registry>]/<package>/<version>/
        installed.json   written last, atomically: the install is complete
        install.log      the clients' own output
        node_modules/    npm:   ``npm install --prefix . --ignore-scripts PACKAGE@VERSION``
        venv/            PyPI:  a venv, ``pip install --only-binary :all: PACKAGE==VERSION`` into it
        lib/             Maven: the jar and its runtime dependencies
                                (``maven-dependency-plugin:copy-dependencies`` on a generated pom)

and the user's command starts with the release where its ecosystem's ordinary lookup finds it
(``URLWB_PACKAGE_DIR`` is that folder in every case):

- npm: ``NODE_PATH=<dir>/node_modules`` (CommonJS ``require``), and for ES modules, which do not
  read ``NODE_PATH`` (https://nodejs.org/api/esm.html#no-node_path), a resolve hook
  (``node_path_hook.mjs``, through ``NODE_OPTIONS=--import``) that looks a bare specifier up
  in ``NODE_PATH`` after Node's own lookup fails;
- PyPI: the venv's ``bin`` first on ``PATH`` (``python``/``python3`` are the venv's),
  ``VIRTUAL_ENV``, and its site-packages on ``PYTHONPATH``; a ``py:module:function`` adapter runs
  out of the workbench's process, in the venv's interpreter (:mod:`.pyadapter`);
- Maven: ``CLASSPATH`` with the release's jar and every runtime dependency (``java Adapter.java``
  and ``java -cp`` -less commands read it).

What runs while installing (issue 31; docs/security.md): npm with ``--ignore-scripts``
(no ``preinstall``/``install``/``postinstall`` of the package or its dependencies, and no
``node-gyp rebuild`` for a ``binding.gyp``); PyPI with ``--only-binary :all:`` (a wheel is
unpacked, no ``setup.py``/build backend runs); Maven resolves the dependency graph and copies
jars with one pinned plugin of ours, and no plugin a release's pom declares runs (a dependency's
pom is only read). Registries' integrity checks stay on: npm checks each tarball against the
packument's ``integrity``, pip checks the index's ``#sha256=`` of each file, Maven is run with
``--strict-checksums`` (its default only warns). ``--allow-install-scripts`` (or
``URLWB_ALLOW_INSTALL_SCRIPTS=1``) opts in to install scripts and sdist builds, and each such
install says so in one line.
"""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

from urlwb import children, progress
from urlwb.errors import UsageError
from urlwb.oracles import manifests

#: the environment variable the ``--allow-install-scripts`` flags set (read by every install)
ALLOW_ENV = "URLWB_ALLOW_INSTALL_SCRIPTS"
#: the installs of a user's package: the registries installed here
INSTALLED = ("npm", "pypi", "maven")
TIMEOUTS = {"npm": 300, "pypi": 300, "maven": 900}
#: the one plugin the Maven install runs (ours, pinned; ``make oracles`` has it in ~/.m2)
MAVEN_COPY = "org.apache.maven.plugins:maven-dependency-plugin:3.11.0:copy-dependencies"
#: Maven fails on a checksum mismatch (its default policy only warns)
MAVEN_FLAGS = ["-B", "-q", "--strict-checksums"]
NODE_PATH_HOOK = pathlib.Path(__file__).with_name("node_path_hook.mjs")
VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*\Z")


class InstallError(UsageError):
    """A release that cannot be installed: one line, the client's own reason."""


def add_flag(p) -> None:
    """``--allow-install-scripts`` on a command that may install a release."""
    p.add_argument("--allow-install-scripts", action="store_true",
                   help="let npm run the install scripts of the releases installed (native addons), "
                        "and pip build an sdist-only release (its setup code runs); off by default")


def from_args(args) -> None:
    """The flag, as the environment every install (and every child) reads."""
    if getattr(args, "allow_install_scripts", False):
        os.environ[ALLOW_ENV] = "1"


def allowed() -> bool:
    return os.environ.get(ALLOW_ENV, "") not in ("", "0")


def npm_flags() -> list[str]:
    """The flags of every ``npm install`` of the workbench: no package scripts unless allowed;
    npm's cache (and its logs) in the workbench's cache folder, not ``~/.npm``."""
    return ["--no-audit", "--no-fund", "--loglevel=error", *npm_home_flags(),
            *([] if allowed() else ["--ignore-scripts"])]


def npm_home_flags() -> list[str]:
    """Every npm command of the workbench (install, view): its cache and logs under the cache
    folder, no update check (which writes into ``~/.npm``)."""
    return [f"--cache={cache_root_of_versions() / '_npm-cache'}", "--update-notifier=false"]


def pip_flags() -> list[str]:
    """The flags of every ``pip install`` of the workbench: wheels only unless allowed; pip's
    download cache in the workbench's cache folder, not ``~/.cache/pip``."""
    return ["--disable-pip-version-check", "--no-input", f"--cache-dir={cache_root_of_versions() / '_pip-cache'}",
            *([] if allowed() else ["--only-binary", ":all:"])]


def scripts_not_run(node_modules: pathlib.Path) -> list[str]:
    """The installed packages whose install scripts ``--ignore-scripts`` skipped: ``name
    (script)`` for each ``preinstall``/``install``/``postinstall``, and ``name (node-gyp rebuild)``
    for a ``binding.gyp`` without an install script (npm's implicit one)."""
    out = []
    if not node_modules.is_dir():
        return out
    for pj in sorted(node_modules.glob("**/package.json")):
        if pj.parent.parent.name not in ("node_modules",) and not pj.parent.parent.name.startswith("@"):
            continue
        try:
            data = json.loads(pj.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        scripts = data.get("scripts") or {}
        run = [k for k in ("preinstall", "install", "postinstall") if isinstance(scripts.get(k), str)]
        if not run and (pj.parent / "binding.gyp").is_file():
            run = ["node-gyp rebuild"]
        if run:
            out.append(f"{data.get('name', pj.parent.name)} ({', '.join(run)})")
    return out


def say_scripts(what: str, node_modules: pathlib.Path, log) -> None:
    """One line when ``--ignore-scripts`` left install scripts unrun in ``node_modules``."""
    if allowed():
        return
    skipped = scripts_not_run(node_modules)
    if skipped:
        log(f"urlwb: {what}: install scripts not run ({len(skipped)}: {', '.join(skipped[:3])}"
            f"{', ...' if len(skipped) > 3 else ''}); a native addon needs them: --allow-install-scripts")


def sdist_refusal(what: str, reason: str) -> str:
    """The one line of a PyPI install refused for want of a wheel."""
    return (f"{what}: no wheel for this Python ({reason}); an sdist-only release builds only with "
            "--allow-install-scripts, which runs its setup code")


# --- a user's package --------------------------------------------------------------------------

def cache_root_of_versions() -> pathlib.Path:
    """Where every built release lives: $URLWB_VERSIONS_CACHE, else $XDG_CACHE_HOME/urlwb/versions."""
    env = os.environ.get("URLWB_VERSIONS_CACHE")
    if env:
        return pathlib.Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(pathlib.Path.home() / ".cache")
    return pathlib.Path(xdg) / "urlwb" / "versions"


def reason_of(text: str) -> str:
    """The line of a client's output that says why (the registry's own words), shortened: the
    specific phrases first (npm's ETARGET, pip's "No matching distribution", Maven's "Could not
    find artifact", cargo's "failed to select a version", go's "unknown revision", a compile
    error), else the last line."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)   # Maven's colours
    lines = [" ".join(x.split()) for x in text.splitlines() if x.strip()]
    code = next((m[1] for x in lines for m in [re.match(r"npm (?:ERR!|error) code (\S+)", x)] if m), None)
    for pat in (r"No matching version", r"notarget|E404|404 Not Found",
                r"No matching distribution", r"Could not find a version",
                r"Could not find artifact|could not be resolved",
                r"failed to select a version", r"unknown revision|invalid version|^go: \S+@\S+: ",
                r"\.java:\[\d+,\d+\]", r"^error(\[E\d+\])?:", r"(?i)\berror\b"):
        for i, line in enumerate(lines):
            if re.search(pat, line):
                if pat.startswith(r"\.java"):   # the compiler's message, without the checkout path
                    line = re.sub(r"\S*/(\w+\.java)", r"\1", line)
                if pat.startswith("^error") and i + 1 < len(lines) and len(line) < 80:
                    line += " " + lines[i + 1]
                if line.startswith("go: ") and i + 1 < len(lines) and lines[i + 1].startswith("server response:"):
                    line += " (" + lines[i + 1] + ")"
                line = re.sub(r"Failed to execute goal on project [\w.-]+: (Could not resolve dependencies for project \S+: )?", "", line)
                if "Could not find artifact" in line:   # Maven's sentence, without its preamble
                    line = line[line.index("Could not find artifact"):]
                line = re.sub(r"^(npm (ERR!|error)( notarget)?|\[ERROR\]|ERROR:)\s*", "", line)
                return (f"{code}: {line}" if code and code not in line else line)[:300]
    return lines[-1][:300] if lines else "no output"


def cache_root() -> pathlib.Path:
    return cache_root_of_versions() / "_packages"


def split_package(package: str) -> tuple[str, str]:
    """``"npm:parse-url"`` -> ``("npm", "parse-url")``; ``maven:G:A`` -> ``("maven", "G:A")``."""
    registry, _, name = package.partition(":")
    return registry, name


def folder(spec: manifests.Spec, version: str) -> pathlib.Path:
    registry, name = split_package(spec.package)
    where = registry if spec.registry is None else f"{registry}-{hashlib.sha1(spec.registry.encode()).hexdigest()[:10]}"
    return cache_root() / where / name.replace("/", "+").replace(":", "+") / version


def release(spec: manifests.Spec, version: str, log=None) -> manifests.Spec:
    """The user's adapter ``spec`` at ``version`` of its package (installed first when the cache
    has no complete install), named ``NAME@VERSION``; InstallError (one line) when it cannot be."""
    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    if not spec.package:
        raise UsageError(f"{spec.name}: declares no package (package = \"npm:NAME\" in its table gives it releases)")
    registry, name = split_package(spec.package)
    if registry not in INSTALLED:
        raise UsageError(f"{spec.name}@{version}: {registry} packages are built by the adapter's own "
                         f"project, not installed by the workbench (npm, pypi and maven are)")
    if not VERSION.match(version) or ".." in version:
        raise UsageError(f"{spec.name}@{version}: not a version (letters, digits and . _ + - only)")
    if spec.callable and registry != "pypi":
        raise UsageError(f"{spec.name}: a py: adapter takes a pypi package, not {registry}")
    d = folder(spec, version)
    d.parent.mkdir(parents=True, exist_ok=True)
    with open(d.parent / f".{version}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (d / "installed.json").is_file():
            if d.exists():
                shutil.rmtree(d)   # an interrupted install: start again
            d.mkdir(parents=True)
            t0 = time.monotonic()
            log(f"urlwb: installing {spec.package}@{version} for {spec.name} in {d}")
            try:
                INSTALLERS[registry](spec, name, version, d, log)
            except InstallError as exc:
                shutil.rmtree(d, ignore_errors=True)
                raise InstallError(f"{spec.name}@{version}: {exc}") from None
            _write_json(d / "installed.json", {"package": spec.package, "version": version, "registry": spec.registry,
                                               "scripts": allowed(), "seconds": round(time.monotonic() - t0, 1)})
            log(f"urlwb: installed {spec.package}@{version} in {time.monotonic() - t0:.1f} s")
    return at_release(spec, version, d)


def at_release(spec: manifests.Spec, version: str, d: pathlib.Path) -> manifests.Spec:
    """``spec`` started with the release installed in ``d`` (module docstring)."""
    registry, _ = split_package(spec.package)
    env = {**spec.env, "URLWB_PACKAGE_DIR": str(d)}
    command = list(spec.command)
    if registry == "npm":
        env["NODE_PATH"] = _joined(str(d / "node_modules"), spec.env.get("NODE_PATH"))
        env["NODE_OPTIONS"] = _joined(f"--import={NODE_PATH_HOOK.as_uri()}", spec.env.get("NODE_OPTIONS"), sep=" ")
    elif registry == "pypi":
        python = d / "venv" / "bin" / "python"
        site = _site_packages(d / "venv")
        env.update(VIRTUAL_ENV=str(d / "venv"), PATH=_joined(str(d / "venv" / "bin"), os.environ.get("PATH")),
                   PYTHONPATH=_joined(str(site), spec.env.get("PYTHONPATH")))
        if spec.callable:
            command = python_callable(spec, python)
            env["PYTHONPATH"] = _joined(env["PYTHONPATH"], str(spec.cwd), str(_checkout()))
        elif command and command[0] in ("python", "python3"):
            command[0] = str(python)
    elif registry == "maven":
        jars = sorted((d / "lib").glob("*.jar"))
        env["CLASSPATH"] = _joined(*map(str, jars), spec.env.get("CLASSPATH"))
    return dataclasses.replace(spec, name=f"{spec.name}@{version}", command=command, callable=None,
                               env=env, source="version", folder=d, unready=None)


def python_callable(spec: manifests.Spec, python) -> list[str]:
    """The command that runs a ``py:module:function`` adapter out of process (:mod:`.pyadapter`)."""
    kind = "validator" if spec.kind == "validator" else "url"
    return [str(python), "-m", "urlwb.oracles.versions.pyadapter", spec.name, f"py:{spec.callable}", kind]


def out_of_process(spec: manifests.Spec) -> manifests.Spec:
    """A ``py:`` adapter's spec as a program speaking the protocol (the workbench's interpreter,
    the checkout and the adapter's folder on ``PYTHONPATH``): ``urlwb oracle check`` runs it so."""
    env = {**spec.env, "PYTHONPATH": _joined(str(spec.cwd), str(_checkout()), os.environ.get("PYTHONPATH"))}
    return dataclasses.replace(spec, command=python_callable(spec, sys.executable), callable=None, env=env)


def _checkout() -> pathlib.Path:
    return pathlib.Path(__file__).resolve().parents[3]


def _joined(*parts, sep=os.pathsep) -> str:
    return sep.join(p for p in parts if p)


def _site_packages(venv: pathlib.Path) -> pathlib.Path:
    found = sorted(venv.glob("lib/python*/site-packages"))
    return found[0] if found else venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"


def _write_json(path: pathlib.Path, obj: dict) -> None:
    from urlwb import corpus_store
    corpus_store.atomic_write(path, (json.dumps(obj, indent=2) + "\n").encode("utf-8"))


def run(cmd: list[str], d: pathlib.Path, registry: str, env: dict | None = None) -> str:
    """One install step in ``d``, its output appended to ``install.log``; InstallError with the
    client's reason when it fails or takes longer than the registry's time-out."""
    try:
        with progress.heartbeat(f"installing into {d.parent.name}/{d.name}: {' '.join(cmd)[:100]}", after=2):
            r = children.run(cmd, cwd=d, env={**os.environ, **(env or {})}, capture_output=True, text=True,
                             timeout=TIMEOUTS[registry], stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise InstallError(f"`{' '.join(cmd)}` did not finish in {TIMEOUTS[registry]} s") from None
    except OSError as exc:
        raise InstallError(f"`{cmd[0]}` could not run ({exc.strerror or exc})") from None
    with open(d / "install.log", "a", encoding="utf-8") as fh:
        fh.write(f"$ {' '.join(cmd)}\n{r.stdout}{r.stderr}\n[exit {r.returncode}]\n")
    if r.returncode != 0:
        raise InstallError(reason_of(r.stdout + "\n" + r.stderr))
    return r.stdout + r.stderr


def _npm(spec, name, version, d, log) -> None:
    (d / "package.json").write_text(json.dumps({"name": "urlwb-user-package", "private": True}) + "\n", encoding="utf-8")
    registry = ["--registry", spec.registry] if spec.registry else []
    run(["npm", "install", "--prefix", str(d), *npm_flags(), *registry, f"{name}@{version}"], d, "npm")
    if not (d / "node_modules" / name).is_dir():
        raise InstallError(f"npm installed no {name} into {d / 'node_modules'}")
    say_scripts(f"{name}@{version}", d / "node_modules", log)


def _pypi(spec, name, version, d, log) -> None:
    base = getattr(sys, "_base_executable", sys.executable)
    run([base, "-m", "venv", "--without-pip", str(d / "venv")], d, "pypi")
    source = []
    if spec.registry:
        local = pathlib.Path(spec.registry.removeprefix("file://"))
        source = (["--no-index", "--find-links", str(local)] if not re.match(r"https?://", spec.registry) and local.is_dir()
                  else ["--index-url", spec.registry])
    if allowed():
        log(f"urlwb: {name}=={version}: an sdist, if it is one, is built (its setup code runs: --allow-install-scripts)")
    try:
        run([sys.executable, "-m", "pip", "--python", str(d / "venv" / "bin" / "python"), "install", "-q",
             *pip_flags(), *source, f"{name}=={version}"], d, "pypi")
    except InstallError as exc:
        if not allowed() and re.search(r"No matching distribution|Could not find a version", str(exc)):
            raise InstallError(sdist_refusal(f"{name}=={version}", str(exc))) from None
        raise


def _maven(spec, name, version, d, log) -> None:
    group, artifact = name.split(":")
    repos = ""
    if spec.registry:
        url = spec.registry if "://" in spec.registry else pathlib.Path(spec.registry).resolve().as_uri()
        repos = (f"<repositories><repository><id>urlwb-user</id><url>{_xml(url)}</url></repository>"
                 "</repositories>")
    (d / "pom.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n'
        "  <modelVersion>4.0.0</modelVersion>\n  <groupId>urlwb.user</groupId>\n"
        "  <artifactId>urlwb-user-package</artifactId>\n  <version>0</version>\n  <packaging>pom</packaging>\n"
        f"  {repos}\n  <dependencies><dependency><groupId>{_xml(group)}</groupId><artifactId>{_xml(artifact)}"
        f"</artifactId><version>{_xml(version)}</version></dependency></dependencies>\n</project>\n",
        encoding="utf-8")
    # a short run: the JIT's first tier and the serial collector start Maven in a third of the time
    opts = f"{os.environ.get('MAVEN_OPTS', '')} -XX:TieredStopAtLevel=1 -XX:+UseSerialGC".strip()
    run(["mvn", *MAVEN_FLAGS, MAVEN_COPY, "-DoutputDirectory=lib", "-DincludeScope=runtime"], d, "maven",
        env={"MAVEN_OPTS": opts})
    if not any((d / "lib").glob("*.jar")):
        raise InstallError(f"Maven copied no jar of {group}:{artifact}:{version} into {d / 'lib'}")


def _xml(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


INSTALLERS = {"npm": _npm, "pypi": _pypi, "maven": _maven}
