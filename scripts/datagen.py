"""The command line shared by the scripts that generate engine/data/ (gen_encoding_tables.py,
gen_idna_tables.py, gen_public_suffix_list.py): write the files, or with ``--check`` only say
which are out of date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "engine" / "data"


def main(generate: Callable[..., dict[str, str]], generator: str, description: str,
         argv: list[str] | None = None,
         add_arguments: Callable[[argparse.ArgumentParser], None] | None = None) -> int:
    """Write what ``generate()`` returns ({file name: content}) into engine/data/, or with
    ``--check`` exit 1 naming the files that differ from it. A generator with options of its own
    adds them with ``add_arguments`` and is called with the parsed arguments."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="only compare with the files on disk")
    if add_arguments is not None:
        add_arguments(parser)
    args = parser.parse_args(argv)
    stale = []
    for filename, content in (generate(args) if add_arguments is not None else generate()).items():
        path = OUTPUT / filename
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != content:
                stale.append(filename)
        else:
            path.write_text(content, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)} ({len(content.encode())} bytes)")
    if stale:
        print("out of date: " + ", ".join(stale) + f" (run {generator})", file=sys.stderr)
        return 1
    return 0
