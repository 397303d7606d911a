"""``urlwb merge TARGET``: distil the working corpus into the committed one with libFuzzer.

``python fuzzers/fuzz_<target>.py -merge=1 BASE NEW``, where BASE holds the committed inputs
(``corpus/<target>/seed/`` and ``distilled/``) and NEW the readable working-corpus inputs
(``.urlwb/corpus/<target>/``): libFuzzer keeps of NEW only the inputs that reach coverage BASE
does not, and those go to ``corpus/<target>/distilled/``, smallest first, up to ``--cap`` files
and ``--cap-bytes`` bytes per target (the rest are reported). The seeds are never touched and
nothing is removed, so the committed corpus grows by what is new and stays small; ``make test``
replays it, and the mutation kill suite runs it. ``--dry-run`` only reports.

Unreadable working-corpus files (and FIFOs) are skipped with their reason, never handed to
libFuzzer (whose merge would retry on them forever); the merge has a deadline (``--seconds``).
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tempfile

from urlwb import children, corpus_store, exitcodes
from urlwb.cliutil import MOST_COUNT, add_seconds, count, add_targets, count_flag, seconds_flag
from urlwb.errors import UsageError
from urlwb.fuzzing.fuzz import libfuzzer_flags
from urlwb.fuzzing.minimize import fuzzer_env, target_command


class MergeError(Exception):
    """libFuzzer's merge failed or ran past its deadline: one line, the run goes on."""


def _copy_readable(paths, dest: pathlib.Path) -> int:
    dest.mkdir()
    n = 0
    for path in paths:
        data = corpus_store.read_input(path)   # None (with a one-line reason) if unreadable
        if data is not None:
            (dest / path.name).write_bytes(data)
            n += 1
    return n


def merge(target: str, *, dry_run: bool = False, cap: int = 300, cap_bytes: int = 200_000,
          seconds: float = 300.0) -> tuple[list[str], int]:
    """Names of the inputs added to ``corpus/<target>/distilled/`` (or that would be, with
    ``dry_run``), and how many more libFuzzer found new but the caps left out."""
    distilled = corpus_store.distilled_dir(target)
    if not dry_run:
        distilled.mkdir(parents=True, exist_ok=True)
        if not os.access(distilled, os.W_OK | os.X_OK):
            raise UsageError(f"{distilled}: not writable")
    work = corpus_store.work_path(target)
    committed = list(corpus_store.iter_seeds(target))
    with tempfile.TemporaryDirectory(prefix="urlwb-merge-") as tmp:
        base, new = pathlib.Path(tmp, "base"), pathlib.Path(tmp, "new")
        _copy_readable(committed, base)
        known = {p.name for p in base.iterdir()}
        if not _copy_readable(sorted(p for p in work.iterdir() if not p.name.startswith(".")), new):
            return [], 0
        flags = [f for f in libfuzzer_flags(target) if f.startswith("-max_len=")]
        try:
            proc = children.run(target_command(target) + ["-merge=1", *flags, str(base), str(new)],
                                cwd=tmp, env=fuzzer_env(), stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, errors="replace",
                                timeout=seconds)
        except subprocess.TimeoutExpired:
            raise MergeError(f"libFuzzer -merge=1 for {target} ran past {seconds:g} s") from None
        if proc.returncode != 0:
            tail = proc.stderr.strip().splitlines()[-1:] or ["?"]
            raise MergeError(f"libFuzzer -merge=1 failed for {target}: {tail[0]}")
        found = sorted((p for p in base.iterdir() if p.name not in known),
                       key=lambda p: (p.stat().st_size, p.name))
        existing = list(distilled.iterdir()) if distilled.is_dir() else []
        size = sum(f.stat().st_size for f in existing)
        added = []
        for p in found:
            if len(existing) + len(added) >= cap or size + p.stat().st_size > cap_bytes:
                break
            added.append(p)
            size += p.stat().st_size
        if not dry_run:
            for p in added:
                corpus_store.atomic_write(distilled / p.name, p.read_bytes())
        return [p.name for p in added], len(found) - len(added)


def add_arguments(parser) -> None:
    add_targets(parser, required=True)
    parser.add_argument("--dry-run", action="store_true", help="report, do not write")
    parser.add_argument("--cap", type=count(0, MOST_COUNT), default=300,
                        help="at most this many distilled inputs per target (default 300)")
    parser.add_argument("--cap-bytes", type=count(0, MOST_COUNT), default=200_000,
                        help="at most this many bytes of distilled inputs per target "
                             "(default 200000)")
    add_seconds(parser, "each target's merge, its deadline", 300.0)


def run(args) -> int:
    count_flag("--cap", args.cap, least=0)
    count_flag("--cap-bytes", args.cap_bytes, least=0)
    seconds_flag("--seconds", args.seconds)
    targets = corpus_store.resolve_targets(args.targets)
    failed = 0
    for t in targets:
        work = corpus_store.work_path(t)
        if not work.is_dir() or not any(work.iterdir()):
            if args.targets == ["all"]:
                continue
            raise UsageError(f"{work}: no working corpus for {t} (run urlwb fuzz {t} first)")
        try:
            added, left_out = merge(t, dry_run=args.dry_run, cap=args.cap,
                                    cap_bytes=args.cap_bytes, seconds=args.seconds)
        except MergeError as exc:
            print(f"urlwb merge: {exc}", file=sys.stderr)
            failed += 1
            continue
        verb = "would add" if args.dry_run else "added"
        more = f" ({left_out} more left out by the caps)" if left_out else ""
        print(f"{t:14} {verb} {len(added)} inputs to {corpus_store.distilled_dir(t)}{more}")
    return exitcodes.INCOMPLETE if failed else exitcodes.OK   # a merge that failed: the run did not complete
