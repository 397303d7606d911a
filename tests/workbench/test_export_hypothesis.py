"""Property failures reach the regression corpus: records, the database export, the bridge."""

import argparse
import importlib.util
import json
import pathlib

import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.database import InMemoryExampleDatabase

from properties import replay
from properties.strategies import IPv4Case
from urlwb.fuzzing import export_hypothesis

ROOT = pathlib.Path(__file__).resolve().parents[2]
IPV4_PROPERTY = "test_the_ipv4_parser_reads_every_ascii_form_as_the_host_parser_does"


def _bridge():
    spec = importlib.util.spec_from_file_location("fuzz_properties",
                                                  ROOT / "fuzzers" / "fuzz_properties.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_record_keeps_bytes_dataclasses_and_pairs():
    args = {"data": b"\x00%ff", "case": IPv4Case("0x7f.1", 0x7F000001),
            "pairs": [("a", "\ud800")], "none": None}
    name, back = replay.decode_record(replay.encode_record("p", args))
    assert name == "p" and back == args


def test_failing_arguments_recovers_the_shrunk_example_from_the_database():
    database = InMemoryExampleDatabase()

    @settings(database=database, derandomize=False, max_examples=200)
    @given(st.integers())
    def below_ten(n):
        assert n < 10

    with pytest.raises(AssertionError):
        below_ten()
    assert export_hypothesis.failing_arguments(below_ten, database) == [{"n": 10}]
    assert export_hypothesis.failing_arguments(below_ten, InMemoryExampleDatabase()) == []


def test_a_record_of_a_wrong_answer_fails_on_replay_in_a_fresh_interpreter_and_in_the_bridge():
    wrong = replay.encode_record(IPV4_PROPERTY, {"case": IPv4Case("1.2.3.4", 5)})
    fails, exc_type, detail = export_hypothesis.replay_verdict(wrong)
    assert fails and exc_type == "AssertionError" and "1.2.3.4" in detail
    right = replay.encode_record(IPV4_PROPERTY, {"case": IPv4Case("1.2.3.4", 0x01020304)})
    assert export_hypothesis.replay_verdict(right) == (False, "", "")
    bridge = _bridge()
    bridge.check(right)
    with pytest.raises(AssertionError):
        bridge.check(wrong)


def test_export_files_each_failure_under_properties_with_a_sidecar_naming_the_property(
        tmp_path, monkeypatch, capsys):
    database_dir = tmp_path / "db"
    from hypothesis.database import DirectoryBasedExampleDatabase
    database = DirectoryBasedExampleDatabase(str(database_dir))
    test = replay.given_properties()[IPV4_PROPERTY]
    saved = test._hypothesis_internal_use_settings
    test._hypothesis_internal_use_settings = settings(saved, database=database, max_examples=3,
                                                      derandomize=False)
    try:
        test()  # passes, and leaves its examples out of the database: seed one by hand
    finally:
        test._hypothesis_internal_use_settings = saved
    from hypothesis.database import choices_to_bytes
    from hypothesis.internal.reflection import function_digest
    key = function_digest(test.hypothesis.inner_test)
    database.save(key, choices_to_bytes((4, False, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0)))
    recovered = export_hypothesis.failing_arguments(test, database)
    assert recovered and all(isinstance(kw["case"], IPv4Case) for kw in recovered)

    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    monkeypatch.setattr(export_hypothesis, "replay_verdict",
                        lambda data: (True, "AssertionError", "AssertionError: planted"))
    parser = __import__("argparse").ArgumentParser()
    export_hypothesis.add_arguments(parser)
    args = parser.parse_args(["--database", str(database_dir), "--property", IPV4_PROPERTY])
    assert export_hypothesis.run(args) == 0
    sidecars = list((tmp_path / "corpus" / "properties" / "regress").glob("*.json"))
    assert len(sidecars) == len(recovered)
    sidecar = json.loads(sidecars[0].read_text())
    assert sidecar["property"] == IPV4_PROPERTY and sidecar["kind"] == "invariant"
    entry = sidecars[0].with_suffix("")
    assert replay.decode_record(entry.read_bytes())[0] == IPV4_PROPERTY
    assert export_hypothesis.run(args) == 0  # a second export files nothing new
    assert "0 filed" in capsys.readouterr().out.splitlines()[-1]


def test_a_failing_state_machine_only_raises_and_export_files_its_shrunk_run(tmp_path, monkeypatch):
    from hypothesis import settings as hsettings
    from hypothesis.database import InMemoryExampleDatabase
    from hypothesis.stateful import run_state_machine_as_test

    from properties import invariants, machines

    real = invariants.check_host_idempotence

    def planted(text, is_opaque=False):  # a fault only this process has
        assert "." not in text, f"planted fault on {text!r}"
        real(text, is_opaque)

    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    monkeypatch.setattr(invariants, "check_host_idempotence", planted)
    database = InMemoryExampleDatabase()
    with pytest.raises(AssertionError, match="planted fault"):
        run_state_machine_as_test(machines.HostMachine, settings=hsettings(
            max_examples=200, database=database, deadline=None))
    regress = tmp_path / "corpus" / "properties" / "regress"
    assert not regress.exists(), "the machine filed something itself: machines only raise"
    # export-hypothesis replays the saved run, recovers its record and files it
    args = argparse.Namespace(database=None, property=["HostMachine"], dry_run=False)
    monkeypatch.setattr(export_hypothesis, "DirectoryBasedExampleDatabase", lambda path: database)
    monkeypatch.setattr(export_hypothesis.profiles, "DATABASE_PATH", tmp_path)
    assert export_hypothesis.run(args) == 0
    sidecars = list(regress.glob("*.json"))
    assert len(sidecars) == 1
    sidecar = json.loads(sidecars[0].read_text())
    # the fresh interpreter's replay has no planted fault: filed, and marked as such
    assert sidecar["property"] == "HostMachine" and sidecar["kind"] == "unreproducible"
    name, args_ = replay.decode_record(sidecars[0].with_suffix("").read_bytes())
    assert name == "HostMachine" and any("." in t for t in args_["texts"])


def test_a_setter_machine_record_replays_with_the_ada_differential():
    from properties import machines

    if machines.ada_url is None:
        pytest.skip("ada_url is not installed")
    record = replay.encode_record("URLSetterMachine", {
        "href": "https://a/", "steps": [("hostname", "0.\u0625\u062e\u062a\u0628\u0627\u0631")]})
    fails, exc_type, detail = export_hypothesis.replay_verdict(record)
    assert fails and exc_type == "AssertionError" and "ada_url" in detail
