"""``urlwb list [TARGET ...] [--findings]``: targets, their corpora and their findings."""

from __future__ import annotations

from urlwb import corpus_store
from urlwb.cliutil import add_targets, shorten
from urlwb.fuzzing.fuzz import load_stats
from urlwb.fuzzdata import decode_text
from urlwb.fuzzing.triage import artifact_dir, pending_artifacts


def _count(folder) -> int:
    return sum(1 for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")) \
        if folder.is_dir() else 0


def preview(data: bytes, width: int = 60) -> str:
    """The input as text (its front part, where a target keeps its strings), shortened."""
    return shorten(repr(decode_text(data)), width)


def add_arguments(parser) -> None:
    add_targets(parser)
    parser.add_argument("--findings", action="store_true", help="list every regress entry")
    parser.add_argument("--status", choices=("open", "fixed"), help="only findings of this status")


def run(args) -> int:
    stats = load_stats()
    targets = corpus_store.resolve_targets(args.targets)
    rows = []
    findings = []
    for t in targets:
        entries = list(corpus_store.iter_regress(t))
        findings += entries
        work = corpus_store.work_path(t)
        rows.append((t, corpus_store.TARGETS[t], _count(corpus_store.seed_dir(t)), _count(work),
                     sum(e.status == "open" for e in entries), sum(e.status == "fixed" for e in entries),
                     len(pending_artifacts(t)) if artifact_dir(t).is_dir() else 0,
                     stats.get(t, {}).get("execs", 0)))
    print(f"{'target':14} {'module':30} {'seeds':>5} {'work':>6} {'open':>4} {'fixed':>5} {'untriaged':>9} "
          f"{'executions (all runs)':>21}")
    for r in rows:
        print(f"{r[0]:14} {r[1]:30} {r[2]:>5} {r[3]:>6} {r[4]:>4} {r[5]:>5} {r[6]:>9} {r[7]:>21,}")
    if args.findings or args.status:
        print()
        for e in findings:
            if args.status and e.status != args.status:
                continue
            if e.sidecar is None:
                print(f"{e.target:14} ORPHAN {e.path.name[:12]} (input without sidecar)")
                continue
            data = corpus_store.read_input(e.path) or b""
            print(f"{e.target:14} {e.status:5} {e.path.name[:12]} {e.signature}")
            print(f"{'':14} input {preview(data)}  ({len(data)} bytes)")
            if e.sidecar.get("note"):
                print(f"{'':14} note  {shorten(e.sidecar['note'], 100)}")
    return 0
