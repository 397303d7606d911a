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
    """It shares the URL record (engine.record) with the fast parser, and imports nothing of the
    fast parser itself (engine.url, engine.fast_path). (import-linter's contracts, run by
    tests/test_layers.py, say the same of every module it reaches.)"""
    tree = ast.parse(SOURCE)
    imported = {node.module: [alias.name for alias in node.names] for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.level == 2}
    assert imported["record"] == ["URLRecord"]
    assert not {"url", "fast_path"} & set(imported)


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


def test_every_state_has_numbered_steps_each_on_a_line_of_code():
    """``urlwb coverage``'s view: each state's steps, each governing a statement of the
    reference (the first statement of a branch, for a conditional step)."""
    from urlwb.measure import reference_steps

    states, steps = reference_steps.states_and_steps()
    assert [s.name for s in states] == [n for n in STATE_MACHINE if n != "hostname state"]
    lines = SOURCE.splitlines()
    for state in states:
        numbers = [s.number for s in steps if s.state == state.name]
        assert "1" in numbers and len(numbers) >= 2, state.name
    for step in steps:
        code = lines[step.line - 1].strip()
        assert code and not code.startswith(("#", "elif ", "else")), (step, code)


def test_the_coverage_view_says_which_steps_an_input_reaches(tmp_path):
    """Parsing "http://a/b" (and nothing else) reaches the path state's step 2.3 (a code point
    appended to buffer), but not its step 1.2 (a double-dot segment), nor the file host state."""
    import subprocess
    import sys

    from urlwb.measure import reference_steps

    script = tmp_path / "parse.py"
    script.write_text("import engine.reference\nengine.reference.basic_url_parse('http://a/b')\n")
    data = tmp_path / "cov.data"
    subprocess.run([sys.executable, "-m", "coverage", "run", f"--data-file={data}",
                    f"--rcfile={reference_steps.corpus_store.ROOT / 'pyproject.toml'}", str(script)],
                   check=True, cwd=reference_steps.corpus_store.ROOT)
    report = reference_steps.report(data)
    assert "path state, step 1.2 " in report and "path state, step 2.3 " not in report
    assert "file host state" in report.split("states never entered")[1].splitlines()[0]
