#!/usr/bin/env python3
"""Instructions per URL, or per fuzz input, counted by callgrind: costs that do not move.

    python scripts/callgrind_urls.py [--root DIR ...]
    python scripts/callgrind_urls.py --target url [--corpus DIR ...] [--root DIR ...]

Without ``--target``: for each checkout (default: this one), runs ``URL(input, base)`` over the
891 pairs of ``tests/data/wpt/urltestdata.json`` under ``valgrind --tool=callgrind``, once with
one pass and once with six, and prints (six − one) / 5 / 891: the instructions of one warm pass
per URL, start-up and first-use costs (imports, caches) subtracted. That is the engine's
uninstrumented cost.

With ``--target NAME``: the cost of one execution of fuzz target NAME as libFuzzer pays it. The
checkout's engine is imported under atheris's instrumentation, as ``fuzzers/fuzz_NAME.py``
imports it (what it leaves uninstrumented included), with atheris's own hooks, and the target's
``check`` runs over the corpus folders (default: the target's seeds, and this machine's working
corpus if there is one), once and three times: (three − one) / 2 / inputs is the instructions of
one execution, instrumentation included. Each traced event (a basic block entered, a comparison)
is a call into atheris of about 1,500 instructions here, so this count weighs fewer events
against more plain work, which ``urlwb bench-fuzz --events`` cannot. Compare checkouts on the
same corpus with ``--root``.

Wall-clock ratios (``scripts/bench.py``, ``urlwb bench-fuzz``) move by ±10% or more between runs
on a shared machine; these counts do not (string hashing is fixed), so they tell whether a change
made the engine or a target faster or slower. A count takes from half a minute (the URLs,
``url``'s seeds) to many minutes (a large working corpus). Needs valgrind.
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

def collected(argv: list[str], what: str) -> tuple[int, int]:
    """Instructions callgrind collected running ``argv``, and the count the program printed."""
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
        capture_output=True, text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"})  # str hashes fixed: the same count each run
    m = re.search(r"Collected\s*:\s*(\d+)", proc.stderr)
    if proc.returncode != 0 or m is None:
        sys.exit(f"callgrind_urls: {what}: valgrind failed: {proc.stderr.strip().splitlines()[-1:]}")
    return int(m.group(1)), int(proc.stdout.strip().splitlines()[-1])


def instructions(root: pathlib.Path, passes: int) -> tuple[int, int]:
    return collected([sys.executable, "-c", PROGRAM, str(root), str(PAIRS), str(passes)], str(root))


def target_instructions(root: pathlib.Path, target: str, corpora: list[pathlib.Path],
                        passes: int) -> tuple[int, int]:
    """The target's inputs run ``passes`` times by ``urlwb.fuzzing.events --passes`` (which imports
    the checkout's engine as the target does, atheris's hooks left in place)."""
    return collected([sys.executable, "-m", "urlwb.fuzzing.events", "--passes", str(passes),
                      str(root), target, *map(str, corpora)], f"{root} {target}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", action="append", type=pathlib.Path, metavar="DIR",
                        help="a checkout whose engine to count (repeatable; default: this one)")
    parser.add_argument("--target", metavar="NAME",
                        help="count one execution of fuzz target NAME, instrumented, instead")
    parser.add_argument("--corpus", action="append", type=pathlib.Path, metavar="DIR",
                        help="with --target: an input folder (repeatable; default: the target's "
                             "seeds and this machine's working corpus)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (apt-get install valgrind)")
    if args.corpus and not args.target:
        parser.error("--corpus goes with --target")
    roots = [root.resolve() for root in args.root or [ROOT]]
    for root in roots:
        if not (root / "engine" / "__init__.py").exists():
            parser.error(f"{root}: no engine/ there")
        if args.target and not (root / "fuzzers" / f"fuzz_{args.target}.py").exists():
            parser.error(f"{root}: no fuzzers/fuzz_{args.target}.py there")
    if args.target:
        corpora = args.corpus or [ROOT / "corpus" / args.target / "seed",
                                  ROOT / ".urlwb" / "corpus" / args.target]
        corpora = [c for c in corpora if c.is_dir()]
        if not corpora:
            parser.error(f"no corpus folder for {args.target}")
        for root in roots:
            one, inputs = target_instructions(root, args.target, corpora, 1)
            three, _ = target_instructions(root, args.target, corpora, 3)
            print(f"{root}: {(three - one) / 2 / max(1, inputs):,.0f} instructions per execution "
                  f"of fuzz_{args.target} ({inputs} inputs of {', '.join(map(str, corpora))})")
        return 0
    for root in roots:
        one, pairs = instructions(root, 1)
        six, _ = instructions(root, 6)
        print(f"{root}: {(six - one) / 5 / pairs:,.0f} instructions per URL "
              f"({pairs} urltestdata pairs, warm passes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
