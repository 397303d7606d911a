"""The few Infra Standard notions the URL Standard leans on, and the code point sets that more
than one of the engine's modules builds on.

https://infra.spec.whatwg.org/
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "to_scalar_value_string",
    "ASCII_HEX_DIGITS",
    "ASCII_DIGITS",
    "ASCII_ALPHA",
    "ASCII_ALPHANUMERIC",
    "C0_CONTROLS",
    "FORBIDDEN_HOST_CODE_POINTS",
    "FORBIDDEN_DOMAIN_CODE_POINTS",
    "NOT_URL_CODE_POINT_OR_PERCENT",
    "PERCENT_NOT_FOLLOWED_BY_TWO_HEX_DIGITS",
    "character_class",
]

_SURROGATE = re.compile("[\ud800-\udfff]").search

ASCII_DIGITS = frozenset("0123456789")
ASCII_HEX_DIGITS = frozenset("0123456789ABCDEFabcdef")
ASCII_ALPHA = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
ASCII_ALPHANUMERIC = ASCII_ALPHA | ASCII_DIGITS
# https://infra.spec.whatwg.org/#c0-control
C0_CONTROLS = frozenset(map(chr, range(0x20)))

# The URL Standard's forbidden code points are defined here, once: engine.host (the opaque-host
# parser), engine.idna (the domain parser, which engine.host imports) and engine.fast_path (the
# URL parser's fast path's hosts) all build their character classes from them, with
# ``character_class``.
# tests/engine/test_code_points.py checks every such class against these sets on every code point.
# https://url.spec.whatwg.org/#forbidden-host-code-point
FORBIDDEN_HOST_CODE_POINTS = frozenset("\x00\t\n\r #/:<>?@[\\]^|")
# https://url.spec.whatwg.org/#forbidden-domain-code-point: a forbidden host code point, a C0
# control, U+0025 (%), or U+007F DELETE.
FORBIDDEN_DOMAIN_CODE_POINTS = FORBIDDEN_HOST_CODE_POINTS | C0_CONTROLS | frozenset("%\x7f")

# What an invalid-URL-unit validation error is about, where the opaque-host parser (engine.host)
# and the URL parser's states (engine.url and engine.reference) look for one:
#: https://url.spec.whatwg.org/#url-code-points: a code point that is not a URL code point and not
#: U+0025 (%). (ASCII alphanumerics, the listed ASCII punctuation, and U+00A0 to U+10FFFD but
#: surrogates and noncharacters, https://infra.spec.whatwg.org/#noncharacter, are URL code points.)
NOT_URL_CODE_POINT_OR_PERCENT = re.compile(
    "[^!$%&'()*+,\\-./0-9:;=?@A-Z_a-z~\u00a0-\U0010fffd]"
    "|[\ufdd0-\ufdef\ufffe\uffff\U0001fffe\U0001ffff\U0002fffe\U0002ffff\U0003fffe\U0003ffff"
    "\U0004fffe\U0004ffff\U0005fffe\U0005ffff\U0006fffe\U0006ffff\U0007fffe\U0007ffff"
    "\U0008fffe\U0008ffff\U0009fffe\U0009ffff\U000afffe\U000affff\U000bfffe\U000bffff"
    "\U000cfffe\U000cffff\U000dfffe\U000dffff\U000efffe\U000effff\U000ffffe\U000fffff"
    "\U0010fffe\U0010ffff\ud800-\udfff]"
)
#: https://url.spec.whatwg.org/#percent-encoded-byte: a U+0025 (%) that does not start one (not
#: followed by two ASCII hex digits).
PERCENT_NOT_FOLLOWED_BY_TWO_HEX_DIGITS = re.compile("%(?![0-9A-Fa-f]{2})")


def to_scalar_value_string(s: str) -> str:
    """https://infra.spec.whatwg.org/#javascript-string-convert

    A Python ``str`` may hold surrogate code points. As a JavaScript string (UTF-16) would, a high
    surrogate followed by a low one stands for one scalar value; every other surrogate becomes
    U+FFFD.
    """
    if s.isascii() or _SURROGATE(s) is None:
        return s
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def character_class(code_points: Iterable[str], *, negated: bool = False) -> str:
    """A regular expression character class that matches one of ``code_points`` (with
    ``negated``, any other code point): runs of consecutive code points written as ranges, each
    code point as a hexadecimal escape, so that no code point is special inside the class."""
    ordinals = sorted(set(map(ord, code_points)))
    ranges: list[list[int]] = []
    for cp in ordinals:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])

    def escape(cp: int) -> str:
        return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}"

    body = "".join(escape(a) if a == b else f"{escape(a)}-{escape(b)}" for a, b in ranges)
    return ("[^" if negated else "[") + body + "]"
