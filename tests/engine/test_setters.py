"""URL API setters: WPT's setters_tests.json, on the fast parser (``engine.URL``) and on the
reference parser (``engine.reference.ReferenceURL``: the same setters, run with the reference's
state overrides).

https://url.spec.whatwg.org/#api
"""

from __future__ import annotations

import json

import pytest

from wpt_data import DATA, URL_CLASSES

with open(DATA / "wpt" / "setters_tests.json", encoding="utf-8") as f:
    _DATA = json.load(f)
CASES = [(setter, case) for setter, cases in _DATA.items() if setter != "comment" for case in cases]


@pytest.mark.parametrize("parser", URL_CLASSES)
@pytest.mark.parametrize(
    "setter,case", CASES, ids=[f"{s}:{c['href']!r}<-{c['new_value']!r}" for s, c in CASES]
)
def test_setter(setter, case, parser):
    url = URL_CLASSES[parser](case["href"])
    setattr(url, setter, case["new_value"])
    for name, expected in case["expected"].items():
        assert getattr(url, name) == expected, name
