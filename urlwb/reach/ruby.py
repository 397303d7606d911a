"""Ruby parsers under Ruby's built-in ``Coverage`` (lines, branches, methods; no gem): the
adapter loaded by ``ruby_coverage.rb``, which starts the measurement before the adapter requires
``uri`` (``uri`` is not loaded by Ruby's own start: checked), and writes the files under ``uri/``
at exit. A method's lines and branches are those between its first and last line; a method is
entered when Coverage counts a call of it."""

from __future__ import annotations

import json
import pathlib
import tempfile
import time

from urlwb.reach import adapter
from urlwb.reach.model import Function, Reach

WRAPPER = pathlib.Path(__file__).resolve().parent / "ruby_coverage.rb"


def measure(name: str, language: str, code: tuple[str, ...], items, log=print) -> Reach:
    t0 = time.monotonic()
    spec = adapter.spec_of(name)
    with tempfile.TemporaryDirectory(prefix="urlwb-reach-ruby-") as tmp:
        out = pathlib.Path(tmp) / "coverage.json"
        version, _ = adapter.run(name, items, command=[spec.command[0], str(WRAPPER), *spec.command[1:]],
                                 env={"URLWB_RUBY_COVERAGE": str(out), "URLWB_RUBY_COVERAGE_MATCH": code[0]})
        data = json.loads(out.read_text(encoding="utf-8"))
    reach = Reach(name, language, version, "Ruby Coverage (lines, branches, methods)", unit="lines",
                  inputs=len(items))
    for file, cov in sorted(data.items()):
        shown = file[file.index(code[0]) + 1:] if code[0] in file else file
        reach.files.append(shown)
        lines = cov["lines"]
        for cls, mname, first, last, calls in cov["methods"]:
            counted = [lines[i - 1] for i in range(first, last + 1) if i - 1 < len(lines) and lines[i - 1] is not None]
            mine = [(ln, n) for ln, n in cov["branches"] if first <= ln <= last]
            missed = sorted({ln for ln, n in mine if n == 0})
            cls = cls.removeprefix("#<Class:").rstrip(">")
            # a method never called still has its `def` line run (at load): not entered
            hit = sum(1 for n in counted if n) if calls else 0
            reach.functions.append(Function(shown, f"{cls.split('::')[-1]}#{mname}", first,
                                            hit, len(counted), sum(1 for _, n in mine if n),
                                            len(mine), missed if calls else []))
    reach.seconds = time.monotonic() - t0
    return reach
