"""The layers hold: import-linter's contracts in pyproject.toml (urlwb over properties over
engine, no import cycle among the modules of any package) are kept."""

from __future__ import annotations

import ast
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_import_linter_contracts_are_kept():
    lint = shutil.which("lint-imports", path=str(pathlib.Path(sys.executable).parent))
    if lint is None:
        pytest.fail("lint-imports is not installed (the test extra names import-linter)")
    proc = subprocess.run([lint, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "BROKEN" not in proc.stdout and "Contracts: 8 kept, 0 broken." in proc.stdout


def test_the_engine_imports_nothing_of_the_workbench():
    # import-linter's layers contract says the same; this one also covers modules it cannot see
    # (a function-local import would be found by grimp too, but a string passed to importlib
    # would not).
    for path in (ROOT / "engine").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for name in ("urlwb", "properties", "fuzzers"):
            assert f"import {name}" not in text and f"from {name}" not in text, path


def test_no_python_beside_a_manifest_hides_an_import_of_the_workbench():
    # import-linter sees the modules of packages only: a .py file in a folder without __init__.py
    # (an adapter beside its oracles.toml) is invisible to its contracts. Such a file is a program
    # of its own (run by the supervisor, or a script): it imports nothing of the workbench, so that
    # no card or adapter reaches a room by a way the contracts cannot see (the browsers' and
    # rust-url's deviations.py imported urlwb.differential.classify so).
    hidden = []
    for path in sorted((ROOT / "urlwb").rglob("*.py")):
        if any(x in path.parts for x in ("node_modules", "build", "target")):
            continue
        folders = [d for d in [path.parent, *path.parent.parents] if d.is_relative_to(ROOT / "urlwb")]
        if all((d / "__init__.py").exists() for d in folders):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and not n.level]
        names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        hidden += [f"{path.relative_to(ROOT)}: {m}" for m in names
                   if m.split(".")[0] in ("urlwb", "engine", "properties", "tests")]
    assert hidden == []


@pytest.mark.parametrize("module, line, contract", [
    ("urlwb/mutation/mutants.py", "from urlwb.fuzzing import replay", "do not import each other"),
    ("urlwb/differential/classify.py", "from urlwb.mutation import killsuite", "do not import each other"),
    ("urlwb/fuzzing/triage.py", "from urlwb.campaign import run", "layers: campaign"),
    ("urlwb/differential/run.py", "from urlwb.hunt import judge", "layers: campaign"),
    ("urlwb/corpus_store.py", "from urlwb.differential import generate", "the shared plumbing imports no job"),
    ("urlwb/oracles/host_answer.py", "from urlwb.oracles import hosts", "no import cycles"),
    ("urlwb/oracles/deviations.py", "from urlwb.findings import record", "urlwb.oracles imports nothing above it"),
    ("urlwb/oracles/deviations.py", "from urlwb.differential import classify", "urlwb.oracles imports nothing above it"),
    ("engine/reference/url_parser.py", "from engine import url as _planted", "the reference parser reaches nothing"),
    ("engine/reference/api.py", "import engine.fast_path", "engine.reference imports neither"),
])
def test_a_planted_import_breaks_its_contract(tmp_path, module, line, contract):
    """Each contract notices the import it forbids, planted in a copy of the packages."""
    lint = shutil.which("lint-imports", path=str(pathlib.Path(sys.executable).parent))
    if lint is None:
        pytest.fail("lint-imports is not installed (the test extra names import-linter)")
    for name in ("engine", "properties", "urlwb"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns(
            "__pycache__", "build", "node_modules", "target", "*.jar"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    planted = tmp_path / module
    planted.write_text(planted.read_text(encoding="utf-8") + f"\n{line}  # planted\n", encoding="utf-8")
    proc = subprocess.run([lint, "--config", str(tmp_path / "pyproject.toml")], cwd=tmp_path,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert proc.returncode != 0, proc.stdout[-2000:]
    broken = [x for x in proc.stdout.splitlines() if x.endswith("BROKEN")]
    assert len(broken) >= 1 and any(contract in x for x in broken), proc.stdout[-2000:]
