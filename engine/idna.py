"""IDNA: the domain parser and domain to Unicode, over UTS #46.

https://url.spec.whatwg.org/#idna

Unicode ToASCII and ToUnicode (https://www.unicode.org/reports/tr46/#Processing) are implemented
here with the URL Standard's flags, over the UTS #46 mapping table and the Joining_Type data in
data/uts46_mapping.txt and data/joining_types.txt. scripts/gen_idna_tables.py made both from the
``idna`` package's data, whose version, Unicode version (``UTS46_VERSION``) and SHA-256 their
headers record; the engine imports no ``idna`` module (``idna.encode`` applies IDNA2008, which
rejects what the URL Standard accepts, such as ``☕.example``). Punycode (RFC 3492) is
engine.punycode. Deviation: normalization, general categories, combining classes and bidi classes
come from Python's ``unicodedata``, whose Unicode version may trail the mapping table's; tests list
the cases where that shows.
"""

from __future__ import annotations

import bisect
import re
import sys
import unicodedata
from array import array
from itertools import repeat
from pathlib import Path

from .failure import Failure, validation_error
from .infra import FORBIDDEN_DOMAIN_CODE_POINTS, character_class, to_scalar_value_string
from .punycode import punycode_decode, punycode_encode

__all__ = ["domain_to_ascii", "domain_to_unicode", "unicode_to_ascii", "unicode_to_unicode", "UTS46_VERSION"]

_VALID, _MAPPED, _DEVIATION, _IGNORED = b"V"[0], b"M"[0], b"D"[0], b"I"[0]

# https://url.spec.whatwg.org/#forbidden-domain-code-point (the set is engine.infra's).
_FORBIDDEN_DOMAIN_CODE_POINT = character_class(FORBIDDEN_DOMAIN_CODE_POINTS)
_forbidden_domain = re.compile(_FORBIDDEN_DOMAIN_CODE_POINT).search
_empty_or_forbidden_domain = re.compile(r"\A\Z|" + _FORBIDDEN_DOMAIN_CODE_POINT).search


# -- the generated tables ---------------------------------------------------------------------------

_DATA = Path(__file__).with_name("data")
_HEADER = re.compile(r"(?:#[^\n]*\n)*")
_HEADER_FIELD = re.compile(r"^# ([a-z_0-9]+): (.*)$", re.MULTILINE)


def _read_table(filename: str) -> tuple[dict[str, str], str]:
    """A file of scripts/gen_idna_tables.py: its header's ``key: value`` fields, and its lines."""
    text = (_DATA / filename).read_text(encoding="utf-8")
    end = _HEADER.match(text).end()
    return dict(_HEADER_FIELD.findall(text, 0, end)), text[end:]


def _not_generated(filename: str, why: str) -> ImportError:
    return ImportError(f"engine/data/{filename} is not as scripts/gen_idna_tables.py writes it "
                       f"({why}): run the script again")


def _code_points(column: list[str], filename: str) -> array:
    """Code points written as six hex digits each, read by C loops: with "00" before each, every
    one is eight digits, which ``bytes.fromhex`` turns into a big-endian 32-bit word."""
    digits = "00" + "00".join(column)
    # Six digits each: 8 characters a code point, and every 8th character a "0" put there.
    if len(digits) != 8 * len(column) or digits[::8].count("0") != len(column):
        raise _not_generated(filename, "code points of six hex digits")
    words = array("I")  # 32-bit on the platforms CPython runs on
    try:
        words.frombytes(bytes.fromhex(digits))
    except ValueError:
        raise _not_generated(filename, "code points of six hex digits") from None
    if sys.byteorder == "little":
        words.byteswap()
    return words


def _load_mapping_table() -> tuple[str, array, bytes, tuple[str, ...]]:
    """UTS #46 5 IDNA Mapping Table: its Unicode version, and per range its first code point,
    status (a byte: V, M, D, I or X) and mapping ("" but for M and D). Read on every start of
    the engine, so with no Python loop per line: one split, then C loops over the columns."""
    fields, lines = _read_table("uts46_mapping.txt")
    cells = lines.replace("\n", "\t").split("\t")  # first code point, status, mapping, ..., ""
    if cells[-1] or len(cells) % 3 != 1:
        raise _not_generated("uts46_mapping.txt", "three fields a line")
    starts = _code_points(cells[0:-1:3], "uts46_mapping.txt")
    statuses = "".join(cells[1::3]).encode("ascii", "replace")
    if len(statuses) != len(starts) or statuses.translate(None, b"VMDIX"):
        raise _not_generated("uts46_mapping.txt", "statuses V, M, D, I, X")
    # _map_code_point indexes the code points below U+0100 directly.
    if starts[:256] != array("I", range(256)):
        raise _not_generated("uts46_mapping.txt", "one line for each code point below U+0100")
    return fields["unicode_version"], starts, statuses, tuple(cells[2::3])


def _load_joining_types() -> tuple[array, array, str]:
    """The Joining_Type ranges, sorted: first code points, last code points, types."""
    lines = _read_table("joining_types.txt")[1]
    cells = lines.replace("..", "\t").replace("\n", "\t").split("\t")  # first, last, type, ..., ""
    if cells[-1] or len(cells) % 3 != 1:
        raise _not_generated("joining_types.txt", "first..last, type, a line")
    return (_code_points(cells[0:-1:3], "joining_types.txt"), _code_points(cells[1:-1:3], "joining_types.txt"),
            "".join(cells[2::3]))


UTS46_VERSION, _uts46_starts, _uts46_statuses, _uts46_replacements = _load_mapping_table()
_joining_firsts, _joining_lasts, _joining_types = _load_joining_types()


class _Error(Exception):
    """A UTS #46 processing error (recorded; ToASCII then fails)."""


def _map_code_point(c: str) -> str | None:
    """The UTS #46 mapping of one code point (non-transitional); None where it is disallowed."""
    cp = ord(c)
    i = cp if cp < 256 else bisect.bisect_right(_uts46_starts, cp) - 1
    status = _uts46_statuses[i]
    if status == _VALID or status == _DEVIATION:
        return c
    if status == _MAPPED:
        return _uts46_replacements[i]
    if status == _IGNORED:
        return ""
    return None


def assigned_after_unicodedata(c: str) -> bool:
    """The deviation the module's docstring names, as a predicate: whether ``c`` is allowed by
    the UTS #46 table (valid, mapped, deviation or ignored) yet unassigned in Python's
    ``unicodedata``, whose normalization, Bidi classes and combining marks the engine reads, so
    that the engine treats it as a code point of no class. The differential and the checks
    against independent implementations leave such inputs out with this reason."""
    return unicodedata.category(c) == "Cn" and _map_code_point(c) is not None


def assigned_after_unicodedata_in(text: str) -> bool:
    """Whether :func:`assigned_after_unicodedata` holds for a code point of ``text``, written out
    or in an A-label (``xn--`` then Punycode, which decodes). Such a code point is unassigned in
    Unicode versions older than the mapping table's, where UTS #46 disallows it: "xn--x30s" is
    U+3DE4C, valid in the engine's table and a ToASCII error in ada 4.0's (in a domain that is not
    all ASCII, whose labels all go through ToASCII)."""
    if any(assigned_after_unicodedata(c) for c in text):
        return True
    for label in re.split("[^0-9A-Za-z-]", text):
        if label[:4].lower() == "xn--":
            try:
                decoded = punycode_decode(label[4:].lower())
            except ValueError:
                continue
            if any(assigned_after_unicodedata(c) for c in decoded):
                return True
    return False


# The tables below are used through ``str.translate``, so that a domain is mapped, and its Bidi
# classes read, by one C loop instead of a Python one per code point. Each is filled on first use
# of a code point (``__missing__``), up to a bound; past it, entries are computed and not kept.
_TABLE_BOUND = 20000
# What a disallowed code point maps to: U+FFFF, itself disallowed, and never a mapping's output.
_DISALLOWED = "\uffff"


class _MappingTable(dict):
    """Code point -> its UTS #46 mapping (``_DISALLOWED`` where it is disallowed)."""

    def __missing__(self, cp: int) -> str:
        mapped = _map_code_point(chr(cp))
        if mapped is None:
            mapped = _DISALLOWED
        if len(self) < _TABLE_BOUND:
            self[cp] = mapped
        return mapped


_MAPPING = _MappingTable()


def _map(domain: str) -> str:
    """UTS #46 Processing step 1 (Map), non-transitional: a disallowed code point is an error."""
    mapped = domain.translate(_MAPPING)
    if _DISALLOWED in mapped:
        raise _Error("disallowed code point")
    return mapped


_VIRAMA = 9


def joining_type(cp: int) -> str | None:
    """The Joining_Type of ``cp`` (C, D, L, R or T), or None (Non_Joining)."""
    i = bisect.bisect_right(_joining_firsts, cp) - 1
    if i >= 0 and cp <= _joining_lasts[i]:
        return _joining_types[i]
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
        jt = joining_type(ord(label[i]))
        if jt == "T":
            continue
        ok = jt in ("L", "D")
        break
    if not ok:
        return False
    for i in range(pos + 1, len(label)):
        jt = joining_type(ord(label[i]))
        if jt == "T":
            continue
        return jt in ("R", "D")
    return False


# RFC 5893's rules read a label as its sequence of Bidi classes. Each class the rules name is
# written as one letter, any other as "x"; a label's classes are then a string, and the rules
# regular expressions over it.
_BIDI_LETTER = {"L": "L", "R": "R", "AL": "A", "AN": "N", "EN": "E", "ES": "S", "CS": "C",
                "ET": "T", "ON": "O", "BN": "B", "NSM": "M"}


class _BidiClassTable(dict):
    """Code point -> the letter of its Bidi class (from ``unicodedata``)."""

    def __missing__(self, cp: int) -> str:
        letter = _BIDI_LETTER.get(unicodedata.bidirectional(chr(cp)), "x")
        if len(self) < _TABLE_BOUND:
            self[cp] = letter
        return letter


_BIDI_CLASSES = _BidiClassTable()
# RFC 5893 Section 1.4: a Bidi domain name has a code point of class R, AL or AN.
_rtl_class = re.compile("[RAN]").search
# RFC 5893 Section 2. An RTL label: rule 1 (starts with R or AL), rule 2 (only R, AL, AN, EN, ES,
# CS, ET, ON, BN, NSM), rule 3 (ends with R, AL, EN or AN, then any NSM); rule 4 (not both EN
# and AN) is checked apart. An LTR label: rule 1 (starts with L), rule 5 (only L, EN, ES, CS,
# ET, ON, BN, NSM), rule 6 (ends with L or EN, then any NSM).
_rtl_label = re.compile("[RA](?:[RANESCTOBM]*[RAEN])?M*").fullmatch
_ltr_label = re.compile("L(?:[LESCTOBM]*[LE])?M*").fullmatch


def _check_bidi_label(label: str) -> bool:
    """RFC 5893 Section 2, the six rules, for one label of a Bidi domain name."""
    classes = label.translate(_BIDI_CLASSES)
    if _rtl_label(classes):
        return not ("E" in classes and "N" in classes)
    return _ltr_label(classes) is not None


def _validate_label(label: str, decoded: bool) -> None:
    """UTS #46 4.1 Validity Criteria, for a label with a non-ASCII code point: the criteria that
    hold whatever the flags (steps 1, 4, 5, the statuses of step 6, and 7; step 8, CheckBidi, is
    per domain). An ASCII label meets them all: it is NFC, holds no "." (the labels come from
    splitting on it), no combining mark, no joiner, and, not decoded, only code points the
    mapping step produced. The flag-dependent criteria (steps 2, 3 and the ASCII rule of step
    6) are checked for the whole domain at once, by ``_flags_broken``.

    Step 6 (statuses) is checked for labels decoded from Punycode only: a label that came out of
    the mapping step holds valid and deviation code points by construction of the table (UTS #46
    guarantees that mapping and NFC keep to them), so checking it again would change nothing.
    """
    # 1. The label must be in Unicode Normalization Form NFC.
    # (A mapped label was normalized with the whole domain; a decoded one needs the check.)
    if decoded and unicodedata.normalize("NFC", label) != label:
        raise _Error("not NFC")
    # 4. The label must not contain a U+002E (.).
    if "." in label:
        raise _Error("label contains a full stop")
    # 5. The label must not begin with a combining mark.
    if unicodedata.category(label[0])[0] == "M":
        raise _Error("label begins with a combining mark")
    # 6. Each code point must be valid or deviation (non-transitional): what the mapping leaves
    # as it is.
    if decoded and label.translate(_MAPPING) != label:
        raise _Error("a code point is not valid")
    # 7. CheckJoiners: the ContextJ rules of RFC 5892 Appendix A.
    if "\u200c" in label or "\u200d" in label:
        for pos, c in enumerate(label):
            if c in "\u200c\u200d" and not _valid_contextj(label, pos):
                raise _Error("ContextJ rule")


# The flag-dependent validity criteria, over the labels joined by "." (none holds a "."):
# step 2 (with CheckHyphens): "--" in the third and fourth positions, a leading or trailing "-";
_hyphens_broken = re.compile(r"(?:\A|\.)(?:[^.]{2}--|-)|-(?:\.|\Z)").search
# step 3 (without CheckHyphens): a label that begins with "xn--";
_xn_broken = re.compile(r"(?:\A|\.)xn--").search
# step 6 (with UseSTD3ASCIIRules): an ASCII code point other than a-z, 0-9 and "-".
_std3_broken = re.compile("[\x00-,/:-`{-\x7f]").search


def _flags_broken(joined: str) -> dict[str, str]:
    """The flag-dependent criteria the labels break, by flag (see ``_flag_error``)."""
    flagged = {}
    if "-" in joined and _hyphens_broken(joined):
        flagged["CheckHyphens"] = "hyphens in positions 3 and 4, or a leading or trailing hyphen"
    if "xn--" in joined and _xn_broken(joined):
        flagged["xn--"] = "label begins with xn--"
    if _std3_broken(joined):
        flagged["UseSTD3ASCIIRules"] = "not a STD3 ASCII code point"
    return flagged


def _process(domain: str) -> tuple[list[str], dict[str, str]]:
    """UTS #46 4 Processing (CheckBidi and CheckJoiners true, non-transitional,
    IgnoreInvalidPunycode false), for both settings of the flags the domain parser varies:
    CheckHyphens and UseSTD3ASCIIRules change which validity criteria apply, never the labels.
    Returns the labels and the flag-dependent criteria they break (``_flags_broken``); raises
    _Error at the first error recorded whatever the flags."""
    # 1. Map. 2. Normalize (NFC).
    mapped = _map(domain)
    ascii_mapped = mapped.isascii()
    if not ascii_mapped:
        mapped = unicodedata.normalize("NFC", mapped)
    # 3. Break into labels at U+002E (.).
    labels = mapped.split(".")
    any_decoded = False
    # 4. Convert/Validate each label (an ASCII label not starting with "xn--" needs nothing but
    # the flag-dependent criteria, below).
    if not ascii_mapped or "xn--" in mapped:
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
                decoded = any_decoded = True
            if not label.isascii():
                _validate_label(label, decoded)
    joined = ".".join(labels) if any_decoded else mapped
    flagged = _flags_broken(joined)
    # 4.4 (Validity criterion 8): CheckBidi, for a Bidi domain name (one with an R, AL or AN
    # code point, all of which are outside ASCII), every non-empty label satisfies RFC 5893's
    # rules.
    if not joined.isascii() and _rtl_class(joined.translate(_BIDI_CLASSES)):
        for label in labels:
            if label and not _check_bidi_label(label):
                raise _Error("Bidi rule")
    return labels, flagged


def _flag_error(flagged: dict[str, str], check_hyphens: bool, use_std3: bool) -> str | None:
    """The error, if any, that the flag-dependent criteria noted by ``_process`` record with
    these flags."""
    error = flagged.get("CheckHyphens" if check_hyphens else "xn--")
    if error is None and use_std3:
        error = flagged.get("UseSTD3ASCIIRules")
    return error


def _to_ascii_labels(labels: list[str]) -> list[str]:
    """ToASCII step 2: each label with a non-ASCII code point in Punycode, prefixed by "xn--"."""
    return [label if label.isascii() else "xn--" + punycode_encode(label) for label in labels]


def _dns_length_error(labels: list[str]) -> str | None:
    """ToASCII step 3, VerifyDnsLength: the domain 1 to 253 long, each label 1 to 63 (the root
    label aside)."""
    body = labels[:-1] if len(labels) > 1 and labels[-1] == "" else labels
    if not 1 <= len(".".join(body)) <= 253 or any(not 1 <= len(lb) <= 63 for lb in body):
        return "DNS length"
    return None


def _checked_labels(domain: str, check_hyphens: bool, use_std3: bool, what: str) -> list[str]:
    """UTS #46 Processing with these flags: the labels, or Failure("domain-to-ASCII") for an
    error recorded (``what`` names the operation in its message)."""
    try:
        labels, flagged = _process(domain)
    except _Error as exc:
        raise Failure("domain-to-ASCII", f"{what}: {exc}") from None
    error = _flag_error(flagged, check_hyphens, use_std3)
    if error is not None:
        raise Failure("domain-to-ASCII", f"{what}: {error}")
    return labels


def unicode_to_ascii(domain: str, *, check_hyphens: bool, use_std3: bool, verify_dns_length: bool) -> str:
    """https://www.unicode.org/reports/tr46/#ToASCII with CheckBidi, CheckJoiners true,
    Transitional_Processing and IgnoreInvalidPunycode false. Raises Failure("domain-to-ASCII")."""
    labels = _to_ascii_labels(_checked_labels(domain, check_hyphens, use_std3, "domain-to-ASCII"))
    if verify_dns_length and _dns_length_error(labels):
        raise Failure("domain-to-ASCII", "domain-to-ASCII: DNS length")
    return ".".join(labels)


def unicode_to_unicode(domain: str) -> str:
    """https://www.unicode.org/reports/tr46/#ToUnicode with the URL Standard's flags.
    Raises Failure("domain-to-ASCII") where an error would be recorded."""
    return ".".join(_checked_labels(domain, False, False, "ToUnicode"))


def domain_to_ascii(domain: str, be_strict: bool = False, *, errors: list[str] | None = None) -> str:
    """https://url.spec.whatwg.org/#concept-domain-to-ascii (the domain parser)

    The domain parser's two ToASCII runs (strict, then lax for a non-ASCII domain) share one
    processing: the flags they differ in change which validity criteria apply, not the labels,
    so one ``_process`` and one Punycode encoding give both results.
    """
    if not isinstance(domain, str):
        raise TypeError(f"domain_to_ascii() takes str, not {type(domain).__name__}")
    if (errors is None) & (not be_strict) & domain.isascii():
        # The usual case, steps 5, 7 and 8 only: an ASCII domain, lowercased, not empty and
        # without a forbidden domain code point.
        result = domain.lower()
        if _empty_or_forbidden_domain(result) is not None:
            raise Failure("domain-to-ASCII", "empty domain" if not result else "forbidden domain code point")
        return result
    domain = to_scalar_value_string(domain)
    is_ascii = domain.isascii()
    result = None
    # 1./2. Let strictResult be domain parser ToASCII with domain and true; if it is a failure
    # value, domain-to-ASCII validation error. (Run only when someone listens, or beStrict.)
    if be_strict or errors is not None:
        try:
            labels, flagged = _process(domain)
        except _Error as exc:
            strict_error = lax_error = str(exc)
        else:
            lax_error = _flag_error(flagged, False, False)
            ascii_labels = _to_ascii_labels(labels)
            strict_error = _flag_error(flagged, True, True) or _dns_length_error(ascii_labels)
            if not is_ascii and lax_error is None:
                result = ".".join(ascii_labels)
        if strict_error is not None:
            validation_error(errors, "domain-to-ASCII")
        # 3. If beStrict is true: return failure or strictResult.
        if be_strict:
            if strict_error is not None:
                raise Failure("domain-to-ASCII", f"domain-to-ASCII: {strict_error}")
            return ".".join(ascii_labels)
        if not is_ascii and lax_error is not None:
            raise Failure("domain-to-ASCII", f"domain-to-ASCII: {lax_error}")
    # 5. If domain is an ASCII string, then set result to domain, lowercased.
    if is_ascii:
        result = domain.lower()
    # 6. Otherwise, result is domain parser ToASCII with domain and false; failure returns failure.
    elif result is None:
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
