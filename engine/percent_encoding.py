"""Percent-encoded bytes.

https://url.spec.whatwg.org/#percent-encoded-bytes

Each percent-encode set is defined from the previous one, as the Standard does. Every set holds all
code points above U+007E, so a set is fully described by the ASCII code points it holds; the hot
paths use tables derived from that: a 256-entry tuple of output strings per set, and a regular
expression that finds the first code point needing encoding (when it finds none, the input is
returned untouched).
"""

from __future__ import annotations

import re

from .encoding import encode_or_fail, get_encoding
from .infra import to_scalar_value_string

__all__ = [
    "PercentEncodeSet",
    "C0_CONTROL_PERCENT_ENCODE_SET",
    "FRAGMENT_PERCENT_ENCODE_SET",
    "QUERY_PERCENT_ENCODE_SET",
    "SPECIAL_QUERY_PERCENT_ENCODE_SET",
    "PATH_PERCENT_ENCODE_SET",
    "USERINFO_PERCENT_ENCODE_SET",
    "COMPONENT_PERCENT_ENCODE_SET",
    "FORM_URLENCODED_PERCENT_ENCODE_SET",
    "PERCENT_ENCODE_SETS",
    "percent_encode",
    "percent_decode",
    "percent_decode_string",
    "utf8_percent_encode",
    "percent_encode_after_encoding",
    "percent_encode_utf8",
    "percent_encode_legacy",
]


class PercentEncodeSet:
    """https://url.spec.whatwg.org/#percent-encode-set

    A set of code points: all code points above U+007E plus ``ascii``. Supports ``cp in SET`` for
    a one-character string or an int.
    """

    __slots__ = ("name", "ascii", "table", "plus_table", "needs_encoding")

    def __init__(self, name: str, ascii_members: frozenset[int]):
        self.name = name
        self.ascii = ascii_members
        # Output per byte: the byte itself (as a code point) or its percent-encoding.
        self.table = tuple(
            f"%{b:02X}" if (b > 0x7E or b in ascii_members) else chr(b) for b in range(256)
        )
        self.plus_table = self.table[:0x20] + ("+",) + self.table[0x21:]
        # The first code point this set would encode: any but the (few, ASCII) ones it leaves.
        safe = "".join(chr(b) for b in range(0x7F) if b not in ascii_members)
        self.needs_encoding = re.compile("[^" + re.escape(safe) + "]").search

    def union(self, name: str, *members: str | tuple[str, str]) -> "PercentEncodeSet":
        """A new set: this one and the given code points (``"x"``) or inclusive ranges."""
        extra = set()
        for m in members:
            if isinstance(m, tuple):
                extra.update(range(ord(m[0]), ord(m[1]) + 1))
            else:
                extra.add(ord(m))
        return PercentEncodeSet(name, self.ascii | frozenset(extra))

    def __contains__(self, code_point: object) -> bool:
        if isinstance(code_point, str):
            if len(code_point) != 1:
                return False
            code_point = ord(code_point)
        elif not isinstance(code_point, int):
            return False
        return code_point > 0x7E or code_point in self.ascii

    def __repr__(self) -> str:
        return f"<{self.name} percent-encode set>"


# https://url.spec.whatwg.org/#c0-control-percent-encode-set
C0_CONTROL_PERCENT_ENCODE_SET = PercentEncodeSet("C0 control", frozenset(range(0x20)))
# https://url.spec.whatwg.org/#fragment-percent-encode-set
FRAGMENT_PERCENT_ENCODE_SET = C0_CONTROL_PERCENT_ENCODE_SET.union("fragment", " ", '"', "<", ">", "`")
# https://url.spec.whatwg.org/#query-percent-encode-set
# (not defined from the fragment set: it omits U+0060 (`))
QUERY_PERCENT_ENCODE_SET = C0_CONTROL_PERCENT_ENCODE_SET.union("query", " ", '"', "#", "<", ">")
# https://url.spec.whatwg.org/#special-query-percent-encode-set
SPECIAL_QUERY_PERCENT_ENCODE_SET = QUERY_PERCENT_ENCODE_SET.union("special-query", "'")
# https://url.spec.whatwg.org/#path-percent-encode-set
PATH_PERCENT_ENCODE_SET = QUERY_PERCENT_ENCODE_SET.union("path", "?", "^", "`", "{", "}")
# https://url.spec.whatwg.org/#userinfo-percent-encode-set
USERINFO_PERCENT_ENCODE_SET = PATH_PERCENT_ENCODE_SET.union(
    "userinfo", "/", ":", ";", "=", "@", ("[", "]"), "|"
)
# https://url.spec.whatwg.org/#component-percent-encode-set
COMPONENT_PERCENT_ENCODE_SET = USERINFO_PERCENT_ENCODE_SET.union("component", ("$", "&"), "+", ",")
# https://url.spec.whatwg.org/#application-x-www-form-urlencoded-percent-encode-set
FORM_URLENCODED_PERCENT_ENCODE_SET = COMPONENT_PERCENT_ENCODE_SET.union(
    "application/x-www-form-urlencoded", "!", ("'", ")"), "~"
)

#: Every set by a short name (used by fuzzers, properties and the CLI).
PERCENT_ENCODE_SETS = {
    "c0-control": C0_CONTROL_PERCENT_ENCODE_SET,
    "fragment": FRAGMENT_PERCENT_ENCODE_SET,
    "query": QUERY_PERCENT_ENCODE_SET,
    "special-query": SPECIAL_QUERY_PERCENT_ENCODE_SET,
    "path": PATH_PERCENT_ENCODE_SET,
    "userinfo": USERINFO_PERCENT_ENCODE_SET,
    "component": COMPONENT_PERCENT_ENCODE_SET,
    "application/x-www-form-urlencoded": FORM_URLENCODED_PERCENT_ENCODE_SET,
}


def percent_encode(byte: int) -> str:
    """https://url.spec.whatwg.org/#percent-encode"""
    if byte.__class__ is not int or not 0 <= byte <= 0xFF:
        raise TypeError(f"percent_encode() takes a byte (an int 0..255), not {byte!r}"[:120])
    return f"%{byte:02X}"


# Every two-byte ASCII hex digit sequence -> the byte it stands for.
_HEX = "0123456789ABCDEFabcdef"
_HEX_TO_BYTE = {
    (a + b).encode(): bytes((int(a + b, 16),)) for a in _HEX for b in _HEX
}
# A 0x25 (%) byte followed by two ASCII hex digits (captured).
_PERCENT_HEX = re.compile(b"%([0-9A-Fa-f]{2})")


def percent_decode(data: bytes) -> bytes:
    """https://url.spec.whatwg.org/#percent-decode

    The Standard's byte loop, done by the regex engine: splitting on each 0x25 (%) followed by
    two ASCII hex digits leaves the bytes in between (kept, bare "%" included) at even indexes
    and the digit pairs at odd ones, each replaced by the byte it stands for.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"percent_decode() takes bytes, not {type(data).__name__}")
    data = bytes(data)
    if b"%" not in data:
        return data
    parts = _PERCENT_HEX.split(data)
    parts[1::2] = map(_HEX_TO_BYTE.__getitem__, parts[1::2])
    return b"".join(parts)


def percent_decode_string(s: str) -> bytes:
    """https://url.spec.whatwg.org/#string-percent-decode"""
    if not isinstance(s, str):
        raise TypeError(f"percent_decode_string() takes str, not {type(s).__name__}")
    return percent_decode(to_scalar_value_string(s).encode("utf-8"))


def utf8_percent_encode(s: str, encode_set: PercentEncodeSet) -> str:
    """https://url.spec.whatwg.org/#string-utf-8-percent-encode"""
    if not isinstance(s, str):
        raise TypeError(f"utf8_percent_encode() takes str, not {type(s).__name__}")
    if not isinstance(encode_set, PercentEncodeSet):
        raise TypeError("utf8_percent_encode() needs a percent-encode set")
    return percent_encode_utf8(s, encode_set, encode_set is FORM_URLENCODED_PERCENT_ENCODE_SET)


def percent_encode_utf8(s: str, encode_set: PercentEncodeSet, space_as_plus: bool) -> str:
    """https://url.spec.whatwg.org/#string-percent-encode-after-encoding with UTF-8 (with
    ``space_as_plus`` false, https://url.spec.whatwg.org/#string-utf-8-percent-encode), for the
    engine's own callers: ``s`` is a str and ``encode_set`` a set already (not checked)."""
    # Fast path: nothing to encode, return the input untouched.
    first = encode_set.needs_encoding(s)
    if first is None:
        return s
    start = first.start()
    table = encode_set.plus_table if space_as_plus else encode_set.table
    try:
        data = s[start:].encode("utf-8")
    except UnicodeEncodeError:  # surrogates: convert to a scalar value string first
        data = to_scalar_value_string(s[start:]).encode("utf-8")
    return s[:start] + "".join(map(table.__getitem__, data))


def percent_encode_after_encoding(encoding: str, s: str, encode_set: PercentEncodeSet) -> str:
    """https://url.spec.whatwg.org/#string-percent-encode-after-encoding

    ``encoding`` is an encoding label ("shift_jis", "utf-8", ...). Deviation: the Standard asserts
    that a legacy encoding comes only with the special-query or form-urlencoded set; here any set
    is accepted (every set holds all non-ASCII code points, which is what the algorithm needs).
    """
    if not isinstance(s, str):
        raise TypeError(f"percent_encode_after_encoding() takes str, not {type(s).__name__}")
    if not isinstance(encode_set, PercentEncodeSet):
        raise TypeError("percent_encode_after_encoding() needs a percent-encode set")

    name = get_encoding(encoding)
    # 2. Let spaceAsPlus be true if percentEncodeSet is the form-urlencoded set.
    space_as_plus = encode_set is FORM_URLENCODED_PERCENT_ENCODE_SET
    if name == "UTF-8":
        return percent_encode_utf8(s, encode_set, space_as_plus)
    return percent_encode_legacy(name, s, encode_set, space_as_plus)


def percent_encode_legacy(
    name: str, s: str, encode_set: PercentEncodeSet, space_as_plus: bool
) -> str:
    """https://url.spec.whatwg.org/#string-percent-encode-after-encoding with a legacy encoding,
    ``name`` (an encoding's name, as ``get_encoding`` gives it, not a label), for the engine's
    own callers: ``s`` is a str and ``encode_set`` a set already (not checked)."""
    table = encode_set.plus_table if space_as_plus else encode_set.table
    output = []
    # 7. While potentialError is non-null: encode or fail, then percent-encode each byte, and on
    # an error append "%26%23", the code point in decimal, and "%3B".
    for chunk in encode_or_fail(name, to_scalar_value_string(s)):
        if isinstance(chunk, int):
            output.append(f"%26%23{chunk}%3B")
        else:
            output.append("".join(map(table.__getitem__, chunk)))
    return "".join(output)
