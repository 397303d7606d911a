"""Nothing stops the campaign: an engine function that raises ``TypeError``
(an exception the engine promises never to raise on a str) is planted into a copy of the
workbench, and a short campaign runs over it. The fuzzers' crashes become findings with their
input and traceback, the differential round reports the engine as crashed on its inputs, the
campaign writes its report and exits 1 ("findings were made"), not with a traceback."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

from urlwb import corpus_store

PLANT = ('''    if "x" in str(host):  # planted: a TypeError, as a one-token bug would raise
        raise TypeError("planted")
''')


def _copy_of_the_workbench(dest: pathlib.Path) -> pathlib.Path:
    root = corpus_store.ROOT
    ignore = shutil.ignore_patterns(".venv", ".git", ".urlwb", "reports", "build", "node_modules",
                                    "__pycache__", ".hypothesis", "*.egg-info", "target")
    for name in ("engine", "urlwb", "properties", "fuzzers", "pyproject.toml"):
        src = root / name
        (shutil.copytree(src, dest / name, ignore=ignore) if src.is_dir()
         else shutil.copy(src, dest / name))
    shutil.copytree(root / "tests" / "data", dest / "tests" / "data")
    for target in ("host", "differential"):
        shutil.copytree(root / "corpus" / target / "seed", dest / "corpus" / target / "seed")
    host_py = dest / "engine" / "host.py"
    text = host_py.read_text(encoding="utf-8")
    anchor = '    """https://url.spec.whatwg.org/#concept-host-serializer"""\n'
    assert anchor in text, "serialize_host's docstring moved: update the plant"
    host_py.write_text(text.replace(anchor, anchor + PLANT, 1), encoding="utf-8")
    return dest


def test_a_planted_type_error_does_not_stop_the_campaign(tmp_path):
    copy = _copy_of_the_workbench(tmp_path / "wb")
    env = dict(os.environ, URLWB_WORKDIR=str(tmp_path / "work"))
    env.pop("URLWB_CORPUS", None)
    entry = "import sys; from urlwb.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run(
        [sys.executable, "-c", entry, "campaign", "host", "--minutes", "0.4",
         "--no-coverage", "--no-growth", "--minimize-seconds", "4", "--out", str(tmp_path / "reports")],
        cwd=copy, env=env, capture_output=True, text=True, timeout=400)
    assert "Traceback" not in proc.stderr.replace("traceback", ""), proc.stderr[-3000:]
    assert proc.returncode == 1, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
    run = json.loads(next((tmp_path / "reports").glob("campaign-*/run.json")).read_text())
    # the fuzzer's crash, triaged into a finding of the copy's corpus, input and traceback kept
    assert any(f["target"] == "host" and "TypeError" in f["signature"] for f in run["new_findings"])
    filed = list((copy / "corpus" / "host" / "regress").glob("*.json"))
    assert filed and "planted" in filed[0].read_text()
    # the differential round ran and counted the engine's crashes as findings, with the frame
    report = (tmp_path / "reports" / "latest" / "report.md").read_text()
    assert "oracle crashed" in report and "planted" in report
    assert not run["round_errors"], run["round_errors"]
    # findings.jsonl of the run (finding-v1): the fuzzer's TypeError and the differential
    # round's engine crash, each a bug of the engine
    from urlwb.findings import record
    recs = record.read_findings(next((tmp_path / "reports").glob("campaign-*/findings.jsonl")))
    assert any(r["parser"] == "engine" and "TypeError" in r["signature"] for r in recs)
    assert any(r["parser"] == "engine" and r["rule"] == "crash" and r["verdict"]["kind"] == "bug"
               for r in recs), [(r["parser"], r["rule"]) for r in recs]
