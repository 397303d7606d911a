"""The few Infra Standard notions the URL Standard leans on.

https://infra.spec.whatwg.org/
"""

from __future__ import annotations

import re

__all__ = ["to_scalar_value_string", "ASCII_HEX_DIGITS", "ASCII_DIGITS", "ASCII_ALPHA", "ASCII_ALPHANUMERIC"]

_SURROGATE = re.compile("[\ud800-\udfff]").search

ASCII_DIGITS = frozenset("0123456789")
ASCII_HEX_DIGITS = frozenset("0123456789ABCDEFabcdef")
ASCII_ALPHA = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
ASCII_ALPHANUMERIC = ASCII_ALPHA | ASCII_DIGITS


def to_scalar_value_string(s: str) -> str:
    """https://infra.spec.whatwg.org/#javascript-string-convert

    A Python ``str`` may hold surrogate code points. As a JavaScript string (UTF-16) would, a high
    surrogate followed by a low one stands for one scalar value; every other surrogate becomes
    U+FFFD.
    """
    if s.isascii() or _SURROGATE(s) is None:
        return s
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
