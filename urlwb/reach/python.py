"""Python parsers under coverage.py: branch coverage of the parser's own files, in a subprocess
(:mod:`urlwb.reach.pyrun`). Functions as coverage.py's JSON report gives them (``Class.method``);
the module's top level is left out of the figures (it ran at import, maybe before the
measurement started: ``urllib.parse`` is imported by Python itself)."""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import sys
import tempfile
import time

from urlwb import children, sandbox
from urlwb.errors import UsageError
from urlwb.reach.model import Function, Reach

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def include_of(module: str) -> tuple[list[str], pathlib.Path]:
    """coverage.py ``include`` patterns of ``module`` (a package's folder, or one file), and the
    root its files are named relative to."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise UsageError(f"reach: cannot find the Python module {module}")
    if spec.submodule_search_locations:
        folder = pathlib.Path(list(spec.submodule_search_locations)[0])
        return [str(folder / "*")], folder.resolve().parents[module.count(".")]
    origin = pathlib.Path(spec.origin)
    if origin.suffix != ".py":
        raise UsageError(f"reach: {module} is not Python source ({origin.name})")
    return [str(origin)], origin.resolve().parents[module.count(".")]


def measure(name: str, language: str, modules: tuple[str, ...], items, flags: list[str],
            timeout: float = 900.0) -> Reach:
    t0 = time.monotonic()
    include, roots = [], []
    for m in modules:
        inc, root = include_of(m)
        include += inc
        roots.append(root)
    with tempfile.TemporaryDirectory(prefix="urlwb-reach-") as tmp:
        tmp = pathlib.Path(tmp)
        (tmp / "inputs.json").write_text(json.dumps(items), encoding="utf-8")
        req = {"oracle": name, "flags": flags, "include": include, "inputs": str(tmp / "inputs.json"),
               "out": str(tmp / "coverage.json"), "meta": str(tmp / "meta.json")}
        (tmp / "request.json").write_text(json.dumps(req), encoding="utf-8")
        # the caller's own import path, so that a py: oracle it can import, the child can too
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *(p or os.getcwd() for p in sys.path)])}
        env.pop("COVERAGE_PROCESS_START", None)
        # the parser's code runs there: confined as every foreign process (urlwb.sandbox)
        proc = children.run([sys.executable, "-m", "urlwb.reach.pyrun", str(tmp / "request.json")],
                            capture_output=True, text=True, timeout=timeout, env=env, sandbox=sandbox.limits())
        if proc.returncode != 0:
            raise RuntimeError(f"{name}: the coverage run failed (exit {proc.returncode}): "
                               f"{(proc.stderr.strip().splitlines() or ['?'])[-1]}")
        report = json.loads((tmp / "coverage.json").read_text(encoding="utf-8"))
        version = json.loads((tmp / "meta.json").read_text(encoding="utf-8"))["version"]
    reach = Reach(name, language, version, f"coverage.py {_coverage_version()} (branch)",
                  unit="statements", branch_unit="branches", inputs=len(items))
    for path, data in sorted(report["files"].items()):
        shown = _relative(pathlib.Path(path).resolve(), roots)
        reach.files.append(shown)
        for fname, fn in data.get("functions", {}).items():
            if not fname:
                continue   # the module's top level
            summ = fn["summary"]
            missed = sorted({a for a, _ in fn.get("missing_branches", [])} | set(fn.get("missing_lines", [])))
            reach.functions.append(Function(shown, fname, fn.get("start_line") or 0,
                                            summ["covered_lines"], summ["num_statements"],
                                            summ.get("covered_branches", 0), summ.get("num_branches", 0),
                                            missed))
    reach.seconds = time.monotonic() - t0
    return reach


def _relative(path: pathlib.Path, roots: list[pathlib.Path]) -> str:
    for root in roots:
        try:
            return str(path.relative_to(root))
        except ValueError:
            continue
    return str(path)


def _coverage_version() -> str:
    import coverage   # the test extra's; only here, where it is used
    return coverage.__version__
