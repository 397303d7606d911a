"""application/x-www-form-urlencoded parsing and serializing.

https://url.spec.whatwg.org/#application/x-www-form-urlencoded
"""

from __future__ import annotations

from .encoding import get_encoding, get_output_encoding
from .infra import to_scalar_value_string
from .percent_encoding import (
    FORM_URLENCODED_PERCENT_ENCODE_SET,
    percent_decode,
    percent_encode_after_encoding,
)

__all__ = ["form_urlencoded_parse", "form_urlencoded_serialize", "form_urlencoded_string_parse"]


def form_urlencoded_parse(data: bytes) -> list[tuple[str, str]]:
    """https://url.spec.whatwg.org/#concept-urlencoded-parser"""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"form_urlencoded_parse() takes bytes, not {type(data).__name__}")
    output = []
    # 1. Let sequences be the result of splitting input on 0x26 (&).
    for sequence in bytes(data).split(b"&"):
        # 3.1. If bytes is the empty byte sequence, then continue.
        if not sequence:
            continue
        # 3.2./3.3. Split at the first 0x3D (=), if any.
        name, _, value = sequence.partition(b"=")
        # 3.4. Replace any 0x2B (+) in name and value with 0x20 (SP).
        # 3.5. Percent-decode, then UTF-8 decode without BOM.
        output.append(
            (
                percent_decode(name.replace(b"+", b" ")).decode("utf-8", "replace"),
                percent_decode(value.replace(b"+", b" ")).decode("utf-8", "replace"),
            )
        )
    return output


def form_urlencoded_string_parse(s: str) -> list[tuple[str, str]]:
    """https://url.spec.whatwg.org/#concept-urlencoded-string-parser"""
    return form_urlencoded_parse(to_scalar_value_string(s).encode("utf-8"))


def form_urlencoded_serialize(pairs, encoding: str = "utf-8") -> str:
    """https://url.spec.whatwg.org/#concept-urlencoded-serializer

    ``encoding`` is an encoding label; as the Standard says, its output encoding is used.
    """

    name = get_output_encoding(get_encoding(encoding))
    output = []
    for pair in pairs:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2 or not all(isinstance(x, str) for x in pair):
            raise TypeError("form_urlencoded_serialize() takes (name, value) pairs of str")
        # 3.1./3.2. Percent-encode after encoding name and value with the form-urlencoded set.
        output.append(
            percent_encode_after_encoding(name, pair[0], FORM_URLENCODED_PERCENT_ENCODE_SET)
            + "="
            + percent_encode_after_encoding(name, pair[1], FORM_URLENCODED_PERCENT_ENCODE_SET)
        )
    # 3.3./3.4. Join with U+0026 (&).
    return "&".join(output)
