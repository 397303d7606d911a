"""The GitHub Actions workflows (``.github/workflows/``): each passes ``actionlint`` (built by
``make test``'s ``tools`` step into ``.urlwb/tools/bin/``; skipped, with that reason, when it is not
there), a planted broken workflow does not, and each does what docs/ci.md says: ClusterFuzzLite's
PR fuzzing in code-change mode, its batch fuzzing with the SARIF uploaded to code scanning, the
campaign's ``--sarif`` uploaded too, and ``make test``.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
NAMES = ("cflite_pr.yml", "cflite_batch.yml", "ci.yml")


def actionlint() -> str:
    for candidate in (os.environ.get("URLWB_ACTIONLINT"), str(ROOT / ".urlwb" / "tools" / "bin" / "actionlint"),
                      shutil.which("actionlint")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.skip("actionlint not built: `make tools` builds it when go is on the machine")


def lint(folder: pathlib.Path) -> subprocess.CompletedProcess:
    """actionlint over ``folder``/.github/workflows/*.yml, run from ``folder`` (its repository)."""
    files = sorted(str(p.relative_to(folder)) for p in (folder / ".github" / "workflows").glob("*.yml"))
    return subprocess.run([actionlint(), "-no-color", "-oneline", *files], cwd=folder,
                          capture_output=True, text=True, timeout=60)


def copy_workflows(tmp_path: pathlib.Path) -> pathlib.Path:
    dest = tmp_path / ".github" / "workflows"
    dest.mkdir(parents=True)
    for name in NAMES:
        shutil.copy(WORKFLOWS / name, dest / name)
    return dest


def test_the_workflows_pass_actionlint():
    assert sorted(p.name for p in WORKFLOWS.glob("*.yml")) == sorted(NAMES)
    r = lint(ROOT)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("name,old,new,says", [
    ("cflite_pr.yml", "matrix.sanitizer }}\n", "matrix.sanitiser }}\n", 'property "sanitiser" is not defined'),
    ("ci.yml", "runs-on: ubuntu-latest", "runs_on: ubuntu-latest", '"runs-on" section is missing'),
    ("cflite_batch.yml", "          path: |", "          paths: |", 'input "paths" is not defined in action "actions/upload-artifact@v4"'),
])
def test_a_planted_broken_workflow_fails(tmp_path, name, old, new, says):
    dest = copy_workflows(tmp_path)
    text = (dest / name).read_text()
    assert old in text
    (dest / name).write_text(text.replace(old, new, 1))
    r = lint(tmp_path)
    assert r.returncode == 1 and says in r.stdout, r.stdout + r.stderr
    assert all(line.startswith(f".github/workflows/{name}:") for line in r.stdout.splitlines())


def steps_of(text: str, action: str) -> list[str]:
    """The text of each step that uses ``action`` (up to the next step)."""
    return [m.group(0) for m in re.finditer(rf"uses: {re.escape(action)}@\S+\n(?:(?!\s+- ).*\n)*", text)]


def test_the_workflows_do_what_the_docs_say():
    pr = (WORKFLOWS / "cflite_pr.yml").read_text()
    (build,) = steps_of(pr, "google/clusterfuzzlite/actions/build_fuzzers")
    (run,) = steps_of(pr, "google/clusterfuzzlite/actions/run_fuzzers")
    assert "language: python" in build and "mode: 'code-change'" in run and "pull_request:" in pr
    batch = (WORKFLOWS / "cflite_batch.yml").read_text()
    (run,) = steps_of(batch, "google/clusterfuzzlite/actions/run_fuzzers")
    assert "mode: 'batch'" in run and "output-sarif: true" in run
    uploads = steps_of(batch, "github/codeql-action/upload-sarif")
    assert [re.search(r"sarif_file: (\S+)", u).group(1) for u in uploads] == [
        "cifuzz-sarif/results.sarif", "reports/urlwb.sarif"]
    assert "security-events: write" in batch and "schedule:" in batch
    assert re.search(r"urlwb campaign .*--sarif reports/urlwb\.sarif --junit ", batch)
    ci = (WORKFLOWS / "ci.yml").read_text()
    assert re.search(r"run: make test\b", ci)
