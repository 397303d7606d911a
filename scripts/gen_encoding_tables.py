#!/usr/bin/env python3
"""Generate engine/data/encoding_labels.json and engine/data/encoding_indexes.json.

https://encoding.spec.whatwg.org/#indexes

Inputs: the Encoding Standard's label table (encodings.json) and the indexes its encoders use
(index-*.txt, as published, or gzipped as vendored in tests/data/encoding/), whatwg/encoding at
a985b62a9b45 (2026-05-21). index-jis0212.txt is left out: only the EUC-JP decoder uses it.

The indexes are stored as they are, in the decoding direction: for each index, one string whose
character at position ``pointer`` is the index code point for ``pointer`` (U+0000, which no index
holds, where it has none). Deriving the encoders' "index pointer" lookups is engine/encoding.py's
job, so that the Standard's rules for them (first pointer, Shift_JIS and Big5 exclusions) are read
in one place.

    python scripts/gen_encoding_tables.py            # write the two files
    python scripts/gen_encoding_tables.py --check    # exit 1 if they are not up to date
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import datagen  # scripts/datagen.py: the write-or-check command line

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT / "tests" / "data" / "encoding"
STANDARD = "whatwg/encoding at a985b62a9b45 (2026-05-21)"
GENERATOR = "scripts/gen_encoding_tables.py"
HOLE = "\0"

# The indexes of the multi-byte encoders (https://encoding.spec.whatwg.org/#indexes).
MULTI_BYTE_INDEXES = ("big5", "euc-kr", "gb18030", "jis0208", "iso-2022-jp-katakana")


def single_byte_index_name(encoding: str) -> str:
    """https://encoding.spec.whatwg.org/#legacy-single-byte-encodings

    The table there names each single-byte encoding's index file: ``index-<name in lowercase>``,
    except that ISO-8859-8 and ISO-8859-8-I share index-iso-8859-8.txt.
    """
    if encoding == "ISO-8859-8-I":
        return "iso-8859-8"
    return encoding.lower()


def read_resource(source: Path, filename: str) -> str:
    """The text of ``filename`` in ``source``, or of its gzipped copy ``filename.gz``."""
    plain = source / filename
    if plain.exists():
        return plain.read_text(encoding="utf-8")
    return gzip.decompress((source / (filename + ".gz")).read_bytes()).decode("utf-8")


def parse_index(text: str) -> tuple[list[tuple[int, int]], dict[str, str]]:
    """https://encoding.spec.whatwg.org/#index

    "let lines be the result of splitting the resource's contents on U+000A LF. Then remove each
    item in lines that is the empty string or starts with U+0023 (#). Then ... splitting each item
    on U+0009 TAB. The first subitem is the pointer (as a decimal number) and the second is the
    corresponding code point (as a hexadecimal number)." Also returns the Identifier and Date.
    """
    entries, header = [], {}
    for line in text.split("\n"):
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            if key.strip() in ("Identifier", "Date"):
                header[key.strip().lower()] = value.strip()
            continue
        if line == "":
            continue
        fields = line.split("\t")
        entries.append((int(fields[0], 10), int(fields[1], 16)))
    return entries, header


def index_as_string(entries: list[tuple[int, int]]) -> str:
    """The index as one string: character ``pointer`` is its code point, U+0000 for none."""
    chars = [HOLE] * (max(pointer for pointer, _ in entries) + 1)
    for pointer, code_point in entries:
        if chars[pointer] != HOLE or code_point == 0:
            raise ValueError(f"pointer {pointer}: duplicate pointer or U+0000 code point")
        chars[pointer] = chr(code_point)
    return "".join(chars)


def generate(source: Path) -> dict[str, str]:
    """The two generated files' contents, by file name."""
    groups = json.loads(read_resource(source, "encodings.json"))
    encodings = {e["name"]: e["labels"] for group in groups for e in group["encodings"]}
    single_byte = [e["name"] for group in groups if group["heading"] == "Legacy single-byte encodings"
                   for e in group["encodings"]]

    inputs, indexes = [], {}
    names = sorted({single_byte_index_name(name) for name in single_byte}) + list(MULTI_BYTE_INDEXES)
    for name in names:
        entries, header = parse_index(read_resource(source, f"index-{name}.txt"))
        inputs.append({"file": f"index-{name}.txt", **header})
        indexes[name] = index_as_string(entries)
    ranges, header = parse_index(read_resource(source, "index-gb18030-ranges.txt"))
    inputs.append({"file": "index-gb18030-ranges.txt", **header})

    provenance = {
        "generated_by": GENERATOR,
        "standard": STANDARD,
        "vendored_copy": "tests/data/encoding/ (gzipped, byte-identical)",
    }
    labels = {
        **provenance,
        "inputs": ["encodings.json"],
        "comment": "Every encoding's name and labels, in the Standard's order "
                   "(https://encoding.spec.whatwg.org/#names-and-labels).",
        "single_byte": single_byte,
        "encodings": encodings,
    }
    index_data = {
        **provenance,
        "inputs": inputs,
        "comment": "indexes[name][pointer] is the index code point for pointer (U+0000: none); "
                   "gb18030_ranges lists index gb18030 ranges as [pointer, code point].",
        "single_byte_index": {name: single_byte_index_name(name) for name in single_byte},
        "gb18030_ranges": ranges,
        "indexes": indexes,
    }
    return {"encoding_labels.json": dump(labels), "encoding_indexes.json": dump(index_data)}


def dump(data: dict) -> str:
    """JSON with one top-level key, and one index, a line (readable diffs)."""
    lines = []
    for key, value in data.items():
        if isinstance(value, dict) and key in ("encodings", "indexes", "single_byte_index"):
            inner = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                               for k, v in value.items())
            lines.append(f"{json.dumps(key)}: {{\n{inner}\n}}")
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main(argv: list[str] | None = None) -> int:
    def source_argument(parser) -> None:
        parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE,
                            help="folder of encodings.json and index-*.txt[.gz] (default: %(default)s)")

    return datagen.main(lambda args: generate(args.source), GENERATOR, __doc__.split("\n\n")[0],
                        argv, source_argument)


if __name__ == "__main__":
    sys.exit(main())
