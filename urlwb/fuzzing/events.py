"""Traced events per input of a fuzz target: the machine-independent half of its speed.

``python -m urlwb.fuzzing.events ROOT TARGET [CORPUS ...]`` imports the engine of the checkout at
``ROOT`` under atheris's instrumentation, as ``ROOT/fuzzers/fuzz_TARGET.py`` does (including what
that target leaves uninstrumented), replaces atheris's two hooks with counters, runs the
target's ``check`` over every input of the corpus folders, and prints one JSON line: inputs,
basic blocks entered (``_trace_branch`` calls) and comparisons traced (``_trace_cmp`` calls) per
input. Under libFuzzer each event is a call into atheris (about 0.3 µs on this project's
machine), so fewer events per input is more executions per second, on any machine; unlike
exec/s, the count does not move with the machine's load. Used by ``urlwb bench-fuzz --events``;
``--root`` there points it at another checkout (an older revision) to compare.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import pathlib
import sys


def instrumented_modules(target_file: pathlib.Path) -> tuple[list[str], list[str]]:
    """The include and exclude lists of the target's ``atheris.instrument_imports`` call."""
    for node in ast.walk(ast.parse(target_file.read_text("utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "instrument_imports":
            lists = {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords}
            return list(lists.get("include", [])), list(lists.get("exclude", []))
    return ["engine"], []


def main(argv: list[str]) -> int:
    """``[--passes N] ROOT TARGET [CORPUS ...]``: with ``--passes``, atheris's own hooks stay and
    the inputs run N times, for ``scripts/callgrind_urls.py --target`` to count instructions."""
    passes = None
    if argv[:1] == ["--passes"]:
        passes, argv = int(argv[1]), argv[2:]
    root, target, *corpora = argv
    root_path = pathlib.Path(root).resolve()
    target_file = root_path / "fuzzers" / f"fuzz_{target}.py"
    include, exclude = instrumented_modules(target_file)
    sys.path.insert(0, str(root_path))
    import atheris

    with atheris.instrument_imports(include=include, exclude=exclude):
        import engine  # noqa: F401  (instrumented here, as the target imports it)
        from properties import invariants  # noqa: F401
    counts = {"branches": 0, "comparisons": 0}
    real_cmp = atheris._trace_cmp

    def trace_branch(idx):
        counts["branches"] += 1

    def trace_cmp(left, right, op, idx, is_const=False):
        counts["comparisons"] += 1
        return real_cmp(left, right, op, idx, is_const)

    if passes is None:
        atheris._trace_branch, atheris._trace_cmp = trace_branch, trace_cmp
    spec = importlib.util.spec_from_file_location(f"fuzz_{target}", target_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    inputs = [f.read_bytes() for folder in corpora for f in sorted(pathlib.Path(folder).glob("*"))
              if f.is_file() and not f.name.endswith(".json")]
    import engine as loaded

    for _ in range(passes or 1):
        for data in inputs:
            try:
                module.check(data)
            except (loaded.Failure, AssertionError):  # a finding is counted like any other input
                pass
    if passes is not None:
        print(len(inputs))
        return 0
    n = max(1, len(inputs))
    print(json.dumps({"target": target, "inputs": len(inputs),
                      "branches_per_input": counts["branches"] / n,
                      "comparisons_per_input": counts["comparisons"] / n}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
