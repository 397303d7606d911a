"""``urlwb minimize FILE [--target T]``: minimize one failing input.

First libFuzzer: ``fuzzers/fuzz_<target>.py -minimize_crash=1 -runs=N -max_total_time=S
-exact_artifact_path=OUT FILE`` keeps mutating the input towards smaller ones that still fail;
libFuzzer accepts *any* failure as smaller, so its result is kept only when its signature is the
original one. Then ``shrink``: delta debugging that removes runs of bytes while the signature
stays the same (libFuzzer's mutations rarely hit the right bytes of a structured input). The target is the ``--target`` given, or read from the
path (``corpus/<target>/...`` or ``.urlwb/artifacts/<target>/...``).
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tempfile

from urlwb import children, corpus_store
from urlwb.cliutil import add_out, add_seconds, alias, seconds_flag
from urlwb.errors import UsageError
from urlwb.fuzzing.replay import replay
from urlwb.fuzzing.shrink import shrink as shrink_input


def fuzzer_env() -> dict:
    """Environment for a libFuzzer run: the venv's python first on PATH, since ``-fork``,
    ``-jobs`` and ``-minimize_crash`` re-execute the target through its shebang."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(corpus_store.ROOT), env.get("PYTHONPATH")]))
    return env


def target_command(target: str) -> list[str]:
    return [sys.executable, str(corpus_store.ROOT / corpus_store.TARGETS[target])]


def minimize(target: str, path: pathlib.Path, *, seconds: float = 30.0, runs: int = 100_000) -> bytes | None:
    """A smaller input that still fails (libFuzzer's judgement), or None if none was found."""
    with tempfile.TemporaryDirectory(prefix="urlwb-min-") as tmp:
        out = pathlib.Path(tmp, "minimized")
        cmd = target_command(target) + [
            "-minimize_crash=1", f"-runs={runs}", f"-max_total_time={max(1, int(seconds))}",
            f"-exact_artifact_path={out}", "-timeout=10", str(path)]
        try:
            children.run(cmd, cwd=tmp, env=fuzzer_env(), stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, timeout=seconds + 10)
        except subprocess.TimeoutExpired:
            pass
        return out.read_bytes() if out.exists() else None


def shrink(target: str, data: bytes, signature: str, *, seconds: float = 20.0,
           timeout: float = 10.0, chunk: int = 8) -> bytes:
    """The one shrinker (``urlwb.fuzzing.shrink``) on a target's input: a candidate fails the same way
    when its replay through the target (in a child, ``urlwb.fuzzing.replay``, ``chunk`` candidates per
    child) fails with ``signature``."""
    with tempfile.TemporaryDirectory(prefix="urlwb-shrink-") as tmp:
        def first_failing(batch: list[bytes]) -> int | None:
            paths = []
            for n, candidate in enumerate(batch):
                paths.append(pathlib.Path(tmp, f"c{n}"))
                paths[-1].write_bytes(candidate)
            outcomes = replay(target, paths, timeout=timeout)
            return next((i for i, o in enumerate(outcomes)
                         if not o.ok and o.signature == signature), None)

        return shrink_input(data, first_failing, seconds=seconds, batch=chunk)


def target_of(path: pathlib.Path) -> str | None:
    parts = path.resolve().parts
    for i, part in enumerate(parts[:-1]):
        if part in ("corpus", "artifacts") and parts[i + 1] in corpus_store.TARGETS:
            return parts[i + 1]
    return None


def add_arguments(parser) -> None:
    parser.add_argument("file", type=pathlib.Path, help="a failing input")
    parser.add_argument("--target", help="its target (default: read from the path)")
    add_seconds(parser, "minimizing the input", 30.0)
    add_out(parser, "the minimized input's file (default: FILE.min)", None, dest="output")
    alias(parser, "--output", "--out")
    alias(parser, "-o", "--out")


def run(args) -> int:
    if not args.file.is_file():
        raise UsageError(f"{args.file}: no such file")
    target = args.target or target_of(args.file)
    if target is None:
        raise UsageError(f"{args.file}: cannot tell its target from the path; give --target")
    corpus_store.check_target(target)
    seconds_flag("--seconds", args.seconds)
    if not corpus_store.readable(args.file):
        raise UsageError(f"{args.file}: not a readable file")
    out = args.output or args.file.with_name(args.file.name + ".min")
    if out.is_dir():
        out = out / (args.file.name + ".min")
    # The first replay gets a share of the budget, not the usual 10 s per input: a huge input
    # that takes longer than the whole budget to replay cannot be minimized in it.
    before = replay(target, [args.file], timeout=max(1.0, min(10.0, args.seconds / 2)))[0]
    if before.kind == "timeout":
        raise UsageError(f"{args.file}: its replay alone takes longer than the budget "
                         f"(--seconds {args.seconds:g}); give more time")
    if before.ok:
        raise UsageError(f"{args.file}: passes the {target} check; nothing to minimize")
    data = args.file.read_bytes()
    print(f"{args.file}: {len(data)} bytes, {before.signature}")
    small = minimize(target, args.file, seconds=args.seconds / 2)
    if small is not None and len(small) < len(data):
        corpus_store.atomic_write(out, small)
        after = replay(target, [out])[0]
        if after.signature == before.signature:
            data = small
        print(f"libFuzzer: {len(small)} bytes, " + ("same signature" if after.signature == before.signature
                                                     else f"other signature {after.signature} (dropped)"))
    data = shrink(target, data, before.signature, seconds=args.seconds / 2)
    corpus_store.atomic_write(out, data)
    print(f"{out}: {len(data)} bytes, same signature")
    return 0
