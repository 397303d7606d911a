"""The fuzz targets as OSS-Fuzz and ClusterFuzzLite run them.

- each core target is an executable script with a shebang, a docstring stating its invariant,
  ``check``/``TestOneInput``/``main``, and no exception handler but for engine.Failure;
- each runs as OSS-Fuzz runs it: ``python fuzzers/fuzz_x.py -runs=N corpus_dir`` (fixed seed),
  with its ``.options`` as flags (so libFuzzer itself parses its ``.dict``);
- ``.clusterfuzzlite/build.sh`` (run with stand-ins for ``compile_python_fuzzer`` and ``pip3``)
  puts every target, its ``<name>_seed_corpus.zip`` (exactly the seed folder), ``.dict`` and
  ``.options`` into ``$OUT``; every ``.options`` parses;
- the input format (``urlwb.fuzzdata``): what ``Writer`` writes, ``Reader`` reads back.
"""

from __future__ import annotations

import ast
import configparser
import os
import random
import shutil
import stat
import subprocess
import sys
import zipfile

import pytest

from urlwb import corpus_store
from urlwb.fuzzing.fuzz import libfuzzer_flags
from urlwb.fuzzdata import Reader, Writer

ROOT = corpus_store.ROOT
CORE = corpus_store.CORE_TARGETS
RUNS = 60
SEEDS = 20   # a few seeds: the test is that the target runs, not a fuzzing round


def _source(target: str) -> str:
    return (ROOT / corpus_store.TARGETS[target]).read_text(encoding="utf-8")


@pytest.mark.parametrize("target", CORE)
def test_target_shape(target):
    path = ROOT / corpus_store.TARGETS[target]
    source = _source(target)
    assert source.startswith("#!/usr/bin/env python3\n"), f"{path}: no python3 shebang"
    assert path.stat().st_mode & stat.S_IXUSR, f"{path}: not executable (libFuzzer -fork re-executes it)"
    tree = ast.parse(source)
    doc = ast.get_docstring(tree) or ""
    assert "Invariant" in doc, f"{path}: the docstring does not state the invariant"
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert {"check", "TestOneInput", "main"} <= names, f"{path}: missing {({'check', 'TestOneInput', 'main'} - names)}"
    assert "atheris.instrument_imports(" in source
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler):
            caught = ast.unparse(node.type) if node.type else "bare except"
            assert caught in ("engine.Failure", "Failure"), f"{path}: catches {caught}"


def test_no_fuzz_target_catches_more_than_a_named_exception():
    """Every fuzz target (the engine's, fuzz_differential, fuzz_fast_path, fuzz_properties) catches
    only a named exception type: never Exception, BaseException or a bare except, which would hide
    what the fuzzer is there to find (fuzz_properties caught Exception to sign a property record
    until 2026-12-02: urlwb.fuzzing.signatures.of_property_replay does that now)."""
    broad = []
    for target, rel in corpus_store.TARGETS.items():
        for node in ast.walk(ast.parse((ROOT / rel).read_text(encoding="utf-8"))):
            if isinstance(node, ast.ExceptHandler):
                caught = ast.unparse(node.type) if node.type else "bare except"
                if caught in ("Exception", "BaseException", "bare except") or "Exception," in caught:
                    broad.append(f"{rel}:{node.lineno}: catches {caught}")
    assert len(corpus_store.TARGETS) >= 15
    assert broad == []


def _env():
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")])
    return env


@pytest.mark.parametrize("target", CORE)
def test_runs_as_oss_fuzz_runs_it(target, tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for seed in list(corpus_store.iter_seeds(target))[:SEEDS]:
        shutil.copy(seed, corpus)
    proc = subprocess.run(
        [sys.executable, str(ROOT / corpus_store.TARGETS[target]), f"-runs={RUNS}", "-seed=1",
         f"-artifact_prefix={tmp_path}/", *libfuzzer_flags(target), str(corpus)],
        cwd=tmp_path, env=_env(), capture_output=True, text=True, errors="replace", timeout=240)
    tail = "\n".join(proc.stderr.splitlines()[-25:])
    assert proc.returncode == 0, f"fuzz_{target} exited {proc.returncode}:\n{tail}"
    assert "Done" in proc.stderr and "runs in" in proc.stderr, tail
    assert not list(tmp_path.glob("crash-*")), tail


def _fake_tools(bin_dir):
    """Stand-ins: compile_python_fuzzer records the script it was given as $OUT/<name>."""
    bin_dir.mkdir()
    (bin_dir / "compile_python_fuzzer").write_text(
        '#!/bin/sh\nset -e\nname=$(basename "$1" .py)\necho "$@" > "$OUT/$name"\n')
    (bin_dir / "pip3").write_text("#!/bin/sh\nexit 0\n")
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)


@pytest.mark.skipif(shutil.which("zip") is None, reason="build.sh needs zip (installed in the Dockerfile)")
def test_build_sh_outputs(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    _fake_tools(tmp_path / "bin")
    env = dict(os.environ, OUT=str(out), SRC=str(tmp_path), PROJECT_DIR=str(ROOT),
               PATH=os.pathsep.join([str(tmp_path / "bin"), os.environ.get("PATH", "")]))
    proc = subprocess.run(["bash", str(ROOT / ".clusterfuzzlite" / "build.sh")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    for target, module in corpus_store.TARGETS.items():
        name = f"fuzz_{target}"
        assert (out / name).read_text().split()[0] == module, f"{name} not compiled"
        seeds = sorted(p.name for p in corpus_store.iter_seeds(target))
        if seeds:
            with zipfile.ZipFile(out / f"{name}_seed_corpus.zip") as zf:
                assert sorted(zf.namelist()) == seeds, f"{name}_seed_corpus.zip differs from its seed folder"
    for target in CORE:
        for ext in (".dict", ".options"):
            assert (out / f"fuzz_{target}{ext}").is_file(), f"fuzz_{target}{ext} not copied to $OUT"


@pytest.mark.parametrize("target", CORE)
def test_options_and_dict_parse(target):
    options = configparser.ConfigParser()
    options.read(ROOT / "fuzzers" / f"fuzz_{target}.options", encoding="utf-8")
    assert options.has_section("libfuzzer"), f"fuzz_{target}.options has no [libfuzzer] section"
    assert int(options["libfuzzer"]["max_len"]) > 0
    assert (ROOT / "fuzzers" / options["libfuzzer"]["dict"]).is_file()
    entries = [line for line in (ROOT / "fuzzers" / f"fuzz_{target}.dict").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    assert entries, f"fuzz_{target}.dict is empty"
    for line in entries:
        assert line.startswith('"') and line.endswith('"') and len(line) > 2, f"bad dict line {line!r}"


def test_writer_reader_round_trip():
    rng = random.Random(4)
    alphabet = ["a", "/", "%", "\u00e9", "\u3002", "\ud800", "\U0001f600"]
    for _ in range(500):
        w, ops = Writer(), []
        for _ in range(rng.randint(0, 6)):
            kind = rng.choice("cit")
            if kind == "c":
                n = rng.randint(1, 300)
                ops.append(("c", n, rng.randrange(n)))
                w.choice(ops[-1][2], n)
            elif kind == "i":
                lo = rng.randint(-9, 9)
                hi = lo + rng.randint(0, 2**33)
                ops.append(("i", lo, hi, rng.randint(lo, hi)))
                w.integer(lo, hi, ops[-1][3])
            else:
                ops.append(("t", "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5)))))
                w.text(ops[-1][1])
        w.rest("tail\u3002")
        r = Reader(w.data())
        for op in ops:
            if op[0] == "c":
                assert r.choice(range(op[1])) == op[2]
            elif op[0] == "i":
                assert r.integer(op[1], op[2]) == op[3]
            else:
                assert r.text(r.length()) == op[1]
        assert r.rest() == "tail\u3002"


def test_traced_events_are_counted_per_input(tmp_path):
    """``urlwb bench-fuzz --events``: the target's check replayed over its seeds under atheris's
    instrumentation, with the hooks counted, instrumenting what the target does."""
    import json
    import os

    def count(target, corpus):
        env = dict(os.environ, URLWB_WORKDIR=str(tmp_path / "work"))
        proc = subprocess.run([sys.executable, "-m", "urlwb.fuzzing.events", str(corpus_store.ROOT),
                               target, str(corpus)], env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout.strip().splitlines()[-1])

    seeds = corpus_store.seed_dir("percent")
    r = count("percent", seeds)
    assert r["inputs"] == len([f for f in seeds.iterdir() if f.is_file()])
    assert r["branches_per_input"] > 0
    # What each target leaves uninstrumented is read from its own instrument_imports call.
    from urlwb.fuzzing.events import instrumented_modules

    assert instrumented_modules(corpus_store.ROOT / "fuzzers" / "fuzz_host.py") == (
        ["engine"], ["engine.punycode"])
    assert instrumented_modules(corpus_store.ROOT / "fuzzers" / "fuzz_idna.py") == (["engine"], [])


def test_a_target_says_which_independent_peer_is_missing(tmp_path):
    # idna made unimportable: fuzz_idna still runs, and says in one line that its IDNA2008 check is off.
    (tmp_path / "idna.py").write_text("raise ImportError('planted: no idna here')\n")
    env = _env()
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [sys.executable, str(ROOT / corpus_store.TARGETS["idna"]), "-runs=50", "-seed=1"],
        cwd=tmp_path, env=env, capture_output=True, text=True, errors="replace", timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    said = [line for line in proc.stderr.splitlines() if line.startswith("fuzz_idna: idna cannot be imported")]
    assert len(said) == 1 and "planted: no idna here" in said[0] and "IDNA2008" in said[0], proc.stderr[-2000:]
