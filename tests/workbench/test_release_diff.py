"""What changed between two releases of a user's package, found by ``urlwb diff`` with no
witness typed (issue 36): a planted npm package whose two releases differ only where the
authority holds several '@' (1.0.0 reads the host after the first, 2.0.0 after the last), served
from a local registry (``local_registries.py``), asked with ``--generate`` alone.

What each check kills:
- "changed between 1.0.0 and 2.0.0" with a multi-@ witness: a diff that judges each release
  alone against the engine (the release pair's findings removed from ``write_findings``: no
  record holds an input on which the releases disagree, and the test fails);
- the witness shrunk (``http://user:pass@good.example:8080@evil.example/a/b?q#f`` to a dozen
  code points at most) and the spelling families grown from one witness: :func:`releases.shrink`
  and the rounds of :func:`releases.grow` removed, each (both tests failed);
- the judgement by the contract: :func:`releases.judgement` on planted readings (fixed,
  regressed, neither).
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from local_registries import npm_served
from urlwb import cli, oracles
from urlwb.differential import releases
from urlwb.oracles import Record

from test_installs import ADAPTERS, NPM_HOST, config, npm_registry, project, shared_cache  # noqa: F401 (fixtures)

needs_node = pytest.mark.skipif(shutil.which("npm") is None, reason="needs node and npm (make oracles installs them)")


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    releases = {v: {"index.js": NPM_HOST % {"version": v, "rule": rule}} for v, rule in (("1.0.0", "first"), ("2.0.0", "last"))}
    with npm_served(tmp_path_factory.mktemp("npm-registry"), "urlwb-planted-host", releases) as served:
        yield served


@needs_node
def test_diff_of_two_releases_reports_what_changed_with_no_witness_typed(project, registry, tmp_path, capsys):
    config(project, {"planted-host": {"command": f"node {ADAPTERS / 'npm_adapter.js'}",
                                      "package": "npm:urlwb-planted-host", "registry": registry.url}})
    out = tmp_path / "diff"
    status = cli.main(["diff", "--parsers", "planted-host@1.0.0,planted-host@2.0.0", "--generate", "1500",
                       "--seed", "1", "--no-reparse", "--no-hosts", "--out", str(out)])
    said = capsys.readouterr().out
    assert status == 0, said
    assert "changed between 1.0.0 and 2.0.0" in said, said
    assert "changed between 1.0.0 and 2.0.0" in (out / "report.md").read_text()   # the report says it too
    found = [json.loads(line) for line in (out / "findings.jsonl").read_text().splitlines()]
    changed = [r for r in found if r["rule"].startswith("changed")]
    assert changed, [r["signature"] for r in found]
    first = changed[0]
    assert first["change"]["between"] == ["planted-host@1.0.0", "planted-host@2.0.0"]
    assert first["change"]["judgement"] == "changed, neither side breaks the contract"
    # the witness holds two '@' in its authority, and the releases read two hosts from it
    authority = first["input"].split("//", 1)[1].split("/")[0]
    assert authority.count("@") >= 2, first["input"]
    assert first["change"]["a"] != first["change"]["b"]
    # shrunk: the shortest spelling of "several @" the generator's alphabet allows is short (the
    # record's own witness is the shortest on which both releases read a host, in its family)
    assert min(len(w["input"]) for w in first["witnesses"]) <= 12, first["witnesses"]
    assert all(w["input"] for w in first["witnesses"])
    assert first["command"].startswith(f"cd {project} && urlwb diff ")   # where urlwb.toml declares it
    assert "planted-host@1.0.0,planted-host@2.0.0" in first["command"]


def _rec(host: str | None, failure: bool = False) -> Record:
    if failure:
        return Record(True)
    return Record(False, "http", "", "", host, None, "/", None, None, f"http://{host}/")


@pytest.mark.parametrize("parser, a, b, expected", [
    ("ada_url", _rec("good.example"), _rec("evil.example"), releases.FIXED),
    ("ada_url", _rec("evil.example"), _rec("good.example"), releases.REGRESSED),
    ("urllib", _rec("good.example"), _rec(None, failure=True), releases.NEITHER),
])
def test_a_change_is_judged_by_the_package_s_contract(parser, a, b, expected):
    """Two releases' readings of ``http://a@good.example@evil.example/`` beside the Standard's
    (host evil.example): for a WHATWG parser the release that reads good.example breaks its
    contract; for an RFC 3986 one (urllib) the input is no URI, so neither reading breaks it."""
    name_a, name_b = f"{parser}@1", f"{parser}@2"
    for n in (name_a, name_b):
        oracles.REGISTRY[n] = oracles.REGISTRY[parser]
    try:
        changes = releases.Changes(name_a, name_b, "engine")
        text = "http://a@good.example@evil.example/"
        w = releases._witness(text, None, a, b, _rec("evil.example"), parser == "urllib", "generated")
        kind, _, _ = releases.judgement(changes, w)
        assert kind == expected
    finally:
        for n in (name_a, name_b):
            del oracles.REGISTRY[n]


class _Planted:
    """Two releases as functions (the host after the first '@', then after the last), asked as
    :class:`releases.Asker` asks the real ones."""

    def __init__(self, a: str, b: str):
        self.names = {a: "first", b: "last"}

    @staticmethod
    def host(s: str, rule: str) -> Record:
        auth = (s.split("//", 1)[1] if "//" in s else s).split("/")[0]
        host = auth.split("@", 1)[-1] if rule == "first" else auth.rsplit("@", 1)[-1]
        return Record(False, "http", "", "", host, None, "/", None, None, s)

    def ask(self, cases):
        return {n: [self.host(i, rule) for i, _ in cases] for n, rule in self.names.items()}


@pytest.fixture
def planted_pair():
    a, b = "urllib@1", "urllib@2"
    for n in (a, b):
        oracles.REGISTRY[n] = oracles.REGISTRY["urllib"]
    yield a, b, _Planted(a, b)
    for n in (a, b):
        del oracles.REGISTRY[n]


def test_shrink_keeps_the_change_on_a_shorter_witness(planted_pair):
    a, b, asker = planted_pair
    changes = releases.Changes(a, b, None)
    text = "http://user:pass@good.example:8080@evil.example/a/b?q#f"
    changes.from_answers([(text, None)], asker.ask([(text, None)]), "generated")
    releases.shrink(changes, asker)
    (w,) = changes.best.values()
    assert len(w.input) <= 12 and w.input.count("@") >= 2, w.input
    assert w.how == "shrunk"


def test_growth_reaches_spelling_families_the_first_witness_did_not(planted_pair):
    import random

    a, b, asker = planted_pair
    changes = releases.Changes(a, b, None)
    text = "http://a@b@evil.example/"
    changes.from_answers([(text, None)], asker.ask([(text, None)]), "generated")
    releases.grow(changes, asker, random.Random(1))
    assert len(changes.best) > 3, list(changes.best)
    assert any(w.how == "grown" for w in changes.best.values())


def test_a_validator_release_that_accepts_a_newline_is_the_one_fixed(monkeypatch):
    """Django 3.2 -> 3.2.2's shape: the older release of a validator declaring RFC 3986 accepts
    an input with a newline, the newer rejects it; the Standard removes the newline and agrees
    with the older, so only the validator's contract tells which release is right."""
    from urlwb.oracles import contracts

    a, b = "urllib@1", "urllib@2"
    for n in (a, b):
        oracles.REGISTRY[n] = oracles.REGISTRY["urllib"]
    said = contracts.Contract("urllib", "validator", "rfc3986", None)
    monkeypatch.setattr(contracts, "describe", lambda name: type("P", (), {"contract": said})())
    try:
        text = "http://example.com/\n"
        w = releases._witness(text, None, _rec("example.com"), _rec(None, failure=True), _rec("example.com"),
                              True, "generated")
        kind, va, _ = releases.judgement(releases.Changes(a, b, "engine"), w)
        assert kind == releases.FIXED and va["cause"] == "accepts-no-uri"
    finally:
        for n in (a, b):
            del oracles.REGISTRY[n]


@needs_node
def test_bisect_generate_finds_the_release_that_changed_with_no_input_typed(project, npm_registry, tmp_path, capsys):
    """The planted package's four releases (the host after the first '@' up to 1.1.0, after the
    last from 1.2.0): ``bisect --generate`` asks 1.0.0 and 2.0.0 generated inputs, takes the
    shortest witness of what changed, and bisects it to 1.1.0 -> 1.2.0. Killed by a bisect that
    needs its INPUT (usage error, exit 2)."""
    config(project, {"planted-host": {"command": f"node {ADAPTERS / 'npm_adapter.js'}",
                                      "package": "npm:urlwb-planted-host", "registry": npm_registry.url}})
    status = cli.main(["bisect", "planted-host", "--generate", "1500", "--seed", "1", "--witnesses", "1",
                       "--out", str(tmp_path / "bisect")])
    out = capsys.readouterr().out
    assert status == 0, out
    rep = json.loads((tmp_path / "bisect" / "witness-1" / "planted-host" / "bisect.json").read_text())
    authority = rep["input"].split("//", 1)[1].split("/")[0]
    assert authority.count("@") >= 2, rep["input"]
    assert [(r["first"], r["last"]) for r in rep["ranges"]] == [("1.0.0", "1.1.0"), ("1.2.0", "2.0.0")], rep["ranges"]


@pytest.mark.parametrize("names, pairs", [
    (["engine", "url-parse@1.4.0", "url-parse"], [("url-parse@1.4.0", "url-parse")]),
    (["x@1", "x@2", "x@3"], [("x@1", "x@2"), ("x@2", "x@3")]),
    (["engine", "ada_url", "url-parse@1.4.0"], []),
    (["engine", "ada_url"], []),
])
def test_the_release_pairs_are_two_readers_of_one_package(names, pairs):
    assert releases.release_pairs(names) == pairs


class _TabValidator(_Planted):
    """Django 3.2 -> 3.2.2's shape: both accept an http URL with a host; the newer refuses a tab."""

    def ask(self, cases):
        out = {}
        for n, rule in self.names.items():
            recs = []
            for s, _ in cases:
                ok = re.match(r"http://\w", s) is not None and (rule == "first" or "\t" not in s)
                recs.append(self.host(s, rule) if ok else Record(True))
            out[n] = recs
        return out


def test_shrink_brings_a_cause_the_classes_split_back_to_what_the_change_needs(planted_pair):
    """A tab beside a backslash, an IDNA dot and an '@' is classified by its first ingredient
    (the backslash); shrunk while the releases part the same way, it is the tab alone. Killed by
    a shrink that keeps the class, cause and family of the witness it started from."""
    a, b, _ = planted_pair
    asker = _TabValidator(a, b)
    changes = releases.Changes(a, b, None)
    text = "http://evil\uff0ecom?@example.com\\foo\tbar"
    changes.from_answers([(text, None)], asker.ask([(text, None)]), "generated")
    assert [w.cause for w in changes.best.values()] == ["backslash"]
    releases.shrink(changes, asker)
    (w,) = changes.best.values()
    assert (w.cls, w.cause) == ("accept-reject", "whitespace") and "\t" in w.input and len(w.input) <= 10, w


class _DiesOnBang:
    """An adapter that dies on '!' and is given up there: the rest of its batch goes unanswered."""

    supports_base = False

    def __init__(self):
        self.sup = type("Sup", (), {"given_up": None})()

    def parse_many(self, items):
        out = []
        for text, _ in items:
            if self.sup.given_up:
                out.append(None)
            elif "!" in text:
                self.sup.given_up = "given up after 3 restarts"
                out.append(Record(False, crash="died"))
            else:
                out.append(_rec("h"))
        return out


def test_a_release_given_up_is_started_again_and_asked_the_rest(monkeypatch):
    """The Django example adapter dies on Django's TypeError and is given up: the release
    differential starts it again and asks what it left, so that growing and shrinking go on.
    Killed by an Asker that does not start it again (b and c not applicable)."""
    monkeypatch.setattr(oracles, "load", lambda names: ({n: _DiesOnBang() for n in names}, {}))
    monkeypatch.setattr(oracles, "close_all", lambda loaded: None)
    asker = releases.Asker(["x@1"])
    got = asker.ask([("a", None), ("!", None), ("b", None), ("c", None)])["x@1"]
    assert [r.crash if r is not None else None for r in got] == [None, "died", None, None]
    assert all(r is not None for r in got)
