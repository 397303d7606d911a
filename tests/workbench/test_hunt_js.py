"""``urlwb hunt`` on JavaScript parsers: V8 block coverage (``urlwb/hunt/js_fuzz.py`` with
``urlwb/hunt/js/cover.cjs`` preloaded) guides a hunt in a user's npm adapter and in ``url-parse``.

Power: the planted npm parser (``planted_npm_parser/``: a user's adapter, ``node adapter.mjs``)
reads the host ``evil.example`` on inputs holding eight '!' or more, each count a block of its
own; WPT's and the generator's inputs hold two at most, so they show no signature; 6,000
executions guided by the parser's coverage reach it and file it, and the same executions with
the coverage read in a folder that holds none of the parser's code keep and find nothing.
"""

from __future__ import annotations

import pathlib
import shutil

import pytest

from urlwb.hunt import seeds
from test_hunt import hunt   # the child-process runner, with a temporary work folder and corpus

HERE = pathlib.Path(__file__).resolve().parent
ADAPTER = HERE / "planted_npm_parser" / "adapter.mjs"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs node (make oracles installs it)")
PLANTED = ("--oracle", f"planted-npm=node {ADAPTER}", "--minutes", "2", "--executions", "6000",
           "--generate", "300", "--every-seconds", "2", "--no-distill", "--no-reach")


@needs_node
def test_the_planted_npm_bug_is_found_by_guidance(tmp_path):
    assert max(t.count("!") for t in seeds.seed_inputs(300, 0)) < 8
    s = hunt(tmp_path, "planted-npm", *PLANTED)
    assert s["language"] == "js"
    assert s["cov_end"] > s["cov_start"] and s["kept"] >= 6
    new = [f for f in s["findings"] if f["new"]]
    assert new and all(f["input"].count("!") >= 8 for f in new), s["findings"]
    assert new[0]["minimized"].count("!") >= 8 and pathlib.Path(new[0]["filed"]).exists()


@needs_node
def test_without_the_parser_s_coverage_nothing_is_found(tmp_path):
    empty = tmp_path / "nothing-here"
    empty.mkdir()
    s = hunt(tmp_path, "planted-npm", *PLANTED, "--instrument", str(empty))
    assert s["execs"] == 6000 and s["kept"] == 0 and s["findings"] == []


@needs_node
def test_url_parse_is_hunted_in_its_own_scripts(tmp_path):
    # the executions end it (about 10 s); the minute is a ceiling a loaded machine does not reach
    # (0.2 minutes gave 993 and 1,284 of the 1,500 at load 12-16)
    s = hunt(tmp_path, "url-parse", "--minutes", "1", "--executions", "1500", "--generate", "100",
             "--every-seconds", "2", "--no-distill")
    assert s["language"] == "js" and s["execs"] == 1500
    assert s["instrument"][0] == "node_modules/url-parse" and s["cov_start"] > 50
    assert "V8 block ranges" in s["reach_hunted"]
