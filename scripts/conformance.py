#!/usr/bin/env python3
"""The conformance table of docs/engine.md, computed: every vendored conformance file run through the
engine as its test harness runs it (``urlwb.measure.conformance``), counted, once on the fast parser
(``engine.URL``) and once on the reference parser (``engine.reference.ReferenceURL``; "-" where a
file does not run the URL parser). ``python scripts/conformance.py`` prints the Markdown table;
``tests/workbench/test_docs.py`` checks that docs/engine.md holds exactly this output.
"""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
import engine.reference  # noqa: E402
from urlwb.measure.conformance import SUITES  # noqa: E402

#: The parsers, as the URL API and as the basic URL parser.
PARSERS = {"fast": (engine.URL, engine.basic_url_parse),
           "reference": (engine.reference.ReferenceURL, engine.reference.basic_url_parse)}


def _results(URL, basic_url_parse) -> list[tuple[str, list[bool] | None]]:
    """Each row's results on one parser (None for a row that runs no URL parser)."""
    return [(title, [check(case, URL, basic_url_parse) for case in cases()]
             if key != "test_psl" or URL is engine.URL else None)
            for key, title, cases, check in SUITES]


def rows() -> list[tuple[str, int, int | None, int]]:
    """(data, passed on the fast parser, passed on the reference or None, cases)."""
    fast, reference = (_results(*PARSERS[p]) for p in ("fast", "reference"))
    return [(name, sum(f), None if r is None else sum(r), len(f))
            for (name, f), (_, r) in zip(fast, reference)]


def markdown() -> str:
    lines = ["| data | passed (fast parser) | passed (reference parser) | cases |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {fast} | {'-' if reference is None else reference} | {total} |"
              for name, fast, reference, total in rows()]
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown())
