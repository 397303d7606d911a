#!/usr/bin/env python3
"""Bring every corpus sidecar into the one findings shape (``urlwb-finding/1``, issue 25).

    python scripts/migrate_findings.py [--check] [CORPUS]

Every ``CORPUS/*/regress/*.json`` and ``CORPUS/history/*/*.json`` (CORPUS: ``URLWB_CORPUS``, else
``corpus/``) goes through :func:`urlwb.findings.sidecar.shape`: the common fields added, an old
string ``verdict`` moved into ``verdict.reason``, an ssrf signature that repeats its validator's
version (``is-localhost-ip@1.4.0@1.4.0:…``) written once. Every field the rooms and their replays
read stays. Idempotent: a sidecar already in the shape is left byte for byte as it is. Each file
is rewritten atomically (``urlwb.corpus_store.atomic_write``). ``--check``: change nothing, exit
1 when some sidecar would change. A parser's family (WHATWG or not: what the provisional verdict
needs) comes from ``urlwb.oracles`` when the sidecar does not say.
"""

from __future__ import annotations

import argparse
import collections
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from urlwb import corpus_store, oracles  # noqa: E402
from urlwb.findings import sidecar  # noqa: E402


def family(name: str | None) -> str | None:
    """The family of ``name`` (NAME or NAME@VERSION), None for a name no oracle has."""
    if not name:
        return None
    base = name.partition("@")[0]
    return oracles.REGISTRY[base].family if base in oracles.REGISTRY else None


def sidecars(root: pathlib.Path) -> list[pathlib.Path]:
    return sorted(root.glob("*/regress/*.json")) + sorted(root.glob("history/*/*.json"))


def migrate(path: pathlib.Path) -> tuple[str, str] | None:
    """(old text, new text) of ``path``'s sidecar, or None when it is in the shape already."""
    text = path.read_text(encoding="utf-8")
    meta = json.loads(text)
    data_path = path.with_suffix("")
    data = data_path.read_bytes() if data_path.is_file() else None
    shaped = sidecar.shape(meta, data=data, family=family(meta.get("old") or meta.get("parser")))
    indent = 1 if "old" in meta and "target" not in meta else 2    # each room's own layout
    new = json.dumps(shaped, indent=indent, ensure_ascii=False) + "\n"
    try:
        new.encode("utf-8")
    except UnicodeEncodeError:      # a lone surrogate: \u escapes, as the writers do
        new = json.dumps(shaped, indent=indent) + "\n"
    return None if new == text else (text, new)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("corpus", nargs="?", type=pathlib.Path, default=None)
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if a sidecar would change")
    args = p.parse_args(argv)
    root = args.corpus or corpus_store.corpus_root()
    changed: collections.Counter = collections.Counter()
    total: collections.Counter = collections.Counter()
    signatures: dict[tuple[str, str], list[pathlib.Path]] = collections.defaultdict(list)
    for path in sidecars(root):
        room = path.parent.parent.name if path.parent.name == "regress" else "history"
        total[room] += 1
        result = migrate(path)
        if result is not None:
            changed[room] += 1
            if not args.check:
                corpus_store.atomic_write(path, result[1].encode("utf-8"))
        meta = json.loads(path.read_text(encoding="utf-8")) if not args.check else None
        if meta is not None:
            signatures[(room, meta["signature"])].append(path)
    for room in sorted(total):
        print(f"{room:14} {total[room]:4} sidecars, {changed[room]:4} {'to change' if args.check else 'changed'}")
    dupes = {k: v for k, v in signatures.items() if len(v) > 1 and k[0] != "history"}
    for (room, sig), paths in sorted(dupes.items()):
        print(f"duplicate signature {sig} in {room}: {', '.join(p.name for p in paths)}", file=sys.stderr)
    if args.check:
        return 1 if sum(changed.values()) else 0
    return 1 if dupes else 0


if __name__ == "__main__":
    sys.exit(main())
