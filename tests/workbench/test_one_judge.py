"""One judge (issue 34): the same input and parser get the same verdict from ``urlwb verdict``,
``urlwb diff INPUT``, ``urlwb diff --file`` (the differential's records) and, for a validator,
from ``urlwb ssrf --inputs`` and the hunt's filing; what a parser's owner asserts in its own tests
is its contract (a hazard at most, citing file:line); every adapter carries those readings.

What each test kills is in its docstring (each was seen to fail with the plant, then restored).
"""

from __future__ import annotations

import json
import pathlib

import pytest

from urlwb import cli
from urlwb.differential import facts
from urlwb.findings.record import read_findings
from urlwb.oracles import Record
from urlwb.oracles.other import UrllibOracle
from urlwb.oracles.whatwg import EngineOracle
from urlwb.verdicts import owner_tests

PARSERS = ["urllib", "rfc3986", "yarl", "urllib3", "hyperlink"]
# the libcurl inputs, a backslash, an RFC 3986 valid host the Standard rewrites, a
# base-less relative, a port the Standard refuses
INPUTS = ["https://0x7f.1", "https://:@example.net", "http:/@example.com:123", "http://evil.com\\@good.com/",
          "file://127.0.0.1/hello.html", "imap://user:pass;option@server/path", "http://[::1]:80/",
          "HTTP://a/b/../c", "sc://h:1\\x", "http://%65vil.com/"]


def _verdicts_of_verdict(capsys, input: str) -> dict[str, tuple | None]:
    assert cli.main(["verdict", input, "--parsers", ",".join(PARSERS)]) in (0, 1)   # 1: a bug among them (docs/cli.md)
    text, out, dec = capsys.readouterr().out, {}, json.JSONDecoder()
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        obj, i = dec.raw_decode(text, i)
        v = obj["verdict"]
        out[obj["parser"]] = (v["kind"], v["cause"]) if v else None
    return out


def _verdicts_of_diff(capsys, tmp_path: pathlib.Path, *args: str) -> dict[tuple[str, str], tuple]:
    out = tmp_path / "diff"
    cli.main(["diff", *args, "--parsers", ",".join(["engine", *PARSERS]), "--out", str(out), "--no-hosts"])
    capsys.readouterr()
    return {(r["parser"], r["input"]): (r["verdict"]["kind"], r["verdict"]["cause"])
            for r in read_findings(out / "findings.jsonl")}


def test_one_input_gets_one_verdict_from_verdict_diff_and_diff_file(capsys, tmp_path):
    """Kills a command that judges with facts of its own: before the one judge, ``urlwb verdict``
    passed no cause and the differential passed classify's, and the differential judged only
    disagreements (an RFC parser reading ``https://0x7f.1`` as the engine does was no finding of
    ``diff`` and a bug of ``verdict``). Each of the three paths, per parser and input."""
    listed = tmp_path / "inputs.txt"
    listed.write_text("".join(json.dumps(i) + "\n" for i in INPUTS), encoding="utf-8")
    from_file = _verdicts_of_diff(capsys, tmp_path / "file", "--file", str(listed), "--table-max", "0")
    compared = 0
    for input in INPUTS:
        by_verdict = _verdicts_of_verdict(capsys, input)
        by_diff = _verdicts_of_diff(capsys, tmp_path / str(INPUTS.index(input)), input)
        for parser in PARSERS:
            want = by_verdict[parser]
            assert by_diff.get((parser, input)) == want, (parser, input, "diff", by_diff.get((parser, input)), want)
            # diff --file keeps one record per signature (the shortest input): each one it keeps agrees
            if (parser, input) in from_file:
                assert from_file[parser, input] == want, (parser, input, "diff --file")
                compared += 1
    assert compared >= len(PARSERS)


def test_ssrf_inputs_judges_as_the_hunt_files(tmp_path, capsys):
    """Kills ``ssrf --inputs`` judging a validator without its own reading of the host (a
    misclassified address it read itself came out a hazard, with a reason saying a client reads
    the host otherwise, where the hunt's filing said bug): every record of the run carries the
    validator's own host and the verdict the one judge gives those facts."""
    listed = tmp_path / "inputs.txt"
    listed.write_text("http://0x7f.1/\nhttp://[::ffff:a00:1]/\nhttp://127.1/\n", encoding="utf-8")
    assert cli.main(["ssrf", "--inputs", str(listed), "--oracle", "ipaddress", "--parsers", "urllib,node",
                     "--clients", "none", "--out", str(tmp_path / "ssrf")]) in (0, 1)
    capsys.readouterr()
    records = [r for r in read_findings(tmp_path / "ssrf" / "findings.jsonl") if r.get("validator")]
    assert records
    for r in records:
        assert "validator_host" in r, r["input"]
        again = facts.validator_verdict(facts.Allowing(r["validator"], r["input"], r["validator_host"],
                                                       tuple(r["verdict"].get("pairs") or []), r.get("parser_version")))
        assert (again["kind"], again["cause"]) == (r["verdict"]["kind"], r["verdict"]["cause"])


def test_one_input_gets_one_verdict_from_verdict_and_ssrf_inputs(tmp_path, capsys):
    """The validator's side of the check: ``urlwb verdict INPUT --oracle VALIDATOR --parsers F``
    and ``urlwb ssrf --inputs FILE --oracle VALIDATOR --parsers F --clients none`` give one verdict
    per input (or none from both). Killed by a verdict command that judged a validator by other
    facts (before, it did not judge validators at all)."""
    inputs = ["http://0x7f.1/", "http://[::ffff:a00:1]/", "http://127.1/", "http://example.com/"]
    listed = tmp_path / "inputs.txt"
    listed.write_text("\n".join(inputs) + "\n", encoding="utf-8")
    assert cli.main(["ssrf", "--inputs", str(listed), "--oracle", "ipaddress", "--parsers", "urllib,node",
                     "--clients", "none", "--out", str(tmp_path / "ssrf")]) in (0, 1)
    capsys.readouterr()
    by_ssrf = {r["input"]: (r["verdict"]["kind"], r["verdict"]["cause"])
               for r in read_findings(tmp_path / "ssrf" / "findings.jsonl") if r.get("validator") == "ipaddress"}
    assert by_ssrf
    for input in inputs:
        assert cli.main(["verdict", input, "--oracle", "ipaddress", "--parsers", "urllib,node"]) in (0, 1)
        out = json.loads(capsys.readouterr().out)
        v = out["verdict"]
        assert ((v["kind"], v["cause"]) if v else None) == by_ssrf.get(input), input


# --- the owner's own tests ------------------------------------------------------------------

@pytest.mark.parametrize("parser", sorted(owner_tests.mined()))
def test_every_adapter_carries_every_mined_reading(parser):
    """Adapter fidelity: each mined case of the owner's tests, read through the shipped adapter,
    is the owner's reading (adapters.toml: what it documents it cannot carry). Killed by the
    urllib adapter as it was (``s.username or ""``: no username read as an empty one, 184 cases;
    ``_bracket``: an IPvFuture host without its brackets); libcurl's adapter carries all 105 of
    lib1560.c's rows at 7.88.1 (skipped where it is not built)."""
    from urlwb import oracles
    oracles.configure([])
    data = owner_tests.mined()[parser]
    started, skipped = oracles.load([parser])
    try:
        if parser in skipped:
            pytest.skip(f"{parser}: {skipped[parser]}")
        oracle = started[parser]
        if not owner_tests.release_matches(data, oracle.version):
            pytest.skip(f"mined at {data['release']}, this is {oracle.version}")
        records = oracle.parse_many([(oracles.to_usv(c["input"]), c["base"]) for c in data["cases"]])
    finally:
        oracles.close_all(started)
    wrong = [(c["input"], c["base"], c["at"], owner_tests.agrees(data, c, r)) for c, r in zip(data["cases"], records)]
    wrong = [w for w in wrong if w[3]]
    assert not wrong, f"{len(wrong)} of {len(data['cases'])} mined cases read otherwise: {wrong[:5]}"


class _NoEmptyPassword(UrllibOracle):
    """A planted adapter that cannot tell an absent password from an empty one (sends "")."""

    def parse(self, input, base=None):
        r = super().parse(input, base)
        return r._replace(password=r.password or "") if r.ok else r


def test_a_planted_adapter_that_loses_absent_from_empty_is_caught():
    data = owner_tests.mined()["urllib"]
    oracle = _NoEmptyPassword()
    if not owner_tests.release_matches(data, oracle.version):
        pytest.skip("another Python than the mined one")
    wrong = [c for c in data["cases"] if owner_tests.agrees(data, c, oracle.parse(c["input"], c["base"]))]
    assert wrong and all("password" in owner_tests.agrees(data, c, oracle.parse(c["input"], c["base"]))
                         for c in wrong)


def test_the_mined_urllib_cases_are_what_the_shipped_tests_give():
    """The stored file is the miner's output on this interpreter's own Lib/test (same release)."""
    import subprocess
    import sys
    root = pathlib.Path(__file__).resolve().parents[2]
    r = subprocess.run([sys.executable, str(root / "scripts" / "mine_owner_tests.py"), "urllib", "--check"],
                       capture_output=True, text=True, timeout=300, cwd=root)
    assert r.returncode == 0, r.stdout + r.stderr


PLANTED_MINED = {"parser": "planted-rfc", "release": "1.0", "provenance": {
    "repo": "example/planted-rfc", "path": "tests/test_hosts.py", "tag": "v1.0"},
    "cases": [{"input": "http://0x7f.1/", "base": None, "at": "tests/test_hosts.py:12", "call": "parse",
               "reading": {"scheme": "http", "username": None, "password": None, "host": "127.0.0.1",
                           "port": None, "path": "/", "query": None, "fragment": None}}]}


def _planted_reading() -> facts.Reading:
    """An RFC 3986 parser that rewrites the reg-name 0x7f.1 to 127.0.0.1 (a bug by RFC 3986
    §3.2.2: a reg-name is kept as written), as libcurl does and its own tests assert."""
    mine = Record(False, "http", None, None, "127.0.0.1", None, "/", None, None, "http://127.0.0.1/")
    return facts.Reading("planted-rfc", "http://0x7f.1/", None, mine, EngineOracle({}).parse("http://0x7f.1/"),
                         version="1.0")


def test_a_parser_whose_own_tests_assert_the_flagged_reading_is_no_bug(tmp_path, monkeypatch):
    """Kills a judge that ignores the owner's tests: the planted parser's reading is a bug by RFC
    3986 alone; with its owner's test asserting that very reading at that release it is a hazard
    citing the test's file:line; at another release the evidence does not apply."""
    from urlwb.oracles import contracts
    planted = contracts.Contract("planted-rfc", "parser", "rfc3986", "https://planted.invalid/docs")
    monkeypatch.setattr(contracts, "describe", lambda name: type("P", (), {"contract": planted})())
    assert facts.verdict(_planted_reading())["kind"] == "bug"
    (tmp_path / "planted-rfc.json").write_text(json.dumps(PLANTED_MINED), encoding="utf-8")
    monkeypatch.setattr(owner_tests, "DIRS", [*owner_tests.DIRS, tmp_path])
    v = facts.verdict(_planted_reading())
    assert v["kind"] == "hazard" and "tests/test_hosts.py:12" in v["spec"]["clause"]
    assert v["documented"] == "https://github.com/example/planted-rfc/blob/v1.0/tests/test_hosts.py#L12"
    import dataclasses
    assert facts.verdict(dataclasses.replace(_planted_reading(), version="2.0"))["kind"] == "bug"


# --- every record has a verdict, and the run counts them -------------------------------------

def test_the_campaign_summary_counts_every_record_it_wrote(tmp_path):
    """Kills a summary that counts only the fuzz rounds' filed entries: the differential round's
    two records in its folder's findings.jsonl are in the campaign's findings.jsonl and in its
    summary line."""
    from urlwb.campaign.record import CampaignRecord
    from urlwb.campaign.run import campaign_findings, summary, written_counts
    from urlwb.findings import record
    recs = [record.make_finding(input=i, parser="ada_url", rule="differential/idna", signature=f"idna:{i}",
                                verdict=record.verdict("bug", "whatwg-url", "URL Standard: domain to ASCII", "idna"))
            for i in ("ws:\u0690.(", "http://\u0690.(/")]
    record.write_findings(tmp_path / "differential" / "diff", recs)
    path = campaign_findings(tmp_path, [])
    c = CampaignRecord(stamp="s", minutes=1.0, engine_commit="c", seed=1)
    c.findings_written = written_counts(path)
    assert c.findings_written == {"records": 2, "bug": 2, "hazard": 0}
    assert "0 new findings filed" in summary(c) and "findings.jsonl: 2 records (2 bugs, 0 hazards)" in summary(c)


def test_no_finding_is_filed_or_left_without_a_verdict(tmp_path, monkeypatch):
    """Kills a filer whose shaping gives no verdict, and a re-judging that writes None over one
    (growth's filing did when the judge found nothing)."""
    from urlwb import corpus_store
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    with pytest.raises(ValueError, match="without a verdict"):
        corpus_store.record_finding("differential", b"x", "sig", "invariant", "d", shape=lambda m, data: dict(m))
    path = corpus_store.record_finding("differential", b"y", "sig2", "invariant", "d",
                                       shape=lambda m, data: dict(m, verdict={"kind": "bug"}))
    entry = corpus_store.RegressEntry("differential", path, corpus_store.load_sidecar(corpus_store.sidecar_path(path)))
    with pytest.raises(ValueError):
        corpus_store.update_sidecar(entry, verdict=None)


def test_a_validator_s_address_class_by_design_is_no_bug():
    """Kills a judge that holds a validator to its README alone: is-localhost-ip leaves
    169.254.0.0/24 out of its link-local range by design (its test asserts isLocal("169.254.0.0")
    false at v3.0.1 and v1.4.0, its source names 169.254.1.0 - 169.254.254.255): allowing
    169.254.0.1 is a hazard citing the test's line at those releases, a bug at a release the
    evidence is not for; an IPv4-mapped private address stays a bug."""
    pairs = ({"validator": "is-localhost-ip", "client": "curl", "reached": "169.254.0.1:80"},)
    for version, line in (("3.0.1", 67), ("1.4.0", 76)):
        v = facts.validator_verdict(facts.Allowing("is-localhost-ip", "http://169.254.1", "169.254.0.1", pairs, version))
        assert v["kind"] == "hazard" and v["documented"].endswith(f"__tests__/addresses.test.js#L{line}")
    assert facts.validator_verdict(facts.Allowing("is-localhost-ip", "http://169.254.1", "169.254.0.1", pairs,
                                                  "2.0.0"))["kind"] == "bug"
    mapped = ({"validator": "is-localhost-ip", "client": "curl", "reached": "10.0.0.1:80"},)
    assert facts.validator_verdict(facts.Allowing("is-localhost-ip", "http://[::ffff:a00:1]", "[::ffff:a00:1]",
                                                  mapped, "3.0.1"))["kind"] == "bug"


def test_a_class_the_validator_s_code_checks_is_in_its_contract():
    """Kills a contract read from the README alone: ip's README names loopback and private, its
    isPrivate also matches 169.254/16 (lib/ip.js:329 at v2.0.1, asserted by its test), so the
    IPv4-mapped hex spelling of 169.254.0.1, allowed, is the same bug as that of 10.0.0.1 (it was
    a hazard); at a release the evidence is not for, the README alone judges (hazard)."""
    pairs = ({"validator": "ip", "client": "curl", "reached": "169.254.0.1:80"},)
    v = facts.validator_verdict(facts.Allowing("ip", "http://[::ffff:a9fe:1]/", "[::ffff:a9fe:1]", pairs, "2.0.1"))
    assert v["kind"] == "bug" and v["cause"] == "misclassified-address"
    assert "lib/ip.js:329" in v["spec"]["clause"] or "lib/ip.js#L329" in v["spec"]["clause"]
    v = facts.validator_verdict(facts.Allowing("ip-url-parse", "http://[::ffff:a9fe:1]/", "[::ffff:a9fe:1]", pairs, "1.1.8"))
    assert v["kind"] == "bug"   # one package: ip's code at 1.1.8 (lib/ip.js:320)
    assert facts.validator_verdict(facts.Allowing("ip", "http://[::ffff:a9fe:1]/", "[::ffff:a9fe:1]", pairs,
                                                  "0.3.0"))["kind"] == "hazard"


def test_the_campaign_report_counts_them_too(tmp_path):
    from urlwb.campaign.record import CampaignRecord
    from urlwb.campaign.report import render_markdown
    c = CampaignRecord(stamp="s", minutes=1.0, engine_commit="c", seed=1)
    c.findings_written = {"records": 2, "bug": 2, "hazard": 0}
    assert "findings.jsonl: 2 records (2 bugs, 0 hazards)" in render_markdown(c)


def test_verdict_out_writes_what_it_prints(capsys, tmp_path):
    """Kills ``urlwb verdict --out PATH`` writing nothing, or other than it prints, for parsers and
    for a validator; a folder given as the file is one line, exit 2, before any parser runs."""
    out = tmp_path / "new" / "verdict.json"
    assert cli.main(["verdict", "http://a\\b@c/", "--parsers", "urllib,engine", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    written = json.loads(out.read_text(encoding="utf-8"))
    assert [w["parser"] for w in written] == ["urllib", "engine"]
    assert written[0]["verdict"]["kind"] == "hazard" and written[1]["verdict"] is None
    assert all(json.dumps(w, ensure_ascii=False, indent=2) in printed for w in written)
    out = tmp_path / "validator.json"
    assert cli.main(["verdict", "http://0x7f.1/", "--oracle", "ipaddress", "--parsers", "engine",
                     "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    (written,) = json.loads(out.read_text(encoding="utf-8"))
    assert written["validator"] == "ipaddress" and written["verdict"]["kind"] == "hazard"
    assert json.dumps(written, ensure_ascii=False, indent=2) in printed
    assert cli.main(["verdict", "http://a/", "--parsers", "engine", "--out", str(tmp_path)]) == 2
    said = capsys.readouterr()
    assert "a folder, where a file is meant" in said.err and said.out == ""
