"""A user's package at any release, installed by the workbench from registries served from a
folder (``local_registries.py``: no network), with no package code run (issues 27 and 31).

What each check kills:
- each ecosystem's "asked at two releases, each answers as that release does": an adapter
  started without the release on its path (``NODE_PATH``, the venv, ``CLASSPATH``; planted by
  dropping each from ``installs.at_release``: the adapter does not start and the test fails);
- the npm ``postinstall`` marker: ``npm install`` without ``--ignore-scripts``;
- the sdist marker: pip without ``--only-binary :all:`` (and the opt-in's line: an opt-in that
  builds silently);
- the checkout and HOME left untouched: npm's cache or pip's cache in ``~`` (npm without
  ``--cache``), an install into the checkout;
- the bisect of a user's package at four releases: a bisect that walks only shipped parsers, or
  lists the public registry instead of the package's own.
"""

from __future__ import annotations

import json
import os
import re
import pathlib
import shutil
import socket
import subprocess
import sys
import threading

import pytest

from local_registries import NpmRegistry, maven_artifact, npm_tarball, sdist, wheel
from urlwb import cli, oracles, sandbox
from urlwb.oracles.versions import installs, names

HERE = pathlib.Path(__file__).resolve().parent
ADAPTERS = HERE / "user_packages"
CHECKOUT = HERE.parents[1]
needs_node = pytest.mark.skipif(shutil.which("npm") is None, reason="needs node and npm (make oracles installs them)")
needs_maven = pytest.mark.skipif(shutil.which("mvn") is None or shutil.which("javac") is None,
                                 reason="needs mvn and a JDK (make oracles installs them)")

#: the planted npm package: the host after the first '@' up to 1.1.0, after the last from 1.2.0
NPM_RELEASES = {"1.0.0": "first", "1.1.0": "first", "1.2.0": "last", "2.0.0": "last"}
NPM_HOST = """
exports.VERSION = %(version)r;
exports.host = (s) => {
  const a = (s.split("//")[1] || "").split("/")[0];
  return %(rule)r === "first" ? a.slice(a.indexOf("@") + 1) : a.slice(a.lastIndexOf("@") + 1);
};
"""
PY_HOST = """
VERSION = %(version)r
def host(s):
    a = (s.split("//", 1)[1] if "//" in s else s).split("/")[0]
    return a.split("@", 1)[-1] if %(rule)r == "first" else a.rsplit("@", 1)[-1]
"""
INPUT = "http://a@b@evil.example/"
ANSWERS = {"first": "b@evil.example", "last": "evil.example"}


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory):
    """One versions cache for the module: a release installed by one test is found by the next
    (as a user's second run finds it)."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def project(tmp_path, monkeypatch, shared_cache):
    """A user's project folder (the working directory) and the module's cache; the names
    registered by the test are forgotten after it."""
    monkeypatch.setenv("URLWB_VERSIONS_CACHE", str(shared_cache))
    monkeypatch.delenv(installs.ALLOW_ENV, raising=False)
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.chdir(folder)
    before = set(oracles.REGISTRY)
    yield folder
    for name in set(oracles.REGISTRY) - before:
        del oracles.REGISTRY[name]
    names.VALIDATORS.clear()


def config(folder: pathlib.Path, tables: dict[str, dict]) -> None:
    text = ""
    for name, table in tables.items():
        text += f"[tool.urlwb.oracles.{name}]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in table.items())
    (folder / "urlwb.toml").write_text(text, encoding="utf-8")


def ask(ref: str, text: str = INPUT):
    """``ref`` (NAME@VERSION) registered (installed when not cached), started, asked ``text``."""
    name = names.register(ref, log=lambda line: None)
    loaded, skipped = oracles.load([name])
    assert name in loaded, skipped
    try:
        return loaded[name].version, loaded[name].parse_many([(oracles.to_usv(text), None)])[0]
    finally:
        oracles.close_all(loaded)


@pytest.fixture(scope="module")
def npm_registry(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("npm")
    folder = tmp_path / "npm-registry"
    folder.mkdir()
    for version, rule in NPM_RELEASES.items():
        npm_tarball(folder, {"name": "urlwb-planted-host", "version": version, "main": "index.js"},
                    {"index.js": NPM_HOST % {"version": version, "rule": rule}})
    marker = tmp_path / "postinstall-ran"
    npm_tarball(folder, {"name": "urlwb-planted-postinstall", "version": "1.0.0", "main": "index.js",
                         "scripts": {"postinstall": f"node -e \"require('fs').writeFileSync({str(marker)!r}, 'ran')\""}},
                {"index.js": NPM_HOST % {"version": "1.0.0", "rule": "last"}})
    registry = NpmRegistry(folder)
    registry.marker = marker
    yield registry
    registry.close()


@needs_node
def test_npm_release_is_on_node_path_and_each_answers_as_itself(project, npm_registry):
    config(project, {"planted-host": {"command": f"node {ADAPTERS / 'npm_adapter.js'}",
                                      "package": "npm:urlwb-planted-host", "registry": npm_registry.url}})
    for version in ("1.0.0", "2.0.0"):
        shown, rec = ask(f"planted-host@{version}")
        assert shown == version and rec.host == ANSWERS[NPM_RELEASES[version]]
    assert any(r.endswith("urlwb-planted-host-2.0.0.tgz") for r in npm_registry.requests)
    installed = pathlib.Path(os.environ["URLWB_VERSIONS_CACHE"]) / "_packages"
    assert {"1.0.0", "2.0.0"} <= {p.name for p in installed.glob("npm-*/urlwb-planted-host/*") if p.is_dir()}


@needs_node
def test_an_npm_postinstall_never_runs_and_the_skip_is_one_line(project, npm_registry, capsys):
    config(project, {"planted-post": {"command": f"node {ADAPTERS / 'npm_adapter.js'}",
                                      "package": "npm:urlwb-planted-postinstall", "registry": npm_registry.url}})
    spec = names.user_spec("planted-post")
    lines = []
    installs.release(spec, "1.0.0", log=lines.append)
    assert not npm_registry.marker.exists()
    said = [x for x in lines if "install scripts not run" in x]
    assert len(said) == 1 and "urlwb-planted-postinstall (postinstall)" in said[0] and "--allow-install-scripts" in said[0]


@pytest.fixture
def pypi_folder(tmp_path):
    folder = tmp_path / "pypi"
    folder.mkdir()
    for version, rule in (("1.0", "first"), ("2.0", "last")):
        wheel(folder, "urlwb-planted-py", version,
              {"urlwb_planted_py/__init__.py": PY_HOST % {"version": version, "rule": rule}})
    marker = tmp_path / "setup-py-ran"
    sdist(folder, "urlwb-planted-sdist", "1.0", "urlwb_planted_sdist", PY_HOST % {"version": "1.0", "rule": "last"},
          f"open({str(marker)!r}, 'w').write('ran')\n")
    return folder, marker


def test_pypi_release_is_the_adapter_s_venv_and_each_answers_as_itself(project, pypi_folder):
    folder, _ = pypi_folder
    config(project, {"planted-py": {"command": f"python {ADAPTERS / 'py_adapter.py'}",
                                    "package": "pypi:urlwb-planted-py", "registry": str(folder)}})
    for version in ("1.0", "2.0"):
        shown, rec = ask(f"planted-py@{version}")
        assert shown == version and rec.host == ANSWERS["first" if version == "1.0" else "last"]
    # the workbench's own interpreter has no such package: only the release's venv gives it
    assert subprocess.run([sys.executable, "-c", "import urlwb_planted_py"], capture_output=True).returncode != 0


def test_an_sdist_is_refused_in_one_line_and_its_setup_py_never_runs(project, pypi_folder, capsys):
    folder, marker = pypi_folder
    config(project, {"planted-sdist": {"command": f"python {ADAPTERS / 'py_adapter.py'}",
                                       "package": "pypi:urlwb-planted-sdist", "registry": str(folder)}})
    status = cli.main(["diff", "--parsers", "planted-sdist@1.0", INPUT])
    err = capsys.readouterr().err
    assert status == 2 and not marker.exists()
    refusal = [x for x in err.splitlines() if "sdist-only release builds only with --allow-install-scripts" in x]
    assert len(refusal) == 1 and refusal[0].startswith("urlwb diff: planted-sdist@1.0: urlwb-planted-sdist==1.0: no wheel"), err


def test_with_the_opt_in_the_sdist_builds_and_says_so(project, pypi_folder, monkeypatch):
    folder, marker = pypi_folder
    config(project, {"planted-sdist": {"command": f"python {ADAPTERS / 'py_adapter.py'}",
                                       "package": "pypi:urlwb-planted-sdist", "registry": str(folder)}})
    monkeypatch.setenv(installs.ALLOW_ENV, "1")
    lines = []
    installs.release(names.user_spec("planted-sdist"), "1.0", log=lines.append)
    assert marker.read_text() == "ran"
    assert [x for x in lines if "its setup code runs" in x] == [
        "urlwb: urlwb-planted-sdist==1.0: an sdist, if it is one, is built (its setup code runs: --allow-install-scripts)"]


@pytest.fixture(scope="module")
def host_classes(tmp_path_factory):
    out = tmp_path_factory.mktemp("classes")
    subprocess.run(["javac", "-d", str(out), str(ADAPTERS / "Host.java")], check=True)
    return (out / "planted" / "Host.class").read_bytes()


@needs_maven
def test_maven_release_is_on_classpath_and_answers_as_itself(project, tmp_path, host_classes):
    """One release (Maven and a JVM start take seconds each; two releases are the npm and PyPI
    tests' and the README's httpclient demo's): its class comes from the CLASSPATH the install
    gives, which holds that release's jar."""
    repo = tmp_path / "maven-repo"
    for version, rule in (("1.0", "first"), ("2.0", "last")):
        maven_artifact(repo, "org.urlwb.tests", "planted-host", version, {
            "planted/Host.class": host_classes,
            "planted/release.properties": f"version={version}\nrule={rule}\n".encode()})
    config(project, {"planted-jvm": {"command": f"java {ADAPTERS / 'Adapter.java'}", "start_deadline": 60,
                                     "package": "maven:org.urlwb.tests:planted-host", "registry": repo.as_uri()}})
    try:
        shown, rec = ask("planted-jvm@1.0")
        assert shown == "1.0" and rec.host == ANSWERS["first"]
        jars = oracles.REGISTRY["planted-jvm@1.0"].spec.env["CLASSPATH"].split(os.pathsep)
        assert [pathlib.Path(j).name for j in jars] == ["planted-host-1.0.jar"]
    finally:   # Maven's local repository keeps what it resolved: the planted group goes
        shutil.rmtree(pathlib.Path.home() / ".m2" / "repository" / "org" / "urlwb" / "tests", ignore_errors=True)


def _tree(root: pathlib.Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_mtime_ns for p in root.rglob("*")
            if ".git" not in p.parts and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts}


@needs_node
def test_installs_touch_neither_the_checkout_nor_home_and_cache_clean_removes_them(
        project, npm_registry, pypi_folder, tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    home.mkdir()
    # pip asks `rustc --version` for its user agent, and rustup keeps its settings in ~/.rustup:
    # the toolchain's own homes are named, so that an empty HOME stays the machine's toolchain
    for var, default in (("RUSTUP_HOME", ".rustup"), ("CARGO_HOME", ".cargo")):
        monkeypatch.setenv(var, os.environ.get(var) or str(pathlib.Path.home() / default))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("npm_config_cache", raising=False)
    monkeypatch.setenv("URLWB_VERSIONS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("URLWB_CACHE", str(tmp_path / "validators-cache"))
    folder, _ = pypi_folder
    config(project, {"planted-host": {"command": f"node {ADAPTERS / 'npm_adapter.js'}",
                                      "package": "npm:urlwb-planted-host", "registry": npm_registry.url},
                     "planted-py": {"command": f"python {ADAPTERS / 'py_adapter.py'}",
                                    "package": "pypi:urlwb-planted-py", "registry": str(folder)}})
    checkout = _tree(CHECKOUT)
    project_before = _tree(project)
    ask("planted-host@1.1.0")
    ask("planted-py@2.0")
    assert list(home.rglob("*")) == []
    assert _tree(CHECKOUT) == checkout and _tree(project) == project_before
    cache = tmp_path / "cache"
    assert (cache / "_npm-cache").is_dir()   # npm's cache (pip caches nothing from a folder)
    # urlwb cache clean: --dry-run lists each package with its releases and size, removes nothing
    capsys.readouterr()
    assert cli.main(["cache", "clean", "--dry-run"]) == 0
    out = capsys.readouterr().out
    listed = [x for x in out.splitlines() if "urlwb-planted-host" in x or "urlwb-planted-py" in x]
    assert len(listed) == 2 and "(1.1.0)" in listed[0] + listed[1] and "(2.0)" in listed[0] + listed[1], out
    assert "would free" in out and (cache / "_packages").is_dir()
    assert cli.main(["cache", "clean"]) == 0
    assert not cache.exists() and "freed" in capsys.readouterr().out
    assert cli.main(["cache", "clean"]) == 0 and "nothing installed" in capsys.readouterr().out
    assert list(home.rglob("*")) == [] and _tree(CHECKOUT) == checkout


@needs_node
def test_hunt_takes_a_user_s_npm_adapter_at_a_release(project, npm_registry):
    """``urlwb hunt NAME@VERSION`` of a [tool.urlwb.oracles] adapter: a JavaScript target whose
    coverage roots hold the release's node_modules (NODE_PATH), where the package's code is."""
    from urlwb.hunt import targets
    config(project, {"planted-host": {"command": f"node {ADAPTERS / 'npm_adapter.js'}",
                                      "package": "npm:urlwb-planted-host", "registry": npm_registry.url}})
    target = targets.resolve("planted-host@2.0.0")
    assert target.language == "js" and target.name == "planted-host@2.0.0"
    roots = targets.js_roots(target)
    assert any((r / "urlwb-planted-host" / "index.js").is_file() for r in roots), roots


def test_cache_clean_refuses_a_cache_that_holds_the_checkout(monkeypatch, capsys):
    monkeypatch.setenv("URLWB_VERSIONS_CACHE", str(CHECKOUT.parent))
    assert cli.main(["cache", "clean", "--dry-run"]) == 2
    assert "holds the checkout is not removed" in capsys.readouterr().err


@needs_node
def test_bisect_walks_the_user_s_own_registry(project, npm_registry, tmp_path, capsys):
    config(project, {"planted-host": {"command": f"node {ADAPTERS / 'npm_adapter.js'}",
                                      "package": "npm:urlwb-planted-host", "registry": npm_registry.url}})
    status = cli.main(["bisect", "planted-host", INPUT, "--out", str(tmp_path / "bisect")])
    out = capsys.readouterr().out
    assert status == 0, out
    rep = json.loads((tmp_path / "bisect" / "planted-host" / "bisect.json").read_text())
    assert rep["releases"] == 4 and rep["package"] == "urlwb-planted-host"
    spans = [(r["first"], r["last"], r["text"]) for r in rep["ranges"]]
    assert spans == [("1.0.0", "1.1.0", "host 'b@evil.example', href 'http://a@b@evil.example/'"),
                     ("1.2.0", "2.0.0", "host 'evil.example', href 'http://a@b@evil.example/'")], spans
    assert [a["hello_version"] for a in rep["asked"]] == [a["version"] for a in rep["asked"]]


@needs_node
@pytest.mark.skipif(sandbox._probe_namespace() is not None,
                    reason="network namespaces unavailable here (not root, or unshare refused)")
def test_an_adapter_that_calls_home_has_no_network_and_diff_says_so(project, npm_registry, monkeypatch, capsys):
    """The planted phone-home: the adapter connects to a listener on the host's loopback before
    each answer. The listener sees nothing, the answer comes back (saying the connect failed),
    and diff's output says the adapters ran without network."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.settimeout(0.2)
    seen = []

    def accept():
        for _ in range(40):
            try:
                seen.append(listener.accept())
            except OSError:
                pass

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    monkeypatch.setenv("URLWB_TEST_CALL_HOME", str(listener.getsockname()[1]))
    config(project, {"planted-host": {"command": f"node {ADAPTERS / 'npm_adapter.js'}",
                                      "package": "npm:urlwb-planted-host", "registry": npm_registry.url}})
    shown, rec = ask("planted-host@2.0.0")
    status = cli.main(["diff", "--parsers", "planted-host@2.0.0", INPUT])
    out, err = capsys.readouterr()
    report_status = cli.main(["diff", "--parsers", "planted-host@2.0.0", "--table-max", "0",
                              "--out", str(project / "report"), INPUT])
    capsys.readouterr()
    t.join()
    listener.close()
    assert seen == []
    assert rec.host == "evil.example" and rec.path.startswith("refused ENETUNREACH"), rec
    said = [x for x in out.splitlines() if x.startswith("sandbox: ")]
    assert status == 0 and len(said) == 1 and "foreign adapters run without network" in said[0], out + err
    report = (project / "report" / "report.md").read_text(encoding="utf-8")
    assert report_status == 0 and "sandbox: foreign adapters run without network" in report


def test_hunt_takes_a_user_s_python_callable_at_a_release(project, pypi_folder):
    """``urlwb hunt NAME@VERSION`` of a ``py:`` adapter of a pypi package: a Python target
    guided by the release's own modules (its RECORD's top level), the fuzzing child given the
    release's site-packages and the project folder first on its path and the adapter's flag."""
    from urlwb.hunt import runners, targets
    folder, _ = pypi_folder
    (project / "planted_fn.py").write_text(
        "import urlwb_planted_py as p\n"
        "def parse(input, base=None):\n"
        "    return {'scheme': input.split(':')[0], 'host': p.host(input), 'path': '/', 'href': input}\n",
        encoding="utf-8")
    config(project, {"planted-fn": {"command": "py:planted_fn:parse", "package": "pypi:urlwb-planted-py",
                                    "registry": str(folder)}})
    target = targets.resolve("planted-fn@2.0")
    assert target.language == "python" and target.instrument == ("urlwb_planted_py", "planted_fn")
    path = targets.python_path(target).split(os.pathsep)
    assert (pathlib.Path(path[0]) / "urlwb_planted_py" / "__init__.py").is_file() and path[1] == str(project)
    assert runners.runner_for(target).oracle_flags == ["planted-fn=py:planted_fn:parse"]


@needs_node
def test_ssrf_s_guided_pass_takes_a_user_s_npm_validator_at_a_release(project, npm_registry, tmp_path):
    """urlwb ssrf's guided pass on a user's npm validator program at a release: urlwb.hunt.js_fuzz
    guided by V8 coverage of its script and the release's NODE_PATH, the mutants it allows (with
    a digit, or new coverage) sent on to the fetchers."""
    import argparse

    from urlwb.ssrf import command as ssrf_command
    (project / "urlwb.toml").write_text(
        f"[tool.urlwb.validators.planted-guard]\ncommand = \"node {ADAPTERS / 'npm_validator.js'}\"\n"
        f"package = \"npm:urlwb-planted-host\"\nregistry = \"{npm_registry.url}\"\n", encoding="utf-8")
    spec = installs.release(names.user_spec("planted-guard"), "2.0.0", log=lambda line: None)
    lines: list[str] = []
    args = argparse.Namespace(guided_seconds=3.0, seed=1)
    got = ssrf_command._guided_js_user(args, argparse.Namespace(name="planted-guard@2.0.0", spec=spec),
                                       ["http://a@b/", "http://127.0.0.1/"], tmp_path / "guided", lines)
    assert len(lines) == 1 and "allowed inputs sent on" in lines[0], lines

    def allows(text: str) -> bool:   # npm_validator.js on release 2.0.0's host (after the last '@')
        authority = (text.split("//")[1] if "//" in text else "").split("/")[0]
        return not re.match(r"(127|10)\.", authority[authority.rfind("@") + 1:])

    assert got and all(allows(x) for x in got), got
    assert any(x not in ("http://a@b/", "http://127.0.0.1/") for x in got)   # mutants, not the seeds


def test_oracle_check_of_a_python_callable_is_a_one_line_verdict(capsys):
    status = cli.main(["oracle", "check", "py:os:getcwd"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    problems = [x for x in out.splitlines() if x.lstrip().startswith("problem:")]
    assert status == 1 and len(problems) == 1 and "getcwd() takes no arguments" in problems[0], out + err
    assert out.splitlines()[-1].strip() == "1 problem"
