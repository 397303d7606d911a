"""How fuzz targets read their input, and how seeds are written to be read that way.

A fuzz input is *text first, choices last*: ``atheris.FuzzedDataProvider`` takes integers (choices,
lengths) from the end of the data and bytes from the front, so the strings a target parses sit at
the front as UTF-8, readable in a corpus file and reachable by dictionary entries such as ``。``.

- ``Reader(data).choice(seq)`` picks from ``seq`` (one byte from the end, modulo ``len(seq)``);
- ``.length()`` reads a length, 0..65535 (two bytes from the end, the last one most significant);
- ``.text(n)``/``.rest()`` decode the next ``n``/all remaining front bytes: UTF-8, where the
  encoded forms of lone surrogates (ED A0 80..ED BF BF) give lone surrogates, as a JavaScript
  string may hold; invalid UTF-8 becomes U+FFFD.

``Writer`` is the inverse, for ``scripts/gen_seeds.py``: ``Writer().choice(i, n).rest(s).data()``.
"""

from __future__ import annotations

from collections.abc import Sequence


def decode_text(data: bytes) -> str:
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace")


def encode_text(s: str) -> bytes:
    return s.encode("utf-8", "surrogatepass")


class Reader:
    def __init__(self, data: bytes):
        # atheris on first use: its import (20 to 60 ms, its bytecode hooks) is not every
        # importer's, the differential's generator and a --help among them (docs/performance.md)
        import atheris

        self.fdp = atheris.FuzzedDataProvider(data)

    def choice(self, seq: Sequence):
        return self.fdp.PickValueInList(list(seq))

    def integer(self, lo: int, hi: int) -> int:
        return self.fdp.ConsumeIntInRange(lo, hi)

    def length(self) -> int:
        return self.fdp.ConsumeIntInRange(0, 0xFFFF)

    def raw(self, n: int) -> bytes:
        return self.fdp.ConsumeBytes(n)

    def text(self, n: int) -> str:
        return decode_text(self.fdp.ConsumeBytes(n))

    def rest_bytes(self) -> bytes:
        return self.fdp.ConsumeBytes(self.fdp.remaining_bytes())

    def rest(self) -> str:
        return decode_text(self.rest_bytes())


class Writer:
    """Builds an input that ``Reader`` reads back as the same choices, lengths and strings.

    Calls must follow the order of the target's reads; ``text``/``raw`` bytes go to the front in
    order, choices and lengths to the tail, which the reader consumes from the very end."""

    def __init__(self):
        self.front = bytearray()
        self.tail: list[int] = []   # in the order the reader consumes them

    def choice(self, index: int, n: int) -> Writer:
        """Choose item ``index`` of a sequence of ``n`` (no byte at all when ``n == 1``)."""
        return self.integer(0, n - 1, index)

    def integer(self, lo: int, hi: int, value: int) -> Writer:
        span, nbytes = hi - lo, 0
        while span >> (8 * nbytes):
            nbytes += 1
        offset = value - lo
        for i in reversed(range(nbytes)):   # most significant first: the reader reads it first
            self.tail.append((offset >> (8 * i)) & 0xFF)
        return self

    def length(self, n: int) -> Writer:
        return self.integer(0, 0xFFFF, n)

    def raw(self, b: bytes) -> Writer:
        self.front += b
        return self

    def text(self, s: str) -> Writer:
        """Length-prefixed text: the length goes to the tail, the UTF-8 to the front."""
        b = encode_text(s)
        self.length(len(b))
        self.front += b
        return self

    def rest(self, s: str) -> Writer:
        self.front += encode_text(s)
        return self

    def data(self) -> bytes:
        return bytes(self.front) + bytes(reversed(self.tail))
