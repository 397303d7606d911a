"""Go parsers under Go's own coverage: the adapter built with ``go build -cover -coverpkg=...``
into ``urlwb/oracles/go/build/cover/`` (git-ignored), run with ``GOCOVERDIR``, read back with
``go tool covdata textfmt`` (blocks: statements per block, hit or not) and ``go tool cover
-func`` (where each function starts). Go counts statements in blocks, not branches: a block
never run is the missed-branch figure here (its first line listed)."""

from __future__ import annotations

import os
import pathlib
import re
import tempfile
import time
from collections import defaultdict

from urlwb import children
from urlwb.oracles import manifests
from urlwb.reach import adapter
from urlwb.reach.model import Function, Reach

FOLDER = manifests.ROOT / "go"
BINARY = FOLDER / "build" / "cover" / "urlwb-go"
#: every package the adapter's oracles call, instrumented in one binary
# the main package too: without it, a -cover binary writes no coverage at all (measured)
COVERPKG = "urlwb/oracles/go,net/url,golang.org/x/net/idna"
_BLOCK = re.compile(r"^(.+?):(\d+)\.\d+,(\d+)\.\d+ (\d+) (\d+)$")
_FUNC = re.compile(r"^(.+?):(\d+):\s+(\S+)\s+[\d.]+%$")


def build(log=print) -> pathlib.Path:
    """The instrumented adapter, rebuilt when a source is newer (offline after the first build:
    Go's module cache)."""
    sources = list(FOLDER.glob("*.go")) + [FOLDER / "go.mod", FOLDER / "go.sum"]
    if BINARY.exists() and all(s.stat().st_mtime <= BINARY.stat().st_mtime for s in sources):
        return BINARY
    log(f"  building the Go adapter with -cover -coverpkg={COVERPKG} into {BINARY.relative_to(manifests.ROOT.parent.parent)}")
    env = {**os.environ, "GOTOOLCHAIN": "local"}
    proc = children.run(["go", "build", "-mod=readonly", "-buildvcs=false", "-cover",
                         f"-coverpkg={COVERPKG}", "-o", str(BINARY), "."],
                        cwd=FOLDER, env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"go build -cover failed: {(proc.stderr.strip().splitlines() or ['?'])[-1]}")
    return BINARY


def measure(name: str, language: str, packages: tuple[str, ...], items, log=print) -> Reach:
    t0 = time.monotonic()
    binary = build(log)
    spec = adapter.spec_of(name)
    with tempfile.TemporaryDirectory(prefix="urlwb-reach-go-") as tmp:
        covdir = pathlib.Path(tmp) / "cov"
        covdir.mkdir()
        version, _ = adapter.run(name, items, command=[str(binary), *spec.command[1:]],
                                 env={"GOCOVERDIR": str(covdir)})
        text = pathlib.Path(tmp) / "cover.txt"
        _go(["tool", "covdata", "textfmt", f"-i={covdir}", f"-o={text}"])
        func_out = _go(["tool", "cover", f"-func={text}"])
        blocks = text.read_text(encoding="utf-8").splitlines()[1:]
    reach = Reach(name, language, version, f"go build -cover ({_go(['version']).split()[2]})",
                  unit="statements", branch_unit=None, inputs=len(items))
    starts: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for line in func_out.splitlines():
        m = _FUNC.match(line.strip())
        if m and _ours(m[1], packages):
            starts[m[1]].append((int(m[2]), m[3]))
    fns: dict[tuple[str, int], Function] = {}
    for file, lst in starts.items():
        lst.sort()
        for line, fname in lst:
            fns[(file, line)] = Function(file, fname, line, 0, 0, None, None, [])
    for b in blocks:
        m = _BLOCK.match(b)
        if not m:
            continue
        file, start, stmts, count = m[1], int(m[2]), int(m[4]), int(m[5])
        # -func names a file by import path as the block does
        lst = starts.get(file)
        if not lst:
            continue
        owner = max((s for s in lst if s[0] <= start), default=None)
        if owner is None:
            continue
        fn = fns[(file, owner[0])]
        fn.lines += stmts
        if count:
            fn.lines_hit += stmts
        elif stmts:
            fn.missed.append(start)
    reach.functions = sorted(fns.values(), key=lambda f: (f.file, f.line))
    reach.files = sorted(starts)
    reach.seconds = time.monotonic() - t0
    return reach


def _ours(file: str, packages: tuple[str, ...]) -> bool:
    return any(file.startswith(p + "/") and "/" not in file[len(p) + 1:] for p in packages)


def _go(args: list[str]) -> str:
    proc = children.run(["go", *args], cwd=FOLDER, capture_output=True, text=True, timeout=300,
                        env={**os.environ, "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=readonly"})
    if proc.returncode != 0:
        raise RuntimeError(f"go {' '.join(args[:2])} failed: {(proc.stderr.strip().splitlines() or ['?'])[-1]}")
    return proc.stdout
