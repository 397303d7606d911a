"""The wheel: built from a copy of the tree (setuptools' ``build_wheel`` hook, as ``pip wheel
--no-deps --no-build-isolation`` runs it), it
carries the packages, their data, ``py.typed`` and the pytest plugin's entry point, and no tests and
no conftest (``setup.py`` leaves ``properties/test_*.py`` and ``conftest.py`` out); one top-level
package, ``urlwb``, with the checkout's ``engine`` and ``properties`` as ``urlwb._engine`` and
``urlwb._properties`` (setup.py), so that it imports beside a user's own ``engine.py``; every
third-party package its code imports is declared in pyproject.toml, one imported unguarded at a
module's top in ``dependencies`` or the ``workbench`` extra, and the strategies and the plugin
import nothing beyond ``dependencies`` (Hypothesis). A planted undeclared import, a planted test
module in the wheel, and a planted heavy import in the strategies are each caught.
"""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
OWN = {"engine", "urlwb", "properties"}
#: imports a module may make although pyproject.toml does not declare them, each with its reason
DECLARED_ELSEWHERE = {
    # the SSRF validator adapter runs with the release its manifest installs in build/site
    ("urlwb/ssrf/validators/pypi/adapter.py", "validators"): "urlwb/ssrf/validators/pypi/oracles.toml",
    ("urlwb/ssrf/guided.py", "validators"): "urlwb/ssrf/validators/pypi/oracles.toml",
}
#: a maintainer's tool that runs from a checkout (it puts the repository root on sys.path); none
#: since the browsers' survey moved to scripts/
FROM_A_CHECKOUT: set[tuple[str, str]] = set()
#: modules loaded by a host that brings the import: pytest loads its plugins
HOSTED = {("urlwb/pytest_plugin.py", "pytest")}


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _name(spec: str) -> str:
    return norm(re.match(r"[A-Za-z0-9._-]+", spec).group(0))


def strategies_dependencies() -> set[str]:
    """What installing the wheel alone brings: ``dependencies``, normalized names."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {_name(s) for s in project["dependencies"]}


def declared() -> tuple[set[str], set[str]]:
    """(the runtime dependencies, those and every extra's), normalized names."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = {_name(s) for s in project["dependencies"] + project["optional-dependencies"]["workbench"]}
    extras = {_name(s) for specs in project.get("optional-dependencies", {}).values() for s in specs}
    return runtime, runtime | extras


def import_nodes(path: str, source: bytes):
    """(node, guarded) of each import statement; guarded: inside a function, a try or an if (a
    lazy or optional import)."""
    tree = ast.parse(source, path)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            guarded, p = False, node
            while p in parents:
                p = parents[p]
                guarded |= isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Try, ast.If))
            yield node, guarded


def imports(path: str, source: bytes) -> list[tuple[str, bool]]:
    """(top-level name, guarded) of each absolute import."""
    out = []
    for node, guarded in import_nodes(path, source):
        if isinstance(node, ast.Import):
            out += [(a.name.split(".")[0], guarded) for a in node.names]
        elif node.level == 0 and node.module:
            out.append((node.module.split(".")[0], guarded))
    return out


def undeclared(files: dict[str, bytes]) -> list[str]:
    """One line per third-party import of ``files`` (wheel path -> source) that pyproject.toml
    does not declare (or, imported unguarded, does not declare as a runtime dependency)."""
    runtime, anywhere = declared()
    dists = importlib.metadata.packages_distributions()
    local = {(p.rsplit("/", 1)[0], p.rsplit("/", 1)[1][:-3]) for p in files if "/" in p}
    out = []
    for path, source in sorted(files.items()):
        folder = path.rsplit("/", 1)[0] if "/" in path else ""
        for top, guarded in imports(path, source):
            if top in sys.stdlib_module_names or top in OWN or (folder, top) in local:
                continue
            if (path, top) in FROM_A_CHECKOUT:
                continue
            if (path, top) in DECLARED_ELSEWHERE:
                assert re.search(rf"\b{top}\b", (ROOT / DECLARED_ELSEWHERE[path, top]).read_text())
                continue
            names = {norm(d) for d in dists.get(top, [top])}
            if not names & anywhere:
                out.append(f"{path}: imports {top} ({', '.join(sorted(names))}), declared nowhere")
            elif not guarded and not names & runtime and (path, top) not in HOSTED:
                out.append(f"{path}: imports {top} at its top, not a runtime dependency")
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    if importlib.util.find_spec("wheel") is None and importlib.util.find_spec("setuptools.command.bdist_wheel") is None:
        pytest.skip("no bdist_wheel: neither the wheel package nor setuptools >= 70.1")
    src = tmp_path_factory.mktemp("src")
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "--",
                             "engine", "urlwb", "properties", "pyproject.toml", "setup.py", "README.md"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\n")
    for rel in filter(None, listed):
        if (ROOT / rel).is_file():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, src / rel)
    out = tmp_path_factory.mktemp("dist")
    # setuptools' PEP 517 hook itself, as `pip wheel --no-deps --no-build-isolation` calls it
    r = subprocess.run([sys.executable, "-W", "ignore", "-c",
                        f"from setuptools import build_meta; build_meta.build_wheel({str(out)!r})"],
                       cwd=src, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    (whl,) = out.glob("url_workbench-*.whl")
    return zipfile.ZipFile(whl)


def shipped(wheel: zipfile.ZipFile) -> dict[str, bytes]:
    return {n: wheel.read(n) for n in wheel.namelist() if n.endswith(".py")}


def test_the_wheel_carries_no_tests_and_what_a_user_needs(wheel):
    names = wheel.namelist()
    tests = [n for n in names if n.startswith("tests/") or re.search(r"(^|/)(test_[^/]*|conftest)\.py$", n)]
    assert tests == []
    for needed in ("urlwb/strategies/__init__.py", "urlwb/strategies/invariants.py", "urlwb/_properties/strategies.py",
                   "urlwb/py.typed", "urlwb/_properties/py.typed", "urlwb/findings/schema/finding-v1.json",
                   "urlwb/report_formats/sarif.py", "urlwb/_engine/data/uts46_mapping.txt"):
        assert needed in names, needed
    (entry,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    text = wheel.read(entry).decode()
    assert re.search(r"\[pytest11\]\s*\nurlwb = urlwb\.pytest_plugin", text)
    (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    metadata = wheel.read(meta).decode()
    assert re.search(r"^Requires-Dist: hypothesis", metadata, re.M)
    assert re.search(r"^Requires-Dist: packaging.*; extra == \"workbench\"", metadata, re.M)


def test_the_wheel_has_one_top_level_package(wheel):
    """No ``engine`` or ``properties`` beside a user's modules (issue 37): ``urlwb`` alone, and its
    metadata says so."""
    names = wheel.namelist()
    assert {n.split("/")[0] for n in names if ".dist-info/" not in n} == {"urlwb"}
    (top,) = [n for n in names if n.endswith(".dist-info/top_level.txt")]
    assert wheel.read(top).decode().split() == ["urlwb"]
    for path, source in shipped(wheel).items():   # every import of them rewritten (setup.py checks it too)
        assert not [t for t, _ in imports(path, source) if t in ("engine", "properties")], path


def package_data_files() -> list[str]:
    """Each tracked file beside a package's modules that is not a module (its data: what the code
    opens beside itself, e.g. ``urlwb/oracles/contracts.toml``), READMEs aside."""
    listed = subprocess.run(["git", "ls-files", "--", "engine", "urlwb", "properties"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    return [rel for rel in listed if not rel.endswith((".py", "README.md"))
            and (ROOT / rel).with_name("__init__.py").is_file()]


def in_the_wheel(rel: str) -> str:
    """A checkout path's place in the wheel (setup.py: engine/ and properties/ under urlwb/)."""
    top, _, rest = rel.partition("/")
    return f"urlwb/_{top}/{rest}" if top in ("engine", "properties") else rel


def test_the_wheel_carries_every_data_file_beside_a_module(wheel):
    names = set(wheel.namelist())
    data = package_data_files()
    assert "urlwb/oracles/contracts.toml" in data and "properties/py.typed" in data
    assert [rel for rel in data if in_the_wheel(rel) not in names] == []


def test_every_import_of_the_shipped_code_is_declared(wheel):
    assert undeclared(shipped(wheel)) == []


def test_a_planted_undeclared_import_and_a_planted_test_module_are_caught(wheel):
    files = shipped(wheel)
    planted = {**files, "urlwb/planted.py": b"import planted_undeclared\n",
               "urlwb/planted_lazy.py": b"def f():\n    import numpy\n",
               "urlwb/planted_top.py": b"import yarl\n"}   # yarl: only the oracles extra
    assert undeclared(planted) == [
        "urlwb/planted.py: imports planted_undeclared (planted-undeclared), declared nowhere",
        "urlwb/planted_lazy.py: imports numpy (numpy), declared nowhere",
        "urlwb/planted_top.py: imports yarl at its top, not a runtime dependency"]
    # the filter setup.py's build_py applies (setup.py runs setup() when imported: compiled alone)
    tree = ast.parse((ROOT / "setup.py").read_text())
    (fn,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "is_test_module"]
    space: dict = {}
    exec(compile(ast.Module([fn], []), "setup.py", "exec"), space)
    is_test_module = space["is_test_module"]
    assert [m for m in ("test_urls", "conftest", "strategies", "testing") if is_test_module(m)] == ["test_urls", "conftest"]


#: the public modules of the strategies, and the plugin pytest loads wherever the wheel is installed
STRATEGIES = ("urlwb/strategies/__init__.py", "urlwb/strategies/invariants.py", "urlwb/pytest_plugin.py")


def _modules_imported(path: str, source: bytes) -> list[tuple[str, bool]]:
    """(dotted module, guarded) of each import of ``path``, relative ones resolved; for ``from M
    import n`` both ``M`` and ``M.n`` (which may be a submodule)."""
    package = path[:-3].replace("/", ".")
    package = package[: -len(".__init__")] if package.endswith(".__init__") else package.rpartition(".")[0]
    out = []
    for node, guarded in import_nodes(path, source):
        if isinstance(node, ast.Import):
            out += [(a.name, guarded) for a in node.names]
            continue
        base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
        module = node.module if node.level == 0 else ".".join(x for x in (base, node.module) if x)
        out += [(n, guarded) for n in (module, *(f"{module}.{a.name}" for a in node.names))]
    return out


def strategies_imports(files: dict[str, bytes]) -> list[str]:
    """One line per third-party package the strategies' modules (and every module of the wheel
    they import at a module's top, transitively) import at a module's top that installing the
    wheel alone does not bring (``dependencies``)."""
    def own_file(dotted: str) -> str | None:
        base = dotted.replace(".", "/")
        return next((c for c in (f"{base}.py", f"{base}/__init__.py") if c in files), None)

    allowed = strategies_dependencies()
    dists = importlib.metadata.packages_distributions()
    todo, seen, out = list(STRATEGIES), set(), []
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        parts = path.split("/")[:-1]   # its packages' __init__ run first
        todo += [f for f in ("/".join(parts[:i]) + "/__init__.py" for i in range(1, len(parts) + 1)) if f in files]
        for dotted, guarded in _modules_imported(path, files[path]):
            top = dotted.partition(".")[0]
            if guarded or top in sys.stdlib_module_names or top == "__future__":
                continue
            if top == "urlwb":
                if (found := own_file(dotted)) is not None:
                    todo.append(found)
            elif (path, top) not in HOSTED and not {norm(d) for d in dists.get(top, [top])} & allowed:
                out.append(f"{path}: imports {top} at its top, which the strategies' install lacks")
    return sorted(set(out))


def test_the_strategies_import_only_what_the_wheel_alone_installs(wheel):
    """``pip install url-workbench`` brings Hypothesis (pyproject.toml's ``dependencies``); the
    fuzzing and reporting stack is the ``workbench`` extra (issue 37: 193 MB of atheris, abnf,
    coverage, rich, jsonschema for the strategies alone). Planted: a top-level ``import rich`` in
    a module the strategies import is caught."""
    files = shipped(wheel)
    assert strategies_imports(files) == []
    planted = dict(files)
    planted["urlwb/_properties/spellings.py"] = b"import rich\n" + files["urlwb/_properties/spellings.py"]
    assert strategies_imports(planted) == [
        "urlwb/_properties/spellings.py: imports rich at its top, which the strategies' install lacks"]


#: a user's project: its own engine.py, and a test of the strategies and the plugin's fixtures
USER_ENGINE = '"""The user\'s own engine (a rules engine, a game engine): the name is theirs."""\nNAME = "mine"\n'
USER_TEST = '''import engine
import urlwb
from hypothesis import given, settings
from urlwb.strategies import urls
from urlwb.strategies.invariants import reparse_idempotent


def test_the_users_engine_is_theirs():
    assert engine.NAME == "mine"
    print("URLWB", urlwb.__file__)


@settings(max_examples=25, database=None, deadline=None)
@given(urls)
def test_the_plugin_fixtures_under_given(url_standard, url_invariants, url):
    url_invariants.never_crashes(url_standard)(url)
    reparse_idempotent(url_standard)(url)
'''


def users_project(folder: pathlib.Path) -> pathlib.Path:
    folder.mkdir()
    (folder / "engine.py").write_text(USER_ENGINE)
    (folder / "test_mine.py").write_text(USER_TEST)
    return folder


def test_the_wheel_imports_beside_a_users_engine_py(wheel, tmp_path):
    """The wheel's files on the path, a user's ``engine.py`` beside their test: the user's
    ``import engine`` is theirs, ``urlwb.strategies`` works, and the plugin's fixtures serve a test
    under ``@given`` (issue 37: ``cannot import name 'idna' from 'engine'``, and Hypothesis's
    function-scoped-fixture health check). The checkout's own layout, top-level ``engine`` as the
    wheel used to ship it, fails the same import (the collision this test exists for)."""
    site = tmp_path / "site"
    wheel.extractall(site)
    user = users_project(tmp_path / "user")
    installed = any(e.value == "urlwb.pytest_plugin" for e in importlib.metadata.entry_points(group="pytest11"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "URLWB_HYPOTHESIS_PROFILE")}
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "--rootdir", str(user),
                        *([] if installed else ["-p", "urlwb.pytest_plugin"]), "test_mine.py"],
                       cwd=user, env={**env, "PYTHONPATH": str(site)}, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "2 passed" in r.stdout and f"URLWB {site / 'urlwb' / '__init__.py'}" in r.stdout, r.stdout[-2000:]
    old = subprocess.run([sys.executable, "-c", "import urlwb.strategies"], cwd=user,
                         env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert old.returncode != 0 and "from 'engine'" in old.stderr, old.stderr[-1000:]


#: a venv holding the wheel and pytest may take this much (issue 37: 193 MB with the workbench's
#: stack; 47 MB for Hypothesis and pytest alone)
VENV_LIMIT_MB = 60


@pytest.mark.slow
def test_the_strategies_install_and_run_from_the_wheel_in_a_small_venv(wheel, tmp_path):
    """pip installs the wheel (its dependencies from PyPI) and pytest in a fresh venv: under
    :data:`VENV_LIMIT_MB`, the user's project beside its own ``engine.py`` passes, and the
    ``urlwb`` command says in one line that it needs the workbench extra."""
    import venv as venv_module
    whl = tmp_path / pathlib.Path(wheel.filename).name
    shutil.copy2(wheel.filename, whl)
    env_dir = tmp_path / "venv"
    venv_module.create(env_dir, with_pip=True)
    python = str(env_dir / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "URLWB_HYPOTHESIS_PROFILE")}
    r = subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", str(whl), "pytest"],
                       env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    size = sum(p.stat().st_size for p in env_dir.rglob("*") if p.is_file() and not p.is_symlink()) / 2**20
    print(f"venv with url-workbench and pytest: {size:.1f} MB")
    assert size < VENV_LIMIT_MB, f"{size:.1f} MB"
    user = users_project(tmp_path / "user")
    r = subprocess.run([python, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "test_mine.py"], cwd=user,
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "2 passed" in r.stdout, r.stdout[-3000:] + r.stderr[-2000:]
    r = subprocess.run([str(env_dir / "bin" / "urlwb"), "diff", "http://a/"], cwd=user, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "pip install 'url-workbench[workbench]'" in r.stderr
