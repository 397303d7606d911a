#!/usr/bin/env python3
"""Instructions per URL, counted by callgrind: the engine's uninstrumented cost, machine-independent.

    python scripts/callgrind_urls.py [--root DIR ...]

For each checkout (default: this one), runs ``URL(input, base)`` over the 891 pairs of
``tests/data/wpt/urltestdata.json`` under ``valgrind --tool=callgrind``, once with one pass and
once with six, and prints (six − one) / 5 / 891: the instructions of one warm pass per URL, start-up
and first-use costs (imports, caches) subtracted. Wall-clock ratios (``scripts/bench.py``) move by
±10% between runs on a shared machine; this count does not, so it tells whether a change made the
engine faster or slower. It takes about 30 s per checkout. Needs valgrind.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAIRS = ROOT / "tests" / "data" / "wpt" / "urltestdata.json"

PROGRAM = """
import json, sys
sys.path.insert(0, sys.argv[1])
import engine
cases = [c for c in json.load(open(sys.argv[2], encoding="utf-8")) if isinstance(c, dict)]
pairs = [(c["input"], c.get("base")) for c in cases]
for _ in range(int(sys.argv[3])):
    for i, b in pairs:
        try:
            engine.URL(i, b)
        except engine.Failure:
            pass
print(len(pairs))
"""


def instructions(root: pathlib.Path, passes: int) -> tuple[int, int]:
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, "-c", PROGRAM, str(root), str(PAIRS), str(passes)],
        capture_output=True, text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"})  # str hashes fixed: the same count each run
    m = re.search(r"Collected\s*:\s*(\d+)", proc.stderr)
    if proc.returncode != 0 or m is None:
        sys.exit(f"callgrind_urls: {root}: valgrind failed: {proc.stderr.strip().splitlines()[-1:]}")
    return int(m.group(1)), int(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", action="append", type=pathlib.Path, metavar="DIR",
                        help="a checkout whose engine to count (repeatable; default: this one)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (apt-get install valgrind)")
    for root in args.root or [ROOT]:
        if not (root / "engine" / "__init__.py").exists():
            parser.error(f"{root}: no engine/ there")
        one, pairs = instructions(root.resolve(), 1)
        six, _ = instructions(root.resolve(), 6)
        print(f"{root}: {(six - one) / 5 / pairs:,.0f} instructions per URL "
              f"({pairs} urltestdata pairs, warm passes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
