"""What a hunt kept, distilled into ``corpus/hunt/<parser>/``: committed, at most CAP inputs.

Chosen by the parser's own coverage: for atheris and Jazzer (both libFuzzer), ``-merge=1`` into a
folder that holds the seeds first, so that only inputs reaching what the generated inputs do not
are added (the previous distilled inputs are merged again with the new ones); for Go, whose
fuzzer keeps an input only when it widens net/url's coverage, its kept inputs as they are. Over
CAP, the shortest CAP are kept. Each file is one input's UTF-8 text (no base), which
``urlwb diff --corpus hunt`` and the campaign's differential round give to every parser.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import tempfile

from urlwb import children, corpus_store, sandbox
from urlwb.hunt import seeds as seeding
from urlwb.hunt.runners import JvmRunner, PythonRunner, Runner

CAP = 200


def hunt_corpus_dir(parser: str) -> pathlib.Path:
    return corpus_store.corpus_root() / "hunt" / parser


def distill(runner: Runner, cap: int = CAP) -> list[pathlib.Path]:
    """Replace ``corpus/hunt/<parser>/`` by the distilled inputs; their paths."""
    out = hunt_corpus_dir(runner.target.name)
    previous = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} if out.is_dir() else {}
    kept = dict(runner.kept())
    chosen: dict[str, bytes]
    if isinstance(runner, (PythonRunner, JvmRunner)):
        chosen = _merge(runner, previous, kept)
    else:
        chosen = {**previous, **kept}
    chosen = {k: v for k, v in chosen.items() if k not in runner._seed_names and v}
    best = sorted(chosen.items(), key=lambda kv: (len(kv[1]), kv[0]))[:cap]
    if out.is_dir():
        for path in out.iterdir():
            if path.is_file() and path.name not in dict(best):
                path.unlink()
    paths = []
    for name, data in best:
        path = out / corpus_store.sha1(data)
        if not path.exists():
            corpus_store.atomic_write(path, data)
        paths.append(path)
    return paths


def _merge(runner: Runner, previous: dict[str, bytes], kept: dict[str, bytes]) -> dict[str, bytes]:
    with tempfile.TemporaryDirectory(prefix="urlwb-distill-") as tmp:
        into, source = pathlib.Path(tmp, "into"), pathlib.Path(tmp, "source")
        into.mkdir()
        source.mkdir()
        for path in runner.seed_dir.iterdir():
            shutil.copy2(path, into / path.name)
        for data in list(previous.values()) + list(kept.values()):
            (source / corpus_store.sha1(data)).write_bytes(data)
        if isinstance(runner, PythonRunner):   # atheris, and the Rust binary (a subclass)
            runner.merge(into, [source])
        else:
            cmd, env, cwd = runner.command(60)
            cmd = [a for a in cmd if not a.startswith(("-max_total_time", "-dict", "-print_final"))
                   and a not in (str(runner.work), str(runner.seed_dir))]
            children.run(cmd + ["-merge=1", str(into), str(source)], env=env, cwd=cwd,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600,
                         sandbox=sandbox.limits())
        return {p.name: p.read_bytes() for p in into.iterdir()
                if p.is_file() and p.name not in runner._seed_names}


__all__ = ["CAP", "distill", "hunt_corpus_dir", "seeding"]
