"""The vendored conformance data (WPT's URL tests, the PSL's test file), case by case.

https://github.com/web-platform-tests/wpt/tree/master/url/resources

Each suite is a list of cases and a function that runs one case through a parser (the URL API
class and the basic URL parser: the engine's, or its reference parser's) as WPT's harness (or
the PSL's test file) does and says whether it passed. ``scripts/conformance.py`` counts them for
the README's table, on both parsers; ``urlwb.mutation.killsuite`` runs them first against each mutant of
the engine, stopping at the first case that fails.
"""

from __future__ import annotations

import json
import pathlib
import re
from collections.abc import Callable

import engine

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"
COMPONENTS = ("href", "origin", "protocol", "username", "password", "host", "hostname", "port",
              "pathname", "search", "hash")


def wpt_cases(name: str) -> list[dict]:
    """The test objects of a vendored WPT JSON file (its strings are comments)."""
    return [c for c in json.loads((DATA / "wpt" / name).read_text("utf-8")) if isinstance(c, dict)]


def url_case(case: dict, URL=engine.URL, basic_url_parse=None) -> bool:
    try:
        url = URL(case["input"], case.get("base"))
    except engine.Failure:
        return bool(case.get("failure"))
    return not case.get("failure") and all(getattr(url, k) == case[k] for k in COMPONENTS if k in case)


def setter_case(case: tuple[str, dict], URL=engine.URL, basic_url_parse=None) -> bool:
    setter, case = case
    url = URL(case["href"])
    setattr(url, setter, case["new_value"])
    return all(getattr(url, k) == v for k, v in case["expected"].items())


def host_case(case: dict, URL=engine.URL, basic_url_parse=None) -> bool:
    try:
        url = URL("https://" + case["input"] + "/x")
    except engine.Failure:
        return case["output"] is None
    return (url.host, url.hostname, url.pathname) == (case["output"], case["output"], "/x")


def percent_case(case: tuple[str, dict], URL=None, basic_url_parse=engine.basic_url_parse) -> bool:
    encoding, case = case
    url = basic_url_parse("https://doesnotmatter.invalid/?" + case["input"] + "#" + case["input"],
                          encoding=encoding)
    return url.query == case["output"][encoding] and url.fragment == case["output"]["utf-8"]


def psl_cases() -> list[tuple]:
    line = re.compile(r"checkPublicSuffix\((null|'[^']*'), (null|'[^']*')\);")
    out = []
    for text in (DATA / "psl" / "test_psl.txt").read_text("utf-8").splitlines():
        m = line.fullmatch(text.strip())
        if m:
            out.append(tuple(None if x == "null" else x[1:-1] for x in m.groups()))
    return out


def psl_case(case: tuple, URL=None, basic_url_parse=None) -> bool:
    """(No URL parser: the engine's host parser and public suffix list.)"""
    domain, expected = case
    try:
        host = None if domain is None else engine.parse_host(domain)
    except engine.Failure:
        host = None
    return engine.registrable_domain(host) == (None if expected is None else engine.domain_to_ascii(expected))


def _setter_cases() -> list[tuple[str, dict]]:
    setters = json.loads((DATA / "wpt" / "setters_tests.json").read_text("utf-8"))
    return [(s, c) for s, cs in setters.items() if s != "comment" for c in cs]


#: (key, the README's title, the cases, the check of one case given a parser's URL class and basic
#: URL parser), in the README's order; test_psl runs no URL parser.
SUITES: list[tuple[str, str, Callable[[], list], Callable[..., bool]]] = [
    ("urltestdata", "WPT `urltestdata.json`", lambda: wpt_cases("urltestdata.json"), url_case),
    ("urltestdata-javascript-only", "WPT `urltestdata-javascript-only.json`",
     lambda: wpt_cases("urltestdata-javascript-only.json"), url_case),
    ("setters", "WPT `setters_tests.json`", _setter_cases, setter_case),
    ("toascii", "WPT `toascii.json` (through `URL`)", lambda: wpt_cases("toascii.json"), host_case),
    ("IdnaTestV2", "WPT `IdnaTestV2.json` (through `URL`, empty input skipped as WPT does)",
     lambda: [c for c in wpt_cases("IdnaTestV2.json") if c["input"]], host_case),
    ("percent-encoding", "WPT `percent-encoding.json` (encoding, input) pairs",
     lambda: [(e, c) for c in wpt_cases("percent-encoding.json") for e in c["output"]], percent_case),
    ("test_psl", "PSL `test_psl.txt` (with the null input)", psl_cases, psl_case),
]
