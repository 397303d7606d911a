"""One way for each thing several rooms do (issue 30): every child process through
``urlwb/children.py``, one table-cell escaper (``urlwb.htmlpage.cell``), one renderer of an
answer (``urlwb.oracles.answer_text``), one shrinker (``urlwb.fuzzing.shrink``).

The greps below read the package's source; each is also run on a planted file, where it must
name the planted line."""

from __future__ import annotations

import pathlib
import re

from markdown_it import MarkdownIt

from urlwb import htmlpage, oracles

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "urlwb"

#: direct child processes allowed outside urlwb/children.py, each with its reason
DIRECT_CHILDREN = {
    "urlwb/children.py": "the module itself (and its reaper)",
    "urlwb/sandbox.py": "probes whether namespaces work (children imports sandbox: through children would be a cycle); /bin/true, milliseconds",
    "urlwb/campaign/run.py": "`git rev-parse --short HEAD` of this checkout: milliseconds, our own git",
    "urlwb/oracles/whatwg.py": "`git rev-parse` of the vendored checkout: milliseconds, our own git",
    "urlwb/measure/compare_rev.py": "`git archive` of this repository's engine at a revision: our own code, seconds",
    "urlwb/oracles/browsers/browser_adapter.py": "runs inside the browser adapter, itself a child the supervisor started (and confined); its browser is in the adapter's process group",
    "urlwb/ssrf/observe/listen.py": "iproute2's `ip` inside the sealed network's listener, itself a child of the workbench: a few milliseconds each, no foreign code",
}

_DIRECT = re.compile(r"\bsubprocess\.(run|Popen|call|check_call|check_output|getoutput|getstatusoutput)\("
                     r"|\bfrom subprocess import\b[^\n]*\b(run|Popen|call|check_call|check_output)\b"
                     r"|\bos\.(system|popen|spawn\w*|exec\w*|posix_spawn\w*)\(")


def direct_children(root: pathlib.Path, allowed=DIRECT_CHILDREN) -> list[str]:
    """``path:line: text`` of each direct child-process start under ``root`` outside ``allowed``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = (root.name + "/" + path.relative_to(root).as_posix())
        if rel in allowed:
            continue
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            code = line.split("#")[0]
            if _DIRECT.search(code) and not code.lstrip().startswith(("def ", '"', "'")):
                found.append(f"{rel}:{n}: {line.strip()}")
    return found


def test_every_child_process_goes_through_children():
    assert direct_children(PACKAGE) == []
    for rel in DIRECT_CHILDREN:   # each allowed file exists and still needs its place on the list
        assert (PACKAGE.parent / rel).is_file(), rel


def test_a_planted_direct_child_is_named(tmp_path):
    root = tmp_path / "urlwb"
    (root / "room").mkdir(parents=True)
    (root / "room" / "build.py").write_text(
        "import subprocess\n\n\ndef build(cmd):\n    return subprocess.run(cmd, capture_output=True)\n", "utf-8")
    (root / "room" / "spawn.py").write_text("import os\nos.system('make')\n", "utf-8")
    (root / "room" / "fine.py").write_text(
        "import subprocess\nfrom urlwb import children\n\n\ndef run(cmd):\n"
        "    return children.run(cmd, stdin=subprocess.DEVNULL)  # subprocess.run( in a comment\n", "utf-8")
    assert direct_children(root) == ["urlwb/room/build.py:5: return subprocess.run(cmd, capture_output=True)",
                                     "urlwb/room/spawn.py:2: os.system('make')"]


# -- one table-cell escaper ---------------------------------------------------------------------

_ESCAPE = re.compile(r"""replace\(\s*["']\|["']\s*,\s*["']\\""")


def own_escapers(root: pathlib.Path) -> list[str]:
    return [f"{p.relative_to(root.parent).as_posix()}:{n}" for p in sorted(root.rglob("*.py"))
            if p.name != "htmlpage.py"
            for n, line in enumerate(p.read_text("utf-8").splitlines(), 1) if _ESCAPE.search(line)]


def test_one_table_cell_escaper(tmp_path):
    assert own_escapers(PACKAGE) == []
    planted = tmp_path / "urlwb" / "report.py"
    planted.parent.mkdir()
    planted.write_text('def cell(s):\n    return s.replace("|", "\\\\|")\n', "utf-8")
    assert own_escapers(planted.parent) == ["urlwb/report.py:2"]


def _cells(markdown: str) -> list[list[str]]:
    """The rows of the first table markdown-it finds, as the text of their cells."""
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    rows, row = [], None
    for t in tokens:
        if t.type == "tr_open":
            row = []
        elif t.type == "inline" and row is not None:
            row.append(t.content)
        elif t.type == "tr_close":
            rows.append(row)
            row = None
    return rows


def test_a_pipe_and_a_backtick_stay_in_their_cell():
    hostile = "http://a|b`c\n|d/"
    md = "| a | b |\n|---|---|\n" + f"| {htmlpage.code_cell(hostile)} | {htmlpage.cell(hostile)} |\n"
    rows = _cells(md)
    assert rows[1] == ["`http://a|b'c |d/`", "http://a|b`c |d/"], rows


def test_the_hunt_report_escapes_its_cells():
    from urlwb.hunt import report
    finding = {"signature": "host|differs", "new": True, "count": 1, "input": "http://a|b/",
               "minimized": "a|b", "filed": None}
    s = {"parser": "p", "version": "1", "language": "Python", "command": "urlwb hunt p", "judged_on": True,
         "judged": 1, "seconds": 1.0, "execs": 1, "exec_per_s": 1.0, "kept": 0, "cov_start": None,
         "cov_end": None, "reach_generated": None, "reach_hunted": None, "generated_signatures": 0,
         "findings": [finding], "distilled": 0, "distilled_dir": None, "instrument": ["p"], "generate": 0,
         "seed": 1, "seeds": 0, "stops": {}}
    try:
        md = report.render(s)
    except KeyError as exc:   # the summary grew a field: name it here
        raise AssertionError(f"the test's summary lacks {exc}") from None
    rows = _cells(md[md.index("| signature"):])
    # markdown-it pads or cuts a row to the header's width: the cells themselves must be whole
    # (HEAD's report gave ['`host', 'differs`', '**new**', '1', '`http://a', 'b/`'])
    assert rows[1][:4] == ["`host|differs`", "**new**", "1", "`http://a|b/`"], rows[1]


# -- one renderer of an answer --------------------------------------------------------------------

def test_one_renderer_of_an_answer():
    from urlwb.differential import report
    from urlwb.hunt import history
    from urlwb.versions import bisect
    recs = [None, oracles.FAILURE, oracles.Record(False, crash="ValueError: x"),
            oracles.Record(False, crash="deadline", hung=True),
            oracles.Record(False, "http", host="good.com", path="/", href="http://evil.com\\@good.com/"),
            oracles.Record(False, "http", host="a", path="/", href="http://b/")]
    assert [report.answer(r) for r in recs] == [oracles.answer_text(r) for r in recs]
    assert [history._answer(r) for r in recs[1:]] == [oracles.answer_text(r) for r in recs[1:]]
    assert [bisect._record_text(r) for r in recs[1:4]] == [oracles.answer_text(r) for r in recs[1:4]]
    assert oracles.answer_text(recs[5]) == "http://b/ (host a)"
    assert bisect._record_text(recs[4]) == "host 'good.com', href 'http://evil.com\\\\@good.com/'"


# -- one shrinker ---------------------------------------------------------------------------------

def test_one_shrinker():
    """Only urlwb/shrinking.py deletes chunks of an input (``s[:i] + s[i + k:]``) to shrink it;
    the SSRF witnesses and the release differential's go through it (ssrf.hunt and
    differential.releases import it; urlwb.fuzzing.shrink is its name for the fuzzing job)."""
    chunk_deletion = re.compile(r"(\w+)\[:\s*(\w+)\s*\]\s*\+\s*\1\[\s*\2\s*\+")
    loops = [p.relative_to(PACKAGE.parent).as_posix() for p in sorted(PACKAGE.rglob("*.py"))
             if chunk_deletion.search(p.read_text("utf-8"))]
    assert loops == ["urlwb/shrinking.py"], loops
    from urlwb import shrinking
    from urlwb.differential import releases
    from urlwb.fuzzing import shrink
    from urlwb.ssrf import hunt
    assert hunt.shrink is shrink.shrink is shrinking.shrink and releases.shrinking is shrinking


# -- one version order ----------------------------------------------------------------------------

def test_ssrf_orders_releases_by_the_registries_key():
    from urlwb.ssrf import command
    guava = ["33.0.0-jre", "32.1.3-jre", "31.1-jre"]
    assert sorted(guava, key=lambda v: command._version_key("jvm-guava", v)) == ["31.1-jre", "32.1.3-jre", "33.0.0-jre"]
    npm = ["1.0.0", "1.0.0-rc.1", "0.9.9", "1.10.0", "1.2.0"]
    assert sorted(npm, key=lambda v: command._version_key("ip", v)) == ["0.9.9", "1.0.0-rc.1", "1.0.0", "1.2.0", "1.10.0"]


def test_diff_says_why_an_answer_is_na():
    # issue 30: `urlwb diff` printed n/a for a 2 MB URL without saying why
    from urlwb.differential import report, run
    res = run.diff([("http://a/" + "x" * 150_000, None, "cli")], ["engine", "pywhatwgurl"], hosts=False)
    if "pywhatwgurl" not in res.records:
        import pytest
        pytest.skip(f"pywhatwgurl: {res.skipped.get('pywhatwgurl')}")
    assert "n/a: longer than the 100,000 code points it takes" in report.terminal_table(res)
