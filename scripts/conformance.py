#!/usr/bin/env python3
"""The README's conformance table, computed: every vendored conformance file run through the
engine as its test harness runs it (``urlwb.conformance``), counted. ``python
scripts/conformance.py`` prints the Markdown table; ``tests/test_readme.py`` checks that the
README holds exactly this output.
"""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from urlwb.conformance import SUITES  # noqa: E402


def rows() -> list[tuple[str, int, int]]:
    table = [(title, [check(case) for case in cases()]) for _, title, cases, check in SUITES]
    return [(name, sum(results), len(results)) for name, results in table]


def markdown() -> str:
    lines = ["| data | passed | cases |", "|---|---:|---:|"]
    lines += [f"| {name} | {passed} | {total} |" for name, passed, total in rows()]
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown())
