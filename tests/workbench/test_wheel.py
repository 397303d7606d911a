"""The wheel: built from a copy of the tree (setuptools' ``build_wheel`` hook, as ``pip wheel
--no-deps --no-build-isolation`` runs it), it
carries the packages, their data, ``py.typed`` and the pytest plugin's entry point, and no tests and
no conftest (``setup.py`` leaves ``properties/test_*.py`` and ``conftest.py`` out); every
third-party package its code imports is declared in pyproject.toml, and one imported unguarded at
a module's top in ``dependencies`` itself. A planted undeclared import, and a planted test module
in the wheel, are each caught.
"""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
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


def declared() -> tuple[set[str], set[str]]:
    """(the runtime dependencies, those and every extra's), normalized names."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name = lambda spec: norm(re.match(r"[A-Za-z0-9._-]+", spec).group(0))  # noqa: E731
    runtime = {name(s) for s in project["dependencies"]}
    extras = {name(s) for specs in project.get("optional-dependencies", {}).values() for s in specs}
    return runtime, runtime | extras


def imports(path: str, source: bytes) -> list[tuple[str, bool]]:
    """(top-level name, guarded) of each absolute import; guarded: inside a function, a try or
    an if (a lazy or optional import)."""
    tree = ast.parse(source, path)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        guarded, p = False, node
        while p in parents:
            p = parents[p]
            guarded |= isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Try, ast.If))
        out += [(n.split(".")[0], guarded) for n in names]
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
    for needed in ("urlwb/strategies/__init__.py", "urlwb/strategies/invariants.py", "properties/strategies.py",
                   "urlwb/py.typed", "properties/py.typed", "urlwb/findings/schema/finding-v1.json",
                   "urlwb/report_formats/sarif.py", "engine/data/uts46_mapping.txt"):
        assert needed in names, needed
    (entry,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    text = wheel.read(entry).decode()
    assert re.search(r"\[pytest11\]\s*\nurlwb = urlwb\.pytest_plugin", text)
    (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    assert re.search(r"^Requires-Dist: packaging", wheel.read(meta).decode(), re.M)


def package_data_files() -> list[str]:
    """Each tracked file beside a package's modules that is not a module (its data: what the code
    opens beside itself, e.g. ``urlwb/oracles/contracts.toml``), READMEs aside."""
    listed = subprocess.run(["git", "ls-files", "--", "engine", "urlwb", "properties"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    return [rel for rel in listed if not rel.endswith((".py", "README.md"))
            and (ROOT / rel).with_name("__init__.py").is_file()]


def test_the_wheel_carries_every_data_file_beside_a_module(wheel):
    names = set(wheel.namelist())
    data = package_data_files()
    assert "urlwb/oracles/contracts.toml" in data
    assert [rel for rel in data if rel not in names] == []


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
