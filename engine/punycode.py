"""Punycode, RFC 3492: the encoding of a label's code points in ASCII that IDNA uses.

https://www.rfc-editor.org/rfc/rfc3492#section-6

The URL Standard reaches it through UTS #46 (engine.idna): ToASCII encodes each non-ASCII label,
and every "xn--" label is decoded and validated. Python's ``punycode`` codec is not used: it takes
quadratic time on a long label of many distinct code points, and decodes "-59d" (see
``punycode_decode``); tests/test_punycode.py holds the encoder to the codec's output.
"""

from __future__ import annotations

import re

__all__ = ["punycode_encode", "punycode_decode"]

_BASE, _TMIN, _TMAX, _SKEW, _DAMP = 36, 1, 26, 38, 700
_DIGITS = "abcdefghijklmnopqrstuvwxyz0123456789"


def _adapt(delta: int, numpoints: int, first_time: bool) -> int:
    """RFC 3492 6.1, bias adaptation."""
    delta = delta // _DAMP if first_time else delta // 2
    delta += delta // numpoints
    k = 0
    while delta > ((_BASE - _TMIN) * _TMAX) // 2:
        delta //= _BASE - _TMIN
        k += _BASE
    return k + (((_BASE - _TMIN + 1) * delta) // (delta + _SKEW))


_basic_run = re.compile("[\x00-\x7f]+")
_non_basic_run = re.compile("[^\x00-\x7f]+")
_non_basic = re.compile("[^\x00-\x7f]")
_BASIC_TO_ONE = {cp: "\x01" for cp in range(0x80)}
# Up to this many code points, the encoder counts a label's deltas in the mask, one C loop per
# occurrence (O(n * distinct) in all), and the decoder inserts into a list (O(n^2) in C); beyond
# it, both use a Fenwick tree (O(n log n)).
_SHORT = 512


def punycode_encode(label: str) -> str:
    """RFC 3492 6.3, the Punycode encoder.

    Deviation from the RFC's loop (not from its output): the RFC scans the whole input once per
    distinct code point n, counting the code points smaller than n (the ones handled already)
    between the occurrences of n. Here the occurrences are found with ``str.find`` and the handled
    code points between them counted in a byte mask with ``bytearray.count``; for a long label,
    where one scan per distinct code point is quadratic (as in Python's ``punycode`` codec), with
    a Fenwick tree over the handled positions instead: O(n log n).
    """
    # 1./2. Copy the basic code points in order, then a delimiter if there were any.
    basic = _non_basic_run.sub("", label)
    h = b = len(basic)
    out = [basic, "-"] if b else []
    size = len(label)
    n, delta, bias = 0x80, 0, 72
    digits = _DIGITS
    long = size > _SHORT
    if long:
        positions: dict[str, list[int]] = {}
        tree = [0] * (size + 1)
        for i, c in enumerate(label):
            if c < "\x80":
                j = i + 1
                while j <= size:
                    tree[j] += 1
                    j += j & -j
            else:
                positions.setdefault(c, []).append(i)

        def before(i: int) -> int:  # how many handled positions are < i
            total = 0
            while i > 0:
                total += tree[i]
                i -= i & -i
            return total

    else:
        # 1 where the code point is handled (so far, the basic ones), 0 elsewhere.
        handled = bytearray(_non_basic.sub("\x00", label.translate(_BASIC_TO_ONE)), "latin-1")
    # 3. While h < length(input): the next code point n, in order, and its occurrences in turn.
    for ch in sorted(set(_basic_run.sub("", label))):
        m = ord(ch)
        delta += (m - n) * (h + 1)
        n = m
        # The count of smaller (handled) code points before each occurrence of n since the
        # last, and after the last.
        counts = []
        prev = 0
        if long:
            for i in positions[ch]:
                counts.append(before(i) - before(prev))
                prev = i + 1
            tail = before(size) - before(prev)
            for i in positions[ch]:
                j = i + 1
                while j <= size:
                    tree[j] += 1
                    j += j & -j
        else:
            i = label.find(ch)
            while i >= 0:
                counts.append(handled.count(1, prev, i))
                handled[i] = 1
                prev = i + 1
                i = label.find(ch, prev)
            tail = handled.count(1, prev)
        for count in counts:
            delta += count
            # Encode delta as a generalized variable-length integer (t: the threshold for
            # k, clamped to tmin..tmax).
            q, k = delta, _BASE
            t = min(max(k - bias, _TMIN), _TMAX)
            while q >= t:
                out.append(digits[t + (q - t) % (_BASE - t)])
                q = (q - t) // (_BASE - t)
                k += _BASE
                t = min(max(k - bias, _TMIN), _TMAX)
            out.append(digits[q])
            bias = _adapt(delta, h + 1, h == b)
            delta = 0
            h += 1
        delta += tail + 1
        n += 1
    return "".join(out)


_MAXINT = 0xFFFFFFFF


# RFC 3492 5: a-z (and A-Z) are the digit values 0-25, 0-9 are 26-35.
_DIGIT_VALUE = {c: v for v, c in enumerate(_DIGITS)} | {c.upper(): v for v, c in enumerate(_DIGITS[:26])}


def punycode_decode(encoded: str) -> str:
    """RFC 3492 6.2, the Punycode decoder (overflow per a 32-bit unsigned maxint); ValueError on
    failure.

    Deviation from Python's ``punycode`` codec, which is not used here: the codec consumes the
    last delimiter even when no basic code points precede it, so it decodes "-59d" (as in
    "xn---59d") where RFC 3492 fails ("if more than zero code points were consumed then consume
    one more"); the domain parser and domain to Unicode then disagree on such a label.
    """
    n, i, bias = 0x80, 0, 72
    pos = encoded.rfind("-")
    if pos > 0:
        output = list(encoded[:pos])
        if not encoded[:pos].isascii():
            raise ValueError("non-basic code point before the delimiter")
        rest = encoded[pos + 1 :]
    else:
        output = []
        rest = encoded
    index, length = 0, len(rest)
    inserts: list[tuple[int, int]] = []  # (index at the time, code point), placed at the end
    size_now = len(output)
    while index < length:
        old_i, w, k = i, 1, _BASE
        while True:
            if index >= length:
                raise ValueError("truncated Punycode")
            digit = _DIGIT_VALUE.get(rest[index])
            if digit is None:
                raise ValueError(f"not a Punycode digit: {rest[index]!r}")
            index += 1
            if digit > (_MAXINT - i) // w:
                raise ValueError("Punycode overflow")
            i += digit * w
            t = min(max(k - bias, _TMIN), _TMAX)
            if digit < t:
                break
            if w > _MAXINT // (_BASE - t):
                raise ValueError("Punycode overflow")
            w *= _BASE - t
            k += _BASE
        size = size_now + 1
        bias = _adapt(i - old_i, size, old_i == 0)
        if i // size > _MAXINT - n:
            raise ValueError("Punycode overflow")
        n += i // size
        i %= size
        if n > 0x10FFFF:
            raise ValueError("Punycode decodes beyond U+10FFFF")
        inserts.append((i, n))
        i += 1
        size_now += 1
    return _place(output, inserts)


def _place(basic: list[str], inserts: list[tuple[int, int]]) -> str:
    """The decoded string: ``basic`` with each (index, code point) of ``inserts`` inserted in turn.

    Inserting into a list one by one is quadratic; fine (moves done in C) up to ``_SHORT``
    insertions. For a longer label, each insertion's final place is found going backwards: the
    (index + 1)-th slot not taken by a later insertion, with a Fenwick tree over the free slots
    (O(n log n)). The basic code points fill the slots left over, in order."""
    if len(inserts) <= _SHORT:
        out = list(basic)
        for index, cp in inserts:
            out.insert(index, chr(cp))
        return "".join(out)
    size = len(basic) + len(inserts)
    tree = [0] * (size + 1)
    for j in range(1, size + 1):  # every slot free: a tree of ones, built in linear time
        tree[j] += 1
        parent = j + (j & -j)
        if parent <= size:
            tree[parent] += tree[j]
    top = 1 << size.bit_length()
    result: list[str | None] = [None] * size
    for index, cp in reversed(inserts):
        # The slot with (index + 1) free slots up to and including it.
        pos, rank, step = 0, index + 1, top
        while step:
            nxt = pos + step
            if nxt <= size and tree[nxt] < rank:
                pos = nxt
                rank -= tree[nxt]
            step >>= 1
        result[pos] = chr(cp)
        j = pos + 1
        while j <= size:
            tree[j] -= 1
            j += j & -j
    rest = iter(basic)
    return "".join(c if c is not None else next(rest) for c in result)
