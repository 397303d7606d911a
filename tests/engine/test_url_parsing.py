"""URL parsing: WPT's urltestdata.json (and the lone-surrogate cases), through ``engine.URL``
and through the same API on the reference parser (``engine.reference.ReferenceURL``).

https://url.spec.whatwg.org/#url-parsing
"""

from __future__ import annotations

import pytest

import engine
from wpt_data import PARSERS, SERIALIZERS, URL_CLASSES, load_wpt

CASES = load_wpt("urltestdata.json") + load_wpt("urltestdata-javascript-only.json")
COMPONENTS = ("href", "origin", "protocol", "username", "password", "host", "hostname", "port",
              "pathname", "search", "hash")


def test_every_case_is_here():
    assert len(load_wpt("urltestdata.json")) == 891


@pytest.mark.parametrize("parser", URL_CLASSES)
@pytest.mark.parametrize("case", CASES, ids=[f"{c['input']!r} base={c.get('base')!r}" for c in CASES])
def test_urltestdata(case, parser):
    URL = URL_CLASSES[parser]
    if case.get("failure"):
        with pytest.raises(engine.Failure):
            URL(case["input"], case.get("base"))
        assert URL.parse(case["input"], case.get("base")) is None
        assert not URL.can_parse(case["input"], case.get("base"))
        return
    url = URL(case["input"], case.get("base"))
    for name in COMPONENTS:
        if name in case:
            assert getattr(url, name) == case[name], name
    if "searchParams" in case:
        assert str(url.search_params) == case["searchParams"]
    assert URL.can_parse(case["input"], case.get("base"))


@pytest.mark.parametrize("parser", PARSERS)
def test_state_overrides_are_the_setters_states(parser):
    """The parser takes as state override the seven states the API's setters give, by object or
    by name; any other state is a TypeError (it runs those states only at the start of a parse)."""
    basic_url_parse, serialize_url = PARSERS[parser], SERIALIZERS[parser]
    url = basic_url_parse("http://h/p")
    url.query = ""  # (as the search setter does: the query state appends to it)
    basic_url_parse("q=1", url=url, state_override="query state")
    assert serialize_url(url) == "http://h/p?q=1"
    basic_url_parse("h2", url=url, state_override=engine.url.STATES["host state"])
    assert serialize_url(url) == "http://h2/p?q=1"
    for name in ("no scheme state", "path state", "file state", "authority state", "no such state"):
        with pytest.raises(TypeError, match="state override"):
            basic_url_parse("x", url=basic_url_parse("http://h/"), state_override=name)


def test_fast_path_dot_segment_search_is_the_sets():
    """The fast path finds a dot segment with one search: it answers as splitting the path and
    looking each segment up in the Standard's single- and double-dot sets, on every path of up to
    six pieces of "/", ".", "%2e", "%2E", "a", "%"."""
    import itertools

    from engine.fast_path import _dot_segment
    from engine.url import _DOT_SEGMENTS

    for k in range(1, 7):
        for pieces in itertools.product(["/", ".", "%2e", "%2E", "a", "%"], repeat=k):
            path = "/" + "".join(pieces)
            by_sets = not _DOT_SEGMENTS.keys().isdisjoint(path.split("/"))
            assert (_dot_segment(path) is not None) is by_sets, path
