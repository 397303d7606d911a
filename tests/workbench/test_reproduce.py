"""Each bug's reproducer (urlwb/findings/reproduce.py) runs in its parser's own language and shows
what the oracle showed; ``urlwb list`` leads with bugs, groups hazards, filters, writes drafts.

Reproducers: a finding is made here by the differential (``urlwb diff``'s records) with the real,
built oracle; its reproducer is written to a file, run with the language's own tool (python3,
node, go run, java's single-file launcher on the oracle's own jars, mcs + mono, ruby, php, perl,
cc -lcurl), and must print the reading the oracle gave (its host line) or, for a crash, raise
the exception the oracle reported. A parser whose oracle or tool is missing here is skipped with
the reason.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys

import pytest

from urlwb import cli, corpus_store, oracles
from urlwb.differential import findings
from urlwb.differential.run import diff
from urlwb.findings import catalog, record, reproduce

JAVA_BUILD = corpus_store.ROOT / "urlwb" / "oracles" / "java" / "build"


def _run(repro: reproduce.Reproducer, folder: pathlib.Path) -> subprocess.CompletedProcess:
    path = folder / repro.file
    path.write_text(repro.code, encoding="utf-8")
    lang = repro.language
    if lang == "Python":
        cmd = [sys.executable, str(path)]
    elif lang == "JavaScript":
        cmd = ["node", str(path)]
    elif lang == "Go":
        cmd = ["go", "run", str(path)]
    elif lang == "Java":
        cp = ":".join([str(JAVA_BUILD / "urlwb-java-oracles.jar"), str(JAVA_BUILD / "lib" / "*")])
        cmd = ["java", "-cp", cp, str(path)]
    elif lang == "C#":
        subprocess.run(["mcs", "-out:" + str(folder / "Repro.exe"), str(path)], check=True, capture_output=True)
        cmd = ["mono", str(folder / "Repro.exe")]
    elif lang == "Ruby":
        cmd = ["ruby", str(path)]
    elif lang == "PHP":
        cmd = ["php", str(path)]
    elif lang == "Perl":
        cmd = ["perl", str(path)]
    elif lang == "C":
        subprocess.run(["cc", "-o", str(folder / "a.out"), str(path), "-lcurl"], check=True, capture_output=True)
        cmd = [str(folder / "a.out")]
    else:
        raise AssertionError(lang)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=folder)


TOOLS = {"Python": "python3", "JavaScript": "node", "Go": "go", "Java": "java", "C#": "mcs", "Ruby": "ruby",
         "PHP": "php", "Perl": "perl", "C": "cc"}

#: (parser, input[, base]): a bug where the parser has one here, else a hazard whose reading shows
CASES = [
    ("okhttp", "http://[1:1:1:1:1:1:1::1]/"),          # bug: ArrayIndexOutOfBoundsException
    ("node", "http:e//.-/."),                           # bug of Node 20's bundled ada 2.9.2 (path state)
    ("dotnet-system-uri", "foo://1.2.3.09/x"),          # bug: the octal check's invalid marker
    ("go-net-url", "http://0x7f.1/"),                   # hazard: a reg-name kept as written
    ("go-net-url", "", "file:///test?test#test"),       # bug (RFC 3986 §5.2.2: T.fragment = R.fragment)
    ("urllib", "", "file:///test?test#test"),           # bug: urljoin returns the base, fragment and all
    ("urllib", "http://evil.com\\@good.com/"),          # hazard: '\\' in the userinfo
    ("ruby-uri-rfc3986", "http://0x7f.1/"),
    ("php-parse-url", "http://%65vil.com/"),
    ("perl-uri", "http://evil.com\\@good.com/"),
    ("libcurl", "http://evil.com\\@good.com/"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] + ("+base" if len(c) > 2 else "") for c in CASES])
def test_the_reproducer_shows_what_the_oracle_showed(case, tmp_path):
    parser, input, base = (*case, None)[:3]
    res = diff([(input, base, "argv")], ["engine", parser], reparse=False, hosts=False)
    if parser not in res.records:
        pytest.skip(f"{parser}: {res.skipped.get(parser)}")
    (rec,) = [r for r in findings.records(res) if r["parser"] == parser]
    repro = reproduce.reproducer(rec)
    if shutil.which(TOOLS[repro.language]) is None:
        pytest.skip(f"no {TOOLS[repro.language]} here")
    proc = _run(repro, tmp_path)
    mine = res.records[parser][0]
    if mine.crash:
        exception = mine.crash.split(":")[0].split(".")[-1]   # java.lang.ArrayIndexOutOfBoundsException
        assert proc.returncode != 0 and exception in proc.stderr, (proc.stdout, proc.stderr[-1500:])
        assert rec["verdict"]["kind"] == "bug"
        return
    assert proc.returncode == 0, proc.stderr[-1500:]
    host = (mine.host or "").strip("[]")
    assert host in proc.stdout and (host or mine.href), (host, proc.stdout)
    if mine.href is not None:   # the serialization too: the input reached the parser as it was
        assert proc.stdout.splitlines()[0] == mine.href, (mine.href, proc.stdout)
    assert rec["observed"] and rec["verdict"]["spec"]["clause"]
    if base is not None:        # the base's fragment kept where RFC 3986 §5.2.2 drops it
        assert rec["verdict"]["kind"] == "bug" and proc.stdout.splitlines()[0].endswith("#test")


def test_node_20_urlsearchparams_reproducer_shows_the_truncation(tmp_path):
    """Node 20's URLSearchParams (form-urlencoded parser, step 3.4) drops the code points after an
    invalid byte; the engine decodes them (U+FFFD, then the rest)."""
    import engine
    if shutil.which("node") is None:
        pytest.skip("no node here")
    text = "q=%FF丼script举"
    rec = {"parser": "node", "rule": "urlencoded/utf-8-decode", "input": text, "base": None}
    proc = _run(reproduce.reproducer(rec), tmp_path)
    got = json.loads(proc.stdout)
    expected = [list(p) for p in engine.form_urlencoded_parse(text.encode())]
    if got == expected:
        pytest.skip(f"this node ({subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()}) decodes as the Standard does")
    assert got == [["q", "\ufffd<script>"]] and expected == [["q", "\ufffd丼script举"]]


@pytest.mark.parametrize("language", sorted({reproduce.template_of(n).language for n in reproduce.with_templates()}))
def test_every_literal_reads_back_as_the_input(language):
    """A literal keeps printable ASCII and escapes the rest, so that a NUL, a newline, a lone
    surrogate's replacement and an astral code point reach the parser as they were."""
    text = 'a"\\\x00\n\u00e9\U0001F600#$@?'
    lit = reproduce.literal(text, language)
    assert "\n" not in lit and "\x00" not in lit
    if language in ("Python",):
        assert eval(lit) == text   # noqa: S307 - our own literal
    if language in ("JavaScript", "Java", "C#"):
        assert json.loads(lit) == text


def _record(parser: str, kind: str, signature: str, **extra) -> dict:
    return record.make_finding(
        input=extra.pop("input", "http://x/"), parser=parser, rule=extra.pop("rule", "differential/host"), signature=signature,
        verdict=record.verdict(kind, "own", "its own rules", "host", pairs=extra.pop("pairs", None)), **extra)


def test_list_leads_with_bugs_groups_hazards_filters_and_drafts(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    (tmp_path / "corpus").mkdir()
    recs = [_record("okhttp", "bug", "b1", input="http://[1:1:1:1:1:1:1::1]/"),
            _record("go-net-url", "hazard", "h1"), _record("go-net-url", "hazard", "h2", input="http://0x7f.1/"),
            _record("ip", "hazard", "s1", validator="ip", client="engine", rule="ssrf",
                    pairs=[{"validator": "ip", "client": "engine", "reached": "127.0.0.1"}])]
    record.write_findings(tmp_path / "run", recs)
    assert cli.main(["list", "--from", str(tmp_path / "run"), "--per-group", "1", "--drafts", str(tmp_path / "d")]) == 0
    out = capsys.readouterr().out
    assert out.index("BUGS (1)") < out.index("HAZARDS (3)")
    assert "ip -> engine (1)" in out and "go-net-url (2)" in out and "1 more" in out
    assert "engine reaches 127.0.0.1" in out
    (folder,) = (tmp_path / "d").iterdir()
    assert (folder / "Repro.java").read_text().count('HttpUrl.get("http://[1:1:1:1:1:1:1::1]/")') == 1
    assert "square/okhttp/issues" in (folder / "report.md").read_text()
    assert cli.main(["list", "--from", str(tmp_path / "run"), "--kind", "hazard", "--parser", "engine"]) == 0
    out = capsys.readouterr().out
    assert "findings: 0 bugs, 1 hazards" in out and "go-net-url" not in out
    items = catalog.from_files([tmp_path / "run"])
    assert [i.room for i in items] == ["differential", "differential", "differential", "ssrf"]


def test_oracle_list_shows_every_parser_s_and_validator_s_contract(capsys):
    assert cli.main(["oracle", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = [*oracles.REGISTRY, *oracles.VALIDATOR_SPECS]
    for name in names:
        at = next(i for i, line in enumerate(lines) if line.split()[:1] == [name])
        assert lines[at + 1].split()[0] == "contract:" and "https://" in lines[at + 1], lines[at:at + 2]


@pytest.mark.parametrize("parser", sorted(reproduce.with_templates()))
def test_every_template_fills_with_and_without_a_base(parser):
    """Each template is a format string: a brace of the language left single would raise there
    (whatwg-url's ``const { URL }`` did, on `urlwb list --bugs --drafts`)."""
    plain = reproduce.reproducer({"parser": parser, "input": "http://x/", "base": None})
    assert '"http://x/"' in plain.code or "'http://x/'" in plain.code
    if reproduce.template_of(parser).with_base is not None:
        based = reproduce.reproducer({"parser": parser, "input": "/p", "base": "http://x/"})
        assert "http://x/" in based.code and "/p" in based.code


def test_every_template_a_card_may_name_is_one_the_schema_allows():
    # the card schema's enum and the set of templates are the same names, so that a card naming
    # another is a one-line error when it is read, not a KeyError when a draft is written
    schema = json.loads((pathlib.Path(reproduce.__file__).parents[1] / "oracles" / "card.schema.json").read_text())
    assert schema["properties"]["reproducer"]["properties"]["template"]["enum"] == list(reproduce.TEMPLATES)
    assert len(reproduce.with_templates()) == 36   # 30 parsers and 6 validators, as the tables were


def test_the_committed_corpus_lists_every_room_with_a_contract_verdict():
    """Every sidecar and history entry of the committed corpus is listed, in its room, and none is
    left with the migration's provisional verdict (scripts/judge_corpus.py --write judged them)."""
    items = catalog.corpus()
    assert {i.room for i in items} >= {"fuzz", "differential", "hunt", "ssrf", "growth", "history"}
    assert not [i.source for i in items if "not yet judged" in i.record["verdict"]["spec"]["clause"]]


def test_one_finding_s_draft_by_its_signature(tmp_path, capsys):
    assert cli.main(["list", "--signature", "oracle-crashed/port:engine~okhttp", "--drafts", str(tmp_path)]) == 0
    assert "findings: 1 bugs, 0 hazards" in capsys.readouterr().out
    (folder,) = tmp_path.iterdir()
    assert "ArrayIndexOutOfBoundsException" in (folder / "report.md").read_text(encoding="utf-8")
