"""URL parsing: the basic URL parser (the fast one) and the URL parser.

https://url.spec.whatwg.org/#url-parsing

``basic_url_parse`` is the Standard's basic URL parser in two parts: a fast path
(``engine.fast_path``'s ``parse_fast_path``) for the absolute URLs that need no change but
lowercasing (most hrefs), one regular expression with a function per form; and the state machine
(``basic_url_parse_state_machine``), a method per state of the Standard (``_BasicURLParser``),
dispatched by a table. Where a state treats a run of code points one by one alike (a path
segment, a query, a fragment, an opaque path, the userinfo), it takes the run at once;
validation errors still come in the Standard's order.
"""

from __future__ import annotations

import re

from .encoding import get_encoding, get_output_encoding
from .failure import Failure, fail, validation_error
from .fast_path import parse_fast_path
from .host import EmptyHost, parse_host
from .infra import (
    ASCII_ALPHA,
    NOT_URL_CODE_POINT_OR_PERCENT,
    PERCENT_NOT_FOLLOWED_BY_TWO_HEX_DIGITS,
    to_scalar_value_string,
)
from .percent_encoding import (
    C0_CONTROL_PERCENT_ENCODE_SET,
    FRAGMENT_PERCENT_ENCODE_SET,
    PATH_PERCENT_ENCODE_SET,
    QUERY_PERCENT_ENCODE_SET,
    SPECIAL_QUERY_PERCENT_ENCODE_SET,
    USERINFO_PERCENT_ENCODE_SET,
    percent_encode_legacy,
    percent_encode_utf8,
)
from .record import SPECIAL_SCHEMES, URLRecord

__all__ = [
    "STATES",
    "State",
    "basic_url_parse",
    "basic_url_parse_state_machine",
    "url_parse",
    "shorten_path",
    "starts_with_windows_drive_letter",
]


class State:
    """A state of the basic URL parser, by its name in the Standard (for state override).

    The parser tells states apart by identity (its table of state methods is keyed by them;
    ``state_override is HOSTNAME``): a state is one of the objects below, never equal to anything
    else, and a test costs no comparison (which a fuzzer's instrumentation would trace, for
    nothing: the state is never input)."""

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
# The states a state override can be: those the API's setters give
# (https://url.spec.whatwg.org/#urlutils-members).
OVERRIDE_STATES = frozenset((SCHEME_START, HOST, HOSTNAME, PORT, PATH_START, QUERY, FRAGMENT))


# https://url.spec.whatwg.org/#c0-control-or-space, stripped from both ends
_C0_OR_SPACE = "".join(map(chr, range(0x21)))
_TAB_OR_NEWLINE = {0x09: None, 0x0A: None, 0x0D: None}
_UTF_8 = "utf-8"  # (the default encoding, told apart by identity)
_URL_RECORD_OR_NONE = (URLRecord, type(None))
# Either step 1's stripping or steps 2-3's removal has something to do.
_strip_or_remove = re.compile("\\A[\\x00-\\x20]|[\\x00-\\x20]\\Z|[\\t\\n\\r]").search
_tab_or_newline = re.compile("[\\t\\n\\r]").search
_SLASH_OR_BACKSLASH = frozenset("/\\")
# "?" starts the query state, "#" the fragment state. (Each sets url's query or fragment to ""
# first, in the Standard; here those states set it, where "" would be appended to.)
_QUERY_OR_FRAGMENT = {"?": QUERY, "#": FRAGMENT}
_SINGLE_DOT = frozenset((".", "%2e", "%2E"))
_DOUBLE_DOT = frozenset(("..", ".%2e", ".%2E", "%2e.", "%2E.", "%2e%2e", "%2E%2E", "%2e%2E", "%2E%2e"))
# https://url.spec.whatwg.org/#single-dot-path-segment (1), #double-dot-path-segment (2)
_DOT_SEGMENTS = dict.fromkeys(_SINGLE_DOT, 1) | dict.fromkeys(_DOUBLE_DOT, 2)


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


def _invalid_url_units(errors: list[str] | None, run: str, input: str, start: int) -> None:
    """invalid-URL-unit for each code point of ``run`` (at ``start`` in ``input``) that is not a
    URL code point and not U+0025 (%), and for each U+0025 (%) not followed by two hex digits.
    (All errors of a run have the one name, so they are counted, not found one by one.)"""
    # inline: scripts/callgrind_urls.py counts 1.7% more (1,022 instructions per WPT URL, the mean
    # of five memory layouts) without this guard, the searches below running over every fragment
    # and opaque path for nobody.
    if errors is None:
        return
    count = len(NOT_URL_CODE_POINT_OR_PERCENT.findall(run))
    if "%" in run:
        # Two code points past the run, for a "%" at its end.
        window = input[start : start + len(run) + 2]
        not_escapes = PERCENT_NOT_FOLLOWED_BY_TWO_HEX_DIGITS.finditer(window)
        count += sum(1 for m in not_escapes if m.start() < len(run))
    validation_error(errors, "invalid-URL-unit", count)


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
    # The fast path (engine.fast_path) where it can apply, else the state machine. (One test, its
    # conditions combined without branching: a fuzzer's instrumentation counts every branch
    # taken.)
    if (errors is None) & (base is None) & (url is None) & (input.__class__ is str):
        fast = parse_fast_path(input)
        if fast is not None:
            return fast
    return basic_url_parse_state_machine(
        input, base, url=url, state_override=state_override, encoding=encoding, errors=errors
    )


# ---------------------------------------------------------------------------------------------
# The state machine: https://url.spec.whatwg.org/#concept-basic-url-parser, step 9, a method of
# _BasicURLParser per state (or per pair of states that always run one after the other),
# dispatched by _STATE_FUNCTIONS.

# What a state's method returns instead of a next state when the parser stops: "return url"
# (the loop has reached the EOF code point, or a state took the rest of input), or "return" with
# nothing (a state override's end).
_RETURN_URL = State("(return url)")
_RETURN = State("(return)")
_RETURNS = frozenset((_RETURN_URL, _RETURN))
# https://url.spec.whatwg.org/#scheme-start-state then https://url.spec.whatwg.org/#scheme-state:
# an ASCII alpha, the run of ASCII alphanumerics, "+", "-" and "." after it, and the ":" that
# ends the scheme.
_scheme_then_colon = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+\-.]*):").match
_slash_run = re.compile(r"[/\\]*").match


def _host_then_end(special: bool) -> str:
    """The host state's buffer, group "host": code points up to a ":" outside brackets
    (insideBrackets is the match being inside "[...]"), or the authority's end: EOF, "/", "?",
    "#", and "\\" for a special URL."""
    if special:
        return r"(?P<host>(?:[^:/?#\\\[\]]++|\]|\[[^/?#\\\]]*+\]?)*+)"
    return r"(?P<host>(?:[^:/?#\[\]]++|\]|\[[^/?#\]]*+\]?)*+)"


# https://url.spec.whatwg.org/#host-state (or hostname state), by special.
_HOST = {special: re.compile(_host_then_end(special)).match for special in (True, False)}
# https://url.spec.whatwg.org/#authority-state then #host-state, by special: the userinfo,
# group "userinfo", is everything up to the authority's last "@" (if any; not the "@"); then the
# host.
_AUTHORITY_THEN_HOST = {
    True: re.compile(r"(?:(?P<userinfo>[^/?#\\]*)@)?" + _host_then_end(True)).match,
    False: re.compile(r"(?:(?P<userinfo>[^/?#]*)@)?" + _host_then_end(False)).match,
}
# The port state's buffer: ASCII digits.
_digits_end = re.compile("[0-9]*").match
# What ends the port state's digits without being an error ("" is the EOF code point); and, for
# a special URL, U+005C (\).
_PATH_START_DELIMITERS = frozenset(("", "/", "?", "#"))
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
# The end of a path: "?", "#", or the end of input (an empty match).
_path_end = re.compile(r"[?#]|\Z").search
_QUERY_SETS = {True: SPECIAL_QUERY_PERCENT_ENCODE_SET, False: QUERY_PERCENT_ENCODE_SET}


class _BasicURLParser:
    """One run of the basic URL parser's state machine: the Standard's variables, and a method
    per state, named after it.

    A state's method takes ``pointer``, the index of c (the code point the state reads; the
    index ``len(input)`` is the EOF code point), and returns the next state and the index of its
    c: c's own where the Standard decreases pointer by 1 (the next state reads c again), the one
    past where the Standard's loop increases it. Where a state treats a run of code points one by
    one alike, the method takes the run at once ("Departs from the loop", in its docstring): one
    regular expression or string method in C instead of a turn of the loop per code point, which
    is faster, and, under a fuzzer's instrumentation, one traced branch instead of one per code
    point. Validation errors still come in the Standard's order. atSignSeen, insideBrackets and
    passwordTokenSeen need no variables: the authority and host states take their code points in
    one match.
    """

    __slots__ = ("input", "base", "url", "state_override", "encoding", "errors", "buffer")

    def __init__(self, input: str, base: URLRecord | None, url: URLRecord,
                 state_override: State | None, encoding: str | None, errors: list[str] | None):
        self.input = input
        self.base = base
        self.url = url
        self.state_override = state_override
        self.encoding = encoding  # the output encoding's name where it is not UTF-8, else None
        self.errors = errors
        # 6. Let buffer be the empty string.
        self.buffer = ""

    def scheme_start_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#scheme-start-state and, within it,
        https://url.spec.whatwg.org/#scheme-state

        Departs from the loop: the scheme start state's ASCII alpha, the scheme state's run of
        code points and the ":" that ends it are one match."""
        input = self.input
        m = _scheme_then_colon(input, pointer)
        if m is None:
            # Scheme start state 2, scheme state 3: the no scheme state, from the first code point.
            if self.state_override is None:
                return NO_SCHEME, 0
            # Scheme start state 3, scheme state 4: return failure.
            if input[:1] not in ASCII_ALPHA:
                raise Failure(None, "scheme must start with an ASCII alpha")
            raise Failure(None, "invalid scheme")
        # Scheme state 2 (c is ":"); buffer is the scheme, lowercased.
        buffer = m["scheme"].lower()
        if self.state_override is not None:
            return self._scheme_state_override(buffer), pointer
        # 2.2. Set url's scheme to buffer. (2.4. buffer is the empty string again.)
        self.url.scheme = buffer
        pointer = m.end()  # (past the ":")
        # 2.5. If url's scheme is "file": if remaining does not start with "//",
        # special-scheme-missing-following-solidus validation error; file state.
        if buffer == "file":
            if not input.startswith("//", pointer):
                validation_error(self.errors, "special-scheme-missing-following-solidus")
            return FILE, pointer
        if buffer in SPECIAL_SCHEMES:
            # 2.6. url is special and base's scheme is url's: special relative or authority.
            if self.base is not None and self.base.scheme == buffer:
                return SPECIAL_RELATIVE_OR_AUTHORITY, pointer
            # 2.7. Otherwise, if url is special: special authority slashes state.
            return SPECIAL_AUTHORITY_SLASHES, pointer
        # 2.8. If remaining starts with "/": path or authority state, pointer past the "/".
        if input.startswith("/", pointer):
            return PATH_OR_AUTHORITY, pointer + 1
        # 2.9. Otherwise, url's path is the empty string; opaque path state.
        self.url.path = ""
        return OPAQUE_PATH, pointer

    def _scheme_state_override(self, buffer: str) -> State:
        """https://url.spec.whatwg.org/#scheme-state, steps 2.1 to 2.3: with state override."""
        url = self.url
        # 2.1.1./2.1.2. The scheme may not change from special to not, or back.
        if (url.scheme in SPECIAL_SCHEMES) != (buffer in SPECIAL_SCHEMES):
            return _RETURN
        # 2.1.3. Nor become "file" with credentials or a port.
        if (url.includes_credentials or url.port is not None) and buffer == "file":
            return _RETURN
        # 2.1.4. Nor change from "file" with an empty host.
        if url.scheme == "file" and url.host == "":
            return _RETURN
        # 2.2. Set url's scheme to buffer. 2.3.1. A port that is the default one becomes null.
        url.scheme = buffer
        if url.port == SPECIAL_SCHEMES.get(url.scheme):
            url.port = None
        # 2.3.2. Return.
        return _RETURN

    def no_scheme_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#no-scheme-state"""
        base = self.base
        c = self.input[pointer : pointer + 1]
        # 1. No base, or a base with an opaque path and c not "#": missing-scheme-non-relative-URL
        # validation error, return failure.
        if base is None or (isinstance(base.path, str) and c != "#"):
            raise fail(self.errors, "missing-scheme-non-relative-URL")
        # 2. A base with an opaque path, and c is "#": the base's scheme, path and query; the
        # fragment state.
        if isinstance(base.path, str):
            url = self.url
            url.scheme = base.scheme
            url.path = base.path
            url.query = base.query
            url.fragment = ""
            return FRAGMENT, pointer + 1
        # 3. Relative state, or 4. file state, reading c again.
        return (RELATIVE if base.scheme != "file" else FILE), pointer

    def special_relative_or_authority_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#special-relative-or-authority-state"""
        # 1. c is "/" and remaining starts with "/": special authority ignore slashes state.
        if self.input.startswith("//", pointer):
            return SPECIAL_AUTHORITY_IGNORE_SLASHES, pointer + 2
        # 2. Otherwise, special-scheme-missing-following-solidus validation error; relative state.
        validation_error(self.errors, "special-scheme-missing-following-solidus")
        return RELATIVE, pointer

    def path_or_authority_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#path-or-authority-state"""
        # 1. If c is "/", authority state. 2. Otherwise, path state, reading c again.
        if self.input.startswith("/", pointer):
            return AUTHORITY, pointer + 1
        return PATH, pointer

    def relative_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#relative-state"""
        url, base = self.url, self.base
        c = self.input[pointer : pointer + 1]
        # 2. Set url's scheme to base's scheme.
        url.scheme = base.scheme
        # 3. If c is "/", relative slash state.
        if c == "/":
            return RELATIVE_SLASH, pointer + 1
        # 4. If url is special and c is "\\": invalid-reverse-solidus; relative slash state.
        if c == "\\" and url.scheme in SPECIAL_SCHEMES:
            validation_error(self.errors, "invalid-reverse-solidus")
            return RELATIVE_SLASH, pointer + 1
        # 5.1. Otherwise: base's username, password, host, port, a clone of its path, its query.
        url.username, url.password = base.username, base.password
        url.host, url.port = base.host, base.port
        url.path = list(base.path)
        url.query = base.query
        # 5.2./5.3. "?": query state; "#": fragment state.
        if c in _QUERY_OR_FRAGMENT:
            return _QUERY_OR_FRAGMENT[c], pointer + 1
        # 5.4. Not EOF: no query, the path shortened; path state, reading c again.
        if c:
            url.query = None
            shorten_path(url)
            return PATH, pointer
        return _RETURN_URL, pointer  # (EOF: the base's URL, without its fragment)

    def relative_slash_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#relative-slash-state"""
        url = self.url
        c = self.input[pointer : pointer + 1]
        # 1. url is special and c is "/" or "\\" ("\\": invalid-reverse-solidus): special
        # authority ignore slashes state.
        if url.scheme in SPECIAL_SCHEMES and c in _SLASH_OR_BACKSLASH:
            if c == "\\":
                validation_error(self.errors, "invalid-reverse-solidus")
            return SPECIAL_AUTHORITY_IGNORE_SLASHES, pointer + 1
        # 2. c is "/": authority state.
        if c == "/":
            return AUTHORITY, pointer + 1
        # 3. Otherwise: base's username, password, host and port; path state, reading c again.
        base = self.base
        url.username, url.password = base.username, base.password
        url.host, url.port = base.host, base.port
        return PATH, pointer

    def special_authority_slashes_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#special-authority-slashes-state"""
        # 1. c is "/" and remaining starts with "/": special authority ignore slashes state.
        if self.input.startswith("//", pointer):
            return SPECIAL_AUTHORITY_IGNORE_SLASHES, pointer + 2
        # 2. Otherwise, special-scheme-missing-following-solidus validation error; special
        # authority ignore slashes state, reading c again.
        validation_error(self.errors, "special-scheme-missing-following-solidus")
        return SPECIAL_AUTHORITY_IGNORE_SLASHES, pointer

    def special_authority_ignore_slashes_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#special-authority-ignore-slashes-state

        Departs from the loop: the run of "/" and "\\" (step 2 for each) is taken at once."""
        run = _slash_run(self.input, pointer).group()
        # 2. Each "/" or "\\": special-scheme-missing-following-solidus validation error. (A run of
        # none, "//" taken by the state before, is the usual case.)
        if run:
            validation_error(self.errors, "special-scheme-missing-following-solidus", len(run))
        # 1. The first other code point: authority state, reading it again.
        return AUTHORITY, pointer + len(run)

    def authority_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#authority-state, then (no other step runs between
        them) https://url.spec.whatwg.org/#host-state

        Departs from the loop: one match takes the userinfo, if any (all up to the authority's
        last "@"; the authority ends at EOF, "/", "?", "#", or "\\" for a special URL), and the
        host (up to a ":" outside brackets, or the authority's end). atSignSeen is the userinfo
        group matching; passwordTokenSeen, its first ":"."""
        url = self.url
        special = url.scheme in SPECIAL_SCHEMES
        m = _AUTHORITY_THEN_HOST[special](self.input, pointer)
        userinfo = m["userinfo"]
        if userinfo is not None:
            # 1.1. Each "@" is an invalid-credentials validation error. 1.2.-1.4. For each code
            # point before the last "@": the first ":" starts the password; the rest is UTF-8
            # percent-encoded with the userinfo set (which encodes an earlier "@" as "%40",
            # as step 1.2's prepending does).
            validation_error(self.errors, "invalid-credentials", userinfo.count("@") + 1)
            username, _, password = userinfo.partition(":")
            url.username += percent_encode_utf8(username, USERINFO_PERCENT_ENCODE_SET, False)
            url.password += percent_encode_utf8(password, USERINFO_PERCENT_ENCODE_SET, False)
            # 2.1. If atSignSeen is true and buffer is the empty string, host-missing validation
            # error, return failure. (An empty host before a ":" is the host state's host-missing.)
            if not m["host"]:
                raise fail(self.errors, "host-missing")
        # 2.2. The host state, from the host's first code point.
        return self._host_state_at_end(m["host"], m.end(), special)

    def host_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#host-state and https://url.spec.whatwg.org/#hostname-state,
        with state override (without, the authority state runs it).

        Departs from the loop: step 4's run of code points (the buffer) is one match."""
        url = self.url
        # 1. With state override, a file URL's host is the file host state's.
        if url.scheme == "file":
            return FILE_HOST, pointer
        special = url.scheme in SPECIAL_SCHEMES
        m = _HOST[special](self.input, pointer)
        return self._host_state_at_end(m["host"], m.end(), special)

    def _host_state_at_end(self, buffer: str, end: int, special: bool) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#host-state, steps 2 and 3: c (at ``end``) is a ":"
        outside brackets, or ends the authority; ``buffer`` is the host."""
        url, state_override = self.url, self.state_override
        # 2. c is ":" and insideBrackets is false:
        if self.input.startswith(":", end):
            # 2.1. An empty buffer: host-missing validation error, return failure.
            if not buffer:
                raise fail(self.errors, "host-missing")
            # 2.2. The hostname state override: return failure.
            if state_override is HOSTNAME:
                raise Failure(None, "hostname setter: a port is not allowed")
            # 2.3.-2.5. Host parsing buffer (failure returns failure); port state.
            url.host = parse_host(buffer, not special, errors=self.errors)
            return PORT, end + 1
        # 3. c is EOF, "/", "?", "#", or "\\" for a special URL (read again by the next state):
        if not buffer:
            # 3.1. A special URL's empty host: host-missing validation error, return failure.
            if special:
                raise fail(self.errors, "host-missing")
            # 3.2. With state override, no empty host beside credentials or a port.
            if state_override is not None and (url.includes_credentials or url.port is not None):
                raise Failure(None, "host setter: cannot remove a host with credentials or port")
            # 3.3.-3.5. (Host parsing "" not special gives the empty host.)
            url.host = EmptyHost("")
        else:
            # 3.3.-3.5. Host parsing buffer (failure returns failure); path start state.
            url.host = parse_host(buffer, not special, errors=self.errors)
        # 3.6. With state override, return.
        if state_override is not None:
            return _RETURN, end
        return PATH_START, end

    def port_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#port-state

        Departs from the loop: step 1's run of ASCII digits (the buffer) is taken at once."""
        input, url, state_override = self.input, self.url, self.state_override
        end = _digits_end(input, pointer).end()
        buffer = input[pointer:end]
        c = input[end : end + 1]
        # 2. c is EOF, "/", "?", "#", or "\\" for a special URL, or state override is given:
        if (
            c in _PATH_START_DELIMITERS
            or (c == "\\" and url.scheme in SPECIAL_SCHEMES)
            or state_override is not None
        ):
            if buffer:
                # 2.1.1. The port: buffer's value (leading zeros aside, more than five digits are
                # out of range without converting them all).
                digits = buffer.lstrip("0")
                port = int(digits or "0") if len(digits) <= 5 else 1 << 16
                # 2.1.2. Not a 16-bit unsigned integer: port-out-of-range, return failure.
                if port > 0xFFFF:
                    raise fail(self.errors, "port-out-of-range")
                # 2.1.3. url's port is null if it is the scheme's default port.
                url.port = None if port == SPECIAL_SCHEMES.get(url.scheme) else port
                # 2.1.5. With state override, return.
                if state_override is not None:
                    return _RETURN, end
            # 2.2. With state override (and no digits), return failure.
            if state_override is not None:
                raise Failure(None, "port setter: not a port")
            # 2.3. Path start state, reading c again.
            return PATH_START, end
        # 3. Otherwise, port-invalid validation error, return failure.
        raise fail(self.errors, "port-invalid")

    def file_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#file-state"""
        url, base = self.url, self.base
        c = self.input[pointer : pointer + 1]
        # 1./2. url's scheme is "file", its host the empty host.
        url.scheme = "file"
        url.host = EmptyHost("")
        # 3. c is "/" or "\\" ("\\": invalid-reverse-solidus): file slash state.
        if c in _SLASH_OR_BACKSLASH:
            if c == "\\":
                validation_error(self.errors, "invalid-reverse-solidus")
            return FILE_SLASH, pointer + 1
        # 5. No file base: path state, reading c again.
        if base is None or base.scheme != "file":
            return PATH, pointer
        # 4.1. A file base: its host, a clone of its path, its query.
        url.host = base.host
        url.path = list(base.path)
        url.query = base.query
        # 4.2./4.3. "?": query state; "#": fragment state.
        if c in _QUERY_OR_FRAGMENT:
            return _QUERY_OR_FRAGMENT[c], pointer + 1
        if not c:
            return _RETURN_URL, pointer  # (EOF: the base's host, path and query)
        # 4.4. Not EOF: no query; the path shortened, unless the rest starts with a Windows drive
        # letter (file-invalid-Windows-drive-letter, and the path emptied); path state.
        url.query = None
        if not starts_with_windows_drive_letter(self.input[pointer : pointer + 3]):
            shorten_path(url)
        else:
            validation_error(self.errors, "file-invalid-Windows-drive-letter")
            url.path = []
        return PATH, pointer

    def file_slash_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#file-slash-state"""
        c = self.input[pointer : pointer + 1]
        # 1. c is "/" or "\\" ("\\": invalid-reverse-solidus): file host state.
        if c in _SLASH_OR_BACKSLASH:
            if c == "\\":
                validation_error(self.errors, "invalid-reverse-solidus")
            return FILE_HOST, pointer + 1
        # 2.1. A file base: its host, and its path's first segment where that is a normalized
        # Windows drive letter and the rest of input does not start with a Windows drive letter.
        base = self.base
        if base is not None and base.scheme == "file":
            url = self.url
            url.host = base.host
            if (
                not starts_with_windows_drive_letter(self.input[pointer : pointer + 3])
                and base.path
                and _is_normalized_windows_drive_letter(base.path[0])
            ):
                url.path.append(base.path[0])
        # 2.2. Path state, reading c again.
        return PATH, pointer

    def file_host_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#file-host-state

        Departs from the loop: step 2's run of code points (the buffer), up to EOF, "/", "\\",
        "?" or "#", is taken at once."""
        url, state_override = self.url, self.state_override
        end = _SEGMENT_END[True, True](self.input, pointer).start()  # (the same delimiters)
        buffer = self.input[pointer:end]
        # 1. c is EOF, "/", "\\", "?" or "#", read again by the next state:
        # 1.1. Without state override, a Windows drive letter:
        # file-invalid-Windows-drive-letter-host validation error; path state. (buffer is not
        # reset: the path state uses it.)
        if state_override is None and _is_windows_drive_letter(buffer):
            validation_error(self.errors, "file-invalid-Windows-drive-letter-host")
            self.buffer = buffer
            return PATH, end
        if not buffer:
            # 1.2. An empty buffer: the empty host.
            url.host = EmptyHost("")
        else:
            # 1.3. Host parsing buffer (url is special); "localhost" is the empty host.
            host = parse_host(buffer, False, errors=self.errors)
            url.host = EmptyHost("") if host == "localhost" else host
        # With state override, return; else path start state.
        if state_override is not None:
            return _RETURN, end
        return PATH_START, end

    def path_start_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#path-start-state"""
        url = self.url
        c = self.input[pointer : pointer + 1]
        # 1. url is special ("\\": invalid-reverse-solidus): path state, past a "/" or "\\".
        if url.scheme in SPECIAL_SCHEMES:
            if c == "\\":
                validation_error(self.errors, "invalid-reverse-solidus")
            return PATH, (pointer + 1 if c in _SLASH_OR_BACKSLASH else pointer)
        # 2./3. Without state override, "?": query state; "#": fragment state.
        if self.state_override is None and c in _QUERY_OR_FRAGMENT:
            return _QUERY_OR_FRAGMENT[c], pointer + 1
        # 4. c is not EOF: path state, past a "/".
        if c:
            return PATH, (pointer + 1 if c == "/" else pointer)
        # 5. With state override and a null host, the path is one empty segment.
        if self.state_override is not None and url.host is None:
            url.path.append("")
        return _RETURN_URL, pointer

    def path_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#path-state, one segment per run.

        Departs from the loop: step 2's code points, up to the segment's end, are taken at once
        (their invalid-URL-unit errors counted at once); then step 1 runs at the segment's end."""
        input, url = self.input, self.url
        special = url.scheme in SPECIAL_SCHEMES
        # Step 1's c: "/", "\\" for a special URL, "?" and "#" without state override, or EOF.
        m = _SEGMENT_END[special, self.state_override is None](input, pointer)
        end = m.start()
        c = m.group()
        # 2. Each code point before c: invalid-URL-unit where it is not a URL code point (or a
        # "%" not before two hex digits); UTF-8 percent-encoded with the path set into buffer.
        run = input[pointer:end]
        if run:
            _invalid_url_units(self.errors, run, input, pointer)
            self.buffer += percent_encode_utf8(run, PATH_PERCENT_ENCODE_SET, False)
        buffer = self.buffer
        slash = c in _SEGMENT_SLASHES[special]
        # 1.1. A special URL's "\\": invalid-reverse-solidus validation error.
        if special and c == "\\":
            validation_error(self.errors, "invalid-reverse-solidus")
        dots = _DOT_SEGMENTS.get(buffer)  # 1: a single-dot segment, 2: a double-dot one
        if dots is None:
            # 1.4.1. A file URL's Windows drive letter, first in its path, gets a ":".
            if not url.path and url.scheme == "file" and _is_windows_drive_letter(buffer):
                buffer = buffer[0] + ":"
            # 1.4.2. Append buffer to url's path.
            url.path.append(buffer)
        else:
            # 1.2.1. A double-dot segment shortens the path.
            if dots == 2:
                shorten_path(url)
            # 1.2.2./1.3. Either, not ended by a slash, appends the empty string.
            if not slash:
                url.path.append("")
        # 1.5. Set buffer to the empty string.
        self.buffer = ""
        if slash:
            return PATH, end + 1
        # 1.6./1.7. "?": query state; "#": fragment state.
        if c:
            return _QUERY_OR_FRAGMENT[c], end + 1
        return _RETURN_URL, end

    def path_state_whole_path(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#path-state, for a parse nobody listens to, without
        state override: every segment up to the query or fragment in one run.

        Departs from the loop: the path is its segments, split on "/" (and "\\" for a special
        URL), each percent-encoded with the path set, as the path state takes them one by one.
        ("/" and "\\" are not in the set, so encoding the whole run is encoding each segment; a
        dot segment stays one.) Each segment is appended, but a double-dot segment shortens the
        path instead, and a single-dot one is dropped; either, last (ended by "?", "#" or EOF,
        not a slash), appends "". A file URL's Windows drive letter, appended to an empty path,
        gets a ":". Nobody listens, so there is nothing to report."""
        input, url = self.input, self.url
        m = _path_end(input, pointer)
        end = m.start()
        run = input[pointer:end]
        if "\\" in run and url.scheme in SPECIAL_SCHEMES:
            run = run.replace("\\", "/")
        segments = percent_encode_utf8(run, PATH_PERCENT_ENCODE_SET, False).split("/")
        if self.buffer:  # a Windows drive letter, left by the file host state
            segments[0] = self.buffer + segments[0]
            self.buffer = ""
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
        if c:  # "?" or "#": the query or fragment state
            return _QUERY_OR_FRAGMENT[c], end + 1
        return _RETURN_URL, end

    def opaque_path_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#cannot-be-a-base-url-path-state

        Departs from the loop: the code points up to "?", "#" or EOF (steps 3 and 4) are taken
        at once."""
        input, url = self.input, self.url
        m = _path_end(input, pointer)
        end = m.start()
        c = m.group()
        run = input[pointer:end]
        if run:
            # 3.1./4.1./4.2. invalid-URL-unit validation errors (a space is not a URL code point).
            _invalid_url_units(self.errors, run, input, pointer)
            # 4.3. Each UTF-8 percent-encoded with the C0 control set, appended to url's path.
            encoded = percent_encode_utf8(run, C0_CONTROL_PERCENT_ENCODE_SET, False)
            # 3.2. A U+0020 SPACE followed by "?" or "#" is appended as "%20".
            if c and encoded[-1] == " ":
                encoded = encoded[:-1] + "%20"
            url.path += encoded
        # 1./2. "?": query state; "#": fragment state.
        if c:
            return _QUERY_OR_FRAGMENT[c], end + 1
        return _RETURN_URL, end

    def query_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#query-state

        Departs from the loop: the buffer, the rest of input up to a "#" (with state override,
        all of it), is taken at once. Every way into this state sets url's query to "" first
        (here, or in the API's search setter), so the query is set to what would be appended."""
        input, url = self.input, self.url
        query_set = _QUERY_SETS[url.scheme in SPECIAL_SCHEMES]
        encoding = self.encoding
        if (encoding is None) & (self.state_override is None) & (self.errors is None):  # (usual)
            run, hash_sign, _ = input[pointer:].partition("#")
            url.query = percent_encode_utf8(run, query_set, False)
        else:
            # 1. A URL not special, or ws or wss: UTF-8.
            if encoding is not None and (
                url.scheme not in SPECIAL_SCHEMES or url.scheme == "ws" or url.scheme == "wss"
            ):
                encoding = None
            # 2. The buffer ends at "#" without state override, or at EOF.
            if self.state_override is None:
                run, hash_sign, _ = input[pointer:].partition("#")
            else:
                run, hash_sign = input[pointer:], ""
            # 3.1./3.2. invalid-URL-unit validation errors.
            _invalid_url_units(self.errors, run, input, pointer)
            # 2.1./2.2. Percent-encode after encoding, with the query set by special.
            if encoding is None:
                url.query = percent_encode_utf8(run, query_set, False)
            else:
                url.query = percent_encode_legacy(encoding, run, query_set, False)
        # 2.4. c is "#": the fragment state.
        if hash_sign:
            return FRAGMENT, pointer + len(run) + 1
        return _RETURN_URL, len(input)

    def fragment_state(self, pointer: int) -> tuple[State, int]:
        """https://url.spec.whatwg.org/#fragment-state

        Departs from the loop: the rest of input is taken at once. (As with the query: the
        fragment is set, where "" would be appended to.)"""
        input = self.input
        run = input[pointer:]
        # 1.1./1.2. invalid-URL-unit validation errors.
        _invalid_url_units(self.errors, run, input, pointer)
        # 1.3. Each UTF-8 percent-encoded with the fragment set.
        self.url.fragment = percent_encode_utf8(run, FRAGMENT_PERCENT_ENCODE_SET, False)
        return _RETURN_URL, len(input)


# Each state's method. (The scheme state runs within the scheme start state's method, and the
# hostname state is the host state's.)
_STATE_FUNCTIONS = {
    SCHEME_START: _BasicURLParser.scheme_start_state,
    NO_SCHEME: _BasicURLParser.no_scheme_state,
    SPECIAL_RELATIVE_OR_AUTHORITY: _BasicURLParser.special_relative_or_authority_state,
    PATH_OR_AUTHORITY: _BasicURLParser.path_or_authority_state,
    RELATIVE: _BasicURLParser.relative_state,
    RELATIVE_SLASH: _BasicURLParser.relative_slash_state,
    SPECIAL_AUTHORITY_SLASHES: _BasicURLParser.special_authority_slashes_state,
    SPECIAL_AUTHORITY_IGNORE_SLASHES: _BasicURLParser.special_authority_ignore_slashes_state,
    AUTHORITY: _BasicURLParser.authority_state,
    HOST: _BasicURLParser.host_state,
    HOSTNAME: _BasicURLParser.host_state,
    PORT: _BasicURLParser.port_state,
    FILE: _BasicURLParser.file_state,
    FILE_SLASH: _BasicURLParser.file_slash_state,
    FILE_HOST: _BasicURLParser.file_host_state,
    PATH_START: _BasicURLParser.path_start_state,
    PATH: _BasicURLParser.path_state,
    OPAQUE_PATH: _BasicURLParser.opaque_path_state,
    QUERY: _BasicURLParser.query_state,
    FRAGMENT: _BasicURLParser.fragment_state,
}
# For a parse nobody listens to, without state override: the path state takes the whole path.
_STATE_FUNCTIONS_WHOLE_PATH = {**_STATE_FUNCTIONS, PATH: _BasicURLParser.path_state_whole_path}


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

    Steps 1 to 8 here; step 9, the state machine, is _BasicURLParser's, a method per state,
    dispatched by _STATE_FUNCTIONS. ``state_override`` is one of the states the API's setters
    give (OVERRIDE_STATES).
    """
    # The input is a scalar value string (the API's USVString) before any step: a lone surrogate
    # is U+FFFD first, so that removing a tab or newline (step 3) cannot join a high and a low
    # surrogate into a pair.
    if input.__class__ is str and not input.isascii():
        input = to_scalar_value_string(input)
    # (The usual parse, of a string by the API, is told apart with one test, its conditions
    # combined without branching: a fuzzer's instrumentation counts every branch taken.)
    if (url is None) & (state_override is None) & (encoding is _UTF_8) & (input.__class__ is str):
        # 1. url is a new URL. 1.2.-3. (only if one search finds something to do.)
        url = URLRecord()
        if _strip_or_remove(input) is not None:
            input = _strip_and_remove(input, True, errors)
        # 4. state: the scheme start state. 5. encoding: UTF-8.
        state = SCHEME_START
        encoding = None
    else:
        state_override = _checked_state_override(input, state_override)
        # 1. If url is not given: a new URL, and input stripped. 2./3. Tabs and newlines removed.
        strip = url is None
        if strip:
            url = URLRecord()
        if strip or _tab_or_newline(input) is not None:
            input = _strip_and_remove(input, strip, errors)
        # 4. Let state be state override if given, or scheme start state otherwise.
        state = SCHEME_START if state_override is None else state_override
        # 5. Set encoding to the result of getting an output encoding from encoding. (None for
        # UTF-8, else the output encoding's name.)
        encoding = None if encoding == "utf-8" else get_output_encoding(get_encoding(encoding))
        if encoding == "UTF-8":
            encoding = None
    if not isinstance(base, _URL_RECORD_OR_NONE):
        raise TypeError("basic_url_parse() takes a URLRecord as base")
    # 6./7. buffer, atSignSeen, insideBrackets, passwordTokenSeen: the parser's.
    parser = _BasicURLParser(input, base, url, state_override, encoding, errors)
    # 8. Let pointer be a pointer for input.
    pointer = 0
    # 9. Keep running the state machine: each state's method returns the next state and the
    # index of its c, until one returns. (A containment test where a comparison would do: a
    # fuzzer's instrumentation traces comparisons, and this one is never worth tracing.)
    nobody_listens = (errors is None) & (state_override is None)
    functions = _STATE_FUNCTIONS_WHOLE_PATH if nobody_listens else _STATE_FUNCTIONS
    while state not in _RETURNS:
        state, pointer = functions[state](parser, pointer)
    # 10. Return url (with state override, a state may have returned nothing instead).
    return url if state is _RETURN_URL else None


def _checked_state_override(input: object, state_override: str | State | None) -> State | None:
    """The state override as a State (a state's name is taken too); TypeError for a non-string
    input, or a state override that is no setter's."""
    if not isinstance(input, str):
        raise TypeError(f"basic_url_parse() takes str, not {type(input).__name__}")
    if state_override is not None and not isinstance(state_override, State):
        try:
            state_override = STATES[state_override]
        except (KeyError, TypeError):
            raise TypeError(f"unknown state override: {state_override!r}") from None
    if state_override is not None and state_override not in OVERRIDE_STATES:
        raise TypeError(f"state override {state_override.name!r}: not one the URL setters give")
    return state_override


def _strip_and_remove(input: str, strip: bool, errors: list[str] | None) -> str:
    """https://url.spec.whatwg.org/#concept-basic-url-parser, steps 1.2 and 1.3 (with ``strip``:
    leading and trailing C0 control or space removed) and 2 and 3 (ASCII tab or newline
    removed), each step that finds something an invalid-URL-unit validation error."""
    if strip:
        stripped = input.strip(_C0_OR_SPACE)
        if len(stripped) != len(input):
            validation_error(errors, "invalid-URL-unit")
        input = stripped
    if _tab_or_newline(input) is not None:
        validation_error(errors, "invalid-URL-unit")
        input = input.translate(_TAB_OR_NEWLINE)
    return input


def url_parse(input: str, base: URLRecord | None = None, *, encoding: str = _UTF_8,
              errors: list[str] | None = None) -> URLRecord:
    """https://url.spec.whatwg.org/#concept-url-parser (without blob URL entries)"""
    return basic_url_parse(input, base, encoding=encoding, errors=errors)
