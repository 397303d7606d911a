"""The engine's Punycode encoder (RFC 3492) gives exactly what Python's codec gives.

https://www.rfc-editor.org/rfc/rfc3492#section-6.3
"""

from __future__ import annotations

import random

import pytest

from engine.punycode import _SCAN, _SHORT, punycode_encode


def _strings(seed: int, count: int, longest: int = 40, shortest: int = 0):
    r = random.Random(seed)
    ranges = [(0x20, 0x80), (0x80, 0x800), (0x800, 0x10000), (0x10000, 0x110000)]
    for _ in range(count):
        chars = [chr(r.randrange(*r.choice(ranges))) for _ in range(r.randrange(shortest, longest))]
        # Repeats of a few code points, the case the delta bookkeeping is subtle for.
        if chars and r.random() < 0.5:
            chars += r.choices(chars, k=r.randrange(1, 10))
            r.shuffle(chars)
        s = "".join(chars)
        yield s.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


@pytest.mark.parametrize("seed", range(4))
def test_matches_python_codec(seed):
    for s in _strings(seed, 500):
        assert punycode_encode(s) == s.encode("punycode").decode("ascii"), repr(s)


def test_long_labels_match_python_codec():
    """Labels over _SCAN code points take the Fenwick-tree path; labels up to it the scan."""
    near = [s for s in _strings(99, 40, shortest=_SCAN - 20, longest=_SCAN - 9) if len(s) <= _SCAN]
    long = [s for s in _strings(98, 30, shortest=_SCAN + 1, longest=8 * _SCAN) if len(s) > _SCAN]
    assert len(near) >= 20 and len(long) == 30
    for s in near + long:
        assert punycode_encode(s) == s.encode("punycode").decode("ascii"), repr(s)


@pytest.mark.parametrize("label,expected", [("bücher", "bcher-kva"), ("☕", "53h"), ("ü", "tda"), ("", "")])
def test_known_labels(label, expected):
    assert punycode_encode(label) == expected


def test_decoder_inverts_encoder():
    from engine.punycode import punycode_decode

    for s in _strings(7, 500):
        assert punycode_decode(punycode_encode(s)) == s, repr(s)
    # Over _SHORT insertions the decoder places them with a Fenwick tree.
    long = [s for s in _strings(8, 10, shortest=_SHORT + 1, longest=3 * _SHORT)
            if sum(c >= "\x80" for c in s) > _SHORT]
    assert len(long) >= 5
    for s in long:
        assert punycode_decode(punycode_encode(s)) == s, repr(s)


@pytest.mark.parametrize("encoded", ["-59d", "-", "-a", "a-9999999999999999", "99999999999", "a-b!"])
def test_decoder_fails_as_rfc_3492_says(encoded):
    """A delimiter with no basic code points before it is not consumed ("-59d" fails, though
    Python's codec decodes it); overflow and non-digits fail."""
    from engine.punycode import punycode_decode

    with pytest.raises(ValueError):
        punycode_decode(encoded)


def test_non_canonical_ace_label_round_trips():
    """Found by fuzz_idna: domain to Unicode of "xn---59d" must fail (and return the domain), or
    the domain parser and domain to Unicode would not round-trip."""
    import engine

    assert engine.domain_to_unicode("xn---59d") == "xn---59d"
    assert engine.domain_to_ascii(engine.domain_to_unicode("xn---59d")) == "xn---59d"
