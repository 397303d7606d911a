"""Known deviations of ``rust-url`` (the ``url`` crate 2.5.8, ``idna`` 1.1.0) from the URL Standard.

https://url.spec.whatwg.org/#url-parsing

``DEVIATIONS`` has the form of :data:`urlwb.differential.classify.KNOWN_DEVIATIONS`: (oracle name,
predicate(right, peer, input, base), reason), ``right`` being the engine's record (the side the
Standard supports) and ``peer`` the adapter's. Each entry was found by running the adapter and
the engine side by side on the vendored WPT inputs (978 pairs) and ``urlwb.differential.generate`` inputs
(5,000 with seed 1, 20,000 with seed 2), and each has a documented cause: the crate's own ``tests/expected_failures.txt``, a WPT
test newer than the crate's vendored ``tests/urltestdata.json`` (72 of the workbench's WPT cases
are), or a rust-url pull request naming the bug. Differences without such a cause are findings,
not deviations, and are not listed here.
"""

from __future__ import annotations

import functools
import re

from urlwb.differential.classify import FIELDS, ascii_xn_domain, key, strict
from urlwb.oracles import SPECIAL_SCHEMES, Record, to_usv
from urlwb.oracles.whatwg import EngineOracle

_C0_OR_SPACE = "".join(map(chr, range(0x21)))
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+\-.]*):")
_DOT_DOT_SEGMENT = re.compile(r"(^|[/\\])(\.|%2e){2}([/\\?#]|$)", re.I)
_DRIVE_LETTER_SEGMENT = re.compile(r"(?<=/)[A-Za-z][:|](?=/|$)")


def _cleaned(s: str) -> str:
    """https://url.spec.whatwg.org/#concept-basic-url-parser steps 1-3: leading and trailing C0
    control or space removed, then every ASCII tab or newline."""
    return re.sub("[\t\n\r]", "", s.strip(_C0_OR_SPACE))


def _scheme_of(s: str) -> str | None:
    m = _SCHEME.match(_cleaned(s))
    return m.group(1).lower() if m else None


def _same_except(right: Record, peer: Record, *fields: str) -> bool:
    return all(a == b for f, a, b in zip(FIELDS, strict(right), strict(peer)) if f not in fields)


def _special_base_extra_slashes(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#special-authority-ignore-slashes-state: against a special
    # base, "///test" reaches the relative slash state, then skips every further / and \.
    return (right.ok and peer.failure and base is not None and
            _scheme_of(base) in SPECIAL_SCHEMES.keys() - {"file"} and
            re.match(r"//[/\\]", _cleaned(input)) is not None)


def _file_host_with_drive_letter(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#path-state no longer empties the host when a file URL's path
    # starts with a Windows drive letter.
    return (right.ok and peer.ok and right.scheme == "file" and right.host not in (None, "") and
            peer.host == "" and re.match(r"/[A-Za-z]:(/|$)", right.path or "") is not None and
            _same_except(right, peer, "host"))


def _file_leading_empty_segments(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#path-state appends every empty segment: "file:////foo" has the
    # path ["", "foo"], serialized "//foo".
    return (right.ok and peer.ok and right.scheme == "file" and (right.path or "").startswith("//")
            and peer.path == "/" + right.path.lstrip("/") and _same_except(right, peer, "path"))


def _file_drive_letter_not_normalized(right: Record, peer: Record, input: str,
                                      base: str | None) -> bool:
    # https://url.spec.whatwg.org/#path-state step 1.4.1: a file URL's first segment that is a
    # Windows drive letter has its second code point replaced by ":" ("w|" becomes "w:").
    path = right.path or ""
    return (right.ok and peer.ok and right.scheme == "file" and
            re.match(r"/[A-Za-z]:(/|$)", path) is not None and
            peer.path == path[:2] + "|" + path[3:] and _same_except(right, peer, "path"))


@functools.cache
def _engine() -> EngineOracle:
    return EngineOracle()


def _non_special_relative_backslash(right: Record, peer: Record, input: str,
                                    base: str | None) -> bool:
    # https://url.spec.whatwg.org/#relative-state and #relative-slash-state: "\" is a slash only
    # in a special URL. rust-url reads a leading run of / and \ of a relative input as if the
    # base were special: one character starts the path, a longer run not starting with "//" is
    # skipped before the authority. The peer's answer must be the engine's for that reading.
    if base is None or _scheme_of(base) in SPECIAL_SCHEMES or _scheme_of(base) is None:
        return False
    cleaned = _cleaned(to_usv(input))
    m = re.match(r"[/\\]+", cleaned)
    if m is None or "\\" not in m.group(0) or m.group(0).startswith("//"):
        return False
    rest = cleaned[m.end():]
    as_rust_reads_it = "/" + rest if len(m.group(0)) == 1 else "//" + rest
    return key(_engine().parse(as_rust_reads_it, to_usv(base)), False) == key(peer, False)


def _drive_letter_kept_by_dot_dot(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#shorten-a-urls-path: ".." keeps a Windows drive letter only as the
    # single segment of a file URL's path; elsewhere "C:" is an ordinary segment.
    return (right.ok and peer.ok and right.scheme != "file" and _same_except(right, peer, "path")
            and any(_DOT_DOT_SEGMENT.search(_cleaned(s)) for s in (input, base or "")) and
            len(_DRIVE_LETTER_SEGMENT.findall(peer.path or "")) >
            len(_DRIVE_LETTER_SEGMENT.findall(right.path or "")))


_CRATE = "url 2.5.8"

DEVIATIONS = [
    ("rust-url", ascii_xn_domain,
     f"{_CRATE} (idna 1.1.0) rejects an ASCII host with an xn-- label that is not valid Punycode "
     "('https://xn--/', 'http://a.b.c.xn--pokxncvks'), which WPT now expects kept as written "
     "(domain to ASCII); the crate's vendored urltestdata.json still expects failure"),
    ("rust-url", _special_base_extra_slashes,
     f"{_CRATE} consumes only '//' before the authority of a relative input against a special "
     "base, so '///test' against 'http://example.org/' fails (EmptyHost) where the special "
     "authority ignore slashes state skips every slash: a known bug (servo/rust-url pull "
     "requests #1134, #1136, #1137)"),
    ("rust-url", _file_host_with_drive_letter,
     f"{_CRATE} empties the host of a file URL whose path starts with a Windows drive letter "
     "('file://host/C:/' gives 'file:///C:/'), as the Standard once did (whatwg/url#302); listed "
     "in the crate's tests/expected_failures.txt"),
    ("rust-url", _file_leading_empty_segments,
     f"{_CRATE} collapses the empty segments at the start of a file URL's path ('file:////foo' "
     "gives 'file:///foo'); listed in the crate's tests/expected_failures.txt"),
    ("rust-url", _file_drive_letter_not_normalized,
     f"{_CRATE} leaves 'w|' as it is as the first segment of a file path after an empty host "
     "('file:///w|/m'; the path state makes it 'w:'); the WPT test is newer than the crate's "
     "vendored urltestdata.json"),
    ("rust-url", _non_special_relative_backslash,
     f"{_CRATE} reads a leading backslash of a relative input against a non-special base as a "
     "slash ('\\a' against 'foo://foo/a' gives 'foo://foo/a', '\\\\a' the host 'a'); the WPT "
     "tests (web-platform-tests/wpt#58840, 2026) are newer than the crate's vendored copy"),
    ("rust-url", _drive_letter_kept_by_dot_dot,
     f"{_CRATE} does not let '..' remove a Windows drive letter segment in a non-file URL ('..' "
     "against 'abc://x/y/z/C:/' keeps 'C:/'); the Standard keeps it only in a file URL (shorten "
     "a URL's path); the WPT test is newer than the crate's vendored urltestdata.json"),
]
