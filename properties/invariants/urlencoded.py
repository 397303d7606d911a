"""https://url.spec.whatwg.org/#application/x-www-form-urlencoded

Invariants of application/x-www-form-urlencoded, against a model written with
``urllib.parse``'s decoder and quoting.
"""

from __future__ import annotations

import urllib.parse

import engine
from properties.invariants.common import fail, to_usv


def urlencoded_parse_model(data: bytes) -> list[tuple[str, str]]:
    """https://url.spec.whatwg.org/#concept-urlencoded-parser, written with urllib's decoder."""
    pairs = []
    for sequence in data.split(b"&"):
        if not sequence:
            continue
        name, _, value = sequence.partition(b"=")
        pairs.append(tuple(
            urllib.parse.unquote_to_bytes(part.replace(b"+", b" ")).decode("utf-8", "replace")
            for part in (name, value)))
    return pairs


def _form_quote(s: str) -> str:
    # quote_plus keeps ALPHA DIGIT "_.-~" always; the form set keeps "*-._" and alphanumerics.
    return urllib.parse.quote_plus(to_usv(s), safe="*").replace("~", "%7E")


def urlencoded_serialize_model(pairs) -> str:
    """https://url.spec.whatwg.org/#concept-urlencoded-serializer (UTF-8), written with urllib."""
    return "&".join(f"{_form_quote(n)}={_form_quote(v)}" for n, v in pairs)


def check_urlencoded_parse(data: bytes) -> None:
    """https://url.spec.whatwg.org/#concept-urlencoded-parser

    Parsing any bytes gives the pairs of the Standard's algorithm (split on '&', drop empty
    sequences, split on the first '=', '+' to space, percent-decode, UTF-8 decode with
    replacement); serializing those pairs and parsing again gives the same pairs.
    """
    pairs = engine.form_urlencoded_parse(data)
    expected = urlencoded_parse_model(data)
    if [tuple(p) for p in pairs] != expected:
        fail(f"form_urlencoded_parse({data!r}) = {pairs!r}, expected {expected!r}")
    check_urlencoded_roundtrip(expected)


def check_urlencoded_roundtrip(pairs: list[tuple[str, str]]) -> None:
    """https://url.spec.whatwg.org/#concept-urlencoded-serializer

    Serializing name-value pairs gives the Standard's string (form percent-encode set, space as
    '+', '=' and '&' between), and parsing it gives the same pairs (lone surrogates read as
    U+FFFD, as a JavaScript string would convert).
    """
    out = engine.form_urlencoded_serialize(pairs)
    expected = urlencoded_serialize_model(pairs)
    if out != expected:
        fail(f"form_urlencoded_serialize({pairs!r}) = {out!r}, expected {expected!r}")
    back = [tuple(p) for p in engine.form_urlencoded_parse(out.encode("ascii"))]
    usv_pairs = [(to_usv(n), to_usv(v)) for n, v in pairs]
    if back != usv_pairs:
        fail(f"form_urlencoded_serialize({pairs!r}) = {out!r} parses back to {back!r}")
