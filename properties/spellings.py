"""Every spelling the URL Standard treats specially, as data: a name, the part of an input it
lives in, and a predicate that recognizes an input containing it.

https://url.spec.whatwg.org/

A generator (a Hypothesis strategy, a libFuzzer dictionary, the differential's generator) is
worth the corners it reaches. ``tests/workbench/test_spellings.py`` holds each generator to the spellings
of this module that concern it; the alphabets here (``DOT_SEGMENT_SPELLINGS``,
``FORBIDDEN_DOMAIN_CODE_POINTS``, ``BIDI_CLASS_EXAMPLES``, ...) are what generators draw from.

An input is read as a :class:`Sample`: its text, the kind of text it is (a URL, a host, the
text between IPv6 brackets, a URLSearchParams name, any other string) and, for a URL, its base.
Each spelling looks at one part of a sample (:func:`path_segments`, :func:`hosts`,
:func:`ipv6_texts`, :func:`file_urls`, :func:`names`, :func:`strings`), found the way the basic
URL parser would cut the string, as far as a regular expression can (:func:`split_url`). The
predicates read the raw text: a spelling is what the input says, before percent-decoding or
UTS #46 mapping, and they never call the engine (a recognizer that asked the engine could not
tell a generator's gap from an engine bug).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

from engine import idna as _engine_idna

# -- samples and the parts of them a spelling lives in --------------------------------------

KINDS = ("url", "host", "ipv6", "name", "text")


@dataclasses.dataclass(frozen=True)
class Sample:
    """One input as a generator gave it: ``kind`` says how the Standard reads ``text``
    ("url": the URL parser, against ``base`` if any; "host": the host parser; "ipv6": the
    IPv6 parser, the text between the brackets; "name": a URLSearchParams name; "text": any
    other string, such as a percent-encoder's input)."""
    kind: str
    text: str
    base: str | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind {self.kind!r}: expected one of {KINDS}")


#: https://url.spec.whatwg.org/#special-scheme
SPECIAL_SCHEMES = frozenset(("ftp", "file", "http", "https", "ws", "wss"))
_C0_OR_SPACE_AT_ENDS = re.compile(r"^[\x00-\x20]+|[\x00-\x20]+$")
_TAB_OR_NEWLINE = re.compile("[\t\n\r]")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")


@dataclasses.dataclass(frozen=True)
class URLParts:
    """A URL string cut by :func:`split_url`: ``host`` is None where there is no authority."""
    scheme: str | None
    special: bool
    slashes: str
    host: str | None
    path: str


@functools.lru_cache(maxsize=4096)
def split_url(text: str, base: str | None = None) -> URLParts:
    """Cut ``text`` into scheme, host and path roughly as the basic URL parser does
    (https://url.spec.whatwg.org/#concept-basic-url-parser): leading and trailing C0 controls
    and spaces and every tab and newline removed first; the scheme if it starts with one; for a
    special scheme '\\' is '/', and the host follows any run of slashes (two exactly for
    "file"); the host is what remains of the authority after the last '@' and before a port.
    A relative reference is as special as its base (special without one). No percent-decoding."""
    s = _TAB_OR_NEWLINE.sub("", _C0_OR_SPACE_AT_ENDS.sub("", text))
    m = _SCHEME.match(s)
    scheme = m.group(1).lower() if m else None
    rest = s[m.end():] if m else s
    if scheme is not None:
        special = scheme in SPECIAL_SCHEMES
    else:
        special = base is None or split_url(base).special
    slash_class = "[/\\\\]" if special else "/"
    slashes = re.match(slash_class + "*", rest).group(0)
    if scheme == "file":
        has_authority = len(slashes) >= 2
    elif scheme is not None and special:
        has_authority = True  # special authority ignore slashes state
    else:
        has_authority = len(slashes) >= 2
    if not has_authority:
        path = re.match("[^?#]*", rest).group(0)
        return URLParts(scheme, special, slashes, None, path)
    after = rest[2:] if scheme == "file" or not (scheme and special) else rest[len(slashes):]
    end = re.match("[^/\\\\?#]*" if special else "[^/?#]*", after).end()
    authority, path = after[:end], re.match("[^?#]*", after[end:]).group(0)
    if scheme == "file":  # the file host state keeps '@' and ':' (a drive letter quirk)
        return URLParts(scheme, special, slashes, authority, path)
    host = authority.rpartition("@")[2]
    if host.startswith("["):
        close = host.find("]")
        host = host if close < 0 else host[:close + 1]
    else:
        host = host.partition(":")[0]
    return URLParts(scheme, special, slashes, host, path)


def path_segments(sample: Sample) -> list[str]:
    """The URL path segments of a URL sample, split on '/' (and '\\' where special)."""
    if sample.kind != "url":
        return []
    parts = split_url(sample.text, sample.base)
    return re.split("[/\\\\]" if parts.special else "/", parts.path)


def hosts(sample: Sample) -> list[str]:
    """The host parser's input: a host sample's text, a URL sample's host."""
    if sample.kind == "host":
        return [sample.text]
    if sample.kind == "url":
        host = split_url(sample.text, sample.base).host
        return [] if host is None else [host]
    return []


def ipv6_texts(sample: Sample) -> list[str]:
    """The IPv6 parser's input: an ipv6 sample's text, or what is between a host's brackets."""
    if sample.kind == "ipv6":
        return [sample.text]
    return [h[1:-1] for h in hosts(sample) if len(h) >= 2 and h[0] == "[" and h[-1] == "]"]


def names(sample: Sample) -> list[str]:
    return [sample.text] if sample.kind == "name" else []


def strings(sample: Sample) -> list[str]:
    """Every string of the sample: its text and its base."""
    return [sample.text] + ([sample.base] if sample.base is not None else [])


def url_samples(sample: Sample) -> list[Sample]:
    return [sample] if sample.kind == "url" else []


# -- the spellings ---------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Spelling:
    """A spelling the Standard treats specially. ``part`` gives the parts of a sample it can be
    in, ``meets`` says whether one part has it; ``example`` is a sample that has it."""
    name: str
    group: str
    part: Callable[[Sample], Iterable[Any]]
    meets: Callable[[Any], bool]
    example: Sample | None = None

    def found_in(self, sample: Sample) -> bool:
        return any(self.meets(p) for p in self.part(sample))


@dataclasses.dataclass(frozen=True)
class Group:
    name: str
    anchor: str
    spellings: tuple[Spelling, ...]


def _spelling(group: str, name: str, part, meets, example: Sample | None = None) -> Spelling:
    return Spelling(name, group, part, meets, example)


# -- dot segments ----------------------------------------------------------------------------

#: https://url.spec.whatwg.org/#single-dot-path-segment: "." or an ASCII case-insensitive
#: match for "%2e"
SINGLE_DOT_SEGMENTS = (".", "%2e", "%2E")
#: https://url.spec.whatwg.org/#double-dot-path-segment: ".." or an ASCII case-insensitive
#: match for ".%2e", "%2e." or "%2e%2e"
DOUBLE_DOT_SEGMENTS = ("..", ".%2e", ".%2E", "%2e.", "%2E.", "%2e%2e", "%2e%2E", "%2E%2e",
                       "%2E%2E")
DOT_SEGMENT_SPELLINGS = SINGLE_DOT_SEGMENTS + DOUBLE_DOT_SEGMENTS


def _dot_segment(spelling: str) -> Spelling:
    kind = "single" if spelling in SINGLE_DOT_SEGMENTS else "double"
    return _spelling("dot segments", f"{kind}-dot segment {spelling!r}", path_segments,
                     lambda seg: seg == spelling, Sample("url", f"http://h/a/{spelling}/b"))


DOT_SEGMENTS = Group("dot segments", "https://url.spec.whatwg.org/#single-dot-path-segment",
                     tuple(map(_dot_segment, DOT_SEGMENT_SPELLINGS)))


# -- IPv4 ------------------------------------------------------------------------------------

def ipv4_parts(host: str) -> list[str] | None:
    """The parts the IPv4 parser splits ``host`` into (a last empty part removed), when the
    host parser would take the IPv4 path on it: an ASCII host that ends in a number
    (https://url.spec.whatwg.org/#ends-in-a-number-checker). None otherwise."""
    if not host or not host.isascii():
        return None
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    last = parts[-1]
    if last.isdigit() or re.fullmatch("0[xX][0-9A-Fa-f]*", last):
        return parts
    return None


def ipv4_number(part: str) -> int | None:
    """https://url.spec.whatwg.org/#ipv4-number-parser (the number only; None for failure)."""
    if part == "":
        return None
    radix = 10
    if len(part) >= 2 and part[:2] in ("0x", "0X"):
        part, radix = part[2:], 16
    elif len(part) >= 2 and part[0] == "0":
        part, radix = part[1:], 8
    if part == "":
        return 0
    digits = "0123456789abcdef"[:radix]
    if not all(c in digits for c in part.lower()):
        return None
    return int(part, radix)


def _ipv4_numbers(host: str) -> list[int] | None:
    """Every part's number, when the host takes the IPv4 path and every part is a number."""
    parts = ipv4_parts(host)
    if parts is None:
        return None
    numbers = [ipv4_number(p) for p in parts]
    return None if None in numbers else numbers


def _ipv4_part_is(pattern: str) -> Callable[[str], bool]:
    return lambda h: any(re.fullmatch(pattern, p) for p in (ipv4_parts(h) or ()))


def _ipv4_count(n: int) -> Callable[[str], bool]:
    return lambda h: (numbers := _ipv4_numbers(h)) is not None and len(numbers) == n


def _ipv4_last(n: int, value: int) -> Callable[[str], bool]:
    return lambda h: (numbers := _ipv4_numbers(h)) is not None and len(numbers) == n \
        and numbers[-1] == value


def _ipv4_before_last(value: int) -> Callable[[str], bool]:
    return lambda h: (numbers := _ipv4_numbers(h)) is not None and value in numbers[:-1]


def _host_sample(text: str) -> Sample:
    return Sample("host", text)


_IPV4 = "IPv4"
IPV4 = Group(_IPV4, "https://url.spec.whatwg.org/#concept-ipv4-parser", (
    _spelling(_IPV4, "a part with the 0x prefix", hosts, _ipv4_part_is("0x[0-9A-Fa-f]+"),
              _host_sample("0x7f.1")),
    _spelling(_IPV4, "a part with the 0X prefix", hosts, _ipv4_part_is("0X[0-9A-Fa-f]+"),
              _host_sample("0X7F.1")),
    _spelling(_IPV4, "a part that is 0x or 0X alone (zero)", hosts, _ipv4_part_is("0[xX]"),
              _host_sample("0x.1")),
    _spelling(_IPV4, "an octal part (a leading 0)", hosts, _ipv4_part_is("0[0-7]+"),
              _host_sample("0177.1")),
    _spelling(_IPV4, "a leading 0 before an 8 or 9 (not octal: failure)", hosts,
              _ipv4_part_is("0[0-9]*[89][0-9]*"), _host_sample("1.09")),
    _spelling(_IPV4, "a non-numeric part before the last", hosts,
              lambda h: (ps := ipv4_parts(h)) is not None and any(
                  p != "" and ipv4_number(p) is None for p in ps[:-1]), _host_sample("a.1")),
    *(_spelling(_IPV4, f"{n} part{'s' * (n > 1)}, each a number", hosts, _ipv4_count(n),
                _host_sample(".".join(["1"] * n))) for n in range(1, 6)),
    _spelling(_IPV4, "a trailing dot", hosts,
              lambda h: h.endswith(".") and not h.endswith("..") and ipv4_parts(h) is not None,
              _host_sample("1.2.3.4.")),
    _spelling(_IPV4, "an empty part (not the trailing one)", hosts,
              lambda h: "" in (ipv4_parts(h) or ["x"]), _host_sample("1..2")),
    _spelling(_IPV4, "255 in a part before the last", hosts, _ipv4_before_last(255),
              _host_sample("255.1")),
    _spelling(_IPV4, "256 in a part before the last (failure)", hosts, _ipv4_before_last(256),
              _host_sample("256.1")),
    *(_spelling(_IPV4, f"{n} part{'s' * (n > 1)}, the last {256 ** (5 - n) + d} ("
                f"{'the largest' if d < 0 else 'one too many: failure'})", hosts,
                _ipv4_last(n, 256 ** (5 - n) + d),
                _host_sample(".".join(["1"] * (n - 1) + [str(256 ** (5 - n) + d)])))
      for n in range(1, 5) for d in (-1, 0)),
))


# -- Windows drive letters -------------------------------------------------------------------

_DRIVE_LETTER = re.compile("[A-Za-z][:|]")


def _is_file(text: str | None) -> bool:
    return text is not None and split_url(text).scheme == "file"


def _first_segment(path: str) -> tuple[str, bool]:
    """The first segment of a path (after its leading slash), and whether it ends the path."""
    rest = path[1:] if path[:1] in ("/", "\\") else path
    m = re.match(r"[^/\\]*", rest)
    return m.group(0), m.end() == len(rest)


def _file_drive(sample: Sample) -> tuple[str, str, bool] | None:
    """For a file URL sample whose first path segment is a Windows drive letter
    (https://url.spec.whatwg.org/#windows-drive-letter): (the host, the drive letter, whether
    it ends the path). The host is '' where the URL has none."""
    parts = split_url(sample.text, sample.base)
    if parts.scheme != "file":
        return None
    segment, last = _first_segment(parts.path)
    if not _DRIVE_LETTER.fullmatch(segment):
        return None
    return parts.host or "", segment, last


def _drive_in_file_url(with_host: bool, sep: str) -> Callable[[Sample], bool]:
    def meets(sample: Sample) -> bool:
        found = _file_drive(sample)
        return found is not None and found[1][1] == sep and bool(found[0]) == with_host \
            and not _DRIVE_LETTER.fullmatch(found[0])
    return meets


def _drive_as_host(sep: str) -> Callable[[Sample], bool]:
    def meets(sample: Sample) -> bool:
        parts = split_url(sample.text, sample.base)
        return parts.scheme == "file" and parts.host is not None \
            and _DRIVE_LETTER.fullmatch(parts.host) is not None and parts.host[1] == sep
    return meets


def _relative_to_file_base(pattern: str) -> Callable[[Sample], bool]:
    """A relative reference (no scheme) matching ``pattern`` after its leading C0 controls
    and spaces, against a file base."""
    def meets(sample: Sample) -> bool:
        if not _is_file(sample.base):
            return False
        parts = split_url(sample.text, sample.base)
        text = _TAB_OR_NEWLINE.sub("", _C0_OR_SPACE_AT_ENDS.sub("", sample.text))
        return parts.scheme is None and re.match(pattern, text) is not None
    return meets


def _base_has_drive(sample: Sample) -> bool:
    if not _is_file(sample.base):
        return False
    found = _file_drive(Sample("url", sample.base))
    return found is not None and found[1][1] == ":"


_DRIVE_END = r"(?=[/\\?#]|$)"  # https://url.spec.whatwg.org/#start-with-a-windows-drive-letter
_WDL = "Windows drive letters"
DRIVE_LETTERS = Group(_WDL, "https://url.spec.whatwg.org/#windows-drive-letter", (
    _spelling(_WDL, "file URL without a host, drive letter 'X:'", url_samples,
              _drive_in_file_url(False, ":"), Sample("url", "file:///C:/x")),
    _spelling(_WDL, "file URL without a host, drive letter 'X|'", url_samples,
              _drive_in_file_url(False, "|"), Sample("url", "file:///C|/x")),
    _spelling(_WDL, "file URL with a host, drive letter 'X:'", url_samples,
              _drive_in_file_url(True, ":"), Sample("url", "file://h/C:/x")),
    _spelling(_WDL, "file URL with a host, drive letter 'X|'", url_samples,
              _drive_in_file_url(True, "|"), Sample("url", "file://h/c|/x")),
    _spelling(_WDL, "file URL whose host is a drive letter 'X:'", url_samples,
              _drive_as_host(":"), Sample("url", "file://C:/x")),
    _spelling(_WDL, "file URL whose host is a drive letter 'X|'", url_samples,
              _drive_as_host("|"), Sample("url", "file://c|/x")),
    _spelling(_WDL, "lower-case drive letter in a file URL", url_samples,
              lambda s: (found := _file_drive(s)) is not None and found[1][0].islower(),
              Sample("url", "file:///c:/x")),
    _spelling(_WDL, "drive letter ending a file URL's path", url_samples,
              lambda s: (found := _file_drive(s)) is not None and found[2],
              Sample("url", "file:///C|")),
    *(_spelling(_WDL, f"'{prefix}X{sep}' starting a relative reference, against a file base",
                url_samples, _relative_to_file_base(
                    "[/\\\\]" * len(prefix) + "[A-Za-z]" + re.escape(sep) + _DRIVE_END),
                Sample("url", f"{prefix}C{sep}/x", "file:///tmp/a"))
      for prefix, sep in (("", "|"), ("/", ":"), ("/", "|"), ("//", ":"), ("//", "|"))),
    _spelling(_WDL, "path-absolute reference against a file base with a drive letter",
              url_samples, lambda s: _base_has_drive(s) and _relative_to_file_base(
                  r"[/\\](?![/\\]|[A-Za-z][:|]" + _DRIVE_END + ")")(s),
              Sample("url", "/x", "file:///C:/a")),
    _spelling(_WDL, "'..' reference against a file base with a drive letter", url_samples,
              lambda s: _base_has_drive(s) and _relative_to_file_base(
                  r"(?:\.|%2[eE]){2}(?=[/\\?#]|$)")(s),
              Sample("url", "../../x", "file:///C:/a")),
))


# -- IPv6 ------------------------------------------------------------------------------------

def ipv6_failure(text: str) -> str | None:
    """https://url.spec.whatwg.org/#concept-ipv6-parser, restated: the validation error name of
    the failure the IPv6 parser returns on ``text``, or None where it returns an address."""
    hexdigits, c = "0123456789abcdefABCDEF", lambda i: text[i] if i < len(text) else ""
    piece_index, compress, pointer = 0, None, 0
    if c(0) == ":":
        if c(1) != ":":
            return "IPv6-invalid-compression"
        pointer, piece_index, compress = 2, 1, 1
    while c(pointer):
        if piece_index == 8:
            return "IPv6-too-many-pieces"
        if c(pointer) == ":":
            if compress is not None:
                return "IPv6-multiple-compression"
            pointer, piece_index = pointer + 1, piece_index + 1
            compress = piece_index
            continue
        length = 0
        while length < 4 and c(pointer) and c(pointer) in hexdigits:
            pointer, length = pointer + 1, length + 1
        if c(pointer) == ".":
            if length == 0:
                return "IPv4-in-IPv6-invalid-code-point"
            pointer -= length
            if piece_index > 6:
                return "IPv4-in-IPv6-too-many-pieces"
            numbers_seen = 0
            while c(pointer):
                ipv4_piece = None
                if numbers_seen > 0:
                    if c(pointer) == "." and numbers_seen < 4:
                        pointer += 1
                    else:
                        return "IPv4-in-IPv6-invalid-code-point"
                if not c(pointer) or c(pointer) not in "0123456789":
                    return "IPv4-in-IPv6-invalid-code-point"
                while c(pointer) and c(pointer) in "0123456789":
                    if ipv4_piece is None:
                        ipv4_piece = int(c(pointer))
                    elif ipv4_piece == 0:
                        return "IPv4-in-IPv6-invalid-code-point"
                    else:
                        ipv4_piece = ipv4_piece * 10 + int(c(pointer))
                    if ipv4_piece > 255:
                        return "IPv4-in-IPv6-out-of-range-part"
                    pointer += 1
                numbers_seen += 1
                if numbers_seen in (2, 4):
                    piece_index += 1
            if numbers_seen != 4:
                return "IPv4-in-IPv6-too-few-parts"
            break
        elif c(pointer) == ":":
            pointer += 1
            if not c(pointer):
                return "IPv6-invalid-code-point"
        elif c(pointer):
            return "IPv6-invalid-code-point"
        piece_index += 1
    if compress is None and piece_index != 8:
        return "IPv6-too-few-pieces"
    return None


#: the IPv6 parser's failures, each by its validation error
#: (https://url.spec.whatwg.org/#writing, the IPv6 rows)
IPV6_FAILURES = {
    "IPv6-invalid-compression": ":1::", "IPv6-too-many-pieces": "1:2:3:4:5:6:7:8:9",
    "IPv6-multiple-compression": "1::2::3", "IPv6-invalid-code-point": "1:g::",
    "IPv6-too-few-pieces": "1:2:3", "IPv4-in-IPv6-too-many-pieces": "1:2:3:4:5:6:7:1.2.3.4",
    "IPv4-in-IPv6-invalid-code-point": "::1.02.3.4", "IPv4-in-IPv6-out-of-range-part":
    "::1.2.3.256", "IPv4-in-IPv6-too-few-parts": "::1.2.3",
}
_H = "[0-9A-Fa-f]{1,4}"
_V4 = r"\d+\.\d+\.\d+\.\d+"


def _compressed_after(k: int) -> Callable[[str], bool]:
    """'::' after exactly ``k`` pieces, with something after it."""
    pattern = re.compile(f"(?:{_H}:){{{k - 1}}}{_H}::[0-9A-Fa-f.]")
    return lambda t: pattern.match(t) is not None


_IPV6 = "IPv6"
IPV6 = Group(_IPV6, "https://url.spec.whatwg.org/#concept-ipv6-parser", (
    _spelling(_IPV6, "'::' alone", ipv6_texts, lambda t: t == "::", Sample("ipv6", "::")),
    _spelling(_IPV6, "'::' at the start", ipv6_texts,
              lambda t: re.match("::[0-9A-Fa-f]", t) is not None, Sample("ipv6", "::1")),
    _spelling(_IPV6, "'::' at the end", ipv6_texts,
              lambda t: re.search("[0-9A-Fa-f]::$", t) is not None, Sample("ipv6", "1::")),
    *(_spelling(_IPV6, f"'::' after {k} piece{'s' * (k > 1)}, with more after it", ipv6_texts,
                _compressed_after(k), Sample("ipv6", ":".join("1" * k) + "::2"))
      for k in range(1, 8)),
    _spelling(_IPV6, "IPv4 after six pieces", ipv6_texts,
              lambda t: re.fullmatch(f"(?:{_H}:){{6}}{_V4}", t) is not None,
              Sample("ipv6", "1:2:3:4:5:6:1.2.3.4")),
    _spelling(_IPV6, "IPv4 right after '::'", ipv6_texts,
              lambda t: re.fullmatch(f"::{_V4}", t) is not None, Sample("ipv6", "::1.2.3.4")),
    _spelling(_IPV6, "IPv4 after '::ffff:'", ipv6_texts,
              lambda t: re.fullmatch(f"::[fF]{{4}}:{_V4}", t) is not None,
              Sample("ipv6", "::ffff:1.2.3.4")),
    _spelling(_IPV6, "IPv4 after pieces and a '::' between them", ipv6_texts,
              lambda t: re.fullmatch(f"{_H}(?::{_H})*::(?:{_H}:)*{_V4}", t) is not None,
              Sample("ipv6", "1::2:1.2.3.4")),
    _spelling(_IPV6, "a piece with a leading zero", ipv6_texts,
              lambda t: re.search("(?:^|:)0[0-9A-Fa-f]", t) is not None
              and ipv6_failure(t) is None, Sample("ipv6", "::01")),
    _spelling(_IPV6, "a piece of five hex digits", ipv6_texts,
              lambda t: re.search("(?:^|:)[0-9A-Fa-f]{5}", t) is not None,
              Sample("ipv6", "12345::")),
    _spelling(_IPV6, "a single ':' at the end", ipv6_texts,
              lambda t: re.search("[0-9A-Fa-f]:$", t) is not None, Sample("ipv6", "1:2:")),
    *(_spelling(_IPV6, f"rejected: {error}", ipv6_texts,
                (lambda error: lambda t: ipv6_failure(t) == error)(error), Sample("ipv6", text))
      for error, text in IPV6_FAILURES.items()),
    _spelling(_IPV6, "'[' without ']' (IPv6-unclosed)", hosts,
              lambda h: h.startswith("[") and not h.endswith("]"), _host_sample("[::1")),
))


# -- forbidden host and domain code points ---------------------------------------------------

#: https://url.spec.whatwg.org/#forbidden-host-code-point
FORBIDDEN_HOST_CODE_POINTS = "\x00\t\n\r #/:<>?@[\\]^|"
#: https://url.spec.whatwg.org/#forbidden-domain-code-point: the forbidden host code points,
#: the C0 controls, '%' and DEL
FORBIDDEN_DOMAIN_CODE_POINTS = "".join(sorted(
    set(FORBIDDEN_HOST_CODE_POINTS) | set(map(chr, range(0x20))) | {"%", "\x7f"}))
#: the ones beyond the host code points
FORBIDDEN_DOMAIN_ONLY = "".join(c for c in FORBIDDEN_DOMAIN_CODE_POINTS
                                if c not in FORBIDDEN_HOST_CODE_POINTS)
#: The code points no host parser meets raw in a URL string: the URL parser removes tabs and
#: newlines, and ends (or splits) the host at the others (a port, a path, a query, a fragment,
#: the userinfo). '\' ends only a special URL's host; '[' and ']' stay in the host.
RAW_UNREACHABLE_IN_URL_HOST = "\t\n\r#/:?@"


def code_point_name(c: str) -> str:
    """'U+0041 (A)' for a printable code point, 'U+0009' for the others."""
    printable = c.isprintable() and c != " "
    return f"U+{ord(c):04X} ({c})" if printable else f"U+{ord(c):04X}" + " SPACE" * (c == " ")


def percent_encoded(c: str) -> str:
    return "".join(f"%{b:02X}" for b in c.encode("utf-8"))


def _raw(c: str) -> Callable[[str], bool]:
    if c == "%":  # a '%' the host parser's percent-decoding leaves as it is
        return lambda h: re.search("%(?![0-9A-Fa-f]{2})", h) is not None
    return lambda h: c in h


def _encoded(c: str) -> Callable[[str], bool]:
    escape = percent_encoded(c)
    return lambda h: escape.lower() in h.lower()


def _forbidden(group: str, code_points: str) -> tuple[Spelling, ...]:
    out = []
    for c in code_points:
        label = code_point_name(c)
        out.append(_spelling(group, f"{label} raw in a host", hosts, _raw(c),
                             _host_sample(f"a{c}b")))
        out.append(_spelling(group, f"{label} percent-encoded in a host", hosts, _encoded(c),
                             _host_sample(f"a{percent_encoded(c)}b")))
    return tuple(out)


FORBIDDEN_HOST = Group("forbidden host code points",
                       "https://url.spec.whatwg.org/#forbidden-host-code-point",
                       _forbidden("forbidden host code points", FORBIDDEN_HOST_CODE_POINTS))
FORBIDDEN_DOMAIN = Group("forbidden domain code points",
                         "https://url.spec.whatwg.org/#forbidden-domain-code-point",
                         _forbidden("forbidden domain code points", FORBIDDEN_DOMAIN_ONLY))


# -- joiners ---------------------------------------------------------------------------------

ZWNJ, ZWJ = "\u200c", "\u200d"
_LABEL_SEPARATORS = re.compile("[.\u3002\uff0e\uff61]")
_VIRAMA = 9  # the canonical combining class Virama


def labels(sample: Sample) -> list[str]:
    """The labels of every host of a sample, split at '.' and the three dots UTS #46 maps
    to it."""
    return [label for h in hosts(sample) for label in _LABEL_SEPARATORS.split(h)]


def joining_type(c: str) -> str | None:
    """RFC 5892's Joining_Type of ``c``, None if it has none: the engine's table
    (engine/data/joining_types.txt, made from the ``idna`` package's data and compared with it
    code point by code point in tests/engine/test_idna_tables.py), so that the generators need no
    ``idna`` installed."""
    return _engine_idna.joining_type(ord(c))


def is_virama(c: str) -> bool:
    return unicodedata.combining(c) == _VIRAMA


def _in_joining_context(label: str, i: int) -> bool:
    """RFC 5892 Appendix A.1 rule 2: (Joining_Type:{L,D})(Joining_Type:T)*\\u200C
    (Joining_Type:T)*(Joining_Type:{R,D}) around position ``i``."""
    before = [joining_type(c) for c in reversed(label[:i])]
    after = [joining_type(c) for c in label[i + 1:]]
    before = [t for t in before if t != "T"][:1]
    after = [t for t in after if t != "T"][:1]
    return before in (["L"], ["D"]) and after in (["R"], ["D"])


def _joiner(joiner: str, where: Callable[[str, int], bool]) -> Callable[[str], bool]:
    return lambda label: any(c == joiner and where(label, i) for i, c in enumerate(label))


def _has_transparent_neighbour(label: str, i: int) -> bool:
    return joining_type(label[i - 1:i] or "a") == "T" or joining_type(label[i + 1:i + 2] or "a") == "T"


def _after_other(label: str, i: int) -> bool:
    return i > 0 and not is_virama(label[i - 1]) and not _in_joining_context(label, i)


#: a virama and a code point it follows; Arabic letters of joining type D around a ZWNJ, one
#: with a transparent mark (https://www.rfc-editor.org/rfc/rfc5892#appendix-A.1)
VIRAMA_EXAMPLES = ("\u0915\u094d", "\u0d15\u0d4d", "\u0995\u09cd")
JOINING_CONTEXT_EXAMPLES = (("\u0628", "\u0628"), ("\u0644\u064b", "\u0627"), ("\u0647", "\u0645"),
                            ("\u0628", "\u064b\u0628"))
#: (before, after) a joiner, in each context CheckJoiners tells apart: after a virama, between
#: joining letters (directly or through a transparent mark), after another code point, first
JOINER_CONTEXTS = (tuple((v, "") for v in VIRAMA_EXAMPLES) + JOINING_CONTEXT_EXAMPLES
                   + (("a", "b"), ("\u05d0", ""), ("1", "a"), ("", "a"), ("", "\u0628")))
_JOINERS = "joiners"
JOINERS = Group(_JOINERS, "https://www.rfc-editor.org/rfc/rfc5892#appendix-A", (
    _spelling(_JOINERS, "ZWJ after a virama", labels,
              _joiner(ZWJ, lambda s, i: i > 0 and is_virama(s[i - 1])),
              _host_sample("\u0915\u094d\u200d")),
    _spelling(_JOINERS, "ZWJ after a code point that is not a virama", labels,
              _joiner(ZWJ, lambda s, i: i > 0 and not is_virama(s[i - 1])),
              _host_sample("a\u200db")),
    _spelling(_JOINERS, "ZWJ starting a label", labels, _joiner(ZWJ, lambda s, i: i == 0),
              _host_sample("\u200da")),
    _spelling(_JOINERS, "ZWNJ after a virama", labels,
              _joiner(ZWNJ, lambda s, i: i > 0 and is_virama(s[i - 1])),
              _host_sample("\u0915\u094d\u200c")),
    _spelling(_JOINERS, "ZWNJ between joining types L or D and R or D", labels,
              _joiner(ZWNJ, lambda s, i: _in_joining_context(s, i)
                      and not _has_transparent_neighbour(s, i)),
              _host_sample("\u0628\u200c\u0628")),
    _spelling(_JOINERS, "ZWNJ in a joining context through a transparent code point", labels,
              _joiner(ZWNJ, lambda s, i: _in_joining_context(s, i)
                      and _has_transparent_neighbour(s, i)),
              _host_sample("\u0644\u064b\u200c\u0627")),
    _spelling(_JOINERS, "ZWNJ after a code point that is neither a virama nor in a joining "
              "context", labels, _joiner(ZWNJ, _after_other), _host_sample("a\u200cb")),
    _spelling(_JOINERS, "ZWNJ starting a label", labels, _joiner(ZWNJ, lambda s, i: i == 0),
              _host_sample("\u200ca")),
))


# -- Bidi classes ----------------------------------------------------------------------------

#: the classes RFC 5893's rules name (https://www.rfc-editor.org/rfc/rfc5893#section-2)
BIDI_CLASSES = ("L", "R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM")
#: for each class, code points of it that UTS #46 keeps in a domain (valid, or, for BN, a
#: ZWNJ that CheckJoiners allows between two Arabic letters), so that CheckBidi sees them
BIDI_CLASS_EXAMPLES = {
    "L": ("a", "\u00e9", "\u4e2d"), "R": ("\u05d0", "\u05d1"), "AL": ("\u0627", "\u0628"),
    "AN": ("\u0660", "\u0661"), "EN": ("1", "\u06f1"), "ES": ("-", "+"),
    "CS": ("\u060c", ","), "ET": ("$", "\u00b0"), "ON": ("!", "\u2615"),
    "BN": ("\u200c",), "NSM": ("\u064b", "\u0301"),
}
_RTL = frozenset(("R", "AL", "AN"))


def _bidi_label_with(cls: str) -> Callable[[str], bool]:
    """A host that is a Bidi domain name (RFC 5893 section 1.4: a code point of class R, AL or
    AN) with a label holding a code point of class ``cls``."""
    def meets(host: str) -> bool:
        if not any(unicodedata.bidirectional(c) in _RTL for c in host):
            return False
        return any(unicodedata.bidirectional(c) == cls
                   for label in _LABEL_SEPARATORS.split(host) for c in label)
    return meets


_BIDI = "Bidi classes"
BIDI = Group(_BIDI, "https://www.rfc-editor.org/rfc/rfc5893#section-2", tuple(
    _spelling(_BIDI, f"{cls} in a label of a Bidi domain name", hosts, _bidi_label_with(cls),
              _host_sample("\u05d0" + BIDI_CLASS_EXAMPLES[cls][0] + "\u05d0"))
    for cls in BIDI_CLASSES))


# -- astral code points ----------------------------------------------------------------------

def _astral(text: str) -> bool:
    """A code point above U+FFFF, or a surrogate pair (a JavaScript string's spelling of one)."""
    return re.search("[\U00010000-\U0010ffff]|[\ud800-\udbff][\udc00-\udfff]", text) is not None


_ASTRAL = "astral code points"
ASTRAL = Group(_ASTRAL, "https://infra.spec.whatwg.org/#code-points", (
    _spelling(_ASTRAL, "astral code point in a host", hosts, _astral,
              _host_sample("\U0001f600.example")),
    _spelling(_ASTRAL, "astral code point in a path", path_segments, _astral,
              Sample("url", "http://h/\U0001f600")),
    _spelling(_ASTRAL, "astral code point in a search-params name", names, _astral,
              Sample("name", "\U0001f600")),
))


# -- lone surrogates -------------------------------------------------------------------------

HIGH_SURROGATES = ("\ud800", "\udbff", "\ud83d")
LOW_SURROGATES = ("\udc00", "\udfff", "\ude00")
_LONE_HIGH = re.compile("[\ud800-\udbff](?![\udc00-\udfff])")
_LONE_LOW = re.compile("(?<![\ud800-\udbff])[\udc00-\udfff]")


def _lone(which: re.Pattern, where: str) -> Callable[[str], bool]:
    def meets(s: str) -> bool:
        for m in which.finditer(s):
            start, end = m.start() == 0, m.end() == len(s)
            if {"alone": start and end, "at the start": start and not end,
                "at the end": end and not start, "inside": not start and not end,
                "anywhere": True}[where]:
                return True
        return False
    return meets


_SURROGATES = "lone surrogates"
LONE_SURROGATES = Group(_SURROGATES, "https://infra.spec.whatwg.org/#javascript-string-convert",
                        tuple(
    _spelling(_SURROGATES, f"lone {kind} surrogate {where}", strings, _lone(pattern, where),
              Sample("text", {"alone": "", "at the start": "", "at the end": "a",
                              "inside": "a", "anywhere": "a"}[where] + c
                     + {"alone": "", "at the start": "a", "at the end": "", "inside": "b",
                        "anywhere": ""}[where]))
    for kind, pattern, c in (("high", _LONE_HIGH, "\ud800"), ("low", _LONE_LOW, "\udc00"))
    for where in ("anywhere", "alone", "at the start", "at the end", "inside")
) + (_spelling(_SURROGATES, "low surrogate then high surrogate (a reversed pair)", strings,
               lambda s: re.search("[\udc00-\udfff][\ud800-\udbff]", s) is not None,
               Sample("text", "\udc00\ud800")),))


GROUPS = (DOT_SEGMENTS, IPV4, DRIVE_LETTERS, IPV6, FORBIDDEN_HOST, FORBIDDEN_DOMAIN, JOINERS,
          BIDI, ASTRAL, LONE_SURROGATES)
SPELLINGS = tuple(s for g in GROUPS for s in g.spellings)
BY_NAME = {s.name: s for s in SPELLINGS}
assert len(BY_NAME) == len(SPELLINGS), "spelling names must be unique"
