"""``urlwb triage``: turn libFuzzer crash artifacts into minimized, deduplicated regress entries.

For each artifact in ``.urlwb/artifacts/<target>/`` (``crash-*``, ``timeout-*``, ``oom-*``,
``leak-*``; ``slow-unit-*`` are not failures): replay it in a child process (``urlwb.fuzzing.replay``) to
get its signature; if that signature is already filed for the target, it is a duplicate; else
minimize it (libFuzzer ``-minimize_crash``, keeping the result only if the signature is the same)
and file it with ``corpus_store.record_finding``. The artifact is moved to ``triaged/`` (or
``unreproducible/``) only after its entry is written, so an interrupted triage loses nothing.

The signature is :func:`urlwb.fuzzing.signatures.of_failure`'s, the one every part of the workbench uses.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import pathlib
import shutil
import sys

from urlwb import corpus_store, exitcodes
from urlwb.cliutil import add_minimize_seconds, add_targets, seconds_flag
from urlwb.errors import UsageError
from urlwb.findings import sidecar
from urlwb.fuzzing.minimize import minimize as run_minimize
from urlwb.fuzzing.minimize import shrink
from urlwb.fuzzing.replay import replay

FAILURE_PREFIXES = ("crash-", "timeout-", "oom-", "leak-")


# -- triage of artifacts ----------------------------------------------------------------------

def artifact_dir(target: str) -> pathlib.Path:
    path = corpus_store.work_root() / "artifacts" / target
    path.mkdir(parents=True, exist_ok=True)
    return path


def pending_artifacts(target: str) -> list[pathlib.Path]:
    folder = artifact_dir(target)
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name.startswith(FAILURE_PREFIXES))


@dataclasses.dataclass
class Triaged:
    target: str
    artifact: pathlib.Path
    verdict: str                      # new | duplicate | unreproducible
    signature: str = ""
    entry: pathlib.Path | None = None
    size: tuple[int, int] = (0, 0)    # original, minimized


def _move(path: pathlib.Path, sub: str) -> pathlib.Path:
    dest = path.parent / sub / path.name
    dest.parent.mkdir(exist_ok=True)
    return pathlib.Path(shutil.move(str(path), dest))


def known_signatures(target: str) -> set[str]:
    return {e.signature for e in corpus_store.iter_regress(target) if e.sidecar}


def _replay_bytes(target: str, artifact: pathlib.Path, data: bytes, timeout: float):
    tmp = artifact.parent / f".min-{artifact.name}"
    tmp.write_bytes(data)
    try:
        return replay(target, [tmp], timeout=timeout)[0]
    finally:
        tmp.unlink()


def triage_artifact(target: str, artifact: pathlib.Path, *, minimize: bool = True,
                    minimize_seconds: float = 30.0, timeout: float = 10.0, log=print) -> Triaged:
    """Replay, deduplicate, minimize and file one artifact (see the module docstring)."""
    data = artifact.read_bytes()
    outcome = replay(target, [artifact], timeout=timeout)[0]
    if outcome.ok:
        moved = _move(artifact, "unreproducible")
        log(f"  {target}: {artifact.name} does not reproduce; kept in {moved.parent}")
        return Triaged(target, moved, "unreproducible")
    if outcome.signature in known_signatures(target):
        moved = _move(artifact, "triaged")
        return Triaged(target, moved, "duplicate", outcome.signature)
    small = data
    if minimize and len(data) > 1:
        candidate = run_minimize(target, artifact, seconds=minimize_seconds / 2)
        if candidate is not None and len(candidate) < len(data):
            again = _replay_bytes(target, artifact, candidate, timeout)
            if not again.ok and again.signature == outcome.signature:
                small, outcome = candidate, again
        shrunk = shrink(target, small, outcome.signature, seconds=minimize_seconds / 2, timeout=timeout)
        if shrunk != small:
            small, outcome = shrunk, _replay_bytes(target, artifact, shrunk, timeout)
    extra = {"artifact": artifact.name, "original_size": len(data), "size": len(small),
             "note": f"found by fuzz_{target}; {outcome.detail.splitlines()[0][:300] if outcome.detail else outcome.kind}"}
    entry = corpus_store.record_finding(target, small, outcome.signature, outcome.kind,
                                        outcome.detail[:4000], extra=extra, shape=sidecar.shape)
    moved = _move(artifact, "triaged")
    return Triaged(target, moved, "new" if entry else "duplicate", outcome.signature, entry,
                   (len(data), len(small)))


@contextlib.contextmanager
def _exclusive(log):
    """One triage at a time per working folder: a second one waits for the first (two would
    file the same artifact twice, or move it from under each other)."""
    path = corpus_store.work_root() / "triage.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log(f"  waiting for another urlwb triage on {corpus_store.work_root()} to finish")
            fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def triage(targets: list[str], *, minimize: bool = True, minimize_seconds: float = 30.0,
           log=print) -> list[Triaged]:
    with _exclusive(log):
        return _triage(targets, minimize, minimize_seconds, log)


def _triage(targets, minimize, minimize_seconds, log) -> list[Triaged]:
    results = []
    for target in targets:
        for artifact in pending_artifacts(target):
            t = triage_artifact(target, artifact, minimize=minimize,
                                minimize_seconds=minimize_seconds, log=log)
            if t.verdict == "new":
                log(f"  {target}: NEW {t.signature} ({t.size[0]} -> {t.size[1]} bytes) -> "
                    f"{t.entry.relative_to(corpus_store.corpus_root().parent) if t.entry else ''}")
            results.append(t)
    return results


def add_arguments(parser) -> None:
    add_targets(parser)
    parser.add_argument("--no-minimize", action="store_true", help="file artifacts as they are")
    add_minimize_seconds(parser)


def run(args) -> int:
    seconds_flag("--minimize-seconds", args.minimize_seconds)
    targets = corpus_store.resolve_targets(args.targets)
    results = triage(targets, minimize=not args.no_minimize, minimize_seconds=args.minimize_seconds)
    counts = {v: sum(r.verdict == v for r in results) for v in ("new", "duplicate", "unreproducible")}
    print(f"triage: {len(results)} artifacts: {counts['new']} new findings, "
          f"{counts['duplicate']} duplicates, {counts['unreproducible']} unreproducible")
    return exitcodes.FINDINGS if counts["new"] else exitcodes.OK   # a new finding


if __name__ == "__main__":
    sys.exit("use: urlwb triage")
