"""``urlwb compare-rev``: the engine against another version of itself.

A copy of the engine with one planted change must differ, exactly in the answers that change
touches; an unchanged copy must not differ at all; and the command compares with a git revision.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import engine
from test_cli import urlwb
from urlwb import corpus_store
from urlwb.measure import compare_rev


def _copy(tmp_path: Path, name: str, old: str | None = None, new: str | None = None):
    target = tmp_path / name
    shutil.copytree(Path(engine.__file__).parent, target,
                    ignore=shutil.ignore_patterns("__pycache__"))
    if old is not None:
        url_py = target / "url.py"
        text = url_py.read_text("utf-8")
        assert text.count(old) == 1
        url_py.write_text(text.replace(old, new), "utf-8")
    return compare_rev.import_engine_from(target)


def test_an_unchanged_copy_gives_the_same_answers(tmp_path):
    differences, compared = compare_rev.compare(_copy(tmp_path, "engine_same"), engine,
                                                inputs=300, seed=3)
    assert compared > 10_000
    assert dict(differences) == {}


def test_a_planted_change_is_found_where_it_shows(tmp_path):
    # The planted engine forgets invalid-URL-unit for code points that are not URL code points.
    planted = _copy(tmp_path, "engine_planted",
                    "count = len(NOT_URL_CODE_POINT_OR_PERCENT.findall(run))", "count = 0")
    differences, _ = compare_rev.compare(planted, engine, inputs=300, seed=3)
    assert set(differences) == {"basic URL parser, listening"}
    text, base, old, new = differences["basic URL parser, listening"][0]
    assert old[0] == new[0]  # the same URL ...
    assert new[1].count("invalid-URL-unit") > old[1].count("invalid-URL-unit")  # ... more errors


def test_the_command_compares_with_a_git_revision():
    if shutil.which("git") is None or not (corpus_store.ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    dirty = subprocess.run(["git", "status", "--porcelain", "engine"], cwd=corpus_store.ROOT,
                           capture_output=True, text=True).stdout.strip()
    if dirty:
        pytest.skip("the engine has uncommitted changes, so HEAD's differs from it")
    proc = urlwb("compare-rev", "HEAD", "--inputs", "200")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "answers compared" in proc.stdout and "; 0 differ" in proc.stdout
    bad = urlwb("compare-rev", "no-such-revision")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
