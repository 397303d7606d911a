"""IDNA: the domain parser and domain to Unicode, over UTS #46.

https://url.spec.whatwg.org/#idna

Unicode ToASCII and ToUnicode (https://www.unicode.org/reports/tr46/#Processing) are implemented
here with the URL Standard's flags, over the ``idna`` package's UTS #46 mapping table (its data
only: ``idna.encode`` applies IDNA2008, which rejects what the URL Standard accepts, such as
``☕.example``). Punycode is Python's codec. Deviation: normalization, general categories,
combining classes and bidi classes come from Python's ``unicodedata``, whose Unicode version may
trail the mapping table's; tests list the cases where that shows.
"""

from __future__ import annotations

import bisect
import re
import unicodedata

from idna.idnadata import joining_types as _joining_types
from idna.uts46data import __version__ as UTS46_VERSION
from idna.uts46data import uts46_replacements, uts46_starts, uts46_statuses

from .failure import Failure
from .infra import to_scalar_value_string

__all__ = ["domain_to_ascii", "domain_to_unicode", "unicode_to_ascii", "unicode_to_unicode", "UTS46_VERSION"]

_VALID, _MAPPED, _DEVIATION, _IGNORED = b"V"[0], b"M"[0], b"D"[0], b"I"[0]

# https://url.spec.whatwg.org/#forbidden-domain-code-point (engine.host holds the set; the
# domain parser, which engine.host imports, searches with this pattern).
_forbidden_domain = re.compile("[\x00-\x20#%/:<>?@\\[\\\\\\]^|\x7f]").search
# ASCII code points other than a-z, 0-9 and U+002D (-).
_not_std3 = re.compile("[\x00-,./:-`{-\x7f]").search


class _Error(Exception):
    """A UTS #46 processing error (recorded; ToASCII then fails)."""


_mapping_cache: dict[str, str | None] = {}


def _map_code_point(c: str) -> str | None:
    """The UTS #46 mapping of one code point (non-transitional); None where it is disallowed."""
    cp = ord(c)
    i = cp if cp < 256 else bisect.bisect_right(uts46_starts, cp) - 1
    status = uts46_statuses[i]
    if status == _VALID or status == _DEVIATION:
        return c
    if status == _MAPPED:
        return uts46_replacements[i]
    if status == _IGNORED:
        return ""
    return None


def _map(domain: str) -> str:
    """UTS #46 Processing step 1 (Map), non-transitional: a disallowed code point is an error.
    (Mappings are cached per code point, up to a bound.)"""
    out = []
    cache = _mapping_cache
    for c in domain:
        mapped = cache.get(c, False)
        if mapped is False:
            mapped = _map_code_point(c)
            if len(cache) < 20000:
                cache[c] = mapped
        if mapped is None:
            raise _Error(f"disallowed code point U+{ord(c):04X}")
        out.append(mapped)
    return "".join(out)


_VIRAMA = 9


def _joining_type(cp: int) -> str | None:
    for jt, ranges in _joining_types.items():
        # ranges: a sorted tuple of encoded ranges (start << 32 | end)
        pos = bisect.bisect_right(ranges, (cp << 32) | 0xFFFFFFFF)
        if pos and (ranges[pos - 1] >> 32) <= cp < (ranges[pos - 1] & 0xFFFFFFFF):
            return jt
    return None


def _valid_contextj(label: str, pos: int) -> bool:
    """RFC 5892 Appendix A.1 (ZERO WIDTH NON-JOINER) and A.2 (ZERO WIDTH JOINER)."""
    cp = ord(label[pos])
    if pos > 0 and unicodedata.combining(label[pos - 1]) == _VIRAMA:
        return True
    if cp == 0x200D:
        return False
    # ZWNJ: (Joining_Type:{L,D})(Joining_Type:T)*\u200C(Joining_Type:T)*(Joining_Type:{R,D})
    ok = False
    for i in range(pos - 1, -1, -1):
        jt = _joining_type(ord(label[i]))
        if jt == "T":
            continue
        ok = jt in ("L", "D")
        break
    if not ok:
        return False
    for i in range(pos + 1, len(label)):
        jt = _joining_type(ord(label[i]))
        if jt == "T":
            continue
        return jt in ("R", "D")
    return False


_RTL = frozenset({"R", "AL", "AN"})
_RTL_ALLOWED = frozenset({"R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"})
_LTR_ALLOWED = frozenset({"L", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"})


def _is_bidi_domain_name(labels: list[str]) -> bool:
    """RFC 5893 Section 1.4: a domain name with a code point of Bidi class R, AL or AN (all of
    them are outside ASCII)."""
    bidirectional = unicodedata.bidirectional
    return any(c > "\x7f" and bidirectional(c) in _RTL for label in labels for c in label)


def _check_bidi_label(label: str) -> bool:
    """RFC 5893 Section 2, the six rules, for one label of a Bidi domain name."""
    classes = [unicodedata.bidirectional(c) for c in label]
    first = classes[0]
    # Rule 1: the first character must have Bidi property L, R, or AL.
    if first in ("R", "AL"):
        # Rule 2: only R, AL, AN, EN, ES, CS, ET, ON, BN, NSM.
        if any(c not in _RTL_ALLOWED for c in classes):
            return False
        # Rule 3: end with R, AL, EN or AN, followed by zero or more NSM.
        end = next((c for c in reversed(classes) if c != "NSM"), None)
        if end not in ("R", "AL", "EN", "AN"):
            return False
        # Rule 4: EN and AN not both present.
        if "EN" in classes and "AN" in classes:
            return False
        return True
    if first == "L":
        # Rule 5: only L, EN, ES, CS, ET, ON, BN, NSM.
        if any(c not in _LTR_ALLOWED for c in classes):
            return False
        # Rule 6: end with L or EN, followed by zero or more NSM.
        end = next((c for c in reversed(classes) if c != "NSM"), None)
        return end in ("L", "EN")
    return False


def _validate_label(label: str, check_hyphens: bool, use_std3: bool, decoded: bool) -> None:
    """UTS #46 4.1 Validity Criteria, steps 1 to 7 (step 8, CheckBidi, is per domain).

    Step 6 (statuses) is checked for labels decoded from Punycode only: a label that came out of
    the mapping step holds valid and deviation code points by construction of the table (UTS #46
    guarantees that mapping and NFC keep to them), so checking it again would change nothing.
    """
    # 1. The label must be in Unicode Normalization Form NFC.
    # (A mapped label was normalized with the whole domain; a decoded one needs the check.)
    if decoded and not label.isascii() and unicodedata.normalize("NFC", label) != label:
        raise _Error("not NFC")
    if check_hyphens:
        # 2. No U+002D in both the third and fourth positions; neither begin nor end with it.
        if label[2:4] == "--":
            raise _Error("hyphens in positions 3 and 4")
        if label[:1] == "-" or label[-1:] == "-":
            raise _Error("leading or trailing hyphen")
    # 3. If not CheckHyphens, the label must not begin with "xn--".
    elif label[:4] == "xn--":
        raise _Error("label begins with xn--")
    # 4. The label must not contain a U+002E (.).
    if "." in label:
        raise _Error("label contains a full stop")
    # 5. The label must not begin with a combining mark.
    if label and unicodedata.category(label[0])[0] == "M":
        raise _Error("label begins with a combining mark")
    # 6. Each code point must be valid or deviation (non-transitional); with UseSTD3ASCIIRules,
    # an ASCII code point must be a lowercase letter, a digit or U+002D.
    if decoded:
        for c in label:
            if _map_code_point(c) != c:  # not valid or deviation
                raise _Error(f"code point U+{ord(c):04X} is not valid")
    if use_std3 and _not_std3(label):
        raise _Error("not a STD3 ASCII code point")
    # 7. CheckJoiners: the ContextJ rules of RFC 5892 Appendix A.
    if "\u200c" in label or "\u200d" in label:
        for pos, c in enumerate(label):
            if c in "\u200c\u200d" and not _valid_contextj(label, pos):
                raise _Error("ContextJ rule")


def _process(domain: str, check_hyphens: bool, use_std3: bool) -> list[str]:
    """UTS #46 4 Processing (CheckBidi and CheckJoiners true, non-transitional,
    IgnoreInvalidPunycode false): the labels, or _Error at the first error."""
    # 1. Map. 2. Normalize (NFC).
    mapped = _map(domain)
    if not mapped.isascii():
        mapped = unicodedata.normalize("NFC", mapped)
    # 3. Break into labels at U+002E (.).
    labels = mapped.split(".")
    # 4. Convert/Validate each label.
    for i, label in enumerate(labels):
        decoded = False
        if label[:4] == "xn--":
            # 4.1. A label with a non-ASCII code point is an error.
            if not label.isascii():
                raise _Error("non-ASCII in a Punycode label")
            # 4.2. Convert the rest of the label from Punycode.
            try:
                decoded_label = punycode_decode(label[4:])
            except ValueError as exc:
                raise _Error(f"invalid Punycode: {exc}") from None
            # 4.3. The decoded label must not be empty or all ASCII.
            if not decoded_label or decoded_label.isascii():
                raise _Error("Punycode label decodes to ASCII or nothing")
            labels[i] = label = decoded_label
            decoded = True
        _validate_label(label, check_hyphens, use_std3, decoded)
    # 4.4 (Validity criterion 8): CheckBidi, for a Bidi domain name (one with an R, AL or AN
    # code point), every non-empty label satisfies RFC 5893's rules.
    if not mapped.isascii() or any(not label.isascii() for label in labels):
        if _is_bidi_domain_name(labels):
            for label in labels:
                if label and not _check_bidi_label(label):
                    raise _Error("Bidi rule")
    return labels


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
    long = size > 64
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


def _digit_value(c: str) -> int:
    cp = ord(c)
    if 0x61 <= cp <= 0x7A:
        return cp - 0x61
    if 0x41 <= cp <= 0x5A:
        return cp - 0x41
    if 0x30 <= cp <= 0x39:
        return cp - 22
    raise ValueError(f"not a Punycode digit: {c!r}")


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
            digit = _digit_value(rest[index])
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

    Inserting into a list one by one is quadratic for a long label; instead, each insertion's
    final place is found going backwards: the (index + 1)-th slot not taken by a later insertion,
    with a Fenwick tree over the free slots (O(n log n)). The basic code points fill the slots
    left over, in order."""
    if len(inserts) <= 64:
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


def unicode_to_ascii(domain: str, *, check_hyphens: bool, use_std3: bool, verify_dns_length: bool) -> str:
    """https://www.unicode.org/reports/tr46/#ToASCII with CheckBidi, CheckJoiners true,
    Transitional_Processing and IgnoreInvalidPunycode false. Raises Failure("domain-to-ASCII")."""
    try:
        labels = _process(domain, check_hyphens, use_std3)
    except _Error as exc:
        raise Failure("domain-to-ASCII", f"domain-to-ASCII: {exc}") from None
    # 2. Convert each label with non-ASCII code points to Punycode, prefixed by "xn--".
    for i, label in enumerate(labels):
        if not label.isascii():
            labels[i] = "xn--" + punycode_encode(label)
    # 3. VerifyDnsLength: the domain 1 to 253 long, each label 1 to 63 (the root label aside).
    if verify_dns_length:
        body = labels[:-1] if len(labels) > 1 and labels[-1] == "" else labels
        if not 1 <= len(".".join(body)) <= 253 or any(not 1 <= len(lb) <= 63 for lb in body):
            raise Failure("domain-to-ASCII", "domain-to-ASCII: DNS length")
    return ".".join(labels)


def unicode_to_unicode(domain: str) -> str:
    """https://www.unicode.org/reports/tr46/#ToUnicode with the URL Standard's flags.
    Raises Failure("domain-to-ASCII") where an error would be recorded."""
    try:
        return ".".join(_process(domain, False, False))
    except _Error as exc:
        raise Failure("domain-to-ASCII", f"ToUnicode: {exc}") from None


def domain_to_ascii(domain: str, be_strict: bool = False, *, errors: list[str] | None = None) -> str:
    """https://url.spec.whatwg.org/#concept-domain-to-ascii (the domain parser)"""
    if not isinstance(domain, str):
        raise TypeError(f"domain_to_ascii() takes str, not {type(domain).__name__}")
    domain = to_scalar_value_string(domain)
    # 1./2. Let strictResult be domain parser ToASCII with domain and true; if it is a failure
    # value, domain-to-ASCII validation error. (Run only when someone listens, or beStrict.)
    strict_failure = None
    if be_strict or errors is not None:
        try:
            strict_result = unicode_to_ascii(domain, check_hyphens=True, use_std3=True, verify_dns_length=True)
        except Failure as exc:
            strict_failure = exc
            if errors is not None:
                errors.append("domain-to-ASCII")
        # 3. If beStrict is true: return failure or strictResult.
        if be_strict:
            if strict_failure is not None:
                raise strict_failure
            return strict_result
    # 5. If domain is an ASCII string, then set result to domain, lowercased.
    if domain.isascii():
        result = domain.lower()
    # 6. Otherwise, result is domain parser ToASCII with domain and false; failure returns failure.
    else:
        result = unicode_to_ascii(domain, check_hyphens=False, use_std3=False, verify_dns_length=False)
    # 7. If result is the empty string, then return failure.
    # 8. If result contains a forbidden domain code point, then return failure.
    if not result or _forbidden_domain(result):
        raise Failure("domain-to-ASCII", "empty domain" if not result else "forbidden domain code point")
    return result


def domain_to_unicode(domain: str, *, errors: list[str] | None = None) -> str:
    """https://url.spec.whatwg.org/#concept-domain-to-unicode

    If an error was recorded, return domain. (The Standard signals no validation error here: the
    host parser already did.)
    """
    if not isinstance(domain, str):
        raise TypeError(f"domain_to_unicode() takes str, not {type(domain).__name__}")
    try:
        return unicode_to_unicode(domain)
    except Failure:
        return str(domain)
