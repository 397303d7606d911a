"""The layers hold: import-linter's contracts in pyproject.toml (urlwb over properties over
engine, no import cycle among the modules of any package, and the reference parser apart from the
fast one: engine.reference imports neither engine.url nor engine.fast_path, and its parser reaches
neither by any chain of imports) are kept."""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_import_linter_contracts_are_kept():
    lint = shutil.which("lint-imports", path=str(pathlib.Path(sys.executable).parent))
    if lint is None:
        pytest.fail("lint-imports is not installed (the test extra names import-linter)")
    proc = subprocess.run([lint, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "BROKEN" not in proc.stdout and "Contracts: 4 kept, 0 broken." in proc.stdout


def test_the_engine_imports_nothing_of_the_workbench():
    # import-linter's layers contract says the same; this one also covers modules it cannot see
    # (a function-local import would be found by grimp too, but a string passed to importlib
    # would not).
    for path in (ROOT / "engine").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for name in ("urlwb", "properties", "fuzzers"):
            assert f"import {name}" not in text and f"from {name}" not in text, path
