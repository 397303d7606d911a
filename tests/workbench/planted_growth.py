"""Planted parsers for the growth round's tests, as ``py:`` oracles (``docs/oracle-protocol.md``): one
quadratic on '@', one whose regex backtracks, one linear. Each reads scheme, userinfo, host and
path the simple way; what differs is only how long it takes."""

from __future__ import annotations

import re


def _answer(scheme: str, user: str, host: str, path: str, input: str) -> dict:
    return {"scheme": scheme, "username": user, "password": None, "host": host, "port": None,
            "path": path, "query": None, "fragment": None, "href": input}


def _split(input: str) -> tuple[str, str, str]:
    scheme, sep, rest = input.partition("://")
    if not sep or not scheme:
        raise ValueError("no scheme")
    authority, slash, path = rest.partition("/")
    return scheme, authority, slash + path


def linear(input: str, base: str | None = None) -> dict:
    """One pass: the last '@' ends the userinfo (rpartition)."""
    scheme, authority, path = _split(input)
    user, _, host = authority.rpartition("@")
    return _answer(scheme, user, host, path, input)


def quadratic_at(input: str, base: str | None = None) -> dict:
    """For each '@', the whole authority before it is scanned again (for a ':' that would end a
    username): O(n²) on a run of '@'."""
    scheme, authority, path = _split(input)
    colons = 0
    for i, c in enumerate(authority):
        if c == "@":
            colons = max(colons, authority[:i].lower().count(":"))  # three passes: the square term dominates
    user, _, host = authority.rpartition("@")
    return _answer(scheme, user, host, path, input)


#: a port after a run of host or userinfo code points, searched anywhere: at each start in a run
#: of '@' (or word code points) the run is read to its end, then given back one by one
_PORT = re.compile(r"(?:[\w.-]|@)+:(\d+)/")


def backtracking(input: str, base: str | None = None) -> dict:
    scheme, authority, path = _split(input)
    _PORT.search(input)
    user, _, host = authority.rpartition("@")
    return _answer(scheme, user, host, path, input)


def linear_slow(input: str, base: str | None = None) -> dict:
    """Linear, but slow enough (a Python loop over the input, 100 times) that its time at the
    longer length is above the growth round's floor: its ratio is judged, not waved through."""
    for _ in range(100):
        for c in input:
            if c == "\x00":
                break
    return linear(input, base)


#: a run of '@' read as one or two at a time: the ways to split it grow as Fibonacci's numbers,
#: and each is tried when the 'h' that follows is not followed by the end
_EXPONENTIAL = re.compile(r"(?:@|@@)+h$")


def exponential(input: str, base: str | None = None) -> dict:
    _EXPONENTIAL.search(input)
    return linear(input, base)


#: a data: URL's media type and parameters, then ';base64,': the parameters' run is read by the
#: lazy '[^,]*?' and the '(;...)*' both, every split tried when ';base64,' is not there
_DATA_BASE64 = re.compile(r"^data:[^,]*?(?:;[\w-]+=[\w-]+)*;base64,")


def data_redos(input: str, base: str | None = None) -> dict:
    """Linear on every URL but a data: one, whose media type it matches with a backtracking
    regex (normalize-url 4.5.0's kind of bug: issue 27); an opaque path, read the simple way."""
    if input.startswith("data:"):
        _DATA_BASE64.match(input)
        return _answer("data", "", None, input[5:], input)
    return linear(input, base)


for _f in (linear, quadratic_at, backtracking, linear_slow, exponential, data_redos):
    _f.version = "planted"
    _f.base = False


#: normalize-url 4.5.0's data: URL regex (its index.js, normalizeDataURL): a lazy media type, a
#: lazy payload, an optional hash, then the end; '.' takes no newline, so on a newline the match
#: fails and every comma is tried as the media type's end, each with a scan to the newline
_DATA_URL = re.compile(r"^data:(.*?),(.*?)(?:#(.*))?$")


def data_url_failing_suffix(input: str, base: str | None = None) -> dict:
    """Linear on a data: URL the regex matches, quadratic on one it fails at the end."""
    m = _DATA_URL.match(input.strip())
    if m is None:
        raise ValueError("Invalid URL")
    return _answer("data", "", None, f"{m[1]},{m[2]}", input)
