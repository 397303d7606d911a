"""URLs: representation, the basic URL parser, serializing, equivalence, origin.

https://url.spec.whatwg.org/#urls

``basic_url_parse`` is the Standard's state machine. Where a state consumes a run of code points
that it treats one by one alike (a path segment, a query, a fragment, an opaque path, the
userinfo), the run is taken at once; validation errors still come in the Standard's order.
"""

from __future__ import annotations

import re

from .failure import Failure
from .host import (
    _ends_in_a_number,
    _NOT_URL_CODE_POINT_OR_PERCENT,
    _PERCENT_NOT_FOLLOWED_BY_HEX,
    Domain,
    EmptyHost,
    Host,
    IPv4Address,
    IPv6Address,
    OpaqueHost,
    parse_host,
    parse_ipv6,
    serialize_host,
)
from .infra import ASCII_ALPHA, FORBIDDEN_HOST_CODE_POINTS, character_class, to_scalar_value_string
from .percent_encoding import (
    C0_CONTROL_PERCENT_ENCODE_SET,
    FRAGMENT_PERCENT_ENCODE_SET,
    PATH_PERCENT_ENCODE_SET,
    QUERY_PERCENT_ENCODE_SET,
    SPECIAL_QUERY_PERCENT_ENCODE_SET,
    USERINFO_PERCENT_ENCODE_SET,
    _utf8_percent_encode,
)

__all__ = [
    "URLRecord",
    "SPECIAL_SCHEMES",
    "STATES",
    "State",
    "basic_url_parse",
    "url_parse",
    "serialize_url",
    "serialize_path",
    "url_origin",
    "serialize_origin",
    "Origin",
    "OpaqueOrigin",
    "urls_equal",
    "set_username",
    "set_password",
    "shorten_path",
    "starts_with_windows_drive_letter",
]

# https://url.spec.whatwg.org/#special-scheme -> default port
SPECIAL_SCHEMES = {"ftp": 21, "file": None, "http": 80, "https": 443, "ws": 80, "wss": 443}

class State:
    """A state of the basic URL parser, by its name in the Standard (for state override).

    The parser tells states apart by identity (``state is PATH``): a state is one of the objects
    below, never equal to anything else, and a test costs no comparison (which a fuzzer's
    instrumentation would trace, for nothing: the state is never input)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


STATES = {name: State(name) for name in (
    "scheme start state",
    "scheme state",
    "no scheme state",
    "special relative or authority state",
    "path or authority state",
    "relative state",
    "relative slash state",
    "special authority slashes state",
    "special authority ignore slashes state",
    "authority state",
    "host state",
    "hostname state",
    "port state",
    "file state",
    "file slash state",
    "file host state",
    "path start state",
    "path state",
    "opaque path state",
    "query state",
    "fragment state",
)}
(
    SCHEME_START, SCHEME, NO_SCHEME, SPECIAL_RELATIVE_OR_AUTHORITY, PATH_OR_AUTHORITY, RELATIVE,
    RELATIVE_SLASH, SPECIAL_AUTHORITY_SLASHES, SPECIAL_AUTHORITY_IGNORE_SLASHES, AUTHORITY, HOST,
    HOSTNAME, PORT, FILE, FILE_SLASH, FILE_HOST, PATH_START, PATH, OPAQUE_PATH, QUERY, FRAGMENT,
) = STATES.values()
_AUTHORITY_OR_HOST = frozenset((AUTHORITY, HOST, HOSTNAME))
# The states that run only at the start of a parse (before the parser's loop, here).
_FIRST_STATES = frozenset((
    NO_SCHEME, SPECIAL_RELATIVE_OR_AUTHORITY, RELATIVE, RELATIVE_SLASH,
    SPECIAL_AUTHORITY_IGNORE_SLASHES, FILE, FILE_SLASH,
))
# The states a state override can be: those the API's setters give
# (https://url.spec.whatwg.org/#urlutils-members).
OVERRIDE_STATES = frozenset((SCHEME_START, HOST, HOSTNAME, PORT, PATH_START, QUERY, FRAGMENT))
_LAST_STATES = frozenset((QUERY, FRAGMENT))


class URLRecord:
    """https://url.spec.whatwg.org/#concept-url

    ``path`` is a list of segments, or a string for an opaque path.
    """

    __slots__ = ("scheme", "username", "password", "host", "port", "path", "query", "fragment")

    def __init__(self) -> None:
        self.scheme = ""
        self.username = ""
        self.password = ""
        self.host: Host | None = None
        self.port: int | None = None
        self.path: list[str] | str = []
        self.query: str | None = None
        self.fragment: str | None = None

    @property
    def is_special(self) -> bool:
        """https://url.spec.whatwg.org/#is-special"""
        return self.scheme in SPECIAL_SCHEMES

    @property
    def has_opaque_path(self) -> bool:
        """https://url.spec.whatwg.org/#url-opaque-path"""
        return isinstance(self.path, str)

    @property
    def includes_credentials(self) -> bool:
        """https://url.spec.whatwg.org/#include-credentials"""
        return self.username != "" or self.password != ""

    @property
    def cannot_have_username_password_port(self) -> bool:
        """https://url.spec.whatwg.org/#cannot-have-a-username-password-port"""
        return self.host is None or self.host == "" or self.scheme == "file"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, URLRecord):
            return NotImplemented
        return (
            self.scheme, self.username, self.password, self.host, self.port, self.path,
            self.query, self.fragment,
        ) == (
            other.scheme, other.username, other.password, other.host, other.port, other.path,
            other.query, other.fragment,
        ) and type(self.host) is type(other.host)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<URLRecord {serialize_url(self)!r}>"


# https://url.spec.whatwg.org/#c0-control-or-space, stripped from both ends
_C0_OR_SPACE = "".join(map(chr, range(0x21)))
_TAB_OR_NEWLINE = {0x09: None, 0x0A: None, 0x0D: None}
_UTF_8 = "utf-8"  # (the default encoding, told apart by identity)
_URL_RECORD_OR_NONE = (URLRecord, type(None))
# Either step 1's stripping or steps 2-3's removal has something to do.
_strip_or_remove = re.compile("\\A[\\x00-\\x20]|[\\x00-\\x20]\\Z|[\\t\\n\\r]").search
_tab_or_newline = re.compile("[\\t\\n\\r]").search
_SLASH_OR_BACKSLASH = frozenset("/\\")
# What ends the port state's digits without being an error ("" is the EOF code point); and, for
# a special URL, U+005C (\).
_PATH_START_DELIMITERS = frozenset(("", "/", "?", "#"))
_digits_end = re.compile("[0-9]*").match
_SCHEME_STATES = frozenset((SCHEME_START, SCHEME))
# A scheme followed by ":", from the scheme start state (an ASCII alpha first) or the scheme
# state.
_SCHEME_THEN_COLON = {
    SCHEME_START: re.compile(r"[A-Za-z][A-Za-z0-9+\-.]*(?=:)").match,
    SCHEME: re.compile(r"[A-Za-z0-9+\-.]*(?=:)").match,
}
_slash_run = re.compile(r"[/\\]*").match
# The host state's host, by special: up to a ":" outside brackets ("[" to "]"), or a delimiter:
# EOF, "/", "?", "#", and "\" for a special URL. Group 2 (group 1 is the userinfo, in
# _AUTHORITY_THEN_HOST).
_HOST_PART = {
    True: r"((?:[^:/?#\\\[\]]++|\]|\[[^/?#\\\]]*+\]?)*+)",
    False: r"((?:[^:/?#\[\]]++|\]|\[[^/?#\]]*+\]?)*+)",
}
_HOST = {special: re.compile("()" + part).match for special, part in _HOST_PART.items()}
# The authority state's userinfo, up to the authority's last "@" (if any), then the host.
_AUTHORITY_THEN_HOST = {
    True: re.compile(r"(?:([^/?#\\]*)@)?" + _HOST_PART[True]).match,
    False: re.compile(r"(?:([^/?#]*)@)?" + _HOST_PART[False]).match,
}
# "?" starts the query state, "#" the fragment state. (Each sets url's query or fragment to ""
# first, in the Standard; here those states, after the loop, set it.)
_QUERY_OR_FRAGMENT = {"?": QUERY, "#": FRAGMENT}
_QUERY_SETS = {True: SPECIAL_QUERY_PERCENT_ENCODE_SET, False: QUERY_PERCENT_ENCODE_SET}
_SINGLE_DOT = frozenset((".", "%2e", "%2E"))
_DOUBLE_DOT = frozenset(("..", ".%2e", ".%2E", "%2e.", "%2E.", "%2e%2e", "%2E%2E", "%2e%2E", "%2E%2e"))
# The end of a path segment, by (special, no state override): a delimiter or the end of input
# (an empty match). Special URLs also end one at U+005C (\); "?" and "#" end it only without
# state override.
_SEGMENT_END = {
    (True, True): re.compile(r"[/\\?#]|\Z").search,
    (False, True): re.compile(r"[/?#]|\Z").search,
    (True, False): re.compile(r"[/\\]|\Z").search,
    (False, False): re.compile(r"/|\Z").search,
}
# What ends a segment as a slash, by special.
_SEGMENT_SLASHES = {True: frozenset("/\\"), False: frozenset("/")}
# https://url.spec.whatwg.org/#single-dot-path-segment (1), #double-dot-path-segment (2)
_DOT_SEGMENTS = dict.fromkeys(_SINGLE_DOT, 1) | dict.fromkeys(_DOUBLE_DOT, 2)
# The end of a path: "?", "#", or the end of input (an empty match).
_path_end = re.compile(r"[?#]|\Z").search


def _is_windows_drive_letter(s: str) -> bool:
    """https://url.spec.whatwg.org/#windows-drive-letter"""
    return len(s) == 2 and s[0] in ASCII_ALPHA and s[1] in ":|"


def _is_normalized_windows_drive_letter(s: str) -> bool:
    """https://url.spec.whatwg.org/#normalized-windows-drive-letter"""
    return len(s) == 2 and s[0] in ASCII_ALPHA and s[1] == ":"


def starts_with_windows_drive_letter(s: str) -> bool:
    """https://url.spec.whatwg.org/#start-with-a-windows-drive-letter"""
    return (
        len(s) >= 2
        and s[0] in ASCII_ALPHA
        and s[1] in ":|"
        and (len(s) == 2 or s[2] in "/\\?#")
    )


def shorten_path(url: URLRecord) -> None:
    """https://url.spec.whatwg.org/#shorten-a-urls-path"""
    path = url.path
    if url.scheme == "file" and len(path) == 1 and _is_normalized_windows_drive_letter(path[0]):
        return
    if path:
        path.pop()


def _invalid_url_units(run: str, input: str, start: int, errors: list[str]) -> None:
    """invalid-URL-unit for each code point of ``run`` (at ``start`` in ``input``) that is not a
    URL code point and not U+0025 (%), and for each U+0025 (%) not followed by two hex digits.
    (All errors of a run have the one name, so they are counted, not found one by one.)"""
    count = len(_NOT_URL_CODE_POINT_OR_PERCENT.findall(run))
    if "%" in run:
        # Two code points past the run, for a "%" at its end.
        window = input[start : start + len(run) + 2]
        count += sum(1 for m in _PERCENT_NOT_FOLLOWED_BY_HEX.finditer(window) if m.start() < len(run))
    if count:
        errors.extend(["invalid-URL-unit"] * count)


def _fail(errors: list[str] | None, name: str) -> Failure:
    if errors is not None:
        errors.append(name)
    return Failure(name)


# The fast path: an absolute URL made of printable ASCII (no space), with nothing to
# percent-encode, no dot segments, no Windows drive letter, and a host that is a plain domain, a
# dotted-decimal IPv4 address, an IPv6 address or an opaque host; every special URL in it has
# "//" after the scheme. Serialized URLs are mostly of this form, so reparsing an href is mostly
# fast. It gives what the state machine gives (fuzzers/fuzz_fast_path.py checks that, and the
# url target compares it with the listening state machine); anything else goes to the state
# machine, which alone reports validation errors.
def _printable_ascii_not_in(encode_set, *also: str) -> str:
    """A character class: printable ASCII other than the set's members and ``also``."""
    return character_class(
        c for c in map(chr, range(0x21, 0x7F)) if ord(c) not in encode_set.ascii and c not in also
    )


# The userinfo with its "@", or "" (one group, always there). Neither its username nor its
# password has a ":" (the userinfo set holds it), so the first ":" splits them.
_USERINFO = (f"((?:{_printable_ascii_not_in(USERINFO_PERCENT_ENCODE_SET)}*+"
             f"(?::{_printable_ascii_not_in(USERINFO_PERCENT_ENCODE_SET)}*+)?@)?)")
_IPV6 = r"\[[0-9A-Fa-f:.]++\]"
_DOMAIN = r"[A-Za-z0-9_.\-]"  # ASCII, no "%": the domain parser lowercases it, nothing else
# An opaque host with nothing to percent-encode: no forbidden host code point, printable ASCII.
_OPAQUE_HOST = _printable_ascii_not_in(C0_CONTROL_PERCENT_ENCODE_SET, *FORBIDDEN_HOST_CODE_POINTS)
_PORT = r"(?::([0-9]*+))?"


def _fast_tail(special: bool, path_required: bool = False) -> str:
    """Path (from its "/"), query and fragment, with nothing to percent-encode."""
    path = _printable_ascii_not_in(PATH_PERCENT_ENCODE_SET, "?", "#", *("\\" if special else ""))
    query_set = SPECIAL_QUERY_PERCENT_ENCODE_SET if special else QUERY_PERCENT_ENCODE_SET
    return (f"(/{path}*+){'' if path_required else '?'}"
            f"(?:\\?({_printable_ascii_not_in(query_set, '#')}*+))?"
            f"(?:#({_printable_ascii_not_in(FRAGMENT_PERCENT_ENCODE_SET)}*+))?")


_SCHEME = r"[A-Za-z][A-Za-z0-9+\-.]*+"
_NOT_SPECIAL = "(?!(?i:https?|wss?|ftp|file):)"
# One regular expression for the five forms, tried in one call (a URL of none of them costs one
# failed match; possessive quantifiers keep a failure linear). Groups, by form: special (1-6):
# userinfo, host, port, path, query, fragment; file (7-10): host, path, query, fragment;
# another scheme (11), then with a host (12-17): userinfo, host, port, path, query, fragment;
# or a path from "/" (18-20): path, query, fragment; or an opaque path (21-23): the same.
_fast = re.compile(
    f"(?i:https?|wss?|ftp)://{_USERINFO}({_DOMAIN}++|{_IPV6}){_PORT}{_fast_tail(True)}"
    f"|(?i:file)://({_DOMAIN}*+|{_IPV6}){_fast_tail(True)}"
    f"|{_NOT_SPECIAL}({_SCHEME}):(?:"
    f"//{_USERINFO}({_OPAQUE_HOST}*+|{_IPV6}){_PORT}{_fast_tail(False)}"
    f"|(?!//){_fast_tail(False, path_required=True)}"
    f"|((?!/){_printable_ascii_not_in(C0_CONTROL_PERCENT_ENCODE_SET, '?', '#')}*+)"
    f"(?:\\?({_printable_ascii_not_in(QUERY_PERCENT_ENCODE_SET, '#')}*+))?"
    f"(?:#({_printable_ascii_not_in(FRAGMENT_PERCENT_ENCODE_SET)}*+))?)"
).fullmatch
_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_canonical_ipv4 = re.compile(f"(?:{_OCTET}\\.){{3}}{_OCTET}").fullmatch
_windows_drive_letter_start = re.compile(r"/[A-Za-z][:|](?:[/?#]|$)").match


def parse_fast_path(input: str) -> URLRecord | None:
    """The fast path of ``basic_url_parse`` (no base, no state override, UTF-8, no listener):
    the URL record, or None where the input is not of the simple form it handles.

    Each form is taken on its own branch, so that a parse tests little (a fuzzer's
    instrumentation counts each branch taken)."""
    if not input.isascii():  # (O(1); a non-ASCII input never fits)
        return None
    m = _fast(input)
    if m is None:
        return None
    g = m.groups()
    url = _new_record(URLRecord)
    if g[1] is not None:
        # A special URL other than file: a host always, a domain, IPv4 or IPv6 address.
        userinfo, host, port, path, url.query, url.fragment = g[0:6]
        url.scheme = scheme = input[: input.index(":")].lower()
        if "[" in host:
            host = _fast_ipv6(host)
        elif _ends_in_a_number(host) is not None:
            host = _fast_ipv4(host)
        else:
            host = Domain(host.lower())
        if host is None:
            return None
        url.host = host
        if port:
            port = int(port)
            if port > 0xFFFF:
                return None
            url.port = None if port == SPECIAL_SCHEMES[scheme] else port
        else:
            url.port = None
        # The path start state: a special URL's path is at least one empty segment.
        if path is None:
            url.path = [""]
        elif _dot_segment(path) is not None:
            return None
        else:
            url.path = path[1:].split("/")
    elif g[10] is None:
        # A file URL: no userinfo or port; the host may be empty, or localhost (empty too).
        host, path, url.query, url.fragment = g[6:10]
        url.scheme = "file"
        userinfo = ""
        url.port = None
        if not host:
            host = EmptyHost("")
        elif "[" in host:
            host = _fast_ipv6(host)
        elif _ends_in_a_number(host) is not None:
            host = _fast_ipv4(host)
        else:
            host = host.lower()
            host = EmptyHost("") if host == "localhost" else Domain(host)
        if host is None:
            return None
        url.host = host
        if path is None:
            url.path = [""]
        elif _dot_segment(path) is not None or _windows_drive_letter_start(path):
            return None
        else:
            url.path = path[1:].split("/")
    else:
        url.scheme = g[10].lower()
        if g[12] is not None:
            # Another scheme, with a host: an opaque host, an IPv6 address, or empty (then with
            # no userinfo or port: host-missing). A path only from a "/".
            userinfo, host, port, path, url.query, url.fragment = g[11:17]
            if not host:
                if userinfo or port is not None:
                    return None  # host-missing
                host = EmptyHost("")
            elif "[" in host:
                host = _fast_ipv6(host)
                if host is None:
                    return None
            else:
                host = OpaqueHost(host)
            url.host = host
            url.port = int(port) if port else None
            if url.port is not None and url.port > 0xFFFF:
                return None
            if path is None:
                url.path = []
            elif _dot_segment(path) is not None:
                return None
            else:
                url.path = path[1:].split("/")
        else:
            userinfo = ""
            url.host = url.port = None
            if g[17] is not None:
                # Another scheme, no host, a path from "/".
                path, url.query, url.fragment = g[17:20]
                if _dot_segment(path) is not None:
                    return None
                url.path = path[1:].split("/")
            else:
                # Another scheme, an opaque path.
                url.path, url.query, url.fragment = g[20:23]
    url.username, _, url.password = userinfo[:-1].partition(":")
    return url


def _fast_ipv6(host: str) -> IPv6Address | None:
    """The fast path's IPv6 address ("[...]"), or None where the IPv6 parser fails."""
    try:
        return parse_ipv6(host[1:-1])
    except Failure:
        return None


def _fast_ipv4(host: str) -> IPv4Address | None:
    """The fast path's IPv4 address: dotted decimal as it serializes, else None (the IPv4
    parser's other forms, and its failures, are the state machine's)."""
    if _canonical_ipv4(host) is None:
        return None
    a, b, c, d = map(int, host.split("."))
    return IPv4Address((a << 24) | (b << 16) | (c << 8) | d)


_new_record = object.__new__  # a URLRecord whose every field the fast path sets


# A single- or double-dot segment (_DOT_SEGMENTS) in a path of the fast path (which starts with
# "/" and holds no "?" or "#").
_dot_segment = re.compile(r"/(?:\.|%2[eE]){1,2}(?=/|\Z)").search


def basic_url_parse(
    input: str,
    base: URLRecord | None = None,
    *,
    url: URLRecord | None = None,
    state_override: str | State | None = None,
    encoding: str = _UTF_8,
    errors: list[str] | None = None,
) -> URLRecord | None:
    """https://url.spec.whatwg.org/#concept-basic-url-parser

    Returns the URL record, or (with ``url`` and ``state_override``) None where the Standard
    terminates without returning anything; raises Failure where it returns failure.
    """
    # (One test, its conditions combined without branching: a fuzzer's instrumentation counts
    # every branch taken.)
    if (errors is None) & (base is None) & (url is None) & (input.__class__ is str):
        fast = parse_fast_path(input)
        if fast is not None:
            return fast
    return basic_url_parse_state_machine(
        input, base, url=url, state_override=state_override, encoding=encoding, errors=errors
    )


def basic_url_parse_state_machine(
    input: str,
    base: URLRecord | None = None,
    *,
    url: URLRecord | None = None,
    state_override: str | State | None = None,
    encoding: str = _UTF_8,
    errors: list[str] | None = None,
) -> URLRecord | None:
    """https://url.spec.whatwg.org/#concept-basic-url-parser, step by step (no fast path).

    The Standard's loop runs a state per code point. Here, a state that treats a run of code
    points alike takes the run at once, and the states run where they can occur:
    - first, the scheme start and scheme states (one match), then the states that only run at
      the start of a parse, each at most once, in an order in which each goes to later ones: no
      scheme, special relative or authority, relative, relative slash, special authority ignore
      slashes, file, file slash (the special authority slashes and path or authority states run
      within the scheme state's step);
    - then the loop, for the authority and host states (one match), port, path, opaque path and
      file host; the path start state runs in the same turn of the loop as the state that sets
      it (each of which decreases pointer, so that c is the same code point);
    - last, the query and fragment states, which take the rest of the input (the query up to a
      "#"), after the loop.
    ``state_override`` is one of the states the API's setters give (OVERRIDE_STATES).
    """
    # (The usual parse, of a string by the API, is told apart with one test, its conditions
    # combined without branching: a fuzzer's instrumentation counts every branch taken.)
    if (url is None) & (state_override is None) & (encoding is _UTF_8) & (input.__class__ is str):
        url = URLRecord()
        state = SCHEME_START
        legacy = None
        shortcut = errors is None
        # Steps 1 to 3 below, only if one search finds something for them to do.
        strip = True
        clean = _strip_or_remove(input) is not None
    else:
        if not isinstance(input, str):
            raise TypeError(f"basic_url_parse() takes str, not {type(input).__name__}")
        if state_override is not None and not isinstance(state_override, State):
            try:
                state_override = STATES[state_override]
            except (KeyError, TypeError):
                raise TypeError(f"unknown state override: {state_override!r}") from None
        if state_override is not None and state_override not in OVERRIDE_STATES:
            raise TypeError(f"state override {state_override.name!r}: not one the URL setters give")
        strip = url is None
        if strip:
            url = URLRecord()
        clean = strip or _tab_or_newline(input) is not None
        # 4. Let state be state override if given, or scheme start state otherwise.
        state = SCHEME_START if state_override is None else state_override
        # 5. Set encoding to the result of getting an output encoding from encoding. (legacy:
        # the output encoding's name where it is not UTF-8, else None.)
        legacy = None
        if encoding != "utf-8":
            from .encoding import get_encoding, get_output_encoding

            legacy = get_output_encoding(get_encoding(encoding))
            if legacy == "UTF-8":
                legacy = None
        # The whole-path shortcut of the path state (below) is for parses nobody listens to,
        # without state override.
        shortcut = (state_override is None) & (errors is None)
    if clean:
        # 1. If url was not given: strip leading and trailing C0 control or space.
        if strip:
            stripped = input.strip(_C0_OR_SPACE)
            if errors is not None and len(stripped) != len(input):
                errors.append("invalid-URL-unit")
            input = stripped
        # 2./3. Remove all ASCII tab or newline; either step finding something is an
        # invalid-URL-unit validation error.
        if _tab_or_newline(input) is not None:
            if errors is not None:
                errors.append("invalid-URL-unit")
            input = input.translate(_TAB_OR_NEWLINE)
    if not isinstance(base, _URL_RECORD_OR_NONE):
        raise TypeError("basic_url_parse() takes a URLRecord as base")
    if not input.isascii():
        input = to_scalar_value_string(input)
    # 6./7. buffer, atSignSeen, insideBrackets, passwordTokenSeen. (The authority and host
    # states take their code points at once, so atSignSeen, insideBrackets and passwordTokenSeen
    # need no variables.)
    buffer = ""
    # 8. Let pointer be a pointer for input.
    pointer = 0
    n = len(input)
    if state in _SCHEME_STATES:
        # https://url.spec.whatwg.org/#scheme-start-state: if c is an ASCII alpha, the scheme
        # state takes it; https://url.spec.whatwg.org/#scheme-state: the run of ASCII
        # alphanumeric, "+", "-" and "." that follows; if a ":" follows that run, it ends the
        # scheme. The run and the ":" are matched at once.
        m = _SCHEME_THEN_COLON[state](input)
        if m is not None:
            buffer = m.group().lower()
            pointer = m.end()  # the ":"
            if state_override is not None:
                url_special = url.scheme in SPECIAL_SCHEMES
                buffer_special = buffer in SPECIAL_SCHEMES
                if url_special != buffer_special:
                    return None
                if (url.includes_credentials or url.port is not None) and buffer == "file":
                    return None
                if url.scheme == "file" and url.host == "":
                    return None
                url.scheme = buffer
                if url.port == SPECIAL_SCHEMES.get(url.scheme):
                    url.port = None
                return None
            url.scheme = buffer
            buffer = ""
            pointer += 1  # (past the ":")
            if url.scheme == "file":
                if errors is not None and not input.startswith("//", pointer):
                    errors.append("special-scheme-missing-following-solidus")
                state = FILE
            elif url.scheme in SPECIAL_SCHEMES:
                if base is not None and base.scheme == url.scheme:
                    state = SPECIAL_RELATIVE_OR_AUTHORITY
                else:
                    # https://url.spec.whatwg.org/#special-authority-slashes-state: "//" is
                    # skipped, or anything else is a special-scheme-missing-following-solidus
                    # validation error; then https://url.spec.whatwg.org/#special-authority-ignore-slashes-state
                    # skips every "/" or "\\" more, each such an error, at once.
                    if input.startswith("//", pointer):
                        pointer += 2
                    elif errors is not None:
                        errors.append("special-scheme-missing-following-solidus")
                    run = _slash_run(input, pointer).group()
                    if run:
                        if errors is not None:
                            errors.extend(["special-scheme-missing-following-solidus"] * len(run))
                        pointer += len(run)
                    state = AUTHORITY
            elif input.startswith("/", pointer):
                # https://url.spec.whatwg.org/#path-or-authority-state, at once: a second "/"
                # starts the authority; else the path starts after the first.
                if input.startswith("//", pointer):
                    state = AUTHORITY
                    pointer += 2
                else:
                    state = PATH
                    pointer += 1
            else:
                url.path = ""
                state = OPAQUE_PATH
        elif state_override is None:
            # Scheme start state 2, or scheme state 3: the no scheme state, from the start of input.
            state = NO_SCHEME
        elif state is SCHEME_START and input[:1] not in ASCII_ALPHA:
            raise Failure(None, "scheme must start with an ASCII alpha")
        else:
            raise Failure(None, "invalid scheme")
    elif state is PATH_START:
        pointer = -1  # (the path start state below steps to c itself)
    if state in _FIRST_STATES:
        # The states that only ever run at the start, once each, before the loop, in an order in
        # which each goes only to later ones (or to the loop's). pointer points to c, the code
        # point the state reads; each that takes c steps pointer past it.
        if state is NO_SCHEME:
            # https://url.spec.whatwg.org/#no-scheme-state
            c = input[:1]
            if base is None or (isinstance(base.path, str) and c != "#"):
                raise _fail(errors, "missing-scheme-non-relative-URL")
            elif isinstance(base.path, str):  # and c is "#"
                url.scheme = base.scheme
                url.path = base.path
                url.query = base.query
                url.fragment = ""
                state = FRAGMENT
                pointer = 1
            elif base.scheme != "file":
                state = RELATIVE
            else:
                state = FILE
        if state is SPECIAL_RELATIVE_OR_AUTHORITY:
            # https://url.spec.whatwg.org/#special-relative-or-authority-state
            if input.startswith("//", pointer):
                state = SPECIAL_AUTHORITY_IGNORE_SLASHES
                pointer += 2
            else:
                if errors is not None:
                    errors.append("special-scheme-missing-following-solidus")
                state = RELATIVE
        if state is RELATIVE:
            # https://url.spec.whatwg.org/#relative-state
            c = input[pointer : pointer + 1]
            url.scheme = base.scheme
            if c == "/":
                state = RELATIVE_SLASH
                pointer += 1
            elif c == "\\" and url.scheme in SPECIAL_SCHEMES:
                if errors is not None:
                    errors.append("invalid-reverse-solidus")
                state = RELATIVE_SLASH
                pointer += 1
            else:
                url.username, url.password = base.username, base.password
                url.host, url.port = base.host, base.port
                url.path = list(base.path)
                url.query = base.query
                if c in _QUERY_OR_FRAGMENT:  # the query or fragment state, after the loop
                    state = _QUERY_OR_FRAGMENT[c]
                    pointer += 1
                elif c:
                    url.query = None
                    shorten_path(url)
                    state = PATH
                else:
                    return url  # EOF: the URL is the base's, without fragment
        if state is RELATIVE_SLASH:
            # https://url.spec.whatwg.org/#relative-slash-state
            c = input[pointer : pointer + 1]
            if url.scheme in SPECIAL_SCHEMES and c in _SLASH_OR_BACKSLASH:
                if c == "\\" and errors is not None:
                    errors.append("invalid-reverse-solidus")
                state = SPECIAL_AUTHORITY_IGNORE_SLASHES
                pointer += 1
            elif c == "/":
                state = AUTHORITY
                pointer += 1
            else:
                url.username, url.password = base.username, base.password
                url.host, url.port = base.host, base.port
                state = PATH
        if state is SPECIAL_AUTHORITY_IGNORE_SLASHES:
            # https://url.spec.whatwg.org/#special-authority-ignore-slashes-state: each "/" or
            # "\\" is a special-scheme-missing-following-solidus validation error and is skipped
            # (all of them at once); the first other code point starts the authority.
            run = _slash_run(input, pointer).group()
            if run and errors is not None:
                errors.extend(["special-scheme-missing-following-solidus"] * len(run))
            state = AUTHORITY
            pointer += len(run)
        if state is FILE:
            # https://url.spec.whatwg.org/#file-state
            c = input[pointer : pointer + 1]
            url.scheme = "file"
            url.host = EmptyHost("")
            if c in _SLASH_OR_BACKSLASH:
                if c == "\\" and errors is not None:
                    errors.append("invalid-reverse-solidus")
                state = FILE_SLASH
                pointer += 1
            elif base is not None and base.scheme == "file":
                url.host = base.host
                url.path = list(base.path)
                url.query = base.query
                if c in _QUERY_OR_FRAGMENT:  # the query or fragment state, after the loop
                    state = _QUERY_OR_FRAGMENT[c]
                    pointer += 1
                elif c:
                    url.query = None
                    if not starts_with_windows_drive_letter(input[pointer : pointer + 3]):
                        shorten_path(url)
                    else:
                        if errors is not None:
                            errors.append("file-invalid-Windows-drive-letter")
                        url.path = []
                    state = PATH
                else:
                    return url  # EOF: the base's host, path and query
            else:
                state = PATH
        if state is FILE_SLASH:
            # https://url.spec.whatwg.org/#file-slash-state
            c = input[pointer : pointer + 1]
            if c in _SLASH_OR_BACKSLASH:
                if c == "\\" and errors is not None:
                    errors.append("invalid-reverse-solidus")
                state = FILE_HOST
                pointer += 1
            else:
                if base is not None and base.scheme == "file":
                    url.host = base.host
                    if (
                        not starts_with_windows_drive_letter(input[pointer : pointer + 3])
                        and base.path
                        and _is_normalized_windows_drive_letter(base.path[0])
                    ):
                        url.path.append(base.path[0])
                state = PATH
    # 9. Keep running the state machine; after a run, stop if pointer points to the EOF code
    # point (n), or else increase pointer by 1 and run again. (A containment test where a
    # comparison would do: a fuzzer's instrumentation traces comparisons, and this one is never
    # worth tracing.)
    # (With state override, the query or fragment state runs after the loop, which is empty.)
    pointers = range(-1, (n + 1) * (state not in _LAST_STATES))
    # url's scheme is set now (by the states above, or before a state override) and stays: what
    # depends on it is looked up once. The end of a path segment: "/", "\\" for a special URL,
    # "?" and "#" without state override, or EOF; those that end it as a slash.
    special = url.scheme in SPECIAL_SCHEMES
    segment_end = _SEGMENT_END[special, state_override is None]
    slashes = _SEGMENT_SLASHES[special]
    while pointer in pointers:
        c = input[pointer : pointer + 1]  # "" is the EOF code point
        # (The states are tested most frequent first, as a fuzzing corpus visits them.)
        if state is PATH:
            if shortcut:
                shortcut = False  # taken once per parse: the whole path is consumed
                # Whole-path shortcut: up to the query or fragment, the path is its segments,
                # split on "/" (and "\\" for a special URL), each percent-encoded with the path
                # set, as the steps below take them one by one. ("/" and "\\" are not in the set,
                # so encoding the whole run is encoding each segment; a dot segment stays one.)
                # Each segment is appended, but a double-dot segment shortens the path instead,
                # and a single-dot one is dropped; either, last (ended by "?", "#" or EOF, not a
                # slash), appends "". A file URL's Windows drive letter, appended to an empty
                # path, gets a ":". Nobody listens, so there is nothing to report.
                m = _path_end(input, pointer)
                end = m.start()
                run = input[pointer:end]
                if special and "\\" in run:
                    run = run.replace("\\", "/")
                segments = _utf8_percent_encode(run, PATH_PERCENT_ENCODE_SET, False).split("/")
                if buffer:  # a Windows drive letter, left by the file host state
                    segments[0] = buffer + segments[0]
                    buffer = ""
                path = url.path
                # (A dot segment needs a "." or a "%".)
                if ("." not in run and "%" not in run) or _DOT_SEGMENTS.keys().isdisjoint(segments):
                    if not path and url.scheme == "file" and _is_windows_drive_letter(segments[0]):
                        segments[0] = segments[0][0] + ":"
                    path.extend(segments)
                else:
                    for segment in segments:
                        dots = _DOT_SEGMENTS.get(segment)
                        if dots is None:
                            if not path and url.scheme == "file" and _is_windows_drive_letter(segment):
                                segment = segment[0] + ":"
                            path.append(segment)
                        elif dots == 2:
                            shorten_path(url)
                    if dots is not None:
                        path.append("")
                c = m.group()
                if c:  # "?" or "#": the query or fragment state, after the loop
                    state = _QUERY_OR_FRAGMENT[c]
                    pointer = end + 1
                break
            # The code points up to the segment's end (c: "/", "\\" for a special URL, "?" or
            # "#" without state override, or "" for EOF) are appended to buffer, each
            # UTF-8 percent-encoded with the path set.
            m = segment_end(input, pointer)
            end = m.start()
            c = m.group()
            run = input[pointer:end]
            if run:
                if errors is not None:
                    _invalid_url_units(run, input, pointer, errors)
                buffer += _utf8_percent_encode(run, PATH_PERCENT_ENCODE_SET, False)
            pointer = end
            slash = c in slashes
            if special and c == "\\" and errors is not None:
                errors.append("invalid-reverse-solidus")
            dots = _DOT_SEGMENTS.get(buffer)  # 1: a single-dot segment, 2: a double-dot one
            if dots is None:
                if not url.path and url.scheme == "file" and _is_windows_drive_letter(buffer):
                    buffer = buffer[0] + ":"
                url.path.append(buffer)
            else:
                if dots == 2:
                    shorten_path(url)
                if not slash:
                    url.path.append("")
            buffer = ""
            if c and not slash:  # "?" or "#": the query or fragment state, after the loop
                state = _QUERY_OR_FRAGMENT[c]
                pointer += 1
                break
        elif state in _AUTHORITY_OR_HOST:
            # https://url.spec.whatwg.org/#authority-state, then at once (no other step between
            # them) https://url.spec.whatwg.org/#host-state. One match takes the userinfo, if
            # any (all up to the authority's last "@"; the authority ends at EOF, "/", "?", "#",
            # or "\\" for a special URL), and the host, up to a ":" outside brackets or the
            # authority's end (insideBrackets is the match being inside "[...]").
            if state is AUTHORITY:
                m = _AUTHORITY_THEN_HOST[special](input, pointer)
                userinfo = m.group(1)
                if userinfo is not None:
                    # Each "@" is an invalid-credentials validation error. For each code point
                    # before the last: the first ":" starts the password; the rest is UTF-8
                    # percent-encoded with the userinfo set (which encodes "@" as "%40").
                    if errors is not None:
                        errors.extend(["invalid-credentials"] * (userinfo.count("@") + 1))
                    username, _, password = userinfo.partition(":")
                    url.username += _utf8_percent_encode(username, USERINFO_PERCENT_ENCODE_SET, False)
                    url.password += _utf8_percent_encode(password, USERINFO_PERCENT_ENCODE_SET, False)
                    # If atSignSeen is true and buffer is the empty string, host-missing
                    # validation error, return failure. (And an empty host before a ":" is the
                    # host state's host-missing.)
                    if not m.group(2):
                        raise _fail(errors, "host-missing")
            elif url.scheme == "file":
                # Host state 1: with state override, a file URL's host is the file host state's.
                # (pointer decreased by 1, and increased by the loop: the same code point.)
                state = FILE_HOST
                continue
            else:
                m = _HOST[special](input, pointer)
            buffer = m.group(2)
            end = m.end()
            c = input[end : end + 1]
            if c == ":":
                if not buffer:
                    raise _fail(errors, "host-missing")
                if state_override is HOSTNAME:
                    raise Failure(None, "hostname setter: a port is not allowed")
                url.host = parse_host(buffer, not special, errors=errors)
                state = PORT
                pointer = end
            else:
                if not buffer:
                    if special:
                        raise _fail(errors, "host-missing")
                    if state_override is not None and (url.includes_credentials or url.port is not None):
                        raise Failure(None, "host setter: cannot remove a host with credentials or port")
                    url.host = EmptyHost("")
                else:
                    url.host = parse_host(buffer, not special, errors=errors)
                if state_override is not None:
                    return None
                state = PATH_START
                pointer = end - 1
            buffer = ""
        elif state is PORT:
            start = pointer
            pointer = _digits_end(input, pointer).end()
            c = input[pointer : pointer + 1]
            buffer = input[start:pointer]
            if (
                c in _PATH_START_DELIMITERS
                or (c == "\\" and special)
                or state_override is not None
            ):
                if buffer:
                    digits = buffer.lstrip("0")
                    port = int(digits or "0") if len(digits) <= 5 else 1 << 16
                    if port > 0xFFFF:
                        raise _fail(errors, "port-out-of-range")
                    url.port = None if port == SPECIAL_SCHEMES.get(url.scheme) else port
                    buffer = ""
                    if state_override is not None:
                        return None
                if state_override is not None:
                    raise Failure(None, "port setter: not a port")
                state = PATH_START
                pointer -= 1
            else:
                raise _fail(errors, "port-invalid")
        elif state is OPAQUE_PATH:
            m = _path_end(input, pointer)
            end = m.start()
            c = m.group()
            run = input[pointer:end]
            if run:
                if errors is not None:
                    _invalid_url_units(run, input, pointer, errors)
                encoded = _utf8_percent_encode(run, C0_CONTROL_PERCENT_ENCODE_SET, False)
                # A U+0020 SPACE followed by ? or # is appended as "%20".
                if c and encoded[-1] == " ":
                    encoded = encoded[:-1] + "%20"
                url.path += encoded
            if c:  # "?" or "#": the query or fragment state, after the loop
                state = _QUERY_OR_FRAGMENT[c]
                pointer = end + 1
            break
        elif state is FILE_HOST:
            start = pointer
            pointer = _SEGMENT_END[True, True](input, pointer).start()  # (the same delimiters)
            buffer = input[start:pointer]
            pointer -= 1
            if state_override is None and _is_windows_drive_letter(buffer):
                if errors is not None:
                    errors.append("file-invalid-Windows-drive-letter-host")
                # The buffer is not reset: the path state uses it.
                state = PATH
            elif not buffer:
                url.host = EmptyHost("")
                if state_override is not None:
                    return None
                state = PATH_START
            else:
                host = parse_host(buffer, False, errors=errors)
                if host == "localhost":
                    host = EmptyHost("")
                url.host = host
                if state_override is not None:
                    return None
                buffer = ""
                state = PATH_START
        if state is PATH_START:
            # https://url.spec.whatwg.org/#path-start-state, in the turn of the state that set
            # it: the loop's step to the next code point, taken here.
            pointer += 1
            c = input[pointer : pointer + 1]
            if special:
                if c == "\\" and errors is not None:
                    errors.append("invalid-reverse-solidus")
                state = PATH
                if c not in _SLASH_OR_BACKSLASH:
                    pointer -= 1
            elif state_override is None and c in _QUERY_OR_FRAGMENT:
                state = _QUERY_OR_FRAGMENT[c]  # the query or fragment state, after the loop
                pointer += 1
                break
            elif c:
                state = PATH
                if c != "/":
                    pointer -= 1
            elif state_override is not None and url.host is None:
                url.path.append("")
        pointer += 1
    if state is QUERY:
        # https://url.spec.whatwg.org/#query-state: the rest of input, up to a "#" without state
        # override, UTF-8 (or legacy-encoding) percent-encoded with the query set by scheme.
        # (Every way into this state sets url's query to "" first, here or in the API's search
        # setter, so the query is set here where it would be appended to.)
        query_set = _QUERY_SETS[url.scheme in SPECIAL_SCHEMES]
        if (legacy is None) & (state_override is None) & (errors is None):  # (the usual case)
            run, hash_sign, _ = input[pointer:].partition("#")
            url.query = _utf8_percent_encode(run, query_set, False)
        else:
            if legacy is not None and (
                url.scheme not in SPECIAL_SCHEMES or url.scheme == "ws" or url.scheme == "wss"
            ):
                legacy = None
            if state_override is None:
                run, hash_sign, _ = input[pointer:].partition("#")
            else:
                run, hash_sign = input[pointer:], ""
            if errors is not None:
                _invalid_url_units(run, input, pointer, errors)
            if legacy is None:
                url.query = _utf8_percent_encode(run, query_set, False)
            else:
                from .percent_encoding import _percent_encode_legacy

                url.query = _percent_encode_legacy(legacy, run, query_set, False)
        if hash_sign:
            state = FRAGMENT
            pointer += len(run) + 1
    if state is FRAGMENT:
        # https://url.spec.whatwg.org/#fragment-state: the rest of input, percent-encoded with
        # the fragment set. (As with the query: set, where "" would be appended to.)
        run = input[pointer:]
        if errors is not None:
            _invalid_url_units(run, input, pointer, errors)
        url.fragment = _utf8_percent_encode(run, FRAGMENT_PERCENT_ENCODE_SET, False)
    return url


def url_parse(input: str, base: URLRecord | None = None, *, encoding: str = _UTF_8,
              errors: list[str] | None = None) -> URLRecord:
    """https://url.spec.whatwg.org/#concept-url-parser (without blob URL entries)"""
    return basic_url_parse(input, base, encoding=encoding, errors=errors)


def serialize_path(url: URLRecord) -> str:
    """https://url.spec.whatwg.org/#url-path-serializer"""
    path = url.path
    if path.__class__ is str:
        return path
    # "/" and the segment, for each segment.
    return "/" + "/".join(path) if path else ""


def serialize_url(url: URLRecord, exclude_fragment: bool = False) -> str:
    """https://url.spec.whatwg.org/#concept-url-serializer"""
    host = url.host
    path = url.path
    output = url.scheme + ":"
    if host is not None:
        output += "//"
        if url.username or url.password:
            output += url.username + (":" + url.password if url.password else "") + "@"
        output += serialize_host(host)
        if url.port is not None:
            output += ":" + str(url.port)
    elif path.__class__ is list and len(path) > 1 and path[0] == "":
        output += "/."
    output += path if path.__class__ is str else "/" + "/".join(path) if path else ""  # (serialize_path)
    if url.query is not None:
        output += "?" + url.query
    if url.fragment is not None and not exclude_fragment:
        output += "#" + url.fragment
    return output


def urls_equal(a: URLRecord, b: URLRecord, exclude_fragments: bool = False) -> bool:
    """https://url.spec.whatwg.org/#concept-url-equals"""
    return serialize_url(a, exclude_fragments) == serialize_url(b, exclude_fragments)


def set_username(url: URLRecord, username: str) -> None:
    """https://url.spec.whatwg.org/#set-the-username"""
    url.username = _utf8_percent_encode(to_scalar_value_string(username), USERINFO_PERCENT_ENCODE_SET, False)


def set_password(url: URLRecord, password: str) -> None:
    """https://url.spec.whatwg.org/#set-the-password"""
    url.password = _utf8_percent_encode(to_scalar_value_string(password), USERINFO_PERCENT_ENCODE_SET, False)


class OpaqueOrigin:
    """https://html.spec.whatwg.org/multipage/browsers.html#concept-origin-opaque

    Each is equal only to itself; it serializes as "null".
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "<opaque origin>"


class Origin(tuple):
    """A tuple origin: (scheme, host, port, domain)."""

    __slots__ = ()


def url_origin(url: URLRecord) -> Origin | OpaqueOrigin:
    """https://url.spec.whatwg.org/#concept-url-origin (no blob URL store here)"""
    scheme = url.scheme
    if scheme == "blob":
        try:
            path_url = basic_url_parse(serialize_path(url))
        except Failure:
            return OpaqueOrigin()
        if path_url.scheme in ("http", "https", "file"):
            return url_origin(path_url)
        return OpaqueOrigin()
    if scheme in ("ftp", "http", "https", "ws", "wss"):
        return Origin((scheme, url.host, url.port, None))
    return OpaqueOrigin()


def serialize_origin(origin: Origin | OpaqueOrigin) -> str:
    """https://html.spec.whatwg.org/multipage/browsers.html#ascii-serialisation-of-an-origin"""
    if isinstance(origin, OpaqueOrigin):
        return "null"
    scheme, host, port, _ = origin
    result = scheme + "://" + serialize_host(host)
    if port is not None:
        result += ":" + str(port)
    return result
