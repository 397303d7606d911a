"""``urlwb merge TARGET``: merge the working corpus into the seed corpus with libFuzzer.

``python fuzzers/fuzz_<target>.py -merge=1 corpus/<target>/seed .urlwb/corpus/<target>``: libFuzzer
adds to the seed folder only those working-corpus inputs that reach coverage the seeds do not, so
the committed corpus grows by what is new and stays small: at most ``--cap`` files in all (the
smallest new inputs first; the rest are reported). Nothing is removed. ``--dry-run``
merges into a temporary copy and only reports how many inputs would be added.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import tempfile

from urlwb import corpus_store
from urlwb.errors import UsageError
from urlwb.fuzz import libfuzzer_flags
from urlwb.minimize import fuzzer_env, target_command


def merge(target: str, *, dry_run: bool = False, cap: int = 250) -> tuple[list[str], int]:
    """Names of the inputs added to the seed folder (or that would be, with ``dry_run``), and
    how many more libFuzzer found new but the cap left out."""

    seed = corpus_store.require_corpus(target)
    work = corpus_store.work_root() / "corpus" / target
    before = {p.name for p in seed.iterdir()}
    with tempfile.TemporaryDirectory(prefix="urlwb-merge-") as tmp:
        dest = pathlib.Path(tmp, "seed")
        shutil.copytree(seed, dest)
        flags = [f for f in libfuzzer_flags(target) if f.startswith("-max_len=")]
        proc = subprocess.run(target_command(target) + ["-merge=1", *flags, str(dest), str(work)],
                              cwd=tmp, env=fuzzer_env(), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, errors="replace")
        if proc.returncode != 0:
            tail = proc.stderr.strip().splitlines()[-1:] or ["?"]
            raise RuntimeError(f"libFuzzer -merge=1 failed for {target}: {tail[0]}")
        new = sorted((p for p in dest.iterdir() if p.name not in before), key=lambda p: (p.stat().st_size, p.name))
        room = max(0, cap - len(before))
        added, left_out = [p.name for p in new[:room]], len(new) - min(room, len(new))
        if not dry_run:
            for name in added:
                corpus_store.atomic_write(seed / name, (dest / name).read_bytes())
    return added, left_out


def add_arguments(parser) -> None:
    parser.add_argument("targets", nargs="+", metavar="TARGET", help="targets, or all")
    parser.add_argument("--dry-run", action="store_true", help="report, do not write")
    parser.add_argument("--cap", type=int, default=250, help="at most this many seeds in all (default 250)")


def run(args) -> int:
    targets = corpus_store.resolve_targets(args.targets)
    for t in targets:
        work = corpus_store.work_root() / "corpus" / t
        if not work.is_dir() or not any(work.iterdir()):
            if args.targets == ["all"]:
                continue
            raise UsageError(f"{work}: no working corpus for {t} (run urlwb fuzz {t} first)")
        seed_count = sum(1 for _ in corpus_store.iter_seeds(t))
        try:
            added, left_out = merge(t, dry_run=args.dry_run, cap=args.cap)
        except RuntimeError as exc:
            print(f"urlwb merge: {exc}")
            return 1
        verb = "would add" if args.dry_run else "added"
        more = f" ({left_out} more left out by --cap {args.cap})" if left_out else ""
        print(f"{t:14} {verb} {len(added)} inputs to {seed_count} seeds in {corpus_store.seed_dir(t)}{more}")
    return 0
