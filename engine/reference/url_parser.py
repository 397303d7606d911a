"""The basic URL parser and the URL serializer, as the URL Standard writes them.

https://url.spec.whatwg.org/#url-parsing

This is the reference that the fast parser (``engine/url.py``, with ``engine/fast_path.py``) is
held to: a loop over code points with a pointer, ``c`` and ``remaining`` as the Standard defines
them, one function per state named after it and dispatched by ``STATE_MACHINE``, each step
numbered and quoted briefly (search for "path state, step 1.4"). Validation errors are reported
through ``_Parser.validation_error`` and ``_Parser.failure``, which are ``engine.failure``'s two
helpers, as in the rest of the engine. Speed is not its concern; it is read beside the Standard,
line by line.

It calls the engine for the algorithms the Standard calls from here: the URL record
(``engine.record.URLRecord``), the host parser and serializer (``engine.host``), UTF-8
percent-encode and percent-encode after encoding (``engine.percent_encoding``), get an output
encoding (``engine.encoding``); and nothing of the fast parser (import-linter's contracts in
pyproject.toml say so).

Where the Standard says "return failure", this raises ``engine.Failure``; where it says "return"
(with a state override: the URL is changed in place), it returns None.
"""

from __future__ import annotations

from ..encoding import get_encoding, get_output_encoding
from ..failure import Failure, fail, validation_error
from ..host import EmptyHost, parse_host, serialize_host
from ..infra import ASCII_ALPHA, ASCII_ALPHANUMERIC, ASCII_DIGITS, ASCII_HEX_DIGITS, to_scalar_value_string
from ..percent_encoding import (
    C0_CONTROL_PERCENT_ENCODE_SET,
    FRAGMENT_PERCENT_ENCODE_SET,
    PATH_PERCENT_ENCODE_SET,
    QUERY_PERCENT_ENCODE_SET,
    SPECIAL_QUERY_PERCENT_ENCODE_SET,
    USERINFO_PERCENT_ENCODE_SET,
    percent_encode_after_encoding,
    utf8_percent_encode,
)
from ..record import URLRecord

__all__ = ["basic_url_parse", "serialize_url", "serialize_path", "STATE_MACHINE", "OVERRIDE_STATES"]

# https://url.spec.whatwg.org/#eof-code-point (c when pointer is past the end of input)
EOF = ""
# https://url.spec.whatwg.org/#special-scheme and its default port
DEFAULT_PORTS = {"ftp": 21, "file": None, "http": 80, "https": 443, "ws": 80, "wss": 443}
# https://infra.spec.whatwg.org/#c0-control-or-space
C0_CONTROL_OR_SPACE = "".join(map(chr, range(0x21)))
# https://infra.spec.whatwg.org/#ascii-tab-or-newline
ASCII_TAB_OR_NEWLINE = ("\t", "\n", "\r")
# The states the Standard's callers (the URL API's setters) give as state override.
OVERRIDE_STATES = ("scheme start state", "host state", "hostname state", "port state",
                   "path start state", "query state", "fragment state")


# -- https://url.spec.whatwg.org/#url-miscellaneous ----------------------------------------------

def is_url_code_point(c: str) -> bool:
    """https://url.spec.whatwg.org/#url-code-points"""
    if c in ASCII_ALPHANUMERIC or c in tuple("!$&'()*+,-./:;=?@_~"):
        return True
    cp = ord(c) if c else -1
    is_surrogate = 0xD800 <= cp <= 0xDFFF
    is_noncharacter = 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE  # https://infra.spec.whatwg.org/#noncharacter
    return 0xA0 <= cp <= 0x10FFFD and not is_surrogate and not is_noncharacter


def is_windows_drive_letter(s: str) -> bool:
    """https://url.spec.whatwg.org/#windows-drive-letter"""
    return len(s) == 2 and s[0] in ASCII_ALPHA and s[1] in (":", "|")


def is_normalized_windows_drive_letter(s: str) -> bool:
    """https://url.spec.whatwg.org/#normalized-windows-drive-letter"""
    return is_windows_drive_letter(s) and s[1] == ":"


def starts_with_windows_drive_letter(s: str) -> bool:
    """https://url.spec.whatwg.org/#start-with-a-windows-drive-letter"""
    return len(s) >= 2 and is_windows_drive_letter(s[:2]) and (len(s) == 2 or s[2] in ("/", "\\", "?", "#"))


def is_single_dot_segment(s: str) -> bool:
    """https://url.spec.whatwg.org/#single-dot-path-segment"""
    return s == "." or s.lower() == "%2e"


def is_double_dot_segment(s: str) -> bool:
    """https://url.spec.whatwg.org/#double-dot-path-segment"""
    return s == ".." or s.lower() in (".%2e", "%2e.", "%2e%2e")


def shorten(url: URLRecord) -> None:
    """https://url.spec.whatwg.org/#shorten-a-urls-path"""
    # 1. Assert: url does not have an opaque path. 2. Let path be url's path.
    path = url.path
    # 3. If url's scheme is "file", path's size is 1, and path[0] is a normalized Windows drive
    # letter, then return.
    if url.scheme == "file" and len(path) == 1 and is_normalized_windows_drive_letter(path[0]):
        return
    # 4. Remove path's last item, if any.
    if path:
        path.pop()


def starts_with_two_hex_digits(s: str) -> bool:
    return len(s) >= 2 and s[0] in ASCII_HEX_DIGITS and s[1] in ASCII_HEX_DIGITS


class _Parser:
    """The basic URL parser's variables (its arguments and steps 4 to 8), which the states read
    and set; ``c`` and ``remaining`` as https://url.spec.whatwg.org/#pointer defines them."""

    def __init__(self, input, base, url, state_override, encoding, errors):
        self.input, self.base, self.url = input, base, url
        self.state_override, self.encoding, self.errors = state_override, encoding, errors
        self.state = state_override or "scheme start state"
        self.buffer = ""
        self.at_sign_seen = self.inside_brackets = self.password_token_seen = False
        self.pointer = 0

    @property
    def c(self) -> str:
        """https://url.spec.whatwg.org/#c: the code point pointer points to, or EOF."""
        return self.input[self.pointer] if self.pointer < len(self.input) else EOF

    @property
    def remaining(self) -> str:
        """https://url.spec.whatwg.org/#remaining: the code points after c."""
        return self.input[self.pointer + 1:]

    def validation_error(self, name: str) -> None:
        """https://url.spec.whatwg.org/#validation-error: reported, by its name, to whoever
        listens (engine.failure's ``validation_error``, as everywhere in the engine)."""
        validation_error(self.errors, name)

    def failure(self, name: str) -> Failure:
        """"<name> validation error, return failure": the error reported, the Failure to raise
        (engine.failure's ``fail``)."""
        return fail(self.errors, name)


# A state's "return" (with state override: the parser terminates without returning anything).
RETURN = object()


def basic_url_parse(input: str, base: URLRecord | None = None, *, url: URLRecord | None = None,
                    state_override=None, encoding: str = "utf-8",
                    errors: list[str] | None = None) -> URLRecord | None:
    """https://url.spec.whatwg.org/#concept-basic-url-parser

    ``state_override`` is a state's name ("host state") or an object whose ``name`` is one (the
    engine's ``engine.url.STATES``); ``encoding`` an encoding label. Returns url, or None where a
    state returns nothing; raises Failure where the Standard returns failure.
    """
    if not isinstance(input, str):
        raise TypeError(f"basic_url_parse() takes str, not {type(input).__name__}")
    if not isinstance(base, (URLRecord, type(None))) or not isinstance(url, (URLRecord, type(None))):
        raise TypeError("basic_url_parse() takes URL records as base and url")
    state_override = getattr(state_override, "name", state_override)
    if state_override is not None and state_override not in OVERRIDE_STATES:
        raise TypeError(f"state override {state_override!r}: not one the URL setters give")
    if (url is None) != (state_override is None):
        raise TypeError("basic_url_parse() takes url and state_override together")
    if state_override in ("query state", "fragment state") and (
            url.query if state_override == "query state" else url.fragment) is None:
        raise TypeError(f"the {state_override} appends to url's: set it to '' first, as its setter does")
    # (The Standard's input is a scalar value string: as the API's USVString conversion does, a
    # lone surrogate is U+FFFD.)
    input = to_scalar_value_string(input)
    # 1. If url is not given:
    if url is None:
        # 1.1. Set url to a new URL.
        url = URLRecord()
        # 1.2. If input contains any leading or trailing C0 control or space, invalid-URL-unit
        # validation error.
        if input.strip(C0_CONTROL_OR_SPACE) != input:
            validation_error(errors, "invalid-URL-unit")
        # 1.3. Remove any leading and trailing C0 control or space from input.
        input = input.strip(C0_CONTROL_OR_SPACE)
    # 2. If input contains any ASCII tab or newline, invalid-URL-unit validation error.
    if any(c in ASCII_TAB_OR_NEWLINE for c in input):
        validation_error(errors, "invalid-URL-unit")
    # 3. Remove all ASCII tab or newline from input.
    input = "".join(c for c in input if c not in ASCII_TAB_OR_NEWLINE)
    # 5. Set encoding to the result of getting an output encoding from encoding.
    encoding = get_output_encoding(get_encoding(encoding))
    # 4. Let state be state override if given, or scheme start state otherwise. 6. Let buffer be
    # the empty string. 7. Let atSignSeen, insideBrackets, and passwordTokenSeen be false. 8. Let
    # pointer be a pointer for input.
    p = _Parser(input, base, url, state_override, encoding, errors)
    # 9. Keep running the following state machine by switching on state. If after a run pointer
    # points to the EOF code point, go to the next step. Otherwise, increase pointer by 1 and
    # continue with the state machine.
    while True:
        if STATE_MACHINE[p.state](p) is RETURN:
            return None
        if p.pointer >= len(p.input):
            break
        p.pointer += 1
    # 10. Return url.
    return url


# -- the states, in the Standard's order ------------------------------------------------------

def scheme_start_state(p: _Parser):
    """https://url.spec.whatwg.org/#scheme-start-state"""
    # scheme start state, step 1: if c is an ASCII alpha, append c, lowercased, to buffer, and
    # set state to scheme state.
    if p.c in ASCII_ALPHA:
        p.buffer += p.c.lower()
        p.state = "scheme state"
    # scheme start state, step 2: otherwise, if state override is not given, set state to no
    # scheme state and decrease pointer by 1.
    elif p.state_override is None:
        p.state = "no scheme state"
        p.pointer -= 1
    # scheme start state, step 3: otherwise, return failure.
    else:
        raise Failure(None, "scheme start state: a scheme starts with an ASCII alpha")


def scheme_state(p: _Parser):
    """https://url.spec.whatwg.org/#scheme-state"""
    url = p.url
    # scheme state, step 1: c is an ASCII alphanumeric, "+", "-", or ".": append c, lowercased.
    if p.c in ASCII_ALPHANUMERIC or p.c in ("+", "-", "."):
        p.buffer += p.c.lower()
    # scheme state, step 2: otherwise, if c is ":", then:
    elif p.c == ":":
        # scheme state, step 2.1: if state override is given, then:
        if p.state_override is not None:
            # step 2.1.1: url's scheme is a special scheme and buffer is not: return.
            if url.scheme in DEFAULT_PORTS and p.buffer not in DEFAULT_PORTS:
                return RETURN
            # step 2.1.2: url's scheme is not a special scheme and buffer is: return.
            if url.scheme not in DEFAULT_PORTS and p.buffer in DEFAULT_PORTS:
                return RETURN
            # step 2.1.3: url includes credentials or has a non-null port, and buffer is "file".
            if (url.includes_credentials or url.port is not None) and p.buffer == "file":
                return RETURN
            # step 2.1.4: url's scheme is "file" and its host is an empty host: return.
            if url.scheme == "file" and url.host == "":
                return RETURN
        # scheme state, step 2.2: set url's scheme to buffer.
        url.scheme = p.buffer
        # scheme state, step 2.3: if state override is given, then:
        if p.state_override is not None:
            # step 2.3.1: if url's port is url's scheme's default port, set url's port to null.
            if url.port == DEFAULT_PORTS.get(url.scheme):
                url.port = None
            # step 2.3.2: return.
            return RETURN
        # scheme state, step 2.4: set buffer to the empty string.
        p.buffer = ""
        # scheme state, step 2.5: if url's scheme is "file", then:
        if url.scheme == "file":
            # step 2.5.1: if remaining does not start with "//", validation error.
            if not p.remaining.startswith("//"):
                p.validation_error("special-scheme-missing-following-solidus")
            # step 2.5.2: set state to file state.
            p.state = "file state"
        # scheme state, step 2.6: url is special, base is non-null, and base's scheme is url's
        # scheme: (2.6.1: assert: base is special) 2.6.2: special relative or authority state.
        elif url.is_special and p.base is not None and p.base.scheme == url.scheme:
            p.state = "special relative or authority state"
        # scheme state, step 2.7: url is special: special authority slashes state.
        elif url.is_special:
            p.state = "special authority slashes state"
        # scheme state, step 2.8: remaining starts with "/": path or authority state, pointer + 1.
        elif p.remaining.startswith("/"):
            p.state = "path or authority state"
            p.pointer += 1
        # scheme state, step 2.9: otherwise, url's path is the empty string, opaque path state.
        else:
            url.path = ""
            p.state = "opaque path state"
    # scheme state, step 3: otherwise, if state override is not given, set buffer to the empty
    # string, state to no scheme state, and start over (from the first code point in input).
    elif p.state_override is None:
        p.buffer = ""
        p.state = "no scheme state"
        p.pointer = -1
    # scheme state, step 4: otherwise, return failure.
    else:
        raise Failure(None, "scheme state: not a scheme")


def no_scheme_state(p: _Parser):
    """https://url.spec.whatwg.org/#no-scheme-state"""
    base, url = p.base, p.url
    # no scheme state, step 1: base is null, or base has an opaque path and c is not "#":
    # missing-scheme-non-relative-URL validation error, return failure.
    if base is None or (base.has_opaque_path and p.c != "#"):
        raise p.failure("missing-scheme-non-relative-URL")
    # no scheme state, step 2: base has an opaque path and c is "#": url's scheme, path and query
    # are base's, url's fragment the empty string, and state fragment state.
    elif base.has_opaque_path and p.c == "#":
        url.scheme, url.path, url.query = base.scheme, base.path, base.query
        url.fragment = ""
        p.state = "fragment state"
    # no scheme state, step 3: base's scheme is not "file": relative state, decrease pointer.
    elif base.scheme != "file":
        p.state = "relative state"
        p.pointer -= 1
    # no scheme state, step 4: otherwise, file state, decrease pointer by 1.
    else:
        p.state = "file state"
        p.pointer -= 1


def special_relative_or_authority_state(p: _Parser):
    """https://url.spec.whatwg.org/#special-relative-or-authority-state"""
    # special relative or authority state, step 1: c is "/" and remaining starts with "/":
    # special authority ignore slashes state, increase pointer by 1.
    if p.c == "/" and p.remaining.startswith("/"):
        p.state = "special authority ignore slashes state"
        p.pointer += 1
    # special relative or authority state, step 2: otherwise, validation error, relative state,
    # decrease pointer by 1.
    else:
        p.validation_error("special-scheme-missing-following-solidus")
        p.state = "relative state"
        p.pointer -= 1


def path_or_authority_state(p: _Parser):
    """https://url.spec.whatwg.org/#path-or-authority-state"""
    # path or authority state, step 1: c is "/": authority state.
    if p.c == "/":
        p.state = "authority state"
    # path or authority state, step 2: otherwise, path state, decrease pointer by 1.
    else:
        p.state = "path state"
        p.pointer -= 1


def relative_state(p: _Parser):
    """https://url.spec.whatwg.org/#relative-state"""
    base, url = p.base, p.url
    # relative state, step 1: assert: base's scheme is not "file". Step 2: url's scheme is base's.
    url.scheme = base.scheme
    # relative state, step 3: c is "/": relative slash state.
    if p.c == "/":
        p.state = "relative slash state"
    # relative state, step 4: url is special and c is "\": validation error, relative slash state.
    elif url.is_special and p.c == "\\":
        p.validation_error("invalid-reverse-solidus")
        p.state = "relative slash state"
    # relative state, step 5: otherwise:
    else:
        # relative state, step 5.1: url's username, password, host, port, a clone of its path,
        # and query are base's.
        url.username, url.password, url.host, url.port = base.username, base.password, base.host, base.port
        url.path, url.query = list(base.path), base.query
        # relative state, step 5.2: c is "?": url's query is the empty string, query state.
        if p.c == "?":
            url.query = ""
            p.state = "query state"
        # relative state, step 5.3: c is "#": url's fragment is the empty string, fragment state.
        elif p.c == "#":
            url.fragment = ""
            p.state = "fragment state"
        # relative state, step 5.4: otherwise, if c is not the EOF code point:
        elif p.c != EOF:
            # step 5.4.1: url's query is null. 5.4.2: shorten url's path. 5.4.3: path state,
            # decrease pointer by 1.
            url.query = None
            shorten(url)
            p.state = "path state"
            p.pointer -= 1


def relative_slash_state(p: _Parser):
    """https://url.spec.whatwg.org/#relative-slash-state"""
    base, url = p.base, p.url
    # relative slash state, step 1: url is special and c is "/" or "\":
    if url.is_special and p.c in ("/", "\\"):
        # step 1.1: c is "\": invalid-reverse-solidus validation error.
        if p.c == "\\":
            p.validation_error("invalid-reverse-solidus")
        # step 1.2: special authority ignore slashes state.
        p.state = "special authority ignore slashes state"
    # relative slash state, step 2: otherwise, c is "/": authority state.
    elif p.c == "/":
        p.state = "authority state"
    # relative slash state, step 3: otherwise, url's username, password, host and port are
    # base's, path state, decrease pointer by 1.
    else:
        url.username, url.password, url.host, url.port = base.username, base.password, base.host, base.port
        p.state = "path state"
        p.pointer -= 1


def special_authority_slashes_state(p: _Parser):
    """https://url.spec.whatwg.org/#special-authority-slashes-state"""
    # special authority slashes state, step 1: c is "/" and remaining starts with "/": special
    # authority ignore slashes state, increase pointer by 1.
    if p.c == "/" and p.remaining.startswith("/"):
        p.state = "special authority ignore slashes state"
        p.pointer += 1
    # special authority slashes state, step 2: otherwise, validation error, special authority
    # ignore slashes state, decrease pointer by 1.
    else:
        p.validation_error("special-scheme-missing-following-solidus")
        p.state = "special authority ignore slashes state"
        p.pointer -= 1


def special_authority_ignore_slashes_state(p: _Parser):
    """https://url.spec.whatwg.org/#special-authority-ignore-slashes-state"""
    # special authority ignore slashes state, step 1: c is neither "/" nor "\": authority
    # state, decrease pointer by 1.
    if p.c not in ("/", "\\"):
        p.state = "authority state"
        p.pointer -= 1
    # special authority ignore slashes state, step 2: otherwise, validation error.
    else:
        p.validation_error("special-scheme-missing-following-solidus")


def authority_state(p: _Parser):
    """https://url.spec.whatwg.org/#authority-state"""
    url = p.url
    # authority state, step 1: c is "@":
    if p.c == "@":
        # step 1.1: invalid-credentials validation error.
        p.validation_error("invalid-credentials")
        # step 1.2: if atSignSeen is true, prepend "%40" to buffer.
        if p.at_sign_seen:
            p.buffer = "%40" + p.buffer
        # step 1.3: set atSignSeen to true.
        p.at_sign_seen = True
        # step 1.4: for each codePoint in buffer:
        for code_point in p.buffer:
            # step 1.4.1: codePoint is ":" and passwordTokenSeen is false: passwordTokenSeen is
            # true, continue.
            if code_point == ":" and not p.password_token_seen:
                p.password_token_seen = True
                continue
            # step 1.4.2: encodedCodePoints: UTF-8 percent-encode codePoint, userinfo set.
            encoded_code_points = utf8_percent_encode(code_point, USERINFO_PERCENT_ENCODE_SET)
            # step 1.4.3: passwordTokenSeen is true: append it to url's password.
            if p.password_token_seen:
                url.password += encoded_code_points
            # step 1.4.4: otherwise, append it to url's username.
            else:
                url.username += encoded_code_points
        # step 1.5: set buffer to the empty string.
        p.buffer = ""
    # authority state, step 2: c is EOF, "/", "?", or "#", or url is special and c is "\":
    elif p.c in (EOF, "/", "?", "#") or (url.is_special and p.c == "\\"):
        # step 2.1: atSignSeen is true and buffer is the empty string: host-missing validation
        # error, return failure.
        if p.at_sign_seen and p.buffer == "":
            raise p.failure("host-missing")
        # step 2.2: decrease pointer by buffer's code point length + 1, set buffer to the empty
        # string, and set state to host state.
        p.pointer -= len(p.buffer) + 1
        p.buffer = ""
        p.state = "host state"
    # authority state, step 3: otherwise, append c to buffer.
    else:
        p.buffer += p.c


def host_state(p: _Parser):
    """https://url.spec.whatwg.org/#host-state and https://url.spec.whatwg.org/#hostname-state"""
    url = p.url
    # host state, step 1: state override is given and url's scheme is "file": decrease pointer
    # by 1 and set state to file host state.
    if p.state_override is not None and url.scheme == "file":
        p.pointer -= 1
        p.state = "file host state"
    # host state, step 2: otherwise, c is ":" and insideBrackets is false:
    elif p.c == ":" and not p.inside_brackets:
        # step 2.1: buffer is the empty string: host-missing validation error, return failure.
        if p.buffer == "":
            raise p.failure("host-missing")
        # step 2.2: state override is hostname state: return failure.
        if p.state_override == "hostname state":
            raise Failure(None, "hostname state: a port is not allowed here")
        # step 2.3: host: host parsing buffer with url is not special. (2.4: failure raises.)
        host = parse_host(p.buffer, not url.is_special, errors=p.errors)
        # step 2.5: url's host is host, buffer the empty string, state port state.
        url.host, p.buffer, p.state = host, "", "port state"
    # host state, step 3: c is EOF, "/", "?", or "#", or url is special and c is "\": decrease
    # pointer by 1, and:
    elif p.c in (EOF, "/", "?", "#") or (url.is_special and p.c == "\\"):
        p.pointer -= 1
        # step 3.1: url is special and buffer is the empty string: host-missing, return failure.
        if url.is_special and p.buffer == "":
            raise p.failure("host-missing")
        # step 3.2: state override is given, buffer is the empty string, and url includes
        # credentials or url's port is non-null: return failure.
        if p.state_override is not None and p.buffer == "" and (
                url.includes_credentials or url.port is not None):
            raise Failure(None, "host state: cannot remove the host of a URL with credentials or port")
        # step 3.3: host: host parsing buffer with url is not special. (3.4: failure raises.)
        host = parse_host(p.buffer, not url.is_special, errors=p.errors)
        # step 3.5: url's host is host, buffer the empty string, state path start state.
        url.host, p.buffer, p.state = host, "", "path start state"
        # step 3.6: if state override is given, then return.
        if p.state_override is not None:
            return RETURN
    # host state, step 4: otherwise:
    else:
        # step 4.1: c is "[": set insideBrackets to true.
        if p.c == "[":
            p.inside_brackets = True
        # step 4.2: c is "]": set insideBrackets to false.
        if p.c == "]":
            p.inside_brackets = False
        # step 4.3: append c to buffer.
        p.buffer += p.c


def port_state(p: _Parser):
    """https://url.spec.whatwg.org/#port-state"""
    url = p.url
    # port state, step 1: c is an ASCII digit: append c to buffer.
    if p.c in ASCII_DIGITS:
        p.buffer += p.c
    # port state, step 2: c is EOF, "/", "?", or "#"; url is special and c is "\"; or state
    # override is given:
    elif p.c in (EOF, "/", "?", "#") or (url.is_special and p.c == "\\") or p.state_override is not None:
        # step 2.1: buffer is not the empty string:
        if p.buffer != "":
            # step 2.1.1: port: the integer buffer represents in radix-10. (Past five digits
            # after leading zeros, it stands as 2^16: int() refuses over 4,300 digits, and any
            # such value is out of range anyway.)
            digits = p.buffer.lstrip("0") or "0"
            port = int(digits) if len(digits) <= 5 else 1 << 16
            # step 2.1.2: port is not a 16-bit unsigned integer: port-out-of-range validation
            # error, return failure.
            if port > 0xFFFF:
                raise p.failure("port-out-of-range")
            # step 2.1.3: url's port is null if port is the scheme's default port, else port.
            url.port = None if port == DEFAULT_PORTS.get(url.scheme) else port
            # step 2.1.4: set buffer to the empty string.
            p.buffer = ""
            # step 2.1.5: if state override is given, then return.
            if p.state_override is not None:
                return RETURN
        # step 2.2: if state override is given, then return failure.
        if p.state_override is not None:
            raise Failure(None, "port state: not a port")
        # step 2.3: set state to path start state and decrease pointer by 1.
        p.state = "path start state"
        p.pointer -= 1
    # port state, step 3: otherwise, port-invalid validation error, return failure.
    else:
        raise p.failure("port-invalid")


def file_state(p: _Parser):
    """https://url.spec.whatwg.org/#file-state"""
    base, url = p.base, p.url
    # file state, step 1: url's scheme is "file". Step 2: url's host is the empty string.
    url.scheme = "file"
    url.host = EmptyHost("")
    # file state, step 3: c is "/" or "\":
    if p.c in ("/", "\\"):
        # step 3.1: c is "\": invalid-reverse-solidus validation error.
        if p.c == "\\":
            p.validation_error("invalid-reverse-solidus")
        # step 3.2: set state to file slash state.
        p.state = "file slash state"
    # file state, step 4: otherwise, base is non-null and base's scheme is "file":
    elif base is not None and base.scheme == "file":
        # step 4.1: url's host, a clone of its path, and query are base's.
        url.host, url.path, url.query = base.host, list(base.path), base.query
        # step 4.2: c is "?": url's query is the empty string, query state.
        if p.c == "?":
            url.query = ""
            p.state = "query state"
        # step 4.3: c is "#": url's fragment is the empty string, fragment state.
        elif p.c == "#":
            url.fragment = ""
            p.state = "fragment state"
        # step 4.4: otherwise, if c is not the EOF code point:
        elif p.c != EOF:
            # step 4.4.1: set url's query to null.
            url.query = None
            # step 4.4.2: input from pointer does not start with a Windows drive letter:
            # shorten url's path.
            if not starts_with_windows_drive_letter(p.input[p.pointer:]):
                shorten(url)
            # step 4.4.3: otherwise, file-invalid-Windows-drive-letter validation error, url's
            # path is « ».
            else:
                p.validation_error("file-invalid-Windows-drive-letter")
                url.path = []
            # step 4.4.4: set state to path state and decrease pointer by 1.
            p.state = "path state"
            p.pointer -= 1
    # file state, step 5: otherwise, path state, decrease pointer by 1.
    else:
        p.state = "path state"
        p.pointer -= 1


def file_slash_state(p: _Parser):
    """https://url.spec.whatwg.org/#file-slash-state"""
    base, url = p.base, p.url
    # file slash state, step 1: c is "/" or "\":
    if p.c in ("/", "\\"):
        # step 1.1: c is "\": invalid-reverse-solidus validation error.
        if p.c == "\\":
            p.validation_error("invalid-reverse-solidus")
        # step 1.2: set state to file host state.
        p.state = "file host state"
    # file slash state, step 2: otherwise:
    else:
        # step 2.1: base is non-null and base's scheme is "file":
        if base is not None and base.scheme == "file":
            # step 2.1.1: set url's host to base's host.
            url.host = base.host
            # step 2.1.2: input from pointer does not start with a Windows drive letter and
            # base's path[0] is a normalized Windows drive letter: append base's path[0].
            if (not starts_with_windows_drive_letter(p.input[p.pointer:]) and base.path
                    and is_normalized_windows_drive_letter(base.path[0])):
                url.path.append(base.path[0])
        # step 2.2: set state to path state, and decrease pointer by 1.
        p.state = "path state"
        p.pointer -= 1


def file_host_state(p: _Parser):
    """https://url.spec.whatwg.org/#file-host-state"""
    url = p.url
    # file host state, step 1: c is EOF, "/", "\", "?", or "#": decrease pointer by 1 and then:
    if p.c in (EOF, "/", "\\", "?", "#"):
        p.pointer -= 1
        # step 1.1: state override is not given and buffer is a Windows drive letter:
        # file-invalid-Windows-drive-letter-host validation error, path state (buffer kept).
        if p.state_override is None and is_windows_drive_letter(p.buffer):
            p.validation_error("file-invalid-Windows-drive-letter-host")
            p.state = "path state"
        # step 1.2: otherwise, buffer is the empty string:
        elif p.buffer == "":
            # step 1.2.1: set url's host to the empty string.
            url.host = EmptyHost("")
            # step 1.2.2: if state override is given, then return.
            if p.state_override is not None:
                return RETURN
            # step 1.2.3: set state to path start state.
            p.state = "path start state"
        # step 1.3: otherwise:
        else:
            # step 1.3.1: host: host parsing buffer with url is not special. (1.3.2: failure
            # raises.)
            host = parse_host(p.buffer, not url.is_special, errors=p.errors)
            # step 1.3.3: host is "localhost": set host to the empty string.
            if host == "localhost":
                host = EmptyHost("")
            # step 1.3.4: set url's host to host.
            url.host = host
            # step 1.3.5: if state override is given, then return.
            if p.state_override is not None:
                return RETURN
            # step 1.3.6: buffer is the empty string, state path start state.
            p.buffer, p.state = "", "path start state"
    # file host state, step 2: otherwise, append c to buffer.
    else:
        p.buffer += p.c


def path_start_state(p: _Parser):
    """https://url.spec.whatwg.org/#path-start-state"""
    url = p.url
    # path start state, step 1: url is special:
    if url.is_special:
        # step 1.1: c is "\": invalid-reverse-solidus validation error.
        if p.c == "\\":
            p.validation_error("invalid-reverse-solidus")
        # step 1.2: set state to path state.
        p.state = "path state"
        # step 1.3: c is neither "/" nor "\": decrease pointer by 1.
        if p.c not in ("/", "\\"):
            p.pointer -= 1
    # path start state, step 2: no state override and c is "?": query "", query state.
    elif p.state_override is None and p.c == "?":
        url.query = ""
        p.state = "query state"
    # path start state, step 3: no state override and c is "#": fragment "", fragment state.
    elif p.state_override is None and p.c == "#":
        url.fragment = ""
        p.state = "fragment state"
    # path start state, step 4: otherwise, c is not the EOF code point:
    elif p.c != EOF:
        # step 4.1: set state to path state.
        p.state = "path state"
        # step 4.2: c is not "/": decrease pointer by 1.
        if p.c != "/":
            p.pointer -= 1
    # path start state, step 5: state override is given and url's host is null: append the
    # empty string to url's path.
    elif p.state_override is not None and url.host is None:
        url.path.append("")


def path_state(p: _Parser):
    """https://url.spec.whatwg.org/#path-state"""
    url = p.url
    slash = p.c == "/" or (url.is_special and p.c == "\\")
    # path state, step 1: c is EOF or "/"; url is special and c is "\"; or state override is
    # not given and c is "?" or "#":
    if p.c == EOF or slash or (p.state_override is None and p.c in ("?", "#")):
        # step 1.1: url is special and c is "\": invalid-reverse-solidus validation error.
        if url.is_special and p.c == "\\":
            p.validation_error("invalid-reverse-solidus")
        # step 1.2: buffer is a double-dot URL path segment:
        if is_double_dot_segment(p.buffer):
            # step 1.2.1: shorten url's path.
            shorten(url)
            # step 1.2.2: neither c is "/", nor url is special and c is "\": append the empty
            # string to url's path.
            if not slash:
                url.path.append("")
        # step 1.3: buffer is a single-dot URL path segment and neither c is "/", nor url is
        # special and c is "\": append the empty string to url's path.
        elif is_single_dot_segment(p.buffer) and not slash:
            url.path.append("")
        # step 1.4: otherwise, if buffer is not a single-dot URL path segment:
        elif not is_single_dot_segment(p.buffer):
            # step 1.4.1: url's scheme is "file", url's path is empty, and buffer is a Windows
            # drive letter: replace the second code point in buffer with ":".
            if url.scheme == "file" and not url.path and is_windows_drive_letter(p.buffer):
                p.buffer = p.buffer[0] + ":"
            # step 1.4.2: append buffer to url's path.
            url.path.append(p.buffer)
        # step 1.5: set buffer to the empty string.
        p.buffer = ""
        # step 1.6: c is "?": url's query is the empty string, query state.
        if p.c == "?":
            url.query = ""
            p.state = "query state"
        # step 1.7: c is "#": url's fragment is the empty string, fragment state.
        if p.c == "#":
            url.fragment = ""
            p.state = "fragment state"
    # path state, step 2: otherwise:
    else:
        # step 2.1: c is not a URL code point and not "%": invalid-URL-unit validation error.
        if not is_url_code_point(p.c) and p.c != "%":
            p.validation_error("invalid-URL-unit")
        # step 2.2: c is "%" and remaining does not start with two ASCII hex digits:
        # invalid-URL-unit validation error.
        if p.c == "%" and not starts_with_two_hex_digits(p.remaining):
            p.validation_error("invalid-URL-unit")
        # step 2.3: UTF-8 percent-encode c using the path percent-encode set, append to buffer.
        p.buffer += utf8_percent_encode(p.c, PATH_PERCENT_ENCODE_SET)


def opaque_path_state(p: _Parser):
    """https://url.spec.whatwg.org/#cannot-be-a-base-url-path-state"""
    url = p.url
    # opaque path state, step 1: c is "?": url's query is the empty string, query state.
    if p.c == "?":
        url.query = ""
        p.state = "query state"
    # opaque path state, step 2: c is "#": url's fragment is the empty string, fragment state.
    elif p.c == "#":
        url.fragment = ""
        p.state = "fragment state"
    # opaque path state, step 3: c is U+0020 SPACE:
    elif p.c == " ":
        # step 3.1: invalid-URL-unit validation error.
        p.validation_error("invalid-URL-unit")
        # step 3.2: remaining starts with "?" or "#": append "%20" to url's path.
        if p.remaining.startswith(("?", "#")):
            url.path += "%20"
        # step 3.3: otherwise, append U+0020 SPACE to url's path.
        else:
            url.path += " "
    # opaque path state, step 4: otherwise, c is not the EOF code point:
    elif p.c != EOF:
        # step 4.1: c is not a URL code point and not "%": invalid-URL-unit validation error.
        if not is_url_code_point(p.c) and p.c != "%":
            p.validation_error("invalid-URL-unit")
        # step 4.2: c is "%" and remaining does not start with two ASCII hex digits:
        # invalid-URL-unit validation error.
        if p.c == "%" and not starts_with_two_hex_digits(p.remaining):
            p.validation_error("invalid-URL-unit")
        # step 4.3: UTF-8 percent-encode c using the C0 control percent-encode set, append to
        # url's path.
        url.path += utf8_percent_encode(p.c, C0_CONTROL_PERCENT_ENCODE_SET)


def query_state(p: _Parser):
    """https://url.spec.whatwg.org/#query-state"""
    url = p.url
    # query state, step 1: encoding is not UTF-8 and url is not special or its scheme is "ws" or
    # "wss": set encoding to UTF-8.
    if p.encoding != "UTF-8" and (not url.is_special or url.scheme in ("ws", "wss")):
        p.encoding = "UTF-8"
    # query state, step 2: state override is not given and c is "#", or c is EOF:
    if (p.state_override is None and p.c == "#") or p.c == EOF:
        # step 2.1: queryPercentEncodeSet: the special-query set if url is special, else the
        # query set.
        query_percent_encode_set = (SPECIAL_QUERY_PERCENT_ENCODE_SET if url.is_special
                                    else QUERY_PERCENT_ENCODE_SET)
        # step 2.2: percent-encode after encoding, with encoding, buffer, and
        # queryPercentEncodeSet, and append the result to url's query.
        url.query += percent_encode_after_encoding(p.encoding, p.buffer, query_percent_encode_set)
        # step 2.3: set buffer to the empty string.
        p.buffer = ""
        # step 2.4: c is "#": url's fragment is the empty string, fragment state.
        if p.c == "#":
            url.fragment = ""
            p.state = "fragment state"
    # query state, step 3: otherwise, if c is not the EOF code point:
    elif p.c != EOF:
        # step 3.1: c is not a URL code point and not "%": invalid-URL-unit validation error.
        if not is_url_code_point(p.c) and p.c != "%":
            p.validation_error("invalid-URL-unit")
        # step 3.2: c is "%" and remaining does not start with two ASCII hex digits:
        # invalid-URL-unit validation error.
        if p.c == "%" and not starts_with_two_hex_digits(p.remaining):
            p.validation_error("invalid-URL-unit")
        # step 3.3: append c to buffer.
        p.buffer += p.c


def fragment_state(p: _Parser):
    """https://url.spec.whatwg.org/#fragment-state"""
    # fragment state, step 1: c is not the EOF code point:
    if p.c != EOF:
        # step 1.1: c is not a URL code point and not "%": invalid-URL-unit validation error.
        if not is_url_code_point(p.c) and p.c != "%":
            p.validation_error("invalid-URL-unit")
        # step 1.2: c is "%" and remaining does not start with two ASCII hex digits:
        # invalid-URL-unit validation error.
        if p.c == "%" and not starts_with_two_hex_digits(p.remaining):
            p.validation_error("invalid-URL-unit")
        # step 1.3: UTF-8 percent-encode c using the fragment percent-encode set, append to
        # url's fragment.
        p.url.fragment += utf8_percent_encode(p.c, FRAGMENT_PERCENT_ENCODE_SET)


#: The basic URL parser's states by their names in the Standard (the host and hostname states
#: share their steps).
STATE_MACHINE = {
    "scheme start state": scheme_start_state,
    "scheme state": scheme_state,
    "no scheme state": no_scheme_state,
    "special relative or authority state": special_relative_or_authority_state,
    "path or authority state": path_or_authority_state,
    "relative state": relative_state,
    "relative slash state": relative_slash_state,
    "special authority slashes state": special_authority_slashes_state,
    "special authority ignore slashes state": special_authority_ignore_slashes_state,
    "authority state": authority_state,
    "host state": host_state,
    "hostname state": host_state,
    "port state": port_state,
    "file state": file_state,
    "file slash state": file_slash_state,
    "file host state": file_host_state,
    "path start state": path_start_state,
    "path state": path_state,
    "opaque path state": opaque_path_state,
    "query state": query_state,
    "fragment state": fragment_state,
}


# -- https://url.spec.whatwg.org/#url-serializing -----------------------------------------------

def serialize_url(url: URLRecord, exclude_fragment: bool = False) -> str:
    """https://url.spec.whatwg.org/#concept-url-serializer"""
    # 1. Let output be url's scheme and ":" concatenated.
    output = url.scheme + ":"
    # 2. If url's host is non-null:
    if url.host is not None:
        # 2.1. Append "//" to output.
        output += "//"
        # 2.2. If url includes credentials: append url's username; if url's password is not the
        # empty string, ":" and url's password; then "@".
        if url.includes_credentials:
            output += url.username
            if url.password != "":
                output += ":" + url.password
            output += "@"
        # 2.3. Append url's host, serialized, to output.
        output += serialize_host(url.host)
        # 2.4. If url's port is non-null, append ":" and url's port, serialized.
        if url.port is not None:
            output += ":" + str(url.port)
    # 3. If url's host is null, url does not have an opaque path, url's path's size is greater
    # than 1, and url's path[0] is the empty string, then append "/." to output.
    if url.host is None and not url.has_opaque_path and len(url.path) > 1 and url.path[0] == "":
        output += "/."
    # 4. Append the result of URL path serializing url to output.
    output += serialize_path(url)
    # 5. If url's query is non-null, append "?" and url's query.
    if url.query is not None:
        output += "?" + url.query
    # 6. If exclude fragment is false and url's fragment is non-null, append "#" and url's
    # fragment.
    if not exclude_fragment and url.fragment is not None:
        output += "#" + url.fragment
    # 7. Return output.
    return output


def serialize_path(url: URLRecord) -> str:
    """https://url.spec.whatwg.org/#url-path-serializer"""
    # 1. If url has an opaque path, then return url's path.
    if url.has_opaque_path:
        return url.path
    # 2. Let output be the empty string. 3. For each segment of url's path: append "/" followed
    # by segment to output. 4. Return output.
    output = ""
    for segment in url.path:
        output += "/" + segment
    return output
