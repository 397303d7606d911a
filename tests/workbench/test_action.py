"""The reusable action (``action.yml``) and what ClusterFuzzLite's PR workflow watches.

- The workflow docs/ci.md shows, with ``action.yml``, copied into a folder of their own (a copy of
  the repository) passes actionlint, which reads the local action's inputs; a planted input the
  action does not have, and a required one left out, fail it.
- The action's urlwb step, run by bash here with the workbench's venv standing in for the one it
  installs: a bug is status 1 in its output, the SARIF and JUnit are where it says, and the same
  run with that SARIF as ``baseline`` is 0.
- ``cflite_pr.yml``'s ``paths`` cover every file the fuzz targets import (an AST walk from each
  ``fuzzers/fuzz_*.py`` through the repository's own modules) and the data the build adds.
"""

from __future__ import annotations

import ast
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from test_workflows import actionlint

ROOT = pathlib.Path(__file__).resolve().parents[2]
ACTION = ROOT / "action.yml"
CI_DOC = ROOT / "docs" / "ci.md"


def doc_workflow() -> str:
    block = CI_DOC.read_text(encoding="utf-8").split("<!-- action-workflow:start -->")[1].split(
        "<!-- action-workflow:end -->")[0]
    return block.split("```yaml\n", 1)[1].rsplit("```", 1)[0]


def repository_copy(tmp_path: pathlib.Path, workflow: str) -> pathlib.Path:
    repo = tmp_path / "repo"
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".git").mkdir()   # actionlint finds the repository (and so ./action.yml) by its .git
    shutil.copy(ACTION, repo / "action.yml")
    (repo / ".github" / "workflows" / "urlwb.yml").write_text(workflow)
    return repo


def lint(repo: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([actionlint(), "-no-color", "-oneline", ".github/workflows/urlwb.yml"], cwd=repo,
                          capture_output=True, text=True, timeout=60)


def test_the_docs_workflow_using_the_action_by_path_passes_actionlint(tmp_path):
    text = doc_workflow()
    assert "uses: ./\n" in text
    r = lint(repository_copy(tmp_path, text))
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("old, new, says", [
    ("          fail-on: bug\n", "          fail_on: bug\n", 'input "fail_on" is not defined in action'),
    ("          command: diff\n", "", 'missing input "command" which is required'),
])
def test_a_planted_misuse_of_the_action_fails_actionlint(tmp_path, old, new, says):
    text = doc_workflow()
    assert old in text
    r = lint(repository_copy(tmp_path, text.replace(old, new, 1)))
    assert r.returncode == 1 and says in r.stdout, r.stdout + r.stderr


def test_the_action_is_composite_with_the_inputs_the_issue_names_and_uploads_both():
    text = ACTION.read_text(encoding="utf-8")
    assert "using: 'composite'" in text
    inputs = re.findall(r"^  ([a-z-]+):\n    description:", text.split("\noutputs:")[0], re.M)
    assert {"command", "args", "fail-on", "baseline"} <= set(inputs)
    assert "uses: github/codeql-action/upload-sarif@v3" in text and "uses: actions/upload-artifact@v4" in text
    # no input is spliced into a script: each reaches it as an environment variable
    for script in re.findall(r"      run: \|\n((?:        .*\n|\n)+)", text):
        assert "${{" not in script, script


def step_script(step_id: str) -> str:
    """The bash script of the action's step ``step_id``."""
    text = ACTION.read_text(encoding="utf-8")
    step = text.split(f"      id: {step_id}\n", 1)[1].split("\n    - ", 1)[0]
    body = step.split("      run: |\n", 1)[1]
    return "".join(line[8:] + "\n" for line in body.splitlines())


def run_step(tmp_path: pathlib.Path, env: dict) -> dict:
    """The action's urlwb step under bash, in ``tmp_path`` as the workspace: its outputs."""
    venv = tmp_path / "runner" / "urlwb-venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(sys.executable)
    urlwb = venv / "urlwb"
    urlwb.write_text(f"#!/bin/sh\nexec {sys.executable} -m urlwb.cli \"$@\"\n")
    urlwb.chmod(0o755)
    output = tmp_path / "github_output"
    output.write_text("")
    workspace = tmp_path / "workspace"
    workspace.mkdir(exist_ok=True)
    full = {**os.environ, "RUNNER_TEMP": str(tmp_path / "runner"), "GITHUB_OUTPUT": str(output),
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests" / "workbench"), os.environ.get("PYTHONPATH", "")]),
            "URLWB_OUTPUT_DIR": "urlwb-results", "URLWB_BASELINE": "", "URLWB_FAIL_ON": "bug", **env}
    r = subprocess.run(["bash", "-e", "-c", step_script("urlwb")], cwd=workspace, env=full,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr   # the status is an output, not the step's
    shutil.rmtree(tmp_path / "runner")
    return dict(line.split("=", 1) for line in output.read_text().splitlines())


def test_the_action_step_keeps_the_status_and_a_baseline_of_its_own_sarif_makes_it_0(tmp_path):
    # a bug: planted_parser declares the URL Standard in the workspace's urlwb.toml and reads the
    # host evil.example where '~q' stands (urllib's '%41', which this used, is asserted by
    # urllib's own tests: a hazard since issue 34)
    (tmp_path / "workspace").mkdir()
    (tmp_path / "workspace" / "urlwb.toml").write_text(
        '[tool.urlwb.oracles.bugged]\ncommand = "py:planted_parser:parse"\nspec = "whatwg"\n'
        'docs = "https://example.org/bugged"\n', encoding="utf-8")
    args = "'http://a~q.example/' --parsers engine,bugged"
    got = run_step(tmp_path, {"URLWB_COMMAND": "diff", "URLWB_ARGS": args})
    assert got["exit-status"] == "1"
    sarif = tmp_path / "workspace" / got["sarif"]
    assert json.loads(sarif.read_text())["runs"][0]["invocations"][0]["exitCode"] == 1
    assert (tmp_path / "workspace" / got["junit"]).read_text().count("<failure") == 1
    shutil.copy(sarif, tmp_path / "workspace" / "baseline.sarif")
    again = run_step(tmp_path, {"URLWB_COMMAND": "diff", "URLWB_ARGS": args, "URLWB_BASELINE": "baseline.sarif"})
    assert again["exit-status"] == "0"
    # a first run, before any baseline was kept: a warning, and every finding is new
    first = run_step(tmp_path, {"URLWB_COMMAND": "diff", "URLWB_ARGS": args, "URLWB_BASELINE": "none-yet.sarif"})
    assert first["exit-status"] == "1"


def test_the_action_step_refuses_a_command_that_reports_no_findings(tmp_path):
    with pytest.raises(AssertionError, match="command must be diff"):
        run_step(tmp_path, {"URLWB_COMMAND": "cache", "URLWB_ARGS": "clean"})


# -- what ClusterFuzzLite's PR fuzzing watches -----------------------------------------------------

TOP = ("engine", "properties", "urlwb", "fuzzers")


def module_file(name: str) -> pathlib.Path | None:
    parts = name.split(".")
    if parts[0] not in TOP:
        return None
    base = ROOT.joinpath(*parts)
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return base.with_suffix(".py") if base.with_suffix(".py").is_file() else None


def imported_names(path: pathlib.Path):
    """Every module name ``path`` imports, at the top or in a function (absolute or relative), and
    each name a ``from`` import takes (a submodule, when it is one)."""
    package = list(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            head = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(head + ([node.module] if node.module else []))
            yield module
            yield from (f"{module}.{a.name}" for a in node.names)


def imported_files(start: pathlib.Path) -> set[pathlib.Path]:
    """The repository's files a target imports, through each other (a package's __init__ too)."""
    seen: set[pathlib.Path] = set()
    todo = [start]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in imported_names(path):
            parts = name.split(".")
            todo += [f for k in range(1, len(parts) + 1) if (f := module_file(".".join(parts[:k])))]
    return seen


def path_filters() -> list[str]:
    text = (ROOT / ".github" / "workflows" / "cflite_pr.yml").read_text(encoding="utf-8")
    block = text.split("    paths:\n", 1)[1]
    return [m.group(1) for m in re.finditer(r"^      - '([^']+)'$", block.split("\npermissions", 1)[0], re.M)]


def matches(pattern: str, path: str) -> bool:
    """GitHub's path filter: ``**`` any characters, ``*`` any but ``/``."""
    rx = re.escape(pattern).replace(r"\*\*", "\0").replace(r"\*", "[^/]*").replace("\0", ".*")
    return re.fullmatch(rx, path) is not None


def uncovered(filters: list[str]) -> list[str]:
    files = set()
    for target in sorted((ROOT / "fuzzers").glob("fuzz_*.py")):
        files |= {str(f.relative_to(ROOT)) for f in imported_files(target)}
    build = (ROOT / ".clusterfuzzlite" / "build.sh").read_text(encoding="utf-8")
    for folder in re.findall(r'--add-data "([^:"]+):', build):   # the data the build bundles
        files |= {str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob("*") if p.is_file()}
    assert len(files) > 40, files   # the walk found the targets' imports, not only the targets
    return sorted(f for f in files if not any(matches(p, f) for p in filters))


def test_the_pr_fuzzing_filter_covers_every_file_the_targets_import():
    assert uncovered(path_filters()) == []


def test_the_filter_check_sees_the_old_filter():
    """The filter before: without urlwb/** and properties/**, the files 15 targets import."""
    old = ["engine/**", "fuzzers/**", "corpus/**", ".clusterfuzzlite/**", "pyproject.toml"]
    missed = uncovered(old)
    assert any(f.startswith("urlwb/") for f in missed) and any(f.startswith("properties/") for f in missed)
    assert any(f.startswith("tests/data/encoding/") for f in missed)
