"""``urlwb triage``: turn libFuzzer crash artifacts into minimized, deduplicated regress entries.

For each artifact in ``.urlwb/artifacts/<target>/`` (``crash-*``, ``timeout-*``, ``oom-*``,
``leak-*``; ``slow-unit-*`` are not failures): replay it in a child process (``urlwb.replay``) to
get its signature; if that signature is already filed for the target, it is a duplicate; else
minimize it (libFuzzer ``-minimize_crash``, keeping the result only if the signature is the same)
and file it with ``corpus_store.record_finding``. The artifact is moved to ``triaged/`` (or
``unreproducible/``) only after its entry is written, so an interrupted triage loses nothing.

A signature is
- ``invariant:<check_name>:<site>`` for an AssertionError raised in an invariants module
  (``properties/invariants.py``, ``properties/reference.py``):
  the innermost public ``check_*`` function and a short hash of the failing line there (the
  ``_fail(...)`` call), stable when other lines of the file move;
- ``exception:<Type>@<file>:<function>`` for any other exception: its type and the innermost
  engine frame (the innermost frame of all if the engine is not on the stack);
- ``timeout@<file>:<function>`` for an input that runs past the timeout (innermost engine frame
  of the stack faulthandler dumps);
- ``crash:<signal>`` for a child killed by a signal without a Python traceback.
"""

from __future__ import annotations

import dataclasses
import hashlib
import pathlib
import re
import shutil
import signal
import sys

from urlwb import corpus_store

_FRAME = re.compile(r'^\s*File "(?P<path>[^"]+)", line (?P<line>\d+),? in (?P<func>\S+)\s*$')
_MARKERS = re.compile(r"^[\s^~]*$")
FAILURE_PREFIXES = ("crash-", "timeout-", "oom-", "leak-")
#: The modules whose check_* functions state invariants (shared by fuzzers and properties).
INVARIANT_MODULES = ("properties/invariants.py", "properties/reference.py")


@dataclasses.dataclass
class Frame:
    path: str        # relative to the repository root when inside it
    line: int
    func: str
    source: str = ""


def _relative(path: str) -> str:
    try:
        return str(pathlib.Path(path).resolve().relative_to(corpus_store.ROOT))
    except (ValueError, OSError):
        return path


def parse_traceback(text: str) -> tuple[list[Frame], str]:
    """The frames (outermost first) and the exception line(s) of the last Python traceback in
    ``text``; or, for a faulthandler dump, its frames (reordered outermost first) and ""."""
    if "Traceback (most recent call last):" in text:
        block = text.rsplit("Traceback (most recent call last):", 1)[1].splitlines()
        frames: list[Frame] = []
        i = 0
        while i < len(block):
            m = _FRAME.match(block[i])
            if m:
                frames.append(Frame(_relative(m["path"]), int(m["line"]), m["func"]))
                if i + 1 < len(block) and block[i + 1].startswith("    ") and not _FRAME.match(block[i + 1]):
                    frames[-1].source = block[i + 1].strip()
                    i += 1
                i += 1
                continue
            if block[i].strip() and not block[i].startswith(" ") and not _MARKERS.match(block[i]):
                return frames, "\n".join(block[i:]).strip()
            i += 1
        return frames, ""
    dump = re.split(r"(?:Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\):", text)
    if len(dump) > 1:
        frames = [Frame(_relative(m["path"]), int(m["line"]), m["func"])
                  for m in map(_FRAME.match, dump[-1].splitlines()) if m]
        return frames[::-1], ""
    return [], ""


def _innermost(frames: list[Frame], prefix: str) -> Frame | None:
    for frame in reversed(frames):
        if frame.path.startswith(prefix):
            return frame
    return None


def _where(frames: list[Frame]) -> str:
    frame = _innermost(frames, "engine/") or (frames[-1] if frames else None)
    return f"{frame.path}:{frame.func}" if frame else "?"


def classify(stderr: str, returncode: int | None, timed_out: bool = False) -> tuple[str, str, str]:
    """(kind, signature, detail) of a failed replay, from the child's stderr and exit status."""
    frames, exc = parse_traceback(stderr)
    if timed_out:
        return "timeout", f"timeout@{_where(frames)}", "ran past the timeout"
    if not exc:
        if returncode is not None and returncode < 0:
            name = signal.Signals(-returncode).name
            return "exception", f"crash:{name}", f"killed by {name}"
        tail = stderr.strip().splitlines()[-1:] or [f"exit status {returncode}"]
        return "exception", f"crash:exit-{returncode}", tail[0]
    exc_type = exc.split(":", 1)[0].strip()
    if exc_type.rsplit(".", 1)[-1] == "AssertionError":
        checks = [f for f in frames if f.path.endswith(INVARIANT_MODULES)]
        public = [f for f in checks if f.func.startswith("check_")]
        site = next((f for f in reversed(checks) if f.func != "_fail"), None)
        if public and site:
            digest = hashlib.sha1(f"{site.func}:{site.source}".encode()).hexdigest()[:8]
            return "invariant", f"invariant:{public[-1].func}:{digest}", exc
    return "exception", f"exception:{exc_type.rsplit('.', 1)[-1]}@{_where(frames)}", exc


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
    from urlwb.replay import replay

    tmp = artifact.parent / f".min-{artifact.name}"
    tmp.write_bytes(data)
    try:
        return replay(target, [tmp], timeout=timeout)[0]
    finally:
        tmp.unlink()


def triage_artifact(target: str, artifact: pathlib.Path, *, minimize: bool = True,
                    minimize_seconds: float = 30.0, timeout: float = 10.0, log=print) -> Triaged:
    """Replay, deduplicate, minimize and file one artifact (see the module docstring)."""
    from urlwb.minimize import minimize as run_minimize
    from urlwb.minimize import shrink
    from urlwb.replay import replay

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
                                        outcome.detail[:4000], extra=extra)
    moved = _move(artifact, "triaged")
    return Triaged(target, moved, "new" if entry else "duplicate", outcome.signature, entry,
                   (len(data), len(small)))


def triage(targets: list[str], *, minimize: bool = True, minimize_seconds: float = 30.0,
           log=print) -> list[Triaged]:
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
    from urlwb.cliutil import one_line_errors

    one_line_errors(parser)
    parser.add_argument("targets", nargs="*", metavar="TARGET", help="targets (default: all)")
    parser.add_argument("--no-minimize", action="store_true", help="file artifacts as they are")
    parser.add_argument("--minimize-seconds", type=float, default=30.0, metavar="S",
                        help="time to minimize each new finding (default 30)")


def run(args) -> int:
    from urlwb.cli import UsageError

    if args.minimize_seconds <= 0:
        raise UsageError("--minimize-seconds must be positive")
    targets = corpus_store.resolve_targets(args.targets)
    results = triage(targets, minimize=not args.no_minimize, minimize_seconds=args.minimize_seconds)
    counts = {v: sum(r.verdict == v for r in results) for v in ("new", "duplicate", "unreproducible")}
    print(f"triage: {len(results)} artifacts: {counts['new']} new findings, "
          f"{counts['duplicate']} duplicates, {counts['unreproducible']} unreproducible")
    return 0


if __name__ == "__main__":
    sys.exit("use: urlwb triage")
