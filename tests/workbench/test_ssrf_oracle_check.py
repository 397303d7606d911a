"""``urlwb oracle check`` on validators (kind ``validator``, docs/oracle-protocol.md,
"Validators"): a shipped validator passes; each kind of breakage of the broken validator
(tests/workbench/broken_validator.py) is a problem line and exit status 1."""

from __future__ import annotations

import argparse
import dataclasses
import pathlib
import subprocess
import sys

import pytest

from urlwb import oracles
from urlwb.differential.oracle_check import check, selected

ROOT = pathlib.Path(__file__).resolve().parents[2]
BROKEN = pathlib.Path(__file__).with_name("broken_validator.py")


def urlwb(*args):
    entry = "import sys; from urlwb.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", entry, *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def problems_of(r) -> list[str]:
    return [x.strip() for x in r.stdout.splitlines() if x.strip().startswith("problem:")]


def test_a_correct_validator_passes_with_its_counts():
    r = urlwb("oracle", "check", sys.executable, str(BROKEN))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "kind validator" in r.stdout and "questions in one write" in r.stdout
    assert " allowed, " in r.stdout and "5 of 5 survived" in r.stdout and "ok: no problems" in r.stdout


# Each breakage on a string only one phase sends, so that its line names where it was found.
@pytest.mark.parametrize("mode,line", [
    ("schema=\\udc80", "problem: a lone surrogate: bad answer: allow must be true or false, not str"),
    ("noid=\\x01\\x1f", "problem: control characters: bad answer: no integer id"),
    ("skip=\\u2028", "problem: line and paragraph separators: hung: no answer within 1 s"),
    ("crash=xxxxxxxxxx", "problem: a 1 MB input: died: exit status 3; stderr: broken_validator: boom"),
    ("schema=blob:ws:", "problem: WPT: bad answer on 'blob:ws://example.org/': allow must be true or false"),
    ("crash=lolscheme:", "problem: pipelining: died on 'lolscheme:x x#x x'"),
])
def test_each_breakage_is_a_problem_and_exit_status_1(mode, line):
    r = urlwb("oracle", "check", "--deadline-seconds", "1", sys.executable, str(BROKEN), mode)
    assert r.returncode == 1, r.stdout + r.stderr
    found = problems_of(r)
    assert any(p.startswith(line) for p in found), found
    assert found and r.stdout.rstrip().endswith(f"{len(found)} problem" + "s" * (len(found) > 1))


def test_a_validator_declared_as_one_that_says_another_kind_is_a_problem():
    spec = oracles.VALIDATOR_SPECS["ipaddress"]
    spec = dataclasses.replace(spec, command=[sys.executable, str(BROKEN), "kind=url"], cwd=BROKEN.parent,
                               source="version")
    found = check(spec, log=lambda line: None)
    assert found and found[0] == "hello line: kind 'url', where 'validator' is declared"


def test_the_shipped_validators_are_checked_by_name_and_by_all():
    r = urlwb("oracle", "check", "ipaddress")   # ships with Python: always built
    assert r.returncode == 0 and "ok: no problems" in r.stdout, r.stdout + r.stderr
    assert "kind validator" in r.stdout
    shipped = {"ip", "ip-url-parse", "private-ip", "validators", "go-parseip", "jvm-guava", "ipaddress"}
    assert shipped <= set(oracles.VALIDATOR_SPECS)
    every = {s.name for s in selected(argparse.Namespace(all=True, command=[]))}
    assert shipped <= every and "node" in every
    assert [s.name for s in selected(argparse.Namespace(all=False, command=["jvm-guava"]))] == ["jvm-guava"]


@pytest.mark.parametrize("name", sorted(oracles.VALIDATOR_SPECS))
def test_every_shipped_validator_passes_oracle_check(name):
    spec = oracles.VALIDATOR_SPECS[name]
    if spec.skip:
        pytest.skip(f"{name}: {spec.skip}")
    assert check(spec, log=lambda line: None) == []
