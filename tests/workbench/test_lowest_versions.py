"""scripts/lowest_versions.py pins each runtime dependency, and pytest, at its ``>=`` bound (the
CI step that installs them and runs the conformance tests is the script itself)."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("lowest_versions", ROOT / "scripts" / "lowest_versions.py")
lowest_versions = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lowest_versions)


def project(dependencies: list[str], test: list[str]) -> dict:
    return {"project": {"dependencies": dependencies, "optional-dependencies": {"test": test}}}


def test_pins_of_this_pyproject():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pins = lowest_versions.lowest_pins(pyproject)
    names = [pin.split("==")[0] for pin in pins]
    project = pyproject["project"]
    runtime = [r.split(">=")[0].strip() for r in project["dependencies"] + project["optional-dependencies"]["workbench"]]
    assert names == [*runtime, "pytest"]
    assert all(pin.count("==") == 1 and pin.split("==")[1][0].isdigit() for pin in pins)


def test_pins_are_the_lower_bounds():
    assert lowest_versions.lowest_pins(project(["a>=1.2", "b_c >= 6.100"], ["pytest>=8", "coverage>=7"])) == \
        ["a==1.2", "b_c==6.100", "pytest==8"]


@pytest.mark.parametrize("requirement", ["a", "a>1", "a~=1.2", "a>=1,<2", "a==1", "a>=1; python_version<'3.12'"])
def test_a_requirement_without_one_lower_bound_is_refused(requirement):
    with pytest.raises(SystemExit, match="cannot tell the lowest version"):
        lowest_versions.lowest_pins(project([requirement], ["pytest>=8"]))
