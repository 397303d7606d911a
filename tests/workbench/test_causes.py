"""Causes, not records (issue 34, part 4): one cause per (package, what, where), its witnesses one
per spelling family, every record counted and none deleted."""

from __future__ import annotations

from urlwb import cli
from urlwb.findings import catalog, causes, record


def _ssrf(validator: str, input: str, host: str, version: str) -> dict:
    v = record.verdict("bug", "own", "its README", "misclassified-address",
                       pairs=[{"validator": validator, "client": "curl", "reached": "10.0.0.1:80"}])
    return record.make_finding(input=input, parser=validator, validator=validator, client="curl", rule="ssrf",
                               signature=f"ssrf:{validator}@{version}:{input}", verdict=v, validator_host=host,
                               parser_version=version)


def test_two_spellings_of_one_cause_are_one_cause_with_two_witnesses(tmp_path, capsys, monkeypatch):
    """Kills a listing by record: two spellings of ip's IPv4-mapped flaw (two slashes, one slash)
    over two releases, a third record that repeats one spelling, and the same flaw read through
    the legacy url.parse (ip-url-parse, one package) make one cause with two witnesses, three
    records; an unmapped link-local address is another cause."""
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    (tmp_path / "corpus").mkdir()
    recs = [_ssrf("ip@1.1.8", "http://[::ffff:a00:1]/", "[::ffff:a00:1]", "1.1.8"),
            _ssrf("ip", "http:/[::ffff:a00:1]", "[::ffff:a00:1]", "2.0.1"),
            _ssrf("ip-url-parse", "http://[::ffff:a00:2]/", "[::ffff:a00:2]", "2.0.1"),
            _ssrf("ip", "http://169.254.0.1/", "169.254.0.1", "2.0.1")]
    record.write_findings(tmp_path / "run", recs)
    found = causes.group(catalog.from_files([tmp_path / "run"]))
    assert len(found) == 2
    mapped = found[0]
    assert mapped.key == ("npm:ip", "bug", "misclassified-address", "ipv4-mapped")
    assert len(mapped.records) == 3 and mapped.releases == ["1.1.8", "2.0.1"]
    assert {w.record["input"] for w in mapped.witnesses.values()} == {"http:/[::ffff:a00:1]", "http://[::ffff:a00:1]/"}
    assert found[1].where == "ipv4"
    assert cli.main(["list", "--from", str(tmp_path / "run"), "--bugs", "--drafts", str(tmp_path / "d")]) == 0
    out = capsys.readouterr().out
    assert "BUGS (4) in 2 causes" in out and "npm:ip: misclassified-address (ipv4-mapped): 3 records 1.1.8, 2.0.1, 2 spellings" in out
    drafts = sorted((tmp_path / "d").iterdir())
    assert len(drafts) == 2   # one draft per cause
    assert any("another spelling" in (d / "report.md").read_text(encoding="utf-8") for d in drafts)


def test_the_committed_ssrf_bugs_are_a_few_causes_and_every_record_is_kept():
    """The corpus is regrouped, not pruned: the 63 committed SSRF bug records are 4 causes (ip's
    and private-ip's IPv4-mapped addresses, 10.x and 169.254.x alike; is-localhost-ip's IPv4-mapped
    and compressed private IPv6 ones; its link-local 169.254.0.x is by design: hazards), each
    record in one."""
    bugs = [i for i in catalog.corpus() if i.room == "ssrf" and i.record["verdict"]["kind"] == "bug"]
    found = causes.group(bugs)
    assert sum(len(c.records) for c in found) == len(bugs)
    assert len(found) == 4 and len(found) < len(bugs)
