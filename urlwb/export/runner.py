"""Run a written suite against one release of its parser: ``urlwb export tests ... --run VERSION``.

The release comes from the workbench's own release builds where it has them
(:mod:`urlwb.oracles.versions.builds`: the venv of ``PARSER@VERSION`` for a PyPI parser, its
``node_modules`` for an npm one, installed without running any of the release's code); the
suite's own build tool brings the rest, as a maintainer would run it:

- Python: ``python -m pytest`` with the release's site-packages first on ``PYTHONPATH``;
- JavaScript: ``node --test`` with the release's ``node_modules`` as ``NODE_PATH``;
- Java: ``mvn test -Dparser.version=VERSION`` (Maven resolves the release and JUnit from Maven
  Central, ``--strict-checksums``);
- Go: ``GOTOOLCHAIN=goVERSION go test`` (``net/url``'s release is the toolchain's, which the Go
  command downloads through the module proxy).

Every step that needs the network (a registry, Maven Central, the Go proxy) runs first and runs
none of the release's code under test: Maven compiles the test and resolves Surefire's JUnit
provider with no test selected; Go compiles the test binary (the downloaded toolchain runs as the
compiler, checked by the Go command against the Go checksum database; ``net/url``'s code runs
only in the test binary). The tests themselves, where the release's code
runs, run in the workbench's sandbox (:mod:`urlwb.sandbox`: no network, capped memory and CPU):
pytest, ``node --test``, ``mvn -o test``, the compiled Go test binary.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import re
import subprocess
import sys

from urlwb import children
from urlwb import sandbox as sandboxing
from urlwb.errors import Incomplete, UsageError

#: seconds one step may take (a first Maven run downloads JUnit and Surefire; a first Go run a
#: toolchain)
TIMEOUT = 900


@dataclasses.dataclass
class Result:
    release: str
    passed: bool
    command: str
    output: str


@dataclasses.dataclass(frozen=True)
class Release:
    """One ``--run VERSION`` as it runs: ``version`` is ``asked`` unless that release cannot run
    here; ``note`` says why another was taken."""

    asked: str
    version: str
    note: str = ""


def resolve(lang: str, parser: str, versions: list[str]) -> list[Release]:
    """Each of ``versions`` as it will run, decided before any work: a PyPI release with no wheel
    for the running Python (the builds install wheels only) is replaced by the nearest release that
    has one; UsageError, in one line, for a release PyPI does not have or one with no runnable
    release near it. Other registries' releases are taken as asked (npm, Maven and Go releases
    are not built per Python)."""
    from urlwb.oracles.versions import catalog, registries
    pkg = catalog.PACKAGES.get(parser)
    if lang != "python" or pkg is None or pkg.registry != "pypi" or not versions:
        return [Release(v, v) for v in versions]
    try:
        wheels = registries.pypi_wheels(pkg.package)
    except registries.RegistryError as exc:
        raise UsageError(f"{parser}: cannot tell which releases run on this Python: {exc}") from None
    here = f"{sys.implementation.name} {sys.version_info.major}.{sys.version_info.minor}"
    out = []
    for v in versions:
        if v not in wheels:
            raise UsageError(f"{parser}@{v}: no such release on PyPI ({pkg.package})")
        near = registries.nearest_with_wheel(wheels, v)
        if near is None:
            raise UsageError(f"{parser}@{v}: no release of {pkg.package} has a wheel for {here}")
        out.append(Release(v, near, "" if near == v else
                           f"{parser}@{v} has no wheel for {here}: running {near}, the nearest release that has one"))
    return out


def case_failed(lang: str, output: str, case) -> bool:
    """True when ``output`` names ``case`` among its failing tests (by the case's name; a Go
    suite also by its fuzz corpus file)."""
    names = {case.name}
    if lang == "go":
        from urlwb.export.golang import corpus_file
        names.add(corpus_file(case.input)[0])
    return any(n in line for line in failing(lang, output) for n in names)


def why_failed(lang: str, output: str, case) -> str:
    """One line saying how ``case`` failed, in the tool's words: pytest's first assertion line
    of the case's section (``E   {...} != {...}``), else the failing test's own line."""
    if lang == "python":
        section = re.search(r"_{3,} \S*\[" + re.escape(case.name) + r"\] _{3,}\n(.*?)(?=\n_{3,} |\n={3,} )", output, re.S)
        lines = [m.group(1).strip() for m in re.finditer(r"^E\s+(.*\S)", section.group(1) if section else "", re.M)]
        shown = next((x for x in lines if " != " in x), lines[0] if lines else "")
        if shown:
            return shown
    return next((line for line in failing(lang, output) if case.name in line), "failed")


def _step(cmd: list[str], cwd: pathlib.Path, env: dict, confined: bool) -> subprocess.CompletedProcess:
    try:
        return children.run(cmd, cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True,
                            timeout=TIMEOUT, stdin=subprocess.DEVNULL,
                            sandbox=sandboxing.limits() if confined else None)
    except subprocess.TimeoutExpired:
        raise Incomplete(f"`{' '.join(cmd)}` did not finish in {TIMEOUT} s") from None
    except OSError as exc:
        raise Incomplete(f"`{cmd[0]}` could not run ({exc.strerror or exc})") from None


def _built(parser: str, version: str, log) -> pathlib.Path:
    from urlwb.oracles.versions import builds, catalog
    pkg = catalog.PACKAGES.get(parser)
    if pkg is None:
        raise UsageError(f"{parser}: no registry package, so no release to build")
    builds.build(pkg, version, log=log)
    return builds.build_dir(parser, version)


def _python(parser, version, folder, files, log):
    from urlwb.oracles.versions import installs
    d = _built(parser, version, log)
    site = installs._site_packages(d / "venv")
    test = next(f for f in files if f.endswith(".py"))
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test]
    return [(cmd, {"PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}, True)]


def _js(parser, version, folder, files, log):
    d = _built(parser, version, log)
    test = next(f for f in files if f.endswith(".js"))
    return [(["node", "--test", test], {"NODE_PATH": str(d / "node_modules")}, True)]


def _java(parser, version, folder, files, log):
    from urlwb.oracles.versions import builds, catalog, installs
    pkg = catalog.PACKAGES[parser]
    _, artifact = builds._maven_artifact(pkg, version)   # OkHttp 5 is okhttp-jvm on Maven
    props = [f"-Dparser.version={version}", f"-Dparser.artifact={artifact}"]
    fetch = ["mvn", *installs.MAVEN_FLAGS, *props, "-Dtest=NoSuchTest", "-Dsurefire.failIfNoSpecifiedTests=false", "test"]
    return [(fetch, {}, False), (["mvn", *installs.MAVEN_FLAGS, "-o", *props, "test"], {}, True)]


def _go(parser, version, folder, files, log):
    toolchain = version if version.startswith("go") else f"go{version}"
    if not re.fullmatch(r"go\d+\.\d+(\.\d+)?((rc|beta)\d+)?", toolchain):
        raise UsageError(f"{parser}@{version}: a Go toolchain version (1.25.1 or go1.25.1)")
    env = {"GOTOOLCHAIN": toolchain, "GOFLAGS": "-mod=mod"}
    return [(["go", "test", "-c", "-o", "findings.test", "."], env, False), (["./findings.test"], {}, True)]


STEPS = {"python": _python, "js": _js, "java": _java, "go": _go}
#: what each tool prints when a test ran and failed (a failing run without it did not run its tests)
FAILED = {"python": re.compile(r"^FAILED |\d+ failed", re.M), "js": re.compile(r"^# fail [1-9]", re.M),
          "java": re.compile(r"Tests run: \d+, Failures: [1-9]|Tests run: \d+, Failures: \d+, Errors: [1-9]"),
          "go": re.compile(r"^\s*--- FAIL: ", re.M)}
#: the lines that name a failing test, in each tool's output
FAILING = {"python": re.compile(r"^FAILED (\S+)", re.M), "js": re.compile(r"^not ok \d+ - (\S+)", re.M),
           "java": re.compile(r"^\[ERROR\]\s+(\w+Test\.\w+:\d+\S* .*)$", re.M),
           "go": re.compile(r"^\s*--- FAIL: (\S+/\S+)", re.M)}


def failing(lang: str, output: str) -> list[str]:
    """The failing tests ``output`` names (each tool's own words for them)."""
    return list(dict.fromkeys(m.group(1) for m in FAILING[lang].finditer(output)))


def run(lang: str, parser: str, version: str, folder: pathlib.Path, files: list[str], log=None) -> Result:
    """Run the suite written in ``folder`` against ``parser`` at ``version``: passed or not,
    the command of its last step and what the steps printed."""
    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    output = []
    shown = ""
    steps = STEPS[lang](parser, version, folder, files, log)
    for n, (cmd, env, confined) in enumerate(steps, 1):
        shown = "".join(f"{k}={env[k]} " for k in ("GOTOOLCHAIN",) if k in env) + " ".join(cmd)
        r = _step(cmd, folder, env, confined)
        text = (r.stdout or "") + (r.stderr or "")
        output.append(text)
        if r.returncode != 0 and n < len(steps):
            # a build step: the suite did not run, which is no verdict on the release
            from urlwb.oracles.versions.installs import reason_of
            raise Incomplete(f"{parser}@{version}: the suite did not build (`{shown}`): {reason_of(text)}")
        if r.returncode != 0:
            if not FAILED[lang].search(text):
                # no test reported failing: the suite did not run (a resolution, a crash of the tool)
                from urlwb.oracles.versions.installs import reason_of
                raise Incomplete(f"{parser}@{version}: the suite did not run (`{shown}`): {reason_of(text)}")
            return Result(f"{parser}@{version}", False, shown, "".join(output))
    return Result(f"{parser}@{version}", True, shown, "".join(output))
