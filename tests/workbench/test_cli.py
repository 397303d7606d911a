"""``urlwb`` on bad input: one line on stderr, exit status 2; unreadable corpus files skipped.

Each case runs the console entry (``urlwb.cli.main``) in a child process, in a temporary corpus
(``URLWB_CORPUS``/``URLWB_WORKDIR``), never touching the committed one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from urlwb import corpus_store


def urlwb(*args, corpus=None, work=None):
    env = dict(os.environ)
    if corpus is not None:
        env["URLWB_CORPUS"] = str(corpus)
    if work is not None:
        env["URLWB_WORKDIR"] = str(work)
    # Not "python -m urlwb.cli": that would make a second urlwb.cli module (__main__).
    entry = "import sys; from urlwb.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", entry, *args], capture_output=True,
                          text=True, env=env, timeout=120, cwd=corpus_store.ROOT)


def assert_usage_error(proc, *words):
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert len(lines) == 1, f"expected one line, got:\n{proc.stderr}"
    for word in words:
        assert word in lines[0], lines[0]


@pytest.mark.parametrize("command", [
    ["fuzz", "no_such_target"], ["replay", "no_such_target"], ["list", "no_such_target"],
    ["merge", "no_such_target"], ["triage", "no_such_target"], ["coverage", "--corpus", "no_such_target"],
])
def test_unknown_target(command):
    assert_usage_error(urlwb(*command), "unknown target", "no_such_target")


@pytest.mark.parametrize("command", [
    ["fuzz", "url", "--seconds", "soon"], ["fuzz", "url", "--jobs", "0"], ["fuzz", "url", "--seconds", "-1"],
    ["replay", "--timeout-seconds", "0"], ["campaign", "--minutes", "x"],
    ["campaign", "--minutes", "0"], ["bench-fuzz", "--seconds", "0"], ["bench-fuzz", "--runs", "0"],
    ["compare-rev", "HEAD", "--inputs", "-1"], ["compare-rev"],
])
def test_bad_flag(command):
    assert_usage_error(urlwb(*command))


def test_unknown_flag_one_line():
    assert_usage_error(urlwb("fuzz", "url", "--no-such-flag"), "--no-such-flag")


def test_unknown_flag_exit_status():
    proc = urlwb("fuzz", "url", "--no-such-flag")
    assert proc.returncode == 2 and "--no-such-flag" in proc.stderr.strip().splitlines()[-1]


def test_missing_corpus(tmp_path):
    for command in (["fuzz", "url", "--seconds", "1"], ["replay", "url"]):
        assert_usage_error(urlwb(*command, corpus=tmp_path, work=tmp_path / "w"), "missing seed corpus")
    assert_usage_error(urlwb("merge", "url", corpus=tmp_path, work=tmp_path / "w"), "no working corpus")
    assert_usage_error(urlwb("minimize", str(tmp_path / "nothing")), "no such file")


def _corpus_with_seed(tmp_path):
    seed = tmp_path / "url" / "seed"
    seed.mkdir(parents=True)
    (seed / "a").write_bytes(b"https://example.com/")
    return seed


@pytest.mark.parametrize("content", ["{not json", '["a list"]', '{"target": "url"}',
                                     json.dumps({"target": "url", "signature": "s", "kind": "invariant",
                                                 "first_seen": "2026-01-01", "status": "maybe"})])
def test_corrupt_sidecar(tmp_path, content):
    _corpus_with_seed(tmp_path)
    regress = tmp_path / "url" / "regress"
    regress.mkdir()
    (regress / "abc").write_bytes(b"x")
    (regress / "abc.json").write_text(content)
    for command in (["replay", "url"], ["list", "--findings"]):
        assert_usage_error(urlwb(*command, corpus=tmp_path, work=tmp_path / "w"), "abc.json", "sidecar")


def test_unreadable_corpus_file_is_reported_and_kept(tmp_path):
    seed = _corpus_with_seed(tmp_path)
    (seed / "dangling").symlink_to(tmp_path / "gone")
    proc = urlwb("replay", "url", corpus=tmp_path, work=tmp_path / "w")
    assert proc.returncode == 0, proc.stderr
    assert "unreadable" in proc.stderr and "dangling" in proc.stderr
    assert (seed / "dangling").is_symlink(), "an unreadable corpus file was deleted"


def test_record_finding_dedup_and_atomic(tmp_path, monkeypatch):
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path))
    first = corpus_store.record_finding("url", b"a", "sig:1", "invariant", "boom")
    assert first is not None and first.read_bytes() == b"a"
    assert corpus_store.record_finding("url", b"b", "sig:1", "invariant", "boom") is None
    assert corpus_store.record_finding("url", b"a", "sig:2", "invariant", "boom") is None
    assert corpus_store.record_finding("url", b"c", "sig:2", "exception", "boom") is not None
    entries = list(corpus_store.iter_regress("url"))
    assert sorted(e.signature for e in entries) == ["sig:1", "sig:2"]
    assert not [p for p in (tmp_path / "url" / "regress").iterdir() if p.name.startswith(".")]
    meta = corpus_store.load_sidecar(corpus_store.sidecar_path(first))
    assert meta["status"] == "open" and meta["invariant"] == "boom" and meta["sha1"] == first.name


def test_help_imports_no_command_module():
    """`urlwb --help` lists every command and imports none of their modules (issue 30: it used
    to import 74 of the workbench's modules); `urlwb diff --help` imports diff's alone."""
    import subprocess
    import sys as _sys

    from urlwb.cli import SUBCOMMANDS

    probe = ("import sys\nfrom urlwb import cli\ntry:\n    cli.main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
             "print('MODULES', ' '.join(sorted(m for m in sys.modules if m.startswith('urlwb.'))))")
    def imported(*argv):
        out = subprocess.run([_sys.executable, "-c", probe, *argv], capture_output=True, text=True,
                             timeout=60).stdout
        line = [l for l in out.splitlines() if l.startswith("MODULES")][-1]
        return set(line.split()[1:])
    modules = {module for module, _ in SUBCOMMANDS.values()}
    top = imported("--help")
    assert not top & modules, top & modules
    assert len(top) <= 5, top
    assert imported("diff", "--help") & modules == {"urlwb.differential.command"}


def test_no_help_builds_a_grammar():
    """No ``urlwb CMD --help`` builds an RFC grammar (issue 37: every --help took about 2 s, 1.5 s
    of it ``abnf`` building RFC 3986's, 3987's and 2396's grammars at import); the grammars are
    built on first use (``urlwb.verdicts.rfc3986._grammar``), and that use still works. The
    times are ``urlwb bench help``'s (no timing here)."""
    from urlwb.cli import SUBCOMMANDS
    from urlwb.measure.bench import GRAMMAR_MODULES

    probe = ("import sys\nfrom urlwb import cli\n"
             "for name in sys.argv[1:]:\n"
             "    try:\n        cli.main([name, '--help'])\n    except SystemExit:\n        pass\n"
             f"print('GRAMMARS', *[m for m in {GRAMMAR_MODULES!r} if m in sys.modules])\n"
             "from urlwb.verdicts import rfc3986\n"
             "print('JUDGED', rfc3986.valid('http://a/b', 'rfc3986'), rfc3986.valid('http://a b/', 'rfc2396'),"
             " rfc3986.valid('http://\u00e9/', 'rfc3987'))\n"
             f"print('BUILT', *[m for m in {GRAMMAR_MODULES!r} if m in sys.modules])")
    proc = subprocess.run([sys.executable, "-c", probe, *SUBCOMMANDS], capture_output=True, text=True,
                          timeout=300, cwd=corpus_store.ROOT)
    lines = {line.split()[0]: line.split()[1:] for line in proc.stdout.splitlines() if line.split()
             and line.split()[0] in ("GRAMMARS", "JUDGED", "BUILT")}
    assert lines.get("GRAMMARS") == [], proc.stdout[-2000:] + proc.stderr[-2000:]
    assert lines["JUDGED"] == ["True", "False", "True"]
    assert lines["BUILT"] == list(GRAMMAR_MODULES)


def test_help_needs_no_engine(tmp_path):
    """``urlwb --help`` runs nothing and so imports no engine: it answers even where the engine is
    broken (tests/engine/test_engine_unimportable.py: every command itself stops)."""
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "__init__.py").write_text("raise RuntimeError('planted')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(corpus_store.ROOT)])}
    proc = subprocess.run([sys.executable, "-m", "urlwb.cli", "--help"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "COMMAND" in proc.stdout, proc.stderr
