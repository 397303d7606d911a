"""Nothing lost when targets fuzz at once: two planted fuzz targets, each with two bugs of its own
(a one-byte input raises an exception no target may raise), fuzz in parallel in a short campaign
on two processes (``--schedule gain --jobs 2``) over a copy of the workbench. Every crash libFuzzer
wrote goes through the one triage: each of the four signatures is filed exactly once (one
regress entry, one new finding in run.json), no artifact is left untriaged, and the runs of the
two targets overlapped in time. run.json holds each round's wall seconds and processes and each
run's processes; the report shows the time bar."""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

from urlwb import corpus_store

PLANTED = '''#!/usr/bin/env python3
"""Planted fuzz target {name}: the one-byte inputs "1" and "2" raise {one} and {two}."""
import sys

import atheris


def one(data: bytes) -> None:
    raise {one}("planted one")


def two(data: bytes) -> None:
    raise {two}("planted two")


def check(data: bytes) -> None:
    if data == b"1":
        one(data)
    if data == b"2":
        two(data)


def TestOneInput(data: bytes) -> None:
    check(data)


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
'''

BUGS = {"boom_a": ("LookupError", "ArithmeticError"), "boom_b": ("BufferError", "EOFError")}


def _copy_with_planted_targets(dest: pathlib.Path) -> pathlib.Path:
    root = corpus_store.ROOT
    ignore = shutil.ignore_patterns(".venv", ".git", ".urlwb", "reports", "build", "node_modules",
                                    "__pycache__", ".hypothesis", "*.egg-info", "target", "fuzz_*.py")
    for name in ("engine", "urlwb", "properties", "fuzzers", "pyproject.toml"):
        src = root / name
        (shutil.copytree(src, dest / name, ignore=ignore) if src.is_dir()
         else shutil.copy(src, dest / name))
    for name, (one, two) in BUGS.items():
        target = dest / "fuzzers" / f"fuzz_{name}.py"
        target.write_text(PLANTED.format(name=name, one=one, two=two))
        target.chmod(0o755)   # libFuzzer's -fork runs it through its shebang
        seed = dest / "corpus" / name / "seed"
        seed.mkdir(parents=True)
        (seed / "zero").write_bytes(b"0")
    return dest


def test_two_targets_crashing_at_once_each_crash_filed_once(tmp_path):
    copy = _copy_with_planted_targets(tmp_path / "wb")
    work = tmp_path / "work"
    env = dict(os.environ, URLWB_WORKDIR=str(work))
    env.pop("URLWB_CORPUS", None)
    entry = "import sys; from urlwb.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run(
        [sys.executable, "-c", entry, "campaign", "boom_a", "boom_b", "--minutes", "0.3", "--jobs", "2",
         "--no-diff", "--no-growth", "--minimize-seconds", "1", "--out", str(tmp_path / "reports")],
        cwd=copy, env=env, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert proc.returncode == 1, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
    run = json.loads(next((tmp_path / "reports").glob("campaign-*/run.json")).read_text())
    assert not run["round_errors"], run["round_errors"]

    # every artifact a run wrote was triaged: none left, none lost
    written = set()
    for t in run["targets"]:
        written |= {pathlib.Path(p).name for p in
                    re.findall(r"Test unit written to (\S+)", pathlib.Path(t["log"]).read_text())}
    assert written, "the planted targets did not crash"
    for name in BUGS:
        folder = work / "artifacts" / name
        assert not [p for p in folder.iterdir() if p.is_file() and p.name.startswith("crash-")]
    triaged = {p.name for name in BUGS for p in (work / "artifacts" / name / "triaged").iterdir()}
    assert written <= triaged, written - triaged

    # each signature filed exactly once: one regress entry, one new finding
    expected = {f"exception:{exc}@fuzzers/fuzz_{name}.py:{fn}" for name, pair in BUGS.items()
                for exc, fn in zip(pair, ("one", "two"))}
    found = [f["signature"] for f in run["new_findings"]]
    assert sorted(found) == sorted(set(found)), found
    sidecars = [json.loads(p.read_text())["signature"]
                for name in BUGS for p in (copy / "corpus" / name / "regress").glob("*.json")]
    assert sorted(sidecars) == sorted(set(sidecars)) == sorted(found), (sidecars, found)
    runs = [(t["target"], t["start"], t["seconds"], t["ended"], t["crashes"]) for t in run["targets"]]
    assert set(found) == expected, (set(found) ^ expected, runs)

    # the two targets fuzzed at once
    spans = {name: [(t["start"], t["start"] + t["seconds"]) for t in run["targets"] if t["target"] == name]
             for name in BUGS}
    assert any(a0 < b1 and b0 < a1 for a0, a1 in spans["boom_a"] for b0, b1 in spans["boom_b"]), spans

    # where the minutes went: rounds with wall seconds and processes, runs with processes; the bar
    assert {"triage", "fuzzing", "report"} <= {r["round"] for r in run["rounds"]}
    assert all(r["seconds"] >= 0 and r["processes"] >= 1 for r in run["rounds"])
    assert all(t["processes"] >= 1 for t in run["targets"])
    assert run["totals"]["fuzz_core_seconds"] > 0
    report = (tmp_path / "reports" / "latest" / "report.md").read_text()
    assert "where the minutes went" in report and re.search(r"\[#+[^\]]*\]", report)
    assert "where the minutes went" in proc.stdout
