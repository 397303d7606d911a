"""Known deviations: a library of named predicates that the parsers' cards name.

https://url.spec.whatwg.org/#url-parsing

A known deviation is a difference from the URL Standard with a documented cause (a change of the
Standard a parser has not shipped, a bug its own tracker or test suite names). A parser's card (its
``[[oracle]]`` entry in ``urlwb/oracles/<folder>/oracles.toml``, ``in_process.toml``, or the
user's ``[tool.urlwb.oracles.NAME]``) lists its deviations as data::

    [[oracle.deviations]]
    when = "ascii_xn_domain"            # a predicate of this module, or py:package.module:function
    reason = "..."                      # optional where the predicate has a reason of its own (REASONS)

and :func:`urlwb.differential.classify.known_deviation` reads them through :func:`of`. A
difference tagged is still counted, but not reported again as a finding.

Every predicate is ``predicate(right, peer, input, base) -> bool``: ``right`` is the record of the
side the Standard supports (the engine), ``peer`` the parser's. Each matches only when undoing the
one documented difference makes the two records equal, so that an input that also differs for
another reason is still reported.

The browsers' were measured on Debian's Chromium 156.0.8078.114 and Firefox ESR 153.8.0 over every
WPT urltestdata/toascii case and 10,000 generated inputs (``scripts/browser_survey.py`` prints
the counts). rust-url's (the ``url`` crate 2.5.8, ``idna`` 1.1.0) were found by running the
adapter and the engine side by side on the vendored WPT inputs (978 pairs) and
``urlwb.differential.generate`` inputs (5,000 with seed 1, 20,000 with seed 2); each has a
documented cause: the crate's own ``tests/expected_failures.txt``, a WPT test newer than the
crate's vendored ``tests/urltestdata.json``, or a rust-url pull request naming the bug.
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
import unicodedata
from collections.abc import Callable

import engine
from engine.idna import assigned_after_unicodedata, assigned_after_unicodedata_in
from urlwb.oracles import REGISTRY, SPECIAL_SCHEMES, Record, to_usv
from urlwb.oracles.whatwg import EngineOracle

#: predicate(right, peer, input, base) -> bool
Predicate = Callable[[Record, Record, str, "str | None"], bool]

#: The components of a record by name, in the order :func:`strict` gives them.
FIELDS = ("scheme", "username", "password", "host", "port", "path", "query", "fragment")


def strict(r: Record) -> tuple:
    """The components of ``r``, compared as they are (no spelling forgiven)."""
    return (r.scheme, r.username, r.password, r.host, r.port, r.path, r.query, r.fragment)


def _strict_key(r: Record | None):
    """Equal keys mean the same answer: failure and crash as themselves, else every component
    and the href (:func:`urlwb.differential.classify.key`, strict)."""
    if r is None:
        return None
    if r.crash:
        return ("crash",)
    return ("failure",) if r.failure else strict(r) + (r.href,)


# --- changes of the Standard and of Unicode, shared by several parsers --------------------------

def ascii_xn_domain(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#concept-domain-to-ascii step 3: an ASCII domain is only
    # lowercased, whatever Unicode ToASCII would say of its xn-- labels.
    return (peer.failure and right.ok and right.host is not None and right.host.isascii()
            and any(label.startswith("xn--") for label in right.host.split(".")))


def opaque_trailing_space(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#cannot-be-a-base-url-path-state: a space before ? or # in an
    # opaque path is percent-encoded (a later change of the Standard).
    return (right.ok and peer.ok and right.host is None and strict(right)[:5] == strict(peer)[:5]
            and (right.path or "").endswith("%20") and peer.path == right.path[:-3] + " ")


def caret_in_path(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#path-percent-encode-set gained U+005E (^) in a later change.
    return (right.ok and peer.ok and "^" in (peer.path or "") and
            (peer.path or "").replace("^", "%5E") == right.path and
            strict(right)[:5] == strict(peer)[:5] and right.query == peer.query)


def userinfo_replacement(right: Record, peer: Record, input: str, base: str | None) -> bool:
    return (right.ok and peer.ok and strict(right)[3:] == strict(peer)[3:] and
            "%EF%BF%BD" in (peer.username or "") + (peer.password or "") and
            "%EF%BF%BD" not in (right.username or "") + (right.password or ""))


def sharp_s(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # UTS46 since Unicode 15.1 maps U+1E9E (capital sharp s) to U+00DF, no longer to "ss".
    return (right.ok and peer.ok and right.host is not None and peer.host is not None and
            "xn--zca" in right.host and right.host.replace("xn--zca", "ss") == peer.host)


_OPAQUE_BASE = re.compile(r"[\x00-\x20]*([A-Za-z][A-Za-z0-9+\-.]*):(?![/\\])")
_FINAL_DOT = re.compile(r"[/\\](\.|%2e){1,2}[\x00-\x20]*$", re.I)


def opaque_base(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#no-scheme-state step 1: a base with an opaque path and an
    # input not starting with "#" is failure.
    m = _OPAQUE_BASE.match(base or "")
    return (right.failure and peer.ok and m is not None and m.group(1).lower() not in SPECIAL_SCHEMES
            and not input.lstrip("".join(map(chr, range(0x21)))).startswith("#"))


def final_dot_segment(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#path-state steps 1.2 and 1.3: after a final ".." (path
    # shortened) or a final "." the empty string is appended: "p://x/.." has the path "/" and
    # "http://e//./." the path "//"; this may happen in the input or in the base.
    return (right.ok and peer.ok and (right.path or "").endswith("/") and
            peer.path in (right.path[:-1], right.path + ".") and
            any(_FINAL_DOT.search(re.sub(r"[\t\n\r]", "", s).split("#")[0].split("?")[0])
                for s in (input, base or "")))


def empty_base_query(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#relative-state: otherwise url's query is base's query ("").
    return (right.ok and peer.ok and right.query == "" and peer.query is None and
            strict(right)[:6] == strict(peer)[:6])


def file_drive_letter(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#windows-drive-letter: two code points, and "starts with" needs
    # "/", "\", "?", "#" or the end after them; "a:b" is no drive letter, so ".." removes it.
    return (right.ok and peer.ok and right.scheme == "file" and
            re.match(r"/[A-Za-z]:[^/\\?#]", peer.path or "") is not None and right.path != peer.path)


_NEWLY_IGNORED = re.compile("[\u180e\u206a-\u206f]")


def newly_ignored(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # UTS46 data as the engine vendors it (and ada 4) maps these as "ignored" (removed).
    return right.ok and peer.failure and right.host is not None and _NEWLY_IGNORED.search(input) is not None


def engine_unicode_version(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # The engine's own deviation (engine/idna.py): CheckBidi reads Bidi classes from Python's
    # unicodedata, older than its UTS46 table; a code point assigned since has no Bidi class
    # there, so a Bidi domain name holding one fails in the engine alone.
    return right.failure and peer.ok and any(
        assigned_after_unicodedata(c) for c in input)


def peer_unicode_version(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # The peer's UTS46 data is older than the engine's (Unicode 18.0.0, idna 3.20's table): a
    # code point assigned since is unassigned there, so disallowed, and a host holding it, written
    # out or as an A-label in a domain that is not all ASCII, fails there alone ('http://π.xn--x30s/').
    return right.ok and peer.failure and assigned_after_unicodedata_in(input)


# --- Chromium and Firefox ------------------------------------------------------------------------

def _equal_except(right: Record, peer: Record, field: str) -> bool:
    i = FIELDS.index(field)
    a, b = strict(right), strict(peer)
    return right.ok and peer.ok and a[:i] == b[:i] and a[i + 1:] == b[i + 1:]


# --- Chromium ----------------------------------------------------------------------------------

def host_space_or_asterisk(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # Chromium's host canonicalizer escapes U+0020 and "*" instead of failing on the space
    # (a forbidden host code point) and keeping "*" (url/url_canon_host.cc, kHostCharLookup:
    # "' ' (SPACE) and '*' (asterisk) are still non-compliant", https://crbug.com/1416013).
    # Spaces that UTS46 maps to U+0020 (U+00A0, U+3000) end the same way ("goo%20%20goo.com").
    if right.failure and peer.ok and "%20" in (peer.host or ""):
        return True
    return (_equal_except(right, peer, "host") and "*" in (right.host or "") and
            re.sub("%2a", "*", peer.host or "", flags=re.I) == right.host)


def path_pipe(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#path-percent-encode-set has no U+007C (|); Chromium's path
    # table (url/url_canon_path.cc, kPathCharLookup) escapes it: "doesn't comply with the URL
    # Standard as of Dec 2023. See https://crbug.com/1509295".
    return (_equal_except(right, peer, "path") and "|" in (right.path or "") and
            peer.path == right.path.replace("|", "%7C"))


def file_localhost(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#file-host-state step 1.4.3: host "localhost" becomes "".
    # Chromium does it only before a Windows drive letter (url/url_canon_fileurl.cc: "According
    # to the latest URL spec, this transformation should be done regardless of the path",
    # TODO(crbug.com/41299821)).
    return (right.scheme == "file" and right.host == "" and peer.host == "localhost" and
            _equal_except(right, peer, "host"))


# --- Firefox -----------------------------------------------------------------------------------

#: The longest href Firefox ESR 153's URL constructor accepted (measured by bisection here; its
#: pref network.standard-url.max-length, "the maximum allowed length for a URL", is 1048576).
FIREFOX_MAX_HREF = 1_048_572


def href_over_firefox_max(right: Record, peer: Record, input: str, base: str | None) -> bool:
    return right.ok and peer.failure and len(right.href or "") > FIREFOX_MAX_HREF


# --- rust-url ------------------------------------------------------------------------------------

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


def special_base_extra_slashes(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#special-authority-ignore-slashes-state: against a special
    # base, "///test" reaches the relative slash state, then skips every further / and \.
    return (right.ok and peer.failure and base is not None and
            _scheme_of(base) in SPECIAL_SCHEMES.keys() - {"file"} and
            re.match(r"//[/\\]", _cleaned(input)) is not None)


def file_host_with_drive_letter(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#path-state no longer empties the host when a file URL's path
    # starts with a Windows drive letter.
    return (right.ok and peer.ok and right.scheme == "file" and right.host not in (None, "") and
            peer.host == "" and re.match(r"/[A-Za-z]:(/|$)", right.path or "") is not None and
            _same_except(right, peer, "host"))


def file_leading_empty_segments(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#path-state appends every empty segment: "file:////foo" has the
    # path ["", "foo"], serialized "//foo".
    return (right.ok and peer.ok and right.scheme == "file" and (right.path or "").startswith("//")
            and peer.path == "/" + right.path.lstrip("/") and _same_except(right, peer, "path"))


def file_drive_letter_not_normalized(right: Record, peer: Record, input: str,
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


def non_special_relative_backslash(right: Record, peer: Record, input: str,
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
    return _strict_key(_engine().parse(as_rust_reads_it, to_usv(base))) == _strict_key(peer)


def drive_letter_kept_by_dot_dot(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#shorten-a-urls-path: ".." keeps a Windows drive letter only as the
    # single segment of a file URL's path; elsewhere "C:" is an ordinary segment.
    return (right.ok and peer.ok and right.scheme != "file" and _same_except(right, peer, "path")
            and any(_DOT_DOT_SEGMENT.search(_cleaned(s)) for s in (input, base or "")) and
            len(_DRIVE_LETTER_SEGMENT.findall(peer.path or "")) >
            len(_DRIVE_LETTER_SEGMENT.findall(right.path or "")))


#: the reasons of the predicates whose reason is computed (a version read at run time): a card
#: may name them without a ``reason`` of its own
REASONS: dict[str, str] = {
    "peer_unicode_version": (
        f"the peer's UTS46 data is older than the engine's (Unicode {engine.idna.UTS46_VERSION}): a code "
        "point assigned since, written out or in an A-label, is disallowed there, so the host fails there alone"),
    "engine_unicode_version": (
        "the engine's, not the peer's: the engine's Bidi classes come from Python's unicodedata "
        f"(Unicode {unicodedata.unidata_version}), older than its UTS46 table, so a Bidi domain name "
        "holding a code point assigned since fails CheckBidi in the engine alone"),
}

#: name -> predicate: every predicate a card may name (``when``)
PREDICATES: dict[str, Predicate] = {f.__name__: f for f in (
    ascii_xn_domain, opaque_trailing_space, caret_in_path, userinfo_replacement, sharp_s, opaque_base,
    final_dot_segment, empty_base_query, file_drive_letter, newly_ignored, engine_unicode_version,
    peer_unicode_version,
    host_space_or_asterisk, path_pipe, file_localhost, href_over_firefox_max,
    special_base_extra_slashes, file_host_with_drive_letter, file_leading_empty_segments,
    file_drive_letter_not_normalized, non_special_relative_backslash, drive_letter_kept_by_dot_dot,
)}


class DeviationError(ValueError):
    """A card names a predicate that cannot be had; the message is one line naming the card."""


def predicate(when: str) -> Predicate:
    """The predicate ``when`` names: one of :data:`PREDICATES`, or ``py:package.module:function``
    (a user's own, imported). DeviationError (one line) when there is none."""
    if when.startswith("py:"):
        module, _, function = when[3:].partition(":")
        try:
            found = getattr(importlib.import_module(module), function)
        except (ImportError, AttributeError, ValueError) as exc:
            raise DeviationError(f"{when}: {type(exc).__name__}: {exc}") from None
        if not callable(found):
            raise DeviationError(f"{when}: not a function")
        return found
    if when not in PREDICATES:
        raise DeviationError(f"{when!r} is no known-deviation predicate (urlwb/oracles/deviations.py)")
    return PREDICATES[when]


@functools.lru_cache(maxsize=None)
def _resolved(parser: str, listed: tuple[tuple[str, str | None], ...]) -> tuple[tuple[Predicate, str], ...]:
    out = []
    for when, reason in listed:
        try:
            out.append((predicate(when), reason if reason is not None else REASONS[when]))
        except (DeviationError, KeyError) as exc:
            # someone else's card: named on one line, never fatal (as a parser that cannot start)
            why = str(exc) if isinstance(exc, DeviationError) else f"{when!r} needs a reason"
            print(f"urlwb: {parser}: known deviation not loaded ({why})", file=sys.stderr)
    return tuple(out)


def of(parser: str) -> tuple[tuple[Predicate, str], ...]:
    """(predicate, reason) of each known deviation ``parser``'s card lists, in its order. A card's
    deviations are of the release it ships (their reasons name it): another release
    (``PARSER@VERSION``) has none."""
    entry = REGISTRY.get(parser)
    card = entry.card if entry is not None else None
    if card is None or not card.deviations or "@" in parser:
        return ()
    return _resolved(parser, card.deviations)


def listed() -> list[tuple[str, Predicate, str]]:
    """(parser, predicate, reason) of every card's known deviations, in the registry's order."""
    return [(name, p, reason) for name in list(REGISTRY) for p, reason in of(name)]
