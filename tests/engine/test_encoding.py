"""engine.encoding against the Encoding Standard, on every label and every scalar value.

https://encoding.spec.whatwg.org/

The reference (properties/reference_encoding.py) is written from encoding.bs step by step and
reads the vendored indexes (tests/data/encoding/, whatwg/encoding a985b62a9b45) in their
published text format; it shares no code or data file with the engine, which reads
engine/data/encoding_indexes.json.
"""

from __future__ import annotations

import importlib.util
import random
from functools import cache
from pathlib import Path

import pytest

from engine import Failure
from engine.encoding import LEGACY_ENCODINGS, encode_or_fail, get_encoding, get_output_encoding
from properties.reference_encoding import (
    ENCODINGS_JSON,
    NAMES,
    NO_ENCODER,
    WITH_ENCODER,
    index,
    ref_handler,
    ref_iso_2022_jp_percent_encode_loop,
    ref_stateless,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "encoding"
ROOT = Path(__file__).resolve().parents[2]


# -- every scalar value ------------------------------------------------------------------------
# Three checks together cover every scalar value of every encoder:
# - every BMP scalar value through encode_or_fail, for every encoder;
# - every supplementary one through encode_or_fail for the encoders that can encode one or that
#   use their own code for them (UTF-8, gb18030, Big5, ISO-2022-JP), for every multi-byte one,
#   for x-user-defined and for windows-1252; for the other single-byte encoders, a sample;
# - for every table-driven encoder, the engine's table (engine.encoding._encoder_table, all it
#   knows of the encoder) against the reference's, which holds every code point the reference
#   handler encodes, compared whole.
# The sample stands in for about 4 s of CPU (each full run makes a million error items).

BMP = [*range(0xD800), *range(0xE000, 0x10000)]
SUPPLEMENTARY = range(0x10000, 0x110000)
BMP_STRING = "".join(map(chr, BMP))
SUPPLEMENTARY_STRING = "".join(map(chr, SUPPLEMENTARY))
STATELESS = [name for name in WITH_ENCODER if name != "ISO-2022-JP"]
FULL_SUPPLEMENTARY = ["UTF-8", "gb18030", "GBK", "Big5", "EUC-JP", "Shift_JIS", "EUC-KR",
                      "x-user-defined", "windows-1252"]


@cache
def reference_table(name: str) -> dict[int, bytes]:
    """Every code point the reference handler encodes, with its bytes.

    The handler runs on every BMP scalar value, and on the supplementary code points that are in
    an index. No handler names a supplementary code point and no index but Big5's and gb18030's
    four-byte ranges holds one (asserted below), so every other supplementary code point takes
    an index pointer lookup that finds nothing: an error, bar gb18030's four bytes (checked apart).
    """
    assert [n for n in ("big5", "euc-kr", "gb18030", "jis0208", "iso-2022-jp-katakana")
            if any(c > 0xFFFF for _, c in index(n))] == ["big5"]
    handler = ref_handler(name)
    table = {}
    for cp in [*BMP, *sorted({c for _, c in index("big5") if c > 0xFFFF})]:
        kind, value = handler(cp)
        if kind == "bytes":
            table[cp] = bytes(value)
    return table


def expected_from_table(table: dict[int, bytes], code_points: list[int] | range) -> list:
    """encode_or_fail's result on the string of ``code_points`` (consecutive scalar values),
    for an encoder whose handler encodes exactly the code points of ``table``."""
    if isinstance(code_points, range):
        members, position = code_points, (lambda cp: cp - code_points.start)
    else:
        members = {cp: i for i, cp in enumerate(code_points)}
        position = members.__getitem__
    encoded = sorted(cp for cp in table if cp in members)
    errors = [cp for cp in code_points if cp not in table] if encoded else list(code_points)
    chunks = [b""] * (len(errors) + 1)
    i = 0
    while i < len(encoded):  # each run of encoded code points comes after the errors before it
        j = i
        while j + 1 < len(encoded) and position(encoded[j + 1]) == position(encoded[j]) + 1:
            j += 1
        chunks[position(encoded[i]) - i] = b"".join(map(table.__getitem__, encoded[i:j + 1]))
        i = j + 1
    result: list = [b""] * (2 * len(errors) + 1)
    result[0::2], result[1::2] = chunks, errors
    return result


def first_mismatch(actual: list, expected: list) -> str:
    for i, (a, e) in enumerate(zip(actual, expected)):
        if a != e:
            context = expected[max(0, i - 2):i + 3]
            return f"item {i}: got {a!r}, expected {e!r} (expected around it: {context!r})"
    return f"lengths {len(actual)} != {len(expected)}"


def assert_same(actual: list, expected: list) -> None:
    if actual != expected:  # (not a bare assert: pytest's diff of a million items is slow)
        pytest.fail(first_mismatch(actual, expected))


@pytest.mark.parametrize("name", STATELESS)
def test_every_bmp_scalar_value(name):
    assert_same(encode_or_fail(name, BMP_STRING), expected_from_table(reference_table(name), BMP))


@pytest.mark.parametrize("name", FULL_SUPPLEMENTARY)
def test_every_supplementary_scalar_value(name):
    actual = encode_or_fail(name, SUPPLEMENTARY_STRING)
    if name in ("UTF-8", "gb18030"):  # the handler on each of them
        assert_same(actual, ref_stateless(name, SUPPLEMENTARY_STRING))
    else:
        assert_same(actual, expected_from_table(reference_table(name), SUPPLEMENTARY))


SUPPLEMENTARY_SAMPLE = "".join(
    chr(cp) for start in range(0x10000, 0x110000, 0x10000)  # each plane's ends, and every 61st
    for cp in sorted({*range(start, start + 256), *range(start, start + 0x10000, 61),
                      *range(start + 0x10000 - 256, start + 0x10000)}))


@pytest.mark.parametrize("name", [name for name in STATELESS if name not in FULL_SUPPLEMENTARY])
def test_supplementary_sample(name):
    assert_same(encode_or_fail(name, SUPPLEMENTARY_SAMPLE), ref_stateless(name, SUPPLEMENTARY_SAMPLE))


@pytest.mark.parametrize("name", [name for name in STATELESS if name != "UTF-8"])
def test_encoder_table(name):
    """The engine's table for ``name`` is the reference's (gb18030's: its BMP part)."""
    from engine.encoding import _encoder_table

    expected = reference_table(name)
    if name == "gb18030":
        expected = {cp: encoded for cp, encoded in expected.items() if cp <= 0xFFFF}
    assert _encoder_table(name) == expected


def test_every_scalar_value_iso_2022_jp():
    """One encoder instance over every scalar value in order: the state carries over."""
    text = BMP_STRING + SUPPLEMENTARY_STRING
    assert_same(encode_or_fail("ISO-2022-JP", text), ref_iso_2022_jp_percent_encode_loop(text))


def interesting_strings(seed: int, count: int, length: int) -> list[str]:
    """Random strings over code points where encoders differ or change state, and any others."""
    pool = [*range(0x00, 0x80), 0x80, 0xA5, 0xA2, 0x203E, 0x2212, 0x20AC, 0xE5E5, 0xE7C7,
            0x2550, 0x5341, 0x2116, 0xFF0D, 0xFFFD, 0x1F600, 0x20000, 0xD800, 0xDFFF,
            *range(0xFF61, 0xFFA0, 5), *range(0x3000, 0x3100, 7), *range(0x4E00, 0x4F00, 11),
            *range(0xAC00, 0xAD00, 13), *range(0xE000, 0xE900, 37), 0x0E, 0x0F, 0x1B, 0x5C, 0x7E]
    rng = random.Random(seed)

    def code_point() -> int:
        return rng.choice(pool) if rng.random() < 0.8 else rng.randrange(0x110000)
    return ["".join(chr(code_point()) for _ in range(rng.randrange(length))) for _ in range(count)]


def scalar_value_string(text: str) -> str:
    """https://infra.spec.whatwg.org/#javascript-string-convert, on a str's code points."""
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def test_iso_2022_jp_state_machine_on_random_strings():
    for text in interesting_strings(seed=2022, count=400, length=40):
        expected = ref_iso_2022_jp_percent_encode_loop(scalar_value_string(text))
        assert encode_or_fail("ISO-2022-JP", text) == expected, repr(text)


@pytest.mark.parametrize("name", STATELESS)
def test_stateless_on_random_strings(name):
    for text in interesting_strings(seed=18030, count=60, length=40):
        assert encode_or_fail(name, text) == ref_stateless(name, scalar_value_string(text)), repr(text)


# -- the Standards' examples ---------------------------------------------------------------------

@pytest.mark.parametrize("name, text, expected", [
    # https://url.spec.whatwg.org/#example-percent-encode-operations
    ("Shift_JIS", " ", [b" "]),
    ("Shift_JIS", "\u2261", [b"\x81\xdf"]),
    ("Shift_JIS", "\u203d", [b"", 8253, b""]),
    ("ISO-2022-JP", "\u00a5", [b"\x1b(J\\\x1b(B"]),
    ("Shift_JIS", "1+1 \u2261 2%20\u203d", [b"1+1 \x81\xdf 2%20", 0x203D, b""]),
    # https://encoding.spec.whatwg.org/#example-iso-2022-jp-encoder-oddity
    ("ISO-2022-JP", "\u00a5\u00a5", [b"\x1b(J\\\\\x1b(B"]),
    # the brief's: Shift_JIS "a‽b"
    ("Shift_JIS", "a\u203db", [b"a", 0x203D, b"b"]),
])
def test_standard_examples(name, text, expected):
    assert encode_or_fail(name, text) == expected


@pytest.mark.parametrize("text, expected", [
    # Katakana: halfwidth ｶ is fullwidth カ (jis0208 0x252B); then ASCII; then an error.
    ("\uff76a\u203d", [b"\x1b$B%+\x1b(Ba", 0x203D, b""]),
    # An error in the jis0208 state: ESC ( B first (the handler restores the code point).
    ("\uff76\u203d", [b"\x1b$B%+\x1b(B", 0x203D, b""]),
    # An error in the Roman state: no escape; the next run starts in the Roman state.
    ("\u00a5\u203d\\", [b"\x1b(J\\", 0x203D, b"\x1b(B\\"]),
    ("\u00a5\u203da", [b"\x1b(J\\", 0x203D, b"a\x1b(B"]),
    # U+000E, U+000F, U+001B are errors with U+FFFD, in ASCII and Roman; in jis0208 after ESC ( B.
    ("\x0e", [b"", 0xFFFD, b""]),
    ("\u00a5\x0f", [b"\x1b(J\\", 0xFFFD, b"\x1b(B"]),
    ("\u6f22\x1b", [b"\x1b$B4A\x1b(B", 0xFFFD, b""]),
    # ‾ then ~: Roman, then back to ASCII for U+007E.
    ("\u203e~", [b"\x1b(J~\x1b(B~"]),
    # U+2212 is U+FF0D (jis0208 0x215D).
    ("\u2212", [b"\x1b$B!]\x1b(B"]),
    # A lone surrogate is U+FFFD, which ISO-2022-JP cannot encode.
    ("a\ud800", [b"a", 0xFFFD, b""]),
])
def test_iso_2022_jp_sequences(text, expected):
    assert encode_or_fail("ISO-2022-JP", text) == expected


@pytest.mark.parametrize("name, text, expected", [
    ("gb18030", "\ue5e5", [b"", 0xE5E5, b""]),
    ("gb18030", "\ue7c7", [b"\x81\x35\xf4\x37"]),
    ("gb18030", "\u20ac", [b"\xa2\xe3"]),
    ("GBK", "\u20ac", [b"\x80"]),
    ("GBK", "\U00010000", [b"", 0x10000, b""]),
    ("gb18030", "\U0010ffff", [b"\xe3\x32\x9a\x35"]),
    ("gb18030", "\ud800", [b"\x84\x31\xa4\x37"]),  # a lone surrogate is U+FFFD
    ("Big5", "\u2550\u5341", [b"\xf9\xf9\xa4\x51"]),  # the last pointer
    ("Shift_JIS", "\u00a5\u203e\u2212\x80", [b"\x5c\x7e\x81\x7c\x80"]),
    ("windows-1252", "\x81\x8d\x8f\x90\x9d", [b"\x81\x8d\x8f\x90\x9d"]),
    ("ISO-8859-2", "\u00a2", [b"", 0xA2, b""]),
    ("x-user-defined", "\uf7ff\x80", [b"\xff", 0x80, b""]),
    ("UTF-8", "\ud800\udc00", [b"\xef\xbf\xbd\xef\xbf\xbd"]),
    ("Shift_JIS", "", [b""]),
    ("ISO-2022-JP", "", [b""]),
])
def test_single_cases(name, text, expected):
    assert encode_or_fail(name, text) == expected


# -- labels -------------------------------------------------------------------------------------

LABELS = [(label, e["name"]) for group in ENCODINGS_JSON for e in group["encodings"]
          for label in e["labels"]]


def test_every_label():
    assert len(LABELS) == len({label for label, _ in LABELS}) > 200
    for label, name in LABELS:
        assert get_encoding(label) == name, label
        assert get_encoding(f" \t\n\f\r{label.upper()}\r\n") == name, label


@pytest.mark.parametrize("label", [
    "", "utf-9", "shift jis", "\u00a0utf-8", "utf-8\u00a0", "utf-8\v", "\u212aoi8-r",
    "u\u0307tf-8", "utf\u20138", "utf-8\x00", "UTF-16", "x-user-defined ,", "\ud800",
])
def test_unknown_labels(label):
    if label == "UTF-16":  # a real label (UTF-16LE), kept to show the list is not all failures
        assert get_encoding(label) == "UTF-16LE"
        return
    with pytest.raises(Failure) as caught:
        get_encoding(label)
    assert caught.value.validation_error is None


@pytest.mark.parametrize("bad", [None, b"utf-8", 8])
def test_wrong_types(bad):
    for call in (lambda: get_encoding(bad), lambda: get_output_encoding(bad),
                 lambda: encode_or_fail(bad, "a"), lambda: encode_or_fail("UTF-8", bad)):
        with pytest.raises(TypeError):
            call()


def test_get_output_encoding():
    for name in NAMES:
        assert get_output_encoding(name) == ("UTF-8" if name in NO_ENCODER else name)
    with pytest.raises(Failure):
        get_output_encoding("shift_jis")  # a label, not a name


@pytest.mark.parametrize("name", [*NO_ENCODER, "shift_jis", "utf-8", "nope"])
def test_encode_or_fail_needs_an_encoder(name):
    with pytest.raises(Failure):
        encode_or_fail(name, "a")


def test_legacy_encodings():
    assert list(LEGACY_ENCODINGS) == [n for n in WITH_ENCODER if n != "UTF-8"]


def test_generated_tables_are_up_to_date(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))  # for its ``import datagen``
    spec = importlib.util.spec_from_file_location("gen", ROOT / "scripts" / "gen_encoding_tables.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    for filename, content in gen.generate(DATA).items():
        assert (ROOT / "engine" / "data" / filename).read_text(encoding="utf-8") == content, (
            f"engine/data/{filename} is stale: run scripts/gen_encoding_tables.py")
