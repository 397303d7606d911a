"""The reference parser (engine/reference/) is the Standard's basic URL parser as written: every
state by its name, one function each, dispatched by name, each step findable by its number.

https://url.spec.whatwg.org/#concept-basic-url-parser
"""

from __future__ import annotations

import ast
import inspect
import re

import pytest

import engine
from engine.reference import STATE_MACHINE, basic_url_parse, url_parser

SOURCE = inspect.getsource(url_parser)


def test_every_state_of_the_standard_has_its_function():
    """The table names the Standard's 21 states (those engine.url names, for state override)."""
    assert set(STATE_MACHINE) == set(engine.url.STATES)
    for name, function in STATE_MACHINE.items():
        expected = "host_state" if name == "hostname state" else name.replace(" ", "_")
        assert function.__name__ == expected, name


def test_every_state_set_is_in_the_table():
    """A state is set by its name: each name set in the source is one the table dispatches."""
    names = {name for line in SOURCE.splitlines() if re.search(r"\bp\.state\b.* = ", line)
             for name in re.findall(r'"([a-z ]+ state)"', line)}
    # Every state but those a parse starts in only (scheme start; hostname, by state override).
    assert names == set(STATE_MACHINE) - {"scheme start state", "hostname state"}


@pytest.mark.parametrize("name", [n for n in STATE_MACHINE if n != "hostname state"])
def test_each_state_reads_beside_the_standard(name):
    """Its docstring is its anchor, its steps are numbered "<state>, step N", and it fits on about
    one screen."""
    function = STATE_MACHINE[name]
    assert function.__doc__.startswith("https://url.spec.whatwg.org/#")
    source = inspect.getsource(function)
    assert f"# {name}, step 1" in source, f"{name}: no '{name}, step 1' comment"
    assert len(source.splitlines()) <= 75, f"{name}: {len(source.splitlines())} lines"


def test_the_reference_imports_no_fast_parser():
    """It shares the URL record with engine.url, and nothing else of it."""
    tree = ast.parse(SOURCE)
    from_url = [alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                and node.module == "url" for alias in node.names]
    assert from_url == ["URLRecord"]


@pytest.mark.parametrize("input", ["", " ", "\x00", "a:", ":", "//", "\ud800", "\U0010ffff",
                                   "http://[", "http://a:99999999999999999999999999", "file:" + "/" * 50])
def test_never_anything_but_failure(input):
    for base in (None, basic_url_parse("http://h/p"), basic_url_parse("file:///C:/"),
                 basic_url_parse("sc:opaque")):
        try:
            basic_url_parse(input, base, errors=[])
        except engine.Failure:
            pass


def test_state_override_needs_its_url():
    with pytest.raises(TypeError):
        basic_url_parse("x", state_override="host state")
    url = basic_url_parse("http://h/")
    with pytest.raises(TypeError, match="set it to ''"):
        basic_url_parse("q", url=url, state_override="query state")
