#!/usr/bin/env python3
"""Generate engine/data/uts46_mapping.txt and engine/data/joining_types.txt.

https://www.unicode.org/reports/tr46/#IDNA_Mapping_Table

The source is the ``idna`` package (PyPI), read once, here: its ``idna.uts46data`` (the IDNA
Mapping Table, as range starts, statuses and mappings) and ``idna.idnadata.joining_types`` (the
Joining_Type of RFC 5892's ContextJ rules), which kjd/idna's ``tools/idna-data`` makes from the
Unicode Character Database of the version it names. The engine reads only the two files written
here, so that its answers depend on no installed package's version or private modules. Each file
records this script, the package's version, its Unicode version, and the SHA-256 of the module
files read.

    python scripts/gen_idna_tables.py            # write the two files
    python scripts/gen_idna_tables.py --check    # exit 1 if they are not up to date

To move to a newer Unicode version: install the ``idna`` release that has it, run this script,
run the IDNA conformance tests (tests/engine/test_hosts.py) and commit the two files.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import datagen  # scripts/datagen.py: the write-or-check command line

GENERATOR = "scripts/gen_idna_tables.py"
MAPPING_FILE = "uts46_mapping.txt"
JOINING_FILE = "joining_types.txt"

#: UTS #46 5 IDNA Mapping Table, the statuses, by the letter ``idna.uts46data`` gives them.
STATUSES = {"V": "valid", "M": "mapped", "D": "deviation", "I": "ignored", "X": "disallowed"}
#: The Joining_Type values (the Unicode Standard, chapter 9; RFC 5892 Appendix A reads D, L, R, T).
JOINING_TYPES = {"C": "Join_Causing", "D": "Dual_Joining", "L": "Left_Joining",
                 "R": "Right_Joining", "T": "Transparent"}


def source_modules():
    """The modules read: ``idna``, ``idna.uts46data``, ``idna.idnadata``."""
    try:
        import idna
        import idna.idnadata
        import idna.uts46data
    except ImportError as exc:
        raise SystemExit(f"{GENERATOR}: the idna package is needed to generate the tables ({exc})")
    missing = [name for module, name in ((idna.uts46data, "uts46_starts"), (idna.uts46data, "uts46_statuses"),
                                         (idna.uts46data, "uts46_replacements"), (idna.idnadata, "joining_types"))
               if not hasattr(module, name)]
    joining_types = getattr(idna.idnadata, "joining_types", None)
    if missing or not isinstance(joining_types, dict) or not all(isinstance(k, str) for k in joining_types):
        raise SystemExit(f"{GENERATOR}: idna {idna.__version__} keeps its tables in another layout "
                         f"than idna 3.20's, which this script reads (missing: "
                         f"{', '.join(missing) or 'joining types by letter'})")
    return idna, idna.uts46data, idna.idnadata


def header(title: list[str], fields: dict[str, str], layout: list[str]) -> str:
    """The ``#`` lines that open a generated file: what it is, then ``key: value`` fields (which
    engine/idna.py and the tests read), then how its lines are laid out."""
    lines = [*title, *(f"{key}: {value}" for key, value in fields.items()), "", *layout]
    return "".join(f"# {line}".rstrip() + "\n" for line in lines)


def sha256_of(module) -> str:
    return hashlib.sha256(Path(module.__file__).read_bytes()).hexdigest()


def mapping_rows(uts46data) -> list[str]:
    """One line a range of the mapping table: first code point (hex), status, mapping."""
    starts, statuses, replacements = uts46data.uts46_starts, uts46data.uts46_statuses, uts46data.uts46_replacements
    if not len(starts) == len(statuses) == len(replacements):
        raise SystemExit(f"{GENERATOR}: idna.uts46data's three tables differ in length")
    rows = []
    for start, status, replacement in zip(starts, statuses, replacements):
        status = chr(status)
        if status not in STATUSES or (replacement is not None and ("\t" in replacement or "\n" in replacement)):
            raise SystemExit(f"{GENERATOR}: unexpected row U+{start:04X} {status} {replacement!r}")
        rows.append(f"{start:06X}\t{status}\t{replacement or ''}\n")
    return rows


def joining_rows(idnadata) -> list[str]:
    """One line a range of code points of one Joining_Type: ``first..last`` (hex), type."""
    ranges = []
    for joining_type, encoded in idnadata.joining_types.items():
        if joining_type not in JOINING_TYPES:
            raise SystemExit(f"{GENERATOR}: unexpected joining type {joining_type!r}")
        # idna.intranges: each range is (first << 32) | (last + 1).
        ranges += [(r >> 32, (r & 0xFFFFFFFF) - 1, joining_type) for r in encoded]
    ranges.sort()
    for (_, last, _), (first, _, _) in zip(ranges, ranges[1:]):
        if first <= last:
            raise SystemExit(f"{GENERATOR}: joining type ranges overlap at U+{first:04X}")
    return [f"{first:06X}..{last:06X}\t{joining_type}\n" for first, last, joining_type in ranges]


def generate() -> dict[str, str]:
    """The two generated files' contents, by file name."""
    idna, uts46data, idnadata = source_modules()
    if uts46data.__version__ != idnadata.__version__:
        raise SystemExit(f"{GENERATOR}: idna {idna.__version__} mixes Unicode versions "
                         f"({uts46data.__version__}, {idnadata.__version__})")
    common = {
        "generated_by": GENERATOR,
        "unicode_version": uts46data.__version__,
    }
    mapping = header(
        ["The IDNA Mapping Table of UTS #46 (https://www.unicode.org/reports/tr46/#IDNA_Mapping_Table).",
         f"Do not edit: made by {GENERATOR}, from the source below."],
        {**common, "source": f"idna {idna.__version__} (PyPI), idna/uts46data.py",
         "source_sha256": sha256_of(uts46data)},
        ["One range a line: its first code point (six hex digits), TAB, its status, TAB, its",
         "mapping (for M and D; empty otherwise). A range runs up to the next line's first code",
         "point; the last, to U+10FFFF. Statuses: " + ", ".join(f"{k} {v}" for k, v in STATUSES.items()) + ".",
         "Code points below U+0100 each have their own line (the engine indexes them directly)."],
    )
    joining = header(
        ["Joining_Type, for the ContextJ rules of RFC 5892 Appendix A (UTS #46 4.1 CheckJoiners).",
         f"Do not edit: made by {GENERATOR}, from the source below."],
        {**common, "source": f"idna {idna.__version__} (PyPI), idna/idnadata.py (joining_types)",
         "source_sha256": sha256_of(idnadata)},
        ["One range a line: first..last code point (six hex digits each), TAB, the Joining_Type.",
         "Types: " + ", ".join(f"{k} {v}" for k, v in JOINING_TYPES.items()) + ".",
         "A code point on no line is Non_Joining (U), which the rules do not name."],
    )
    return {MAPPING_FILE: mapping + "".join(mapping_rows(uts46data)),
            JOINING_FILE: joining + "".join(joining_rows(idnadata))}


if __name__ == "__main__":
    sys.exit(datagen.main(generate, GENERATOR, __doc__.split("\n\n")[0]))
