"""An engine that cannot be imported stops every ``urlwb`` command: a non-zero exit and one line
saying why, never a run without the reference (``urlwb diff`` used to compare against no engine
and exit 0).

Each command runs in a child whose first ``sys.path`` entry holds a broken ``engine`` package
that shadows the real one: one whose import fails as an engine built against a missing table
would (ImportError), one with a SyntaxError, one that raises something else at import.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from urlwb.cli import SUBCOMMANDS

ROOT = Path(__file__).resolve().parents[2]

BROKEN_ENGINES = {
    "ImportError": ("from idna.uts46data import no_such_table\n",
                    "ImportError: cannot import name 'no_such_table'"),
    "SyntaxError": ("def broken(:\n", "SyntaxError: "),
    "RuntimeError": ("raise RuntimeError('planted:\\nover two lines')\n", "RuntimeError: planted: over two lines"),
}
# Every subcommand bare, the differential as the issue ran it, no command, and a command's --help
# (whose module imports the engine; ``urlwb --help`` itself imports none and answers:
# tests/workbench/test_cli.py::test_help_needs_no_engine).
COMMANDS = [[name] for name in SUBCOMMANDS] + [["diff", "http://a/"], [], ["diff", "--help"]]


def run_with_broken_engine(tmp_path: Path, kind: str, argv: list[str]) -> subprocess.CompletedProcess:
    (tmp_path / "engine").mkdir(exist_ok=True)
    (tmp_path / "engine" / "__init__.py").write_text(BROKEN_ENGINES[kind][0], encoding="utf-8")
    # ``-m`` puts the working folder first on sys.path: the broken engine shadows the real one,
    # and urlwb comes from the project (installed, or from ROOT on PYTHONPATH).
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    return subprocess.run([sys.executable, "-m", "urlwb.cli", *argv], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)


def assert_one_line(proc: subprocess.CompletedProcess, kind: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("urlwb: the engine cannot be imported, and every command needs it (")
    assert BROKEN_ENGINES[kind][1] in lines[0]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(argv) or "(none)")
def test_every_command_stops_with_one_line(tmp_path, argv):
    assert_one_line(run_with_broken_engine(tmp_path, "ImportError", argv), "ImportError")


@pytest.mark.parametrize("kind", ["SyntaxError", "RuntimeError"])
def test_any_error_at_import_is_one_line(tmp_path, kind):
    assert_one_line(run_with_broken_engine(tmp_path, kind, ["diff", "http://a/"]), kind)


def test_the_real_engine_runs():
    """The same child, without the broken engine, runs the command (the tests above do not
    pass on some other failure)."""
    proc = subprocess.run([sys.executable, "-m", "urlwb.cli", "list"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "engine cannot be imported" not in proc.stderr
