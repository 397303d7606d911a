"""Reach in the parser's own code: how much of it a set of inputs runs.

Python: coverage.py with branch measurement, restricted to the files atheris instruments (the
parser's modules), in a child process started before the parser is imported (``python -m
urlwb.hunt.reach LISTING``, a JSON file of the parser, the oracle flags, the modules and the
inputs); the result is coverage.py's own JSON report totals: branches covered of all branches,
and its percent (statements and branches). Go: ``go test -cover -coverpkg`` (statements), in
:meth:`urlwb.hunt.runners.GoRunner.reach`. JVM: libFuzzer's edge counts as Jazzer prints them
(the seeds' reach once loaded, then the hunt's), in the runner's statistics.
"""

from __future__ import annotations

import json
import pathlib
import sys
import tempfile

from urlwb import children, sandbox
from urlwb.fuzzing.minimize import fuzzer_env


def python_reach(parser: str, modules: list[str], inputs: list[str],
                 oracle_flags: list[str] | None = None, timeout: float = 600,
                 env: dict | None = None) -> dict | None:
    """{"branches": covered, "of": total, "branch_percent", "percent"} of ``inputs`` in the
    files of ``modules``; None (with the reason on stderr) when the child fails. ``env``: the
    child's environment (default :func:`fuzzer_env`; another release's venv first on its path)."""
    with tempfile.TemporaryDirectory(prefix="urlwb-reach-") as tmp:
        listing = pathlib.Path(tmp, "listing.json")
        listing.write_text(json.dumps({"parser": parser, "modules": modules, "inputs": inputs,
                                       "oracles": oracle_flags or []}), encoding="utf-8")
        proc = children.run([sys.executable, "-m", "urlwb.hunt.reach", str(listing)],
                            capture_output=True, text=True, env=env or fuzzer_env(), timeout=timeout,
                            sandbox=sandbox.limits())
        if proc.returncode:
            print(f"urlwb hunt: reach of {parser} failed: {proc.stderr.strip()[-300:]}", file=sys.stderr)
            return None
        return json.loads(proc.stdout.strip().splitlines()[-1])


def _child(listing: pathlib.Path) -> None:
    import coverage

    from urlwb.hunt.atheris_target import module_files
    job = json.loads(listing.read_text(encoding="utf-8"))
    files = sorted(module_files(job["modules"]))
    cov = coverage.Coverage(branch=True, data_file=None, cover_pylib=True, config_file=False,
                            include=files)
    cov.start()
    from urlwb import oracles
    oracles.configure(job["oracles"], config=False)
    loaded, skipped = oracles.load([job["parser"]])
    if job["parser"] not in loaded:
        cov.stop()
        sys.exit(f"{job['parser']}: {skipped.get(job['parser'])}")
    oracle = loaded[job["parser"]]
    for text in job["inputs"]:
        oracle.parse(oracles.to_usv(text), None)
    cov.stop()
    out = pathlib.Path(listing).with_name("report.json")
    cov.json_report(morfs=files, outfile=str(out), include=files)
    totals = json.loads(out.read_text(encoding="utf-8"))["totals"]
    covered, total = totals["covered_branches"], totals["num_branches"]
    print(json.dumps({"branches": covered, "of": total,
                      "branch_percent": round(100 * covered / total, 1) if total else None,
                      "percent": round(totals["percent_covered"], 1)}))


if __name__ == "__main__":
    _child(pathlib.Path(sys.argv[1]))
