"""Punycode, RFC 3492: the encoding of a label's code points in ASCII that IDNA uses.

https://www.rfc-editor.org/rfc/rfc3492#section-6

The URL Standard reaches it through UTS #46 (engine.idna): ToASCII encodes each non-ASCII label,
and every "xn--" label is decoded and validated. Python's ``punycode`` codec is not used: it takes
quadratic time on a long label of many distinct code points, and decodes "-59d" (see
``punycode_decode``); tests/engine/test_punycode.py holds the encoder to the codec's output.
"""

from __future__ import annotations

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


# Up to this many code points, the encoder scans the label once per distinct code point (O(n^2)
# steps, few for a short label); beyond it, it counts with a Fenwick tree (O(n log n)).
_SCAN = 64
# Up to this many insertions, the decoder inserts into a list (O(n^2), but the moves are done in
# C); beyond it, it places them with a Fenwick tree (O(n log n)).
_SHORT = 512


def punycode_encode(label: str) -> str:
    """RFC 3492 6.3, the Punycode encoder.

    Deviation from the RFC's loop (not from its output): for a long label, instead of scanning the
    whole input once per distinct code point, which is quadratic for a label of many distinct code
    points (as is Python's ``punycode`` codec), each insertion's delta is counted with a Fenwick
    tree over the positions of the code points already handled: O(n log n).
    """
    cps = [ord(c) for c in label]
    size = len(cps)
    out = [c for c in label if ord(c) < 0x80]
    h = b = len(out)
    if b:
        out.append("-")
    distinct = sorted({cp for cp in cps if cp >= 0x80})
    n, delta, bias = 0x80, 0, 72
    digits = _DIGITS
    long = size > _SCAN
    if long:
        positions: dict[int, list[int]] = {}
        tree = [0] * (size + 1)
        for i, cp in enumerate(cps):
            if cp < 0x80:
                j = i + 1
                while j <= size:
                    tree[j] += 1
                    j += j & -j
            else:
                positions.setdefault(cp, []).append(i)

        def before(i: int) -> int:  # how many handled positions are < i
            total = 0
            while i > 0:
                total += tree[i]
                i -= i & -i
            return total

    for m in distinct:
        delta += (m - n) * (h + 1)
        n = m
        if long:
            # The occurrences of n, each with the count of smaller code points since the last.
            prev = 0
            counts = []
            for i in positions[m]:
                counts.append(before(i) - before(prev))
                prev = i + 1
            tail = before(size) - before(prev)
            for i in positions[m]:
                j = i + 1
                while j <= size:
                    tree[j] += 1
                    j += j & -j
        else:
            counts = []
            run = 0
            for c in cps:
                if c < n:
                    run += 1
                elif c == n:
                    counts.append(run)
                    run = 0
            tail = run
        for count in counts:
            delta += count
            # Encode delta as a generalized variable-length integer.
            q, k = delta, _BASE
            while True:
                t = _TMIN if k <= bias else _TMAX if k >= bias + _TMAX else k - bias
                if q < t:
                    break
                out.append(digits[t + (q - t) % (_BASE - t)])
                q = (q - t) // (_BASE - t)
                k += _BASE
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
            t = _TMIN if k <= bias else _TMAX if k >= bias + _TMAX else k - bias
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
