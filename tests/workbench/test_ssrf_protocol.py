"""The protocol's kind ``validator`` (docs/oracle-protocol.md, "Validators"): a validator that
crashes, hangs or answers out of schema is a finding on that input and the run goes on; the
``py:`` contract (bool; ValueError denies; anything else is a crash)."""

from __future__ import annotations

import pathlib
import sys

import pytest

from urlwb import oracles
from urlwb.oracles import manifests, protocol
from urlwb.ssrf import catalog
from urlwb.ssrf.validator import CallableValidator, SubprocessValidator, validator_answer

BROKEN = pathlib.Path(__file__).with_name("broken_validator.py")
INPUTS = [f"http://h{i}.example/" for i in range(40)]


def start(*modes, deadline=2.0, max_restarts=5) -> SubprocessValidator:
    spec = manifests.Spec(name="broken-validator", command=[sys.executable, str(BROKEN), *modes],
                          cwd=BROKEN.parent, kind="validator", deadline=deadline, max_restarts=max_restarts,
                          source="flag")
    v = SubprocessValidator(spec)
    v.ready()
    return v


def run(*modes, items=INPUTS, **kw):
    v = start(*modes, **kw)
    try:
        return v, v.check_many(items)
    finally:
        v.close()


def test_a_correct_validator_answers_every_input_in_order():
    v, got = run(items=INPUTS + ["http://127.0.0.1/", "http://0x7f.1/", "http://[::1/"])
    assert [x.allow for x in got[:40]] == [True] * 40
    assert got[40].allow is False and got[41].allow is True
    assert got[42].allow is False and got[42].failure  # urlsplit's ValueError: "error" denies
    assert not v.findings and v.version == "0"


@pytest.mark.parametrize("mode,cls,what", [("crash=h7.", "oracle-crashed", "died"),
                                           ("hang=h7.", "oracle-hung", "hung"),
                                           ("schema=h7.", "oracle-crashed", "bad answer"),
                                           ("garbage=h7.", "oracle-crashed", "bad answer")])
def test_a_broken_answer_is_a_finding_on_that_input_and_the_run_goes_on(mode, cls, what):
    v, got = run(mode, deadline=1.0)
    bad = [i for i, x in enumerate(got) if x is None or not x.ok]
    assert bad == [7], [(i, got[i]) for i in bad]
    assert got[7].allow is None  # a crash allows nothing
    assert [(f[0], f[1], f[2]) for f in v.findings] == [(cls, what, INPUTS[7])]
    assert all(x.allow is True for i, x in enumerate(got) if i != 7)


def test_a_hello_of_another_kind_cannot_start():
    with pytest.raises(oracles.Unavailable, match="kind 'url'"):
        start("kind=url")


@pytest.mark.parametrize("obj,why", [({"id": 1}, "exactly one of"), ({"id": 1, "allow": 1}, "true or false"),
                                     ({"id": 1, "allow": True, "error": "x"}, "exactly one of"),
                                     ({"id": 1, "error": 3}, "must be a string"),
                                     ({"id": 1, "allow": True, "reason": 5}, "reason")])
def test_answers_out_of_schema(obj, why):
    with pytest.raises(protocol.SchemaError, match=why):
        validator_answer(obj)


def test_hello_of_kind_validator_needs_no_base_nor_family():
    hello = protocol.check_hello({"hello": "urlwb-oracle/1", "name": "v", "version": "1", "kind": "validator"})
    assert hello["kind"] == "validator" and hello["family"] == "other"


def test_py_contract():
    v = CallableValidator("raises", "planted:raises")
    got = v.check_many(["http://a/", "http://value/", "http://boom/"])
    assert got[0].allow is True
    assert got[1].allow is False and got[1].failure and "refused" in got[1].reason
    assert got[2].allow is None and "KeyError" in got[2].crash
    assert [f[2] for f in v.findings] == ["http://boom/"]
    nb = CallableValidator("nb", "planted:not_bool")
    assert nb.check_many(["http://a/"])[0].crash.startswith("out of schema")


def test_flags_and_table(tmp_path):
    (tmp_path / "urlwb.toml").write_text(
        f'[tool.urlwb.validators]\nmine = "py:planted:permissive"\nprog = "{sys.executable} {BROKEN}"\n')
    got = {d.name: d for d in catalog.declared([], cwd=tmp_path)}
    assert got["mine"].target == "planted:permissive"
    assert got["prog"].spec.kind == "validator"
    started, skipped = catalog.start(list(got.values()))
    try:
        assert set(started) == {"mine", "prog"} and not skipped
        assert started["prog"].check_many(["http://127.0.0.1/"])[0].allow is False
    finally:
        for v in started.values():
            v.close()


@pytest.mark.parametrize("flag,message", [("nope", "unknown validator"), ("ip=", "expected NAME"),
                                          ("go-parseip@1.0", "go-parseip has no registry version: it ships with the Go toolchain"),
                                          ("ipaddress@3.11", "ipaddress has no registry version: it ships with Python"),
                                          ("ip@", "no version"),
                                          ("ip@latest", "exact release"), ("mine=py:x", "py:package.module:function"),
                                          ("ip=py:planted:permissive", "shipped validator")])
def test_bad_flags_are_one_line(flag, message):
    from urlwb.errors import UsageError
    with pytest.raises(UsageError, match=message):
        catalog.parse_flag(flag)


@pytest.mark.slow
@pytest.mark.parametrize("flag,message", [("ip@9.9.9", "No matching version"),
                                          ("validators@0.0.99", "No matching distribution")])
def test_a_release_that_does_not_resolve_is_one_line(flag, message, tmp_path, monkeypatch):
    """Slow: asks the registry (npm, PyPI) through its own client; nothing is left in the cache."""
    from urlwb.errors import UsageError
    monkeypatch.setenv("URLWB_CACHE", str(tmp_path))
    with pytest.raises(UsageError, match=message):
        catalog.parse_flag(flag, progress=lambda s: None)
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_flags_replace_the_table(tmp_path):
    """``--validator`` given: the table's entries do not run too (a table entry that names a
    package runs only at a release, and would start with nothing on its path)."""
    (tmp_path / "urlwb.toml").write_text(
        f'[tool.urlwb.validators]\nmine = "py:planted:permissive"\nprog = "{sys.executable} {BROKEN}"\n')
    assert [d.name for d in catalog.declared(["other=py:planted:permissive"], cwd=tmp_path)] == ["other"]
    assert {d.name for d in catalog.declared([], cwd=tmp_path)} == {"mine", "prog"}
