"""A user's adapters as a new user declares them (issue 36's friction): from their own folder,
with the spellings users write, a bad entry refused alone, and commands that run as printed.

What each check kills:
- ``spec = "RFC 3986"`` / ``"WHATWG"`` read as rfc3986 / whatwg: ``manifests.contract_name``
  removed (only the exact names: the entry is refused);
- a bad entry refuses only that oracle, in one line: ``config_specs`` raising on the first bad
  entry (the good oracle of the same file is not registered);
- a ``py:`` adapter in the current folder imports with no ``PYTHONPATH``: the folder not put on
  the import path by ``protocol.import_callable`` (``cannot import``: the diff exits 2);
- a user's validator's finding command (``--oracle mine``) names a validator ssrf knows, and
  runs from the project folder: ``catalog.parse_flag`` without the table lookup ("unknown
  validator 'mine'"), ``in_project`` without the ``cd``;
- a planted validator (spec "RFC 3986", role validator) that refuses every control but the tab:
  ``accepts-no-uri/tab``, a bug, from ``--generate 30`` alone (``validator_records`` left out of
  ``write_findings``: the test fails; the Standard removes the tab, so no disagreement shows it).
  The generator's own insertions reach the tab here; ``generate.no_uri_inputs`` (each character
  no URI holds, at each place of a well-formed URL, for every validator) is not what the test
  needs, and removing it leaves it passing.
"""

from __future__ import annotations

import json
import sys

import pytest

from urlwb import cli, oracles
from urlwb.oracles import manifests
from urlwb.ssrf import catalog

ADAPTER = '''
def parse(input, base=None):
    scheme, _, rest = input.partition("://")
    host = rest.split("/")[0].rpartition("@")[2]
    return {"scheme": scheme, "username": None, "password": None, "host": host, "port": None,
            "path": "/", "query": None, "fragment": None, "href": input}
'''
VALIDATOR = '''
def allowed(input):
    return "localhost" not in input
'''


@pytest.fixture
def project(tmp_path, monkeypatch):
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.chdir(folder)
    before, refused = set(oracles.REGISTRY), dict(oracles.REFUSED)
    path = list(sys.path)
    yield folder
    for name in set(oracles.REGISTRY) - before:
        del oracles.REGISTRY[name]
    oracles.REFUSED.clear()
    oracles.REFUSED.update(refused)
    catalog.REFUSED.clear()
    sys.path[:] = path
    for mod in [m for m in sys.modules if m.startswith("i36_")]:
        del sys.modules[mod]


@pytest.mark.parametrize("written, read", [("RFC 3986", "rfc3986"), ("rfc-3987", "rfc3987"),
                                           ("WHATWG", "whatwg"), ("URL Standard", "whatwg"), ("Own", "own")])
def test_the_contract_spellings_users_write_are_read(written, read, tmp_path):
    spec = manifests.user_spec("mine", {"command": "py:m:f", "spec": written}, "config", tmp_path)
    assert spec.spec == read


def test_a_bad_entry_refuses_that_oracle_alone_in_one_line(project, capsys):
    (project / "i36_good.py").write_text(ADAPTER)
    (project / "urlwb.toml").write_text(
        '[tool.urlwb.oracles.good]\ncommand = "py:i36_good:parse"\nspec = "RFC 3986"\n'
        '[tool.urlwb.oracles.bad]\ncommand = "py:i36_good:parse"\nspec = "RFC 9999"\n')
    oracles.configure([], project)
    err = capsys.readouterr().err
    assert "good" in oracles.REGISTRY and "bad" not in oracles.REGISTRY
    lines = [x for x in err.splitlines() if "bad" in x]
    assert len(lines) == 1 and "spec must be one of" in lines[0] and "RFC 9999" in lines[0], err
    with pytest.raises(ValueError, match="RFC 9999"):
        oracles.resolve_names("engine,bad")


def test_a_py_adapter_in_the_current_folder_imports_without_pythonpath(project, capsys, tmp_path):
    (project / "i36_adapter.py").write_text(ADAPTER)
    (project / "urlwb.toml").write_text('[tool.urlwb.oracles.mine]\ncommand = "py:i36_adapter:parse"\n')
    assert str(project) not in sys.path
    status = cli.main(["diff", "http://a@b@evil.example/", "--parsers", "engine,mine", "--out", str(tmp_path / "d")])
    out = capsys.readouterr()
    assert status == 0, out.err
    assert "evil.example" in out.out
    found = [json.loads(x) for x in (tmp_path / "d" / "findings.jsonl").read_text().splitlines()]
    mine = [r for r in found if r["parser"] == "mine"]
    assert mine and all(r["command"].startswith(f"cd {project} && urlwb diff ") for r in mine), mine


def test_a_user_s_validator_is_named_as_its_finding_command_names_it(project):
    (project / "i36_validator.py").write_text(VALIDATOR)
    (project / "urlwb.toml").write_text('[tool.urlwb.validators.mine]\ncommand = "py:i36_validator:allowed"\n')
    declared = catalog.parse_flag("mine", project)
    assert declared.name == "mine" and declared.target == "i36_validator:allowed"
    assert catalog.project_of("mine", project) == project
    assert catalog.project_of("ipaddress", project) is None


PLANTED_VALIDATOR = '''
def validate(input, base=None):
    """A planted URL validator that refuses spaces, newlines and other controls, but forgets the tab."""
    if "://" not in input or any((c < " " and c != "\\t") or c in " \\x7f" for c in input):
        raise ValueError("not a URL")
    scheme, _, rest = input.partition("://")
    return {"scheme": scheme, "username": None, "password": None, "host": rest.split("/")[0],
            "port": None, "path": "/", "query": None, "fragment": None, "href": input}
'''


def test_a_validator_that_accepts_a_tab_breaks_its_rfc_3986_contract(project, capsys, tmp_path):
    """Found by --generate alone: the validator's tab is a bug by its declared contract, though
    the Standard removes the tab and reads the same URL (no disagreement to report)."""
    (project / "i36_tab.py").write_text(PLANTED_VALIDATOR)
    (project / "urlwb.toml").write_text('[tool.urlwb.oracles.tabby]\ncommand = "py:i36_tab:validate"\n'
                                        'spec = "RFC 3986"\nrole = "validator"\n')
    status = cli.main(["diff", "--parsers", "engine,tabby", "--generate", "30", "--seed", "1",
                       "--no-hosts", "--out", str(tmp_path / "d")])
    assert status == 1, capsys.readouterr().err   # the bug found: exit status 1 (docs/cli.md)
    found = [json.loads(x) for x in (tmp_path / "d" / "findings.jsonl").read_text().splitlines()]
    tab = [r for r in found if r["rule"] == "accepts-no-uri/tab"]
    assert tab and tab[0]["verdict"]["kind"] == "bug" and "\t" in tab[0]["input"], [r["rule"] for r in found]
    assert not [r for r in found if r["rule"].startswith("accepts-no-uri/") and r["rule"] != "accepts-no-uri/tab"]


SSRF_VALIDATOR = '''
def allowed(input):
    """A planted SSRF guard that refuses a space, DEL and the controls but forgets the newline."""
    return "localhost" not in input and not any((c < " " and c != "\\n") or c in " \\x7f" for c in input)
'''


def test_an_ssrf_validator_that_allows_a_newline_breaks_its_rfc_3986_contract(project, tmp_path, capsys):
    """Every validator is asked well-formed URLs holding each character no URI holds; one that
    declares RFC 3986 and allows a newline breaks it (``accepts-no-uri/newline``), in
    findings.jsonl, with a command that runs from the project. Killed by the records left out
    (no_uri_records not added to the hunt's records). The hunt's own random inputs already reach
    a newline: without the no-URI inputs asked first it still passes."""
    (project / "i36_guard.py").write_text(SSRF_VALIDATOR)
    (project / "urlwb.toml").write_text('[tool.urlwb.validators.guard]\ncommand = "py:i36_guard:allowed"\n'
                                        'spec = "RFC 3986"\n')
    out = tmp_path / "ssrf"
    cli.main(["ssrf", "--parsers", "engine", "--minutes", "0.02", "--batch", "200", "--guided-seconds", "0",
              "--clients", "none", "--out", str(out)])
    said = capsys.readouterr()
    found = [json.loads(x) for x in (out / "findings.jsonl").read_text().splitlines()]
    mine = [r for r in found if r["rule"].startswith("accepts-no-uri/")]
    assert [r["rule"] for r in mine] == ["accepts-no-uri/newline"], (said.err[-2000:], [r["rule"] for r in found])
    assert mine[0]["verdict"]["kind"] == "bug" and "\n" in mine[0]["input"]
    assert mine[0]["command"] == f"cd {project} && urlwb ssrf --oracle guard"


def test_a_host_address_validator_is_not_held_to_the_uri_grammar():
    """ipaddress declares RFC 3986 but classifies a host's address (checks = "host-address"):
    allowing 'http://evil.com\\n' is no finding about it; the shipped URL-syntax validator is."""
    from urlwb.oracles.protocol import Verdict
    from urlwb.ssrf.finding_records import no_uri_records

    allowed = {"http://evil.com\n": Verdict(True)}
    recs = no_uri_records({"ipaddress": dict(allowed), "validators": dict(allowed)}, {})
    assert [(r["parser"], r["rule"]) for r in recs] == [("validators", "accepts-no-uri/newline")]
