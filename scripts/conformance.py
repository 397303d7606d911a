#!/usr/bin/env python3
"""The README's conformance table, computed: every vendored conformance file run through the
engine as its test harness runs it, counted, once on the fast parser (``engine.URL``) and once on
the reference parser (``engine.reference.ReferenceURL``; "-" where a file does not run the URL
parser). ``python scripts/conformance.py`` prints the Markdown table; ``tests/test_readme.py``
checks that the README holds exactly this output.
"""

from __future__ import annotations

import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
import engine.reference  # noqa: E402

#: The parsers, as the URL API and as the basic URL parser.
PARSERS = {"fast": (engine.URL, engine.basic_url_parse),
           "reference": (engine.reference.ReferenceURL, engine.reference.basic_url_parse)}

DATA = ROOT / "tests" / "data"
COMPONENTS = ("href", "origin", "protocol", "username", "password", "host", "hostname", "port",
              "pathname", "search", "hash")


def _cases(name: str) -> list[dict]:
    return [c for c in json.loads((DATA / "wpt" / name).read_text("utf-8")) if isinstance(c, dict)]


def _url_case(URL, case: dict) -> bool:
    try:
        url = URL(case["input"], case.get("base"))
    except engine.Failure:
        return bool(case.get("failure"))
    return not case.get("failure") and all(getattr(url, k) == case[k] for k in COMPONENTS if k in case)


def _setter_case(URL, setter: str, case: dict) -> bool:
    url = URL(case["href"])
    setattr(url, setter, case["new_value"])
    return all(getattr(url, k) == v for k, v in case["expected"].items())


def _host_case(URL, case: dict) -> bool:
    try:
        url = URL("https://" + case["input"] + "/x")
    except engine.Failure:
        return case["output"] is None
    return (url.host, url.hostname, url.pathname) == (case["output"], case["output"], "/x")


def _percent_case(basic_url_parse, encoding: str, case: dict) -> bool:
    url = basic_url_parse("https://doesnotmatter.invalid/?" + case["input"] + "#" + case["input"], encoding=encoding)
    return url.query == case["output"][encoding] and url.fragment == case["output"]["utf-8"]


def _psl_cases() -> list[tuple]:
    line = re.compile(r"checkPublicSuffix\((null|'[^']*'), (null|'[^']*')\);")
    out = []
    for text in (DATA / "psl" / "test_psl.txt").read_text("utf-8").splitlines():
        m = line.fullmatch(text.strip())
        if m:
            out.append(tuple(None if x == "null" else x[1:-1] for x in m.groups()))
    return out


def _psl_case(domain, expected) -> bool:
    try:
        host = None if domain is None else engine.parse_host(domain)
    except engine.Failure:
        host = None
    return engine.registrable_domain(host) == (None if expected is None else engine.domain_to_ascii(expected))


def _results(URL, basic_url_parse) -> list[tuple[str, list[bool] | None]]:
    """Each row's results on one parser (None for a row that runs no URL parser)."""
    setters = json.loads((DATA / "wpt" / "setters_tests.json").read_text("utf-8"))
    return [
        ("WPT `urltestdata.json`", [_url_case(URL, c) for c in _cases("urltestdata.json")]),
        ("WPT `urltestdata-javascript-only.json`",
         [_url_case(URL, c) for c in _cases("urltestdata-javascript-only.json")]),
        ("WPT `setters_tests.json`",
         [_setter_case(URL, s, c) for s, cs in setters.items() if s != "comment" for c in cs]),
        ("WPT `toascii.json` (through `URL`)", [_host_case(URL, c) for c in _cases("toascii.json")]),
        ("WPT `IdnaTestV2.json` (through `URL`, empty input skipped as WPT does)",
         [_host_case(URL, c) for c in _cases("IdnaTestV2.json") if c["input"]]),
        ("WPT `percent-encoding.json` (encoding, input) pairs",
         [_percent_case(basic_url_parse, e, c) for c in _cases("percent-encoding.json") for e in c["output"]]),
        ("PSL `test_psl.txt` (with the null input)",
         [_psl_case(d, e) for d, e in _psl_cases()] if URL is engine.URL else None),
    ]


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
