"""The Encoding Standard's labels and encoders, as URL percent-encoding needs them.

https://encoding.spec.whatwg.org/

``get_encoding`` and ``get_output_encoding`` turn a label into an encoding's name;
``encode_or_fail`` runs an encoder over a whole string the way the URL Standard's
"percent-encode after encoding" loop runs "encode or fail": one encoder instance, run again after
each error, until the input is used up.

Every encoder is exact. Its handler is written out below step by step, and it is run once for each
code point that can possibly encode (ASCII, the code points the handler names, its index's code
points) to build a table ``code point -> bytes``; any other code point reaches "pointer is null"
and is an error. A regular expression built from the table finds the runs of code points that are
errors, and ``codecs.charmap_encode`` (a C loop of table lookups) encodes the text between them:
no Python codec's own idea of Shift_JIS, Big5 or GB18030 is involved, as they differ from the
Standard in places (cp932's U+00A5 and IBM extensions, big5hkscs's HKSCS, gb18030's U+E5E5,
cp1252's five undefined bytes). The one codec used is gb18030 for supplementary code points, where
it agrees with the Standard (see ``_gb18030_segment``). ISO-2022-JP, which has state, runs its
handler code point by code point, bar runs over which its state holds. The indexes come from
data/encoding_indexes.json (made by scripts/gen_encoding_tables.py); a table is built on the first
use of its encoding (in tens of milliseconds).

The tests (tests/engine/test_encoding.py) hold all of this against a reference encoder written from the
Standard, on every scalar value.
"""

from __future__ import annotations

import bisect
import codecs
import json
import re
import sys
from array import array
from functools import cache
from itertools import chain
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .failure import Failure

__all__ = ["LEGACY_ENCODINGS", "get_encoding", "get_output_encoding", "encode_or_fail"]

_DATA = Path(__file__).with_name("data")
_ASCII_WHITESPACE = "\t\n\f\r "
_ASCII_LOWERCASE = {upper: upper + 0x20 for upper in range(ord("A"), ord("Z") + 1)}
_SURROGATE = re.compile("[\ud800-\udfff]")
_NO_ENCODER = ("replacement", "UTF-16BE", "UTF-16LE")

Encoded = list  # [bytes, code point, bytes, ..., bytes]


# -- names and labels ---------------------------------------------------------------------------

@cache
def _encodings() -> tuple[dict[str, str], tuple[str, ...], tuple[str, ...]]:
    """(label -> name, every name, the single-byte encodings' names), from encoding_labels.json."""
    data = json.loads((_DATA / "encoding_labels.json").read_text(encoding="utf-8"))
    labels = {label: name for name, names in data["encodings"].items() for label in names}
    return labels, tuple(data["encodings"]), tuple(data["single_byte"])


#: The names of every encoding with an encoder other than UTF-8, in the Standard's order: the
#: encodings "percent-encode after encoding" can meet besides UTF-8.
LEGACY_ENCODINGS = tuple(name for name in _encodings()[1] if name not in ("UTF-8", *_NO_ENCODER))


def get_encoding(label: str) -> str:
    """https://encoding.spec.whatwg.org/#concept-encoding-get

    Returns the encoding's name as the Standard spells it ("Shift_JIS", "UTF-8", "gb18030");
    raises Failure for a label the Standard does not list.
    """
    if not isinstance(label, str):
        raise TypeError(f"label must be a str, not {type(label).__name__}")
    # "Remove any leading and trailing ASCII whitespace from label."
    # "If label is an ASCII case-insensitive match for any of the labels listed ..."; str.lower()
    # would also fold non-ASCII letters (U+212A KELVIN SIGN lowercases to "k"), so only A-Z are.
    key = label.strip(_ASCII_WHITESPACE).translate(_ASCII_LOWERCASE)
    name = _encodings()[0].get(key)
    if name is None:
        raise Failure(None, f"unknown encoding label: {label!r}")
    return name


def _check_name(encoding: str) -> None:
    if not isinstance(encoding, str):
        raise TypeError(f"encoding must be a str, not {type(encoding).__name__}")
    if encoding not in _encodings()[1]:
        raise Failure(None, f"unknown encoding name: {encoding!r} (get_encoding gives names)")


def get_output_encoding(encoding: str) -> str:
    """https://encoding.spec.whatwg.org/#get-an-output-encoding

    ``encoding`` is a name as ``get_encoding`` returns it; an unknown name is a Failure.
    """
    _check_name(encoding)
    # "If encoding is replacement or UTF-16BE/LE, then return UTF-8."
    if encoding in _NO_ENCODER:
        return "UTF-8"
    return encoding


# -- encode or fail -------------------------------------------------------------------------------

def encode_or_fail(encoding: str, text: str) -> Encoded:
    """https://encoding.spec.whatwg.org/#encode-or-fail

    Runs "encode or fail" with one instance of ``encoding``'s encoder over all of ``text``, again
    after each error, as https://url.spec.whatwg.org/#string-percent-encode-after-encoding does.
    Returns a list that alternates bytes and ints and starts and ends with bytes: each bytes item
    is what one run of "encode or fail" output (end-of-queue handling included in the last one),
    each int the code point of the error that ended that run ("potentialError"). Shift_JIS
    "a\u203db" gives ``[b"a", 0x203D, b"b"]``; an error is followed by ``b""`` when the next
    code point fails too.

    ``encoding`` is a name as ``get_encoding`` returns it; replacement and UTF-16BE/LE have no
    encoder (use ``get_output_encoding``) and, like unknown names, are a Failure.

    Deviation: the input of "encode or fail" is an I/O queue of scalar values; a Python str may
    hold surrogate code points, so ``text`` is first converted to a scalar value string, each
    surrogate code point becoming U+FFFD (https://infra.spec.whatwg.org/#javascript-string-convert,
    applied to the str's code points: a surrogate pair held as two code points is two U+FFFD).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    encoder = _get_an_encoder(encoding)
    if not text.isascii():
        text = _SURROGATE.sub("\ufffd", text)
    return encoder(text)


def _get_an_encoder(encoding: str) -> Callable[[str], Encoded]:
    """https://encoding.spec.whatwg.org/#get-an-encoder (as a function of the whole input)"""
    _check_name(encoding)
    # "Assert: encoding is not replacement or UTF-16BE/LE."
    if encoding in _NO_ENCODER:
        raise Failure(None, f"{encoding} has no encoder (get_output_encoding gives UTF-8)")
    if encoding == "UTF-8":
        return _utf_8_encode
    if encoding == "ISO-2022-JP":
        return _iso_2022_jp_encode_or_fail
    return _table_encoder(encoding)


def _utf_8_encode(text: str) -> Encoded:
    """https://encoding.spec.whatwg.org/#utf-8-encoder

    Python's UTF-8 codec is the UTF-8 encoder on scalar values (the test compares them on every
    scalar value); it never returns an error.
    """
    return [text.encode("utf-8")]


@cache
def _table_encoder(encoding: str) -> Callable[[str], Encoded]:
    """The encoder of a stateless encoding, as a function of the whole input.

    The runs of code points the handler returns error for are found with a regular expression
    class built from the table (CPython tests a class of BMP code points against a bitmap, so this
    is one fast pass); the text between runs is encoded through the table in one call.
    """
    table = _encoder_table(encoding)
    bmp = _character_class(code_point for code_point in table if code_point <= 0xFFFF)
    # Supplementary code points in a class are tested one by one, so those of the table (Big5 has
    # 291) are left out of it and picked out of the runs it finds.
    supplementary = {chr(code_point) for code_point in table if code_point > 0xFFFF}
    if encoding == "gb18030":
        bmp += "\\U00010000-\\U0010ffff"
        encode_segment = _gb18030_segment
    else:
        def encode_segment(segment: str) -> bytes:
            return codecs.charmap_encode(segment, "strict", table)[0]
    unencodable = re.compile(f"[^{bmp}]+")

    def unencodable_runs(text: str) -> Iterator[tuple[int, int]]:
        for run in unencodable.finditer(text):
            start, end = run.span()
            if not supplementary or max(run.group()) <= "\uffff":
                yield start, end
                continue
            for i in [i for i in range(start, end) if text[i] in supplementary]:
                if start < i:
                    yield start, i
                start = i + 1
            if start < end:
                yield start, end

    def encode(text: str) -> Encoded:
        # Fast path: every stateless encoder encodes an ASCII code point as the same byte.
        if text.isascii():
            return [text.encode("ascii")]
        result: Encoded = []
        position = 0
        for start, end in unencodable_runs(text):
            result.append(encode_segment(text[position:start]))
            result += _errors(text[start:end])
            position = end
        result.append(encode_segment(text[position:]))
        return result

    return encode


def _errors(run: str) -> Encoded:
    """Each code point of ``run`` as an error of its own, with b"" between two errors."""
    errors: Encoded = [b""] * (2 * len(run) - 1)
    errors[::2] = _code_points(run)
    return errors


def _code_points(text: str) -> list[int]:
    return array("I", text.encode(_UTF_32)).tolist() if _UINT_IS_32_BITS else list(map(ord, text))


_UTF_32 = "utf-32-le" if sys.byteorder == "little" else "utf-32-be"
_UINT_IS_32_BITS = array("I").itemsize == 4


def _character_class(code_points: Iterable[int]) -> str:
    """A regular expression class body matching exactly ``code_points``."""
    ranges: list[list[int]] = []
    for code_point in sorted(code_points):
        if ranges and ranges[-1][1] == code_point - 1:
            ranges[-1][1] = code_point
        else:
            ranges.append([code_point, code_point])
    # The code points themselves rather than \U escapes, which take the parser far longer.
    return "".join(f"{_class_member(first)}-{_class_member(last)}" for first, last in ranges)


def _class_member(code_point: int) -> str:
    char = chr(code_point)
    return "\\" + char if char in "\\]^-[" else char


# -- indexes --------------------------------------------------------------------------------------

@cache
def _index_data() -> dict:
    return json.loads((_DATA / "encoding_indexes.json").read_text(encoding="utf-8"))


def _index(name: str) -> Iterable[tuple[int, int]]:
    """https://encoding.spec.whatwg.org/#index: (pointer, code point) entries, by pointer."""
    return ((pointer, ord(char)) for pointer, char in enumerate(_index_data()["indexes"][name])
            if char != "\0")


def _first_pointers(entries: Iterable[tuple[int, int]]) -> dict[int, int]:
    """https://encoding.spec.whatwg.org/#index-pointer

    "The index pointer for codePoint in index is the first pointer corresponding to codePoint in
    index, or null if codePoint is not in index", for every code point at once.
    """
    pointers: dict[int, int] = {}
    for pointer, code_point in entries:
        pointers.setdefault(code_point, pointer)
    return pointers


@cache
def _index_pointers(name: str) -> dict[int, int]:
    return _first_pointers(_index(name))


@cache
def _index_shift_jis_pointers() -> dict[int, int]:
    """https://encoding.spec.whatwg.org/#index-shift_jis-pointer"""
    # "Let index be index jis0208 excluding all entries whose pointer is in the range 8272 to
    # 8835, inclusive." "Return the index pointer for codePoint in index."
    return _first_pointers((p, c) for p, c in _index("jis0208") if not 8272 <= p <= 8835)


@cache
def _index_big5_pointers() -> dict[int, int]:
    """https://encoding.spec.whatwg.org/#index-big5-pointer"""
    # "Let index be index Big5 excluding all entries whose pointer is less than
    # (0xA1 - 0x81) × 157."
    index = [(p, c) for p, c in _index("big5") if p >= (0xA1 - 0x81) * 157]
    pointers = _first_pointers(index)
    # "If codePoint is U+2550, U+255E, U+2561, U+256A, U+5341, or U+5345, then return the last
    # pointer corresponding to codePoint in index."
    for pointer, code_point in index:
        if code_point in (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345):
            pointers[code_point] = pointer
    return pointers


@cache
def _gb18030_ranges() -> tuple[list[int], list[int]]:
    """https://encoding.spec.whatwg.org/#index-gb18030-ranges: (code points, pointers)."""
    ranges = _index_data()["gb18030_ranges"]
    return [code_point for _, code_point in ranges], [pointer for pointer, _ in ranges]


def _index_gb18030_ranges_pointer(code_point: int) -> int:
    """https://encoding.spec.whatwg.org/#index-gb18030-ranges-pointer"""
    # "If codePoint is U+E7C7, then return pointer 7457."
    if code_point == 0xE7C7:
        return 7457
    # "Let offset be the last code point in index gb18030 ranges that is less than or equal to
    # codePoint and let pointerOffset be its corresponding pointer."
    code_points, pointers = _gb18030_ranges()
    i = bisect.bisect_right(code_points, code_point) - 1
    # "Return a pointer whose value is pointerOffset + codePoint − offset."
    return pointers[i] + code_point - code_points[i]


# -- the stateless encoders' handlers -------------------------------------------------------------
# Each takes a code point that is not end-of-queue (which returns finished) and returns the
# handler's bytes, or None for "error with codePoint".

def single_byte_encoder(index: str, code_point: int) -> bytes | None:
    """https://encoding.spec.whatwg.org/#single-byte-encoder"""
    if code_point < 0x80:
        return bytes([code_point])
    pointer = _index_pointers(index).get(code_point)
    if pointer is None:
        return None
    return bytes([pointer + 0x80])


def x_user_defined_encoder(code_point: int) -> bytes | None:
    """https://encoding.spec.whatwg.org/#x-user-defined-encoder"""
    if code_point < 0x80:
        return bytes([code_point])
    if 0xF780 <= code_point <= 0xF7FF:
        return bytes([code_point - 0xF780 + 0x80])
    return None


#: https://encoding.spec.whatwg.org/#gb18030-encoder: the table of step 5 (GB18030-2005 PUA).
GB18030_PUA = {
    0xE78D: b"\xa6\xd9", 0xE78E: b"\xa6\xda", 0xE78F: b"\xa6\xdb", 0xE790: b"\xa6\xdc",
    0xE791: b"\xa6\xdd", 0xE792: b"\xa6\xde", 0xE793: b"\xa6\xdf", 0xE794: b"\xa6\xec",
    0xE795: b"\xa6\xed", 0xE796: b"\xa6\xf3", 0xE81E: b"\xfe\x59", 0xE826: b"\xfe\x61",
    0xE82B: b"\xfe\x66", 0xE82C: b"\xfe\x67", 0xE832: b"\xfe\x6d", 0xE843: b"\xfe\x7e",
    0xE854: b"\xfe\x90", 0xE864: b"\xfe\xa0",
}


def gb18030_encoder(code_point: int, is_gbk: bool = False) -> bytes | None:
    """https://encoding.spec.whatwg.org/#gb18030-encoder (GBK's with ``is_gbk``)"""
    if code_point < 0x80:
        return bytes([code_point])
    if code_point == 0xE5E5:
        return None
    if is_gbk and code_point == 0x20AC:
        return b"\x80"
    if code_point in GB18030_PUA:
        return GB18030_PUA[code_point]
    pointer = _index_pointers("gb18030").get(code_point)
    if pointer is not None:
        leading = pointer // 190 + 0x81
        trailing = pointer % 190
        offset = 0x40 if trailing < 0x3F else 0x41
        return bytes([leading, trailing + offset])
    if is_gbk:
        return None
    pointer = _index_gb18030_ranges_pointer(code_point)
    byte1, pointer = divmod(pointer, 10 * 126 * 10)
    byte2, pointer = divmod(pointer, 10 * 126)
    byte3, byte4 = divmod(pointer, 10)
    return bytes([byte1 + 0x81, byte2 + 0x30, byte3 + 0x81, byte4 + 0x30])


def big5_encoder(code_point: int) -> bytes | None:
    """https://encoding.spec.whatwg.org/#big5-encoder"""
    if code_point < 0x80:
        return bytes([code_point])
    pointer = _index_big5_pointers().get(code_point)
    if pointer is None:
        return None
    leading = pointer // 157 + 0x81
    trailing = pointer % 157
    offset = 0x40 if trailing < 0x3F else 0x62
    return bytes([leading, trailing + offset])


def euc_jp_encoder(code_point: int) -> bytes | None:
    """https://encoding.spec.whatwg.org/#euc-jp-encoder"""
    if code_point < 0x80:
        return bytes([code_point])
    if code_point == 0xA5:
        return b"\x5c"
    if code_point == 0x203E:
        return b"\x7e"
    if 0xFF61 <= code_point <= 0xFF9F:
        return bytes([0x8E, code_point - 0xFF61 + 0xA1])
    if code_point == 0x2212:
        code_point = 0xFF0D
    pointer = _index_pointers("jis0208").get(code_point)
    if pointer is None:
        return None
    return bytes([pointer // 94 + 0xA1, pointer % 94 + 0xA1])


def shift_jis_encoder(code_point: int) -> bytes | None:
    """https://encoding.spec.whatwg.org/#shift_jis-encoder"""
    if code_point <= 0x80:
        return bytes([code_point])
    if code_point == 0xA5:
        return b"\x5c"
    if code_point == 0x203E:
        return b"\x7e"
    if 0xFF61 <= code_point <= 0xFF9F:
        return bytes([code_point - 0xFF61 + 0xA1])
    if code_point == 0x2212:
        code_point = 0xFF0D
    pointer = _index_shift_jis_pointers().get(code_point)
    if pointer is None:
        return None
    leading = pointer // 188
    leading_offset = 0x81 if leading < 0x1F else 0xC1
    trailing = pointer % 188
    offset = 0x40 if trailing < 0x3F else 0x41
    return bytes([leading + leading_offset, trailing + offset])


def euc_kr_encoder(code_point: int) -> bytes | None:
    """https://encoding.spec.whatwg.org/#euc-kr-encoder"""
    if code_point < 0x80:
        return bytes([code_point])
    pointer = _index_pointers("euc-kr").get(code_point)
    if pointer is None:
        return None
    return bytes([pointer // 190 + 0x81, pointer % 190 + 0x41])


_SUPPLEMENTARY = re.compile("([\U00010000-\U0010ffff]+)")


def _gb18030_segment(segment: str) -> bytes:
    """gb18030's encoder on text it can encode: all but U+E5E5.

    Deviation, for speed: gb18030's table holds the BMP only. On U+10000 to U+10FFFF the handler
    gives the four-byte sequences of pointer 189000 + codePoint − 0x10000 (the last range of index
    gb18030 ranges), and Python's gb18030 codec gives the same bytes on every one of them
    (tests/engine/test_encoding.py checks them all), so the codec encodes those.
    """
    table = _encoder_table("gb18030")
    parts = _SUPPLEMENTARY.split(segment)  # BMP, supplementary, BMP, ...
    return b"".join(codecs.charmap_encode(part, "strict", table)[0] if i % 2 == 0
                    else part.encode("gb18030") for i, part in enumerate(parts))


@cache
def _encoder_table(encoding: str) -> dict[int, bytes]:
    """``code point -> bytes`` for every code point the encoding's handler encodes."""
    _, _, single_byte = _encodings()
    handler: Callable[[int], bytes | None]
    named: Iterable[int] = ()
    if encoding in single_byte:
        index = _index_data()["single_byte_index"][encoding]
        handler = lambda code_point: single_byte_encoder(index, code_point)  # noqa: E731
        candidates = _index_pointers(index)
    elif encoding == "x-user-defined":
        handler, candidates = x_user_defined_encoder, range(0xF780, 0xF800)
    elif encoding == "GBK":
        handler = lambda code_point: gb18030_encoder(code_point, True)  # noqa: E731
        candidates, named = _index_pointers("gb18030"), chain(GB18030_PUA, (0x20AC,))
    elif encoding == "gb18030":
        # The four-byte part covers every code point, so the table takes the whole BMP (the
        # supplementary planes are _gb18030_segment's).
        handler, candidates = gb18030_encoder, chain(range(0x80, 0xD800), range(0xE000, 0x10000))
    elif encoding == "Big5":
        handler, candidates = big5_encoder, _index_big5_pointers()
    elif encoding == "EUC-JP":
        handler, candidates = euc_jp_encoder, _index_pointers("jis0208")
        named = chain((0xA5, 0x203E, 0x2212), range(0xFF61, 0xFFA0))
    elif encoding == "Shift_JIS":
        handler, candidates = shift_jis_encoder, _index_shift_jis_pointers()
        named = chain((0x80, 0xA5, 0x203E, 0x2212), range(0xFF61, 0xFFA0))
    elif encoding == "EUC-KR":
        handler, candidates = euc_kr_encoder, _index_pointers("euc-kr")
    else:  # pragma: no cover - _get_an_encoder has sorted out every other name
        raise Failure(None, f"no encoder for {encoding!r}")
    table = {}
    for code_point in chain(range(0x80), named, candidates):
        encoded = handler(code_point)
        if encoded is not None:
            table[code_point] = encoded
    return table


# -- ISO-2022-JP ----------------------------------------------------------------------------------

_ASCII, _ROMAN, _JIS0208 = "ASCII", "Roman", "jis0208"
_END_OF_QUEUE = -1
_ISO_2022_JP_ESCAPES = re.compile("[\x0e\x0f\x1b]")


class ISO2022JPEncoder:
    """https://encoding.spec.whatwg.org/#iso-2022-jp-encoder

    An encoder instance: ``state`` is the ISO-2022-JP encoder state. ``handler`` returns
    ``(result, restore)``: result is bytes, an int (error with that code point) or None
    (finished); restore says the handler restored the code point to the queue.
    """

    def __init__(self) -> None:
        self.state = _ASCII

    def handler(self, code_point: int) -> tuple[bytes | int | None, bool]:
        state = self.state
        # 1. end-of-queue, not in ASCII: back to ASCII. 2. end-of-queue in ASCII: finished.
        if code_point == _END_OF_QUEUE:
            if state != _ASCII:
                self.state = _ASCII
                return b"\x1b\x28\x42", False
            return None, False
        # 3. "If state is ASCII or Roman, and codePoint is U+000E, U+000F, or U+001B, then return
        # error with U+FFFD." (U+FFFD rather than codePoint, to prevent attacks.)
        if state != _JIS0208 and code_point in (0x0E, 0x0F, 0x1B):
            return 0xFFFD, False
        # 4. ASCII state, ASCII code point: that byte.
        if state == _ASCII and code_point < 0x80:
            return bytes([code_point]), False
        # 5. Roman state: ASCII bar U+005C and U+007E as themselves; U+00A5 0x5C; U+203E 0x7E.
        if state == _ROMAN:
            if code_point < 0x80 and code_point not in (0x5C, 0x7E):
                return bytes([code_point]), False
            if code_point == 0xA5:
                return b"\x5c", False
            if code_point == 0x203E:
                return b"\x7e", False
        # 6. Any other ASCII code point: restore, switch to ASCII, ESC ( B.
        if code_point < 0x80:
            self.state = _ASCII
            return b"\x1b\x28\x42", True
        # 7. U+00A5 or U+203E outside Roman: restore, switch to Roman, ESC ( J.
        if code_point in (0xA5, 0x203E):
            self.state = _ROMAN
            return b"\x1b\x28\x4a", True
        # 8. "If codePoint is U+2212 (−), then set it to U+FF0D (－)."
        if code_point == 0x2212:
            code_point = 0xFF0D
        # 9. Halfwidth katakana: "set it to the index code point for codePoint − 0xFF61 in index
        # ISO-2022-JP katakana."
        if 0xFF61 <= code_point <= 0xFF9F:
            code_point = ord(_index_data()["indexes"]["iso-2022-jp-katakana"][code_point - 0xFF61])
        # 10. "Let pointer be the index pointer for codePoint in index jis0208."
        pointer = _index_pointers("jis0208").get(code_point)
        # 11. Null: in jis0208 state restore, switch to ASCII, ESC ( B; otherwise error.
        if pointer is None:
            if state == _JIS0208:
                self.state = _ASCII
                return b"\x1b\x28\x42", True
            return code_point, False
        # 12. Not in jis0208 state: restore, switch to jis0208, ESC $ B.
        if state != _JIS0208:
            self.state = _JIS0208
            return b"\x1b\x24\x42", True
        # 13-15. Two bytes.
        return bytes([pointer // 94 + 0x21, pointer % 94 + 0x21]), False


@cache
def _iso_2022_jp_runs() -> tuple[dict[int, bytes], dict[str, re.Pattern[str]]]:
    """Runs of code points over which the ISO-2022-JP handler keeps its state, by state.

    In the ASCII state, "same" runs are ASCII bytes; in the Roman state, "roman" runs are ASCII
    bar U+005C and U+007E, with U+00A5 as 0x5C and U+203E as 0x7E; in both, "errors" runs are
    code points the handler returns error with (non-ASCII, not U+00A5, U+203E, U+2212 or
    halfwidth katakana, and not in index jis0208). In the jis0208 state, "jis" runs are the code
    points the handler encodes as two bytes: ``jis`` gives them, found by running the handler.
    """
    jis = {}
    for code_point in chain(_index_pointers("jis0208"), (0x2212,), range(0xFF61, 0xFFA0)):
        encoder = ISO2022JPEncoder()
        encoder.state = _JIS0208
        item, restore = encoder.handler(code_point)
        if isinstance(item, bytes) and not restore:
            jis[code_point] = item
    c0 = "\\x00-\\x0d\\x10-\\x1a\\x1c-\\x1f"  # C0 controls but U+000E, U+000F, U+001B
    errors = f"(?P<errors>[^\\x00-\\x7f\\xa5\\u203e\\u2212\\uff61-\\uff9f{_character_class(jis)}]+)"
    return jis, {
        _ASCII: re.compile(f"(?P<same>[{c0}\\x20-\\x7f]+)|{errors}"),
        _ROMAN: re.compile(f"(?P<roman>[{c0}\\x20-\\x5b\\x5d-\\x7d\\x7f\\xa5\\u203e]+)|{errors}"),
        _JIS0208: re.compile(f"(?P<jis>[{_character_class(jis)}]+)"),
    }


_ROMAN_BYTES = {0xA5: 0x5C, 0x203E: 0x7E}


def _iso_2022_jp_encode_or_fail(text: str) -> Encoded:
    """"encode or fail" with one ISO-2022-JP encoder instance, run again after each error.

    The instance, and so its state, carries over from one run to the next: after an error in the
    Roman state, the next bytes are still Roman ones (see the Standard's note "pit of ISO-2022-JP":
    https://encoding.spec.whatwg.org/#pit-of-iso-2022-jp).
    """
    # Fast path: in the ASCII state, ASCII code points other than U+000E, U+000F and U+001B are
    # their own bytes and the state never changes, so end-of-queue returns finished.
    if text.isascii() and not _ISO_2022_JP_ESCAPES.search(text):
        return [text.encode("ascii")]
    jis, runs = _iso_2022_jp_runs()
    encoder = ISO2022JPEncoder()
    result: Encoded = []
    output = bytearray()
    position, length = 0, len(text)
    while True:
        # Deviation, for speed: a run over which the handler keeps its state is done at once,
        # with the handler's results for each of its code points (see _iso_2022_jp_runs).
        run = runs[encoder.state].match(text, position)
        if run:
            kind, segment, position = run.lastgroup, run.group(), run.end()
            if kind == "same":
                output += segment.encode("ascii")
            elif kind == "roman":
                output += segment.translate(_ROMAN_BYTES).encode("ascii")
            elif kind == "jis":
                output += codecs.charmap_encode(segment, "strict", jis)[0]
            else:  # each code point an error, the output between them empty
                result.append(bytes(output))
                result += _errors(segment)
                output.clear()
            continue
        # "Let result be the result of processing an item with the result of reading from input"
        code_point = ord(text[position]) if position < length else _END_OF_QUEUE
        item, restore = encoder.handler(code_point)
        if not restore and position < length:
            position += 1
        if item is None:  # finished
            result.append(bytes(output))
            return result
        if isinstance(item, int):  # error: "encode or fail" returns it; the caller goes on
            result += [bytes(output), item]
            output.clear()
        else:
            output += item
