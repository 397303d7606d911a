"""An encoder written from the Encoding Standard, independent of engine/encoding.py: the
reference the engine's legacy encoders are held to.

https://encoding.spec.whatwg.org/

Written from encoding.bs step by step, it reads the vendored indexes (tests/data/encoding/,
whatwg/encoding a985b62a9b45) in their published text format and shares no code or data file
with the engine, which reads engine/data/encoding_indexes.json. tests/engine/test_encoding.py runs it
against the engine on every scalar value; properties/independent.py on generated strings, as the
kill suite of ``urlwb mutants`` does.
"""

from __future__ import annotations

import bisect
import gzip
import json
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "encoding"

ENCODINGS_JSON = json.loads((DATA / "encodings.json").read_text(encoding="utf-8"))
NAMES = [e["name"] for group in ENCODINGS_JSON for e in group["encodings"]]
SINGLE_BYTE = [e["name"] for group in ENCODINGS_JSON for e in group["encodings"]
               if group["heading"] == "Legacy single-byte encodings"]
NO_ENCODER = ["replacement", "UTF-16BE", "UTF-16LE"]
WITH_ENCODER = [name for name in NAMES if name not in NO_ENCODER]

#: label -> encoding name (https://encoding.spec.whatwg.org/#names-and-labels)
LABELS = {label: e["name"] for group in ENCODINGS_JSON for e in group["encodings"]
          for label in e["labels"]}


# -- the reference: indexes ---------------------------------------------------------------------

@cache
def index(name: str) -> list[tuple[int, int]]:
    """https://encoding.spec.whatwg.org/#index, read from the vendored index-<name>.txt.gz:
    split on LF, drop empty lines and lines starting with '#', split on TAB; pointer decimal,
    code point hexadecimal."""
    text = gzip.decompress((DATA / f"index-{name}.txt.gz").read_bytes()).decode("utf-8")
    lines = [line for line in text.split("\n") if line != "" and not line.startswith("#")]
    return [(int(fields[0], 10), int(fields[1], 16)) for fields in (l.split("\t") for l in lines)]


def first_pointers(entries: list[tuple[int, int]]) -> dict[int, int]:
    """"the first pointer corresponding to codePoint in index", for each code point in it."""
    found: dict[int, int] = {}
    for pointer, code_point in entries:
        if code_point not in found:
            found[code_point] = pointer
    return found


@cache
def index_pointer_table(name: str) -> dict[int, int]:
    """https://encoding.spec.whatwg.org/#index-pointer"""
    return first_pointers(index(name))


@cache
def index_code_point_table(name: str) -> dict[int, int]:
    """https://encoding.spec.whatwg.org/#index-code-point"""
    return dict(index(name))


@cache
def shift_jis_pointer_table() -> dict[int, int]:
    """https://encoding.spec.whatwg.org/#index-shift_jis-pointer"""
    return first_pointers([(p, c) for p, c in index("jis0208") if p < 8272 or p > 8835])


@cache
def big5_pointer_table() -> dict[int, int]:
    """https://encoding.spec.whatwg.org/#index-big5-pointer"""
    kept = [(p, c) for p, c in index("big5") if not p < (0xA1 - 0x81) * 157]
    table = first_pointers(kept)
    for code_point in (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345):
        table[code_point] = [p for p, c in kept if c == code_point][-1]  # the *last* pointer
    return table


@cache
def gb18030_ranges_code_points() -> list[int]:
    return [code_point for _, code_point in index("gb18030-ranges")]


def gb18030_ranges_pointer(code_point: int) -> int:
    """https://encoding.spec.whatwg.org/#index-gb18030-ranges-pointer"""
    if code_point == 0xE7C7:
        return 7457
    # "the last code point in index gb18030 ranges that is less than or equal to codePoint"
    last = bisect.bisect_right(gb18030_ranges_code_points(), code_point) - 1
    pointer_offset, offset = index("gb18030-ranges")[last]
    return pointer_offset + code_point - offset


# -- the reference: handlers ----------------------------------------------------------------------
# A handler takes a code point and returns ("bytes", [...]) or ("error", code point).

def ref_utf_8(cp):
    if cp <= 0x7F:
        return "bytes", [cp]
    count, offset = (1, 0xC0) if cp <= 0x7FF else (2, 0xE0) if cp <= 0xFFFF else (3, 0xF0)
    out = [(cp >> (6 * count)) + offset]
    while count > 0:
        out.append(0x80 | ((cp >> (6 * (count - 1))) & 0x3F))
        count -= 1
    return "bytes", out


def ref_single_byte(name):
    table = index_pointer_table("iso-8859-8" if name == "ISO-8859-8-I" else name.lower())

    def handler(cp):
        if cp <= 0x7F:
            return "bytes", [cp]
        if cp not in table:
            return "error", cp
        return "bytes", [table[cp] + 0x80]
    return handler


def ref_x_user_defined(cp):
    if cp <= 0x7F:
        return "bytes", [cp]
    if cp in range(0xF780, 0xF800):
        return "bytes", [cp - 0xF780 + 0x80]
    return "error", cp


GB18030_SIDE_TABLE = {  # the gb18030 encoder's table of step 5, as printed
    "E78D": "A6 D9", "E78E": "A6 DA", "E78F": "A6 DB", "E790": "A6 DC", "E791": "A6 DD",
    "E792": "A6 DE", "E793": "A6 DF", "E794": "A6 EC", "E795": "A6 ED", "E796": "A6 F3",
    "E81E": "FE 59", "E826": "FE 61", "E82B": "FE 66", "E82C": "FE 67", "E832": "FE 6D",
    "E843": "FE 7E", "E854": "FE 90", "E864": "FE A0",
}


def ref_gb18030(is_gbk):
    side = {int(k, 16): list(bytes.fromhex(v)) for k, v in GB18030_SIDE_TABLE.items()}
    table = index_pointer_table("gb18030")

    def handler(cp):
        if cp <= 0x7F:
            return "bytes", [cp]
        if cp == 0xE5E5:
            return "error", cp
        if is_gbk and cp == 0x20AC:
            return "bytes", [0x80]
        if cp in side:
            return "bytes", side[cp]
        if cp in table:
            pointer = table[cp]
            lead, trail = pointer // 190 + 0x81, pointer % 190
            return "bytes", [lead, trail + (0x40 if trail < 0x3F else 0x41)]
        if is_gbk:
            return "error", cp
        pointer = gb18030_ranges_pointer(cp)
        b1, pointer = pointer // 12600, pointer % 12600
        b2, pointer = pointer // 1260, pointer % 1260
        return "bytes", [b1 + 0x81, b2 + 0x30, pointer // 10 + 0x81, pointer % 10 + 0x30]
    return handler


def ref_big5(cp):
    if cp <= 0x7F:
        return "bytes", [cp]
    pointer = big5_pointer_table().get(cp)
    if pointer is None:
        return "error", cp
    lead, trail = pointer // 157 + 0x81, pointer % 157
    return "bytes", [lead, trail + (0x40 if trail < 0x3F else 0x62)]


def ref_euc_jp(cp):
    if cp <= 0x7F:
        return "bytes", [cp]
    if cp == 0xA5 or cp == 0x203E:
        return "bytes", [0x5C if cp == 0xA5 else 0x7E]
    if 0xFF61 <= cp <= 0xFF9F:
        return "bytes", [0x8E, cp - 0xFF61 + 0xA1]
    pointer = index_pointer_table("jis0208").get(0xFF0D if cp == 0x2212 else cp)
    if pointer is None:
        return "error", 0xFF0D if cp == 0x2212 else cp
    return "bytes", [pointer // 94 + 0xA1, pointer % 94 + 0xA1]


def ref_shift_jis(cp):
    if cp <= 0x7F or cp == 0x80:
        return "bytes", [cp]
    if cp == 0xA5 or cp == 0x203E:
        return "bytes", [0x5C if cp == 0xA5 else 0x7E]
    if 0xFF61 <= cp <= 0xFF9F:
        return "bytes", [cp - 0xFF61 + 0xA1]
    pointer = shift_jis_pointer_table().get(0xFF0D if cp == 0x2212 else cp)
    if pointer is None:
        return "error", cp
    lead, trail = pointer // 188, pointer % 188
    return "bytes", [lead + (0x81 if lead < 0x1F else 0xC1),
                     trail + (0x40 if trail < 0x3F else 0x41)]


def ref_euc_kr(cp):
    if cp <= 0x7F:
        return "bytes", [cp]
    pointer = index_pointer_table("euc-kr").get(cp)
    if pointer is None:
        return "error", cp
    return "bytes", [pointer // 190 + 0x81, pointer % 190 + 0x41]


def ref_handler(name):
    if name in SINGLE_BYTE:
        return ref_single_byte(name)
    return {
        "UTF-8": ref_utf_8, "x-user-defined": ref_x_user_defined, "GBK": ref_gb18030(True),
        "gb18030": ref_gb18030(False), "Big5": ref_big5, "EUC-JP": ref_euc_jp,
        "Shift_JIS": ref_shift_jis, "EUC-KR": ref_euc_kr,
    }[name]


class RefISO2022JP:
    """https://encoding.spec.whatwg.org/#iso-2022-jp-encoder, over an I/O queue with restore."""

    def __init__(self, text: str):
        self.queue = [ord(c) for c in reversed(text)]  # read = pop(), restore = append()
        self.state = "ASCII"

    def handler(self, cp):
        if cp is None and self.state != "ASCII":
            self.state = "ASCII"
            return "bytes", [0x1B, 0x28, 0x42]
        if cp is None:
            return "finished", None
        if self.state in ("ASCII", "Roman") and cp in (0x0E, 0x0F, 0x1B):
            return "error", 0xFFFD
        if self.state == "ASCII" and cp <= 0x7F:
            return "bytes", [cp]
        if self.state == "Roman" and ((cp <= 0x7F and cp not in (0x5C, 0x7E)) or cp in (0xA5, 0x203E)):
            if cp <= 0x7F:
                return "bytes", [cp]
            return "bytes", [0x5C] if cp == 0xA5 else [0x7E]
        if cp <= 0x7F and self.state != "ASCII":
            return self.switch(cp, "ASCII", [0x1B, 0x28, 0x42])
        if cp in (0xA5, 0x203E) and self.state != "Roman":
            return self.switch(cp, "Roman", [0x1B, 0x28, 0x4A])
        if cp == 0x2212:
            cp = 0xFF0D
        if 0xFF61 <= cp <= 0xFF9F:
            cp = index_code_point_table("iso-2022-jp-katakana")[cp - 0xFF61]
        pointer = index_pointer_table("jis0208").get(cp)
        if pointer is None:
            if self.state == "jis0208":
                return self.switch(cp, "ASCII", [0x1B, 0x28, 0x42])
            return "error", cp
        if self.state != "jis0208":
            return self.switch(cp, "jis0208", [0x1B, 0x24, 0x42])
        return "bytes", [pointer // 94 + 0x21, pointer % 94 + 0x21]

    def switch(self, cp, state, escape):
        self.queue.append(cp)
        self.state = state
        return "bytes", escape

    def encode_or_fail(self, output: list[int]):
        """https://encoding.spec.whatwg.org/#encode-or-fail ("process a queue" in fatal mode)"""
        while True:
            cp = self.queue.pop() if self.queue else None  # None: end-of-queue
            kind, value = self.handler(cp)
            if kind == "finished":
                return None
            if kind == "error":
                return value
            output.extend(value)


def ref_iso_2022_jp_percent_encode_loop(text: str) -> list:
    """The URL Standard's "percent-encode after encoding" loop, bytes and errors as they come."""
    encoder, result, potential_error = RefISO2022JP(text), [], 0
    while potential_error is not None:
        output: list[int] = []
        potential_error = encoder.encode_or_fail(output)
        result.append(bytes(output))
        if potential_error is not None:
            result.append(potential_error)
    return result


def ref_stateless(name: str, text: str) -> list:
    """The same loop for a stateless encoder: each error ends one run of "encode or fail"."""
    handler, result, output = ref_handler(name), [], bytearray()
    for cp in map(ord, text):
        kind, value = handler(cp)
        if kind == "error":
            result += [bytes(output), value]
            output = bytearray()
        else:
            output.extend(value)
    return [*result, bytes(output)]
