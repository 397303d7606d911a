"""Adding a parser is one card and its adapter: a planted parser declared by one
``[tool.urlwb.oracles.planted]`` card in a temporary folder's ``urlwb.toml`` gets ``diff`` (its
card's known deviation tagged), ``verdict``, ``reach`` (the card's modules measured, not the
adapter), ``hunt`` (the card's modules instrumented), ``list --drafts`` (the card's reproducer
template) and ``export tests`` (the card's suite template) with no list of the workbench's naming it."""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest

from urlwb import oracles
from urlwb.hunt import targets as hunt_targets

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: the parser: a small RFC 3986-ish splitter with a documented deviation (it rejects an xn-- label)
LIB = '''
"""planted_lib: splits a URL the way a small hand-written parser would."""


def split(text):
    scheme, sep, rest = text.partition(":")
    if not sep or not scheme.isalpha():
        raise ValueError("no scheme")
    host, path = None, rest
    if rest.startswith("//"):
        authority, slash, tail = rest[2:].partition("/")
        host, path = authority.lower(), slash + tail
        if any(label.startswith("xn--") for label in host.split(".")):
            raise ValueError("an xn-- label")
    path, _, fragment = path.partition("#")
    path, q, query = path.partition("?")
    return scheme.lower(), host, path, (query if q else None), fragment or None
'''

ADAPTER = '''
"""The adapter: planted_lib's answer in the protocol's fields."""
import planted_lib

family = "other"
base = False


def parse(input, base=None):
    scheme, host, path, query, fragment = planted_lib.split(input)
    return {"scheme": scheme, "username": None, "password": None, "host": host, "port": None,
            "path": path, "query": query, "fragment": fragment, "href": None}
'''

CARD = '''
[tool.urlwb.oracles.planted]
command = "py:planted_adapter:parse"
family = "other"
spec = "whatwg"
docs = "https://example.org/planted_lib"

[tool.urlwb.oracles.planted.reproducer]
template = "python"
import = "import planted_lib"
parse = "planted_lib.split({input})"
show = ["u"]
needs = "planted_lib.py beside it"

[tool.urlwb.oracles.planted.export]
lang = "python"
template = "py-adapter"
package = "planted_adapter:parse"
rejects = "planted_lib.split raises ValueError"
takes_base = false

[tool.urlwb.oracles.planted.reach]
tool = "python"
code = ["planted_lib"]

[tool.urlwb.oracles.planted.hunt]
language = "python"
instrument = ["planted_lib"]

[[tool.urlwb.oracles.planted.deviations]]
when = "ascii_xn_domain"
reason = "planted_lib rejects an xn-- label (its documented limit)"
'''


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "planted_lib.py").write_text(textwrap.dedent(LIB), encoding="utf-8")
    (tmp_path / "planted_adapter.py").write_text(textwrap.dedent(ADAPTER), encoding="utf-8")
    (tmp_path / "urlwb.toml").write_text(textwrap.dedent(CARD), encoding="utf-8")
    return tmp_path


def urlwb(folder: pathlib.Path, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}
    return subprocess.run([sys.executable, "-m", "urlwb.cli", *argv], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=600)


def test_diff_tags_the_cards_known_deviation(folder):
    r = urlwb(folder, "diff", "--parsers", "engine,planted", "https://xn--/", "http://a/b?q")
    assert r.returncode in (0, 1), r.stdout[-2000:] + r.stderr[-2000:]
    assert "planted_lib rejects an xn-- label (its documented limit)" in r.stdout, r.stdout[-3000:]


def test_list_drafts_writes_the_reproducer_its_card_names(folder):
    r = urlwb(folder, "diff", "--parsers", "engine,planted", "http://a\\b/")
    assert "1 bugs" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    r = urlwb(folder, "list", "--from", "reports/diff", "--parser", "planted", "--drafts", "drafts")
    assert r.returncode == 0 and "drafts: 1 in drafts" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    (repro,) = (folder / "drafts").glob("*/repro.py")
    assert repro.read_text(encoding="utf-8").startswith("import planted_lib\nu = planted_lib.split('http://a\\\\b/')\n")
    ran = subprocess.run([sys.executable, repro.name], cwd=repro.parent, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(folder)}, timeout=60)
    assert ran.stdout == "('http', 'a\\\\b', '/', None, None)\n", ran.stdout + ran.stderr


def test_export_tests_writes_a_suite_that_fails_on_the_bug(folder):
    r = urlwb(folder, "diff", "--parsers", "engine,planted", "http://a\\b/")
    assert "1 bugs" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    r = urlwb(folder, "export", "tests", "planted", "--lang", "python", "--findings", "reports/diff",
              "--no-corpus", "--out", "suite")
    assert r.returncode == 0 and "wrote 1 test for planted (python)" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_planted_findings.py"],
                         cwd=folder / "suite", capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(folder)})
    # the suite asserts the Standard's reading (the card's spec), which planted_lib misses
    assert "1 failed" in ran.stdout and "{'host': 'a'," in ran.stdout, ran.stdout[-2000:]


def test_verdict_judges_it(folder):
    r = urlwb(folder, "verdict", "http://a\\b/", "--parsers", "planted")
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]   # a bug: exit status 1 (docs/cli.md)
    said = json.loads(r.stdout[r.stdout.index("{"):])
    assert said["parser"] == "planted"


def test_reach_measures_the_modules_its_card_names(folder):
    r = urlwb(folder, "reach", "--parsers", "planted", "--generate", "50", "--out", str(folder / "reach"))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    text = "\n".join(p.read_text(encoding="utf-8") for p in (folder / "reach").rglob("*") if p.is_file())
    assert "planted_lib.py" in text and "planted_adapter.py" not in text


def test_hunt_instruments_the_modules_its_card_names(folder, monkeypatch):
    monkeypatch.chdir(folder)
    monkeypatch.syspath_prepend(str(folder))
    before = dict(oracles.REGISTRY)
    try:
        oracles.configure([], cwd=folder)
        target = hunt_targets.resolve("planted")
        assert (target.language, target.instrument) == ("python", ("planted_lib",))
        assert "planted" in hunt_targets.huntable()
    finally:
        oracles.REGISTRY.clear()
        oracles.REGISTRY.update(before)


def test_hunt_runs_it_from_urlwb_toml(folder):
    # the fuzzing child reads no config: the card's py: adapter is declared to it by flag
    r = urlwb(folder, "hunt", "planted", "--minutes", "0.2", "--executions", "300", "--seed", "1",
              "--no-reach", "--out", str(folder / "hunt"))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = r.stdout + r.stderr
    assert "(python, guided by planted_lib)" in out
    # a child that cannot start the parser runs nothing (and the hunt still exits 0)
    ran = re.search(r"urlwb hunt planted: ([\d,]+) executions", out)
    assert ran and int(ran.group(1).replace(",", "")) > 0, out[-2000:]
