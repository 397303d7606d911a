"""URL API setters: WPT's setters_tests.json.

https://url.spec.whatwg.org/#api
"""

from __future__ import annotations

import json

import pytest

import engine
from conftest import DATA

with open(DATA / "wpt" / "setters_tests.json", encoding="utf-8") as f:
    _DATA = json.load(f)
CASES = [(setter, case) for setter, cases in _DATA.items() if setter != "comment" for case in cases]


@pytest.mark.parametrize(
    "setter,case", CASES, ids=[f"{s}:{c['href']!r}<-{c['new_value']!r}" for s, c in CASES]
)
def test_setter(setter, case):
    url = engine.URL(case["href"])
    setattr(url, setter, case["new_value"])
    for name, expected in case["expected"].items():
        assert getattr(url, name) == expected, name
