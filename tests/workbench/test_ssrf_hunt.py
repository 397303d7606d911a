"""The hunt's power: a planted permissive validator (``planted.permissive``: it denies only the
literal host text ``127.0.0.1``) is bypassed, with a minimized witness, through in-process
fetchers; a validator that reads hosts as the fetcher does (``planted.strict_for_getaddrinfo``)
has no bypass in that fetcher's column; and ``urlwb ssrf`` runs end to end, filing its bypasses
and writing its report, with bad flags one line and exit 2."""

from __future__ import annotations

import itertools
import json

import pytest

from urlwb import cli, oracles
from urlwb.ssrf import hunt, inputs, policy, regress
from urlwb.ssrf.observe import network
from urlwb.ssrf.validator import CallableValidator

POLICY = policy.parse(None, None)


@pytest.fixture(scope="module")
def asker():
    fetchers, skipped = oracles.load(["engine", "urllib"])
    assert not skipped, skipped
    validators = {"permissive": CallableValidator("permissive", "planted:permissive"),
                  "strict": CallableValidator("strict", "planted:strict_for_getaddrinfo")}
    a = hunt.Asker(validators, fetchers)
    yield a
    oracles.close_all(fetchers)


@pytest.fixture(scope="module")
def found(asker):
    stream = inputs.systematic(["127.0.0.1", "10.0.0.1"], "example.com", 1)
    return hunt.hunt(asker, POLICY, itertools.islice(stream, 3000), 600, progress=lambda s: None)


def test_the_permissive_validator_is_bypassed_through_both_fetchers(found, asker):
    for f in ("engine", "urllib"):
        cell = found.cells[("permissive", f)]
        assert cell.inputs and "loopback" in cell.categories
        for s in itertools.islice(cell.inputs, 50):
            assert asker.allows("permissive", s) and POLICY.denied(asker.dests[f][s])


def test_the_literal_host_is_not_a_bypass(found):
    assert "http://127.0.0.1/" not in found.cells[("permissive", "engine")].inputs


def test_a_validator_reading_as_the_fetcher_reads_has_no_bypass_in_its_column(found):
    assert ("strict", "urllib") not in found.cells
    # ...while the engine (a WHATWG parser: backslash, tab, full-width digits) still gets past it
    assert ("strict", "engine") in found.cells


def test_minimized_witnesses_are_shorter_and_still_bypass(found, asker):
    cells = {cell: c.witnesses["loopback"] for cell, c in found.cells.items() if "loopback" in c.witnesses}
    best, rounds = hunt.minimize(asker, POLICY, {(*k, "loopback"): w for k, w in cells.items()}, seconds=60)
    assert rounds >= 1
    for (v, f, cat), w in best.items():
        assert len(w) <= len(cells[(v, f)])
        assert hunt.bypasses(asker, POLICY, w, v, f) == "loopback"
        # minimal: no single deletion still bypasses
        assert not any(hunt.bypasses(asker, POLICY, w[:i] + w[i + 1:], v, f) == "loopback"
                       for i in range(len(w)) if w[:i] + w[i + 1:] in asker.verdicts[v]
                       and w[:i] + w[i + 1:] in asker.dests[f])


def test_urlwb_ssrf_end_to_end(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    out = tmp_path / "report"
    code = cli.main(["ssrf", "--oracle", "mine=py:planted:permissive", "--parsers", "engine,urllib",
                     "--minutes", "0.02", "--batch", "500", "--guided-seconds", "0", "--out", str(out),
                     "--clients", "python-urllib"])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "(1 validators (--oracle) × 2 fetchers (--parsers))" in text
    md = (out / "report.md").read_text()
    assert "## Confusion matrix" in md and "| mine |" in md
    data = json.loads((out / "bypasses.json").read_text())
    assert {c["fetcher"] for c in data["cells"]} == {"engine", "urllib"}
    assert (out / "report.html").read_text().startswith("<!DOCTYPE html>")
    filed = regress.entries()
    assert filed and all(meta["validator"] == "mine" and meta["status"] == "open" for _, meta in filed)
    assert all(path.read_bytes().decode() == meta["input"] for path, meta in filed)
    # what the model flagged (the witnesses) was then fetched by the client in a sealed network
    if network.available() is None:
        seen = [json.loads(x) for x in (out / "observed.jsonl").read_text().splitlines()]
        assert seen and {x["client"] for x in seen} == {"python-urllib"}
        assert {x["input"] for x in seen} >= {c["witness"] for c in data["cells"]}
        assert "## Observed: where real clients connected" in md


@pytest.mark.parametrize("argv,message", [
    (["--oracle", "nope"], "unknown validator"),
    (["--oracle", "mine=py:planted:permissive", "--parsers", "nope"], "unknown parser"),
    (["--oracle", "mine=py:planted:permissive", "--deny", "a b"], "not a host name"),
    (["--oracle", "mine=py:planted:permissive", "--minutes", "0"], "--minutes"),
    (["--oracle", "mine=py:planted:permissive", "--parsers", "engine", "--allow", ","], "no host"),
])
def test_bad_flags_exit_2_with_one_line(argv, message, capsys):
    assert cli.main(["ssrf", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_guided_search_finds_the_planted_bypass_under_atheris(tmp_path, monkeypatch, capsys):
    """The coverage-guided pass (urlwb.ssrf.guided) on a py: validator: its finds are reported
    and sent before the systematic inputs."""
    monkeypatch.setenv("URLWB_WORKDIR", str(tmp_path / "work"))
    code = cli.main(["ssrf", "--oracle", "mine=py:planted:permissive", "--parsers", "urllib",
                     "--minutes", "0.01", "--batch", "200", "--guided-seconds", "2", "--no-file",
                     "--out", str(tmp_path / "r"), "--clients", "none"])
    text = capsys.readouterr().out
    assert code == 0, text
    line = next(x for x in text.splitlines() if x.strip().startswith("mine: ") and "executions" in x)
    assert int(line.split(" executions")[0].split()[-1]) > 0
    assert int(line.split(" bypass inputs")[0].split()[-1]) > 0, line
    assert "Coverage-guided runs" in (tmp_path / "r" / "report.md").read_text()


def test_history_names_what_the_older_allows_and_the_newer_denies(found, asker):
    """permissive as the older release, strict as the newer: every history witness is allowed
    by the one, judged denied (allow: false) by the other, and reaches a denied address."""
    cells = hunt.history(asker, POLICY, found.inputs, "permissive", "strict", seconds=60)
    assert "urllib (address)" in cells
    for key, c in cells.items():
        f = key.split(" ")[0]
        w = c["witness"]
        assert asker.allows("permissive", w) and hunt.judged_denied(asker, "strict", w)
        assert POLICY.denied(asker.dests[f][w])
    # the other way round there is nothing in urllib's column: strict never allows what urllib reaches
    assert not [k for k in hunt.history(asker, POLICY, found.inputs, "strict", "permissive") if k.startswith("urllib ")]


def test_the_report_of_an_inputs_run_names_the_file_not_a_hunt(tmp_path, capsys):
    """``--inputs FILE`` runs no hunt and draws no random inputs: the report's header says what ran;
    what it prints names validators and fetchers by their flags."""
    listing = tmp_path / "mine.txt"
    listing.write_text("http://0x7f.1/\nhttp://example.com/\n", encoding="utf-8")
    out = tmp_path / "out"
    code = cli.main(["ssrf", "--inputs", str(listing), "--oracle", "ipaddress", "--parsers", "engine",
                     "--clients", "none", "--out", str(out)])
    said = capsys.readouterr().out
    assert code == 0, said[-2000:]
    # the run's size in the words of its flags (issue 37: it said "validators x fetchers")
    assert f"2 inputs from {listing} (1 validators (--oracle) × 1 modelled fetchers (--parsers))" in said, said
    header = (out / "report.md").read_text(encoding="utf-8").splitlines()[2]
    assert header.startswith(f"2 inputs from {listing} (--inputs)"), header
    assert "of 2 min" not in header and "seed" not in header and "random ones from" not in header
