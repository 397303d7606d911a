"""The basic URL parser's fast path: the absolute URLs that need no change but lowercasing.

https://url.spec.whatwg.org/#concept-basic-url-parser, for no base, no state override, UTF-8 and
nobody listening for validation errors: a deviation in method, not in result. ``engine.url``'s
``basic_url_parse`` tries ``parse_fast_path`` first and runs the state machine where it answers
None.

It takes an absolute URL made of printable ASCII (no space), with nothing to percent-encode, no
dot segments, no Windows drive letter, and a host that is a plain domain, a dotted-decimal IPv4
address, an IPv6 address or an opaque host; every special URL in it has "//" after the scheme.
Serialized URLs are mostly of this form, so reparsing an href is mostly fast. It gives what the
state machine gives (``fuzzers/fuzz_fast_path.py`` checks that, and the url target compares it
with the listening state machine); anything else goes to the state machine, which alone reports
validation errors and fails.

One regular expression takes the five forms, each a named group, so that a URL costs one match
(one of none of them, one failed match; possessive quantifiers keep a failure linear), and the
form's function is looked up by the name of the group that matched (``m.lastgroup``: the group
that closed last, which is the form's own, around its pieces). The pieces follow
https://url.spec.whatwg.org/#url-writing, narrowed to what the parser keeps as it is.
"""

from __future__ import annotations

import re

from .failure import Failure
from .host import (
    Domain,
    EmptyHost,
    IPv4Address,
    IPv6Address,
    OpaqueHost,
    ends_in_a_number_search,
    parse_ipv6,
)
from .infra import FORBIDDEN_HOST_CODE_POINTS, character_class
from .percent_encoding import (
    C0_CONTROL_PERCENT_ENCODE_SET,
    FRAGMENT_PERCENT_ENCODE_SET,
    PATH_PERCENT_ENCODE_SET,
    QUERY_PERCENT_ENCODE_SET,
    SPECIAL_QUERY_PERCENT_ENCODE_SET,
    USERINFO_PERCENT_ENCODE_SET,
)
from .record import SPECIAL_SCHEMES, URLRecord

__all__ = ["parse_fast_path"]


def _printable_ascii_not_in(encode_set, *also: str) -> str:
    """A character class: printable ASCII other than the set's members and ``also``."""
    return character_class(
        c for c in map(chr, range(0x21, 0x7F)) if ord(c) not in encode_set.ascii and c not in also
    )


# https://url.spec.whatwg.org/#url-scheme-string: an ASCII alpha, then ASCII alphanumerics, "+",
# "-" or "."; special schemes (https://url.spec.whatwg.org/#special-scheme) in any case.
_SCHEME = r"[A-Za-z][A-Za-z0-9+\-.]*+"
_SPECIAL_NOT_FILE = "(?i:https?|wss?|ftp)"
_NOT_SPECIAL = "(?!(?i:https?|wss?|ftp|file):)"
# https://url.spec.whatwg.org/#valid-host-string, as the fast path takes it as it is: a domain of
# ASCII letters, digits, "_", "." and "-" (no "%": the domain parser only lowercases it; a subset
# of the domain code points, chosen, not derived from the forbidden ones); an IPv6 address in
# brackets (the IPv6 parser has the last word); an opaque host with nothing to percent-encode.
_DOMAIN = r"[A-Za-z0-9_.\-]"
_IPV6 = r"\[[0-9A-Fa-f:.]++\]"
_OPAQUE_HOST = _printable_ascii_not_in(C0_CONTROL_PERCENT_ENCODE_SET, *FORBIDDEN_HOST_CODE_POINTS)
# A username and password of userinfo code points (none holds a ":", so the first one splits
# them), then "@".
_USERINFO_UNIT = _printable_ascii_not_in(USERINFO_PERCENT_ENCODE_SET)


def _userinfo(name: str) -> str:
    """userinfo "@", or "": group ``name`` always takes part (an empty string without userinfo),
    so that its username and password split without a test."""
    return f"(?P<{name}>(?:{_USERINFO_UNIT}*+(?::{_USERINFO_UNIT}*+)?@)?)"


def _port(name: str) -> str:
    """":" port (https://url.spec.whatwg.org/#url-port-string: ASCII digits), or nothing."""
    return f"(?::(?P<{name}>[0-9]*+))?"


def _path_absolute(form: str, special: bool) -> str:
    """path-absolute: "/" and segments (group ``form``_path, from its "/"), of code points the
    path percent-encode set leaves alone; "\\" only where it is no slash (not special)."""
    unit = _printable_ascii_not_in(PATH_PERCENT_ENCODE_SET, "?", "#", *("\\" if special else ""))
    return f"(?P<{form}_path>/{unit}*+)"


def _query_fragment(form: str, special: bool) -> str:
    """["?" query] ["#" fragment] (groups ``form``_query and ``form``_fragment), of code points
    their percent-encode sets leave alone (the query's, by special)."""
    query_set = SPECIAL_QUERY_PERCENT_ENCODE_SET if special else QUERY_PERCENT_ENCODE_SET
    return (f"(?:\\?(?P<{form}_query>{_printable_ascii_not_in(query_set, '#')}*+))?"
            f"(?:#(?P<{form}_fragment>{_printable_ascii_not_in(FRAGMENT_PERCENT_ENCODE_SET)}*+))?")


# An opaque path: code points the C0 control percent-encode set leaves alone (no space, which
# before "?" or "#" would become "%20"), not from "/".
_OPAQUE_PATH = f"(?!/){_printable_ascii_not_in(C0_CONTROL_PERCENT_ENCODE_SET, '?', '#')}*+"
_fast = re.compile(
    # A special URL but file: scheme "://" [userinfo "@"] host [":" port] [path] [query] [fragment].
    f"(?P<special>(?P<special_scheme>{_SPECIAL_NOT_FILE})://{_userinfo('special_userinfo')}"
    f"(?P<special_host>{_DOMAIN}++|{_IPV6}){_port('special_port')}"
    f"{_path_absolute('special', True)}?{_query_fragment('special', True)})"
    # A file URL: "file://" host (maybe empty) [path] [query] [fragment].
    f"|(?P<file>(?i:file)://(?P<file_host>{_DOMAIN}*+|{_IPV6})"
    f"{_path_absolute('file', True)}?{_query_fragment('file', True)})"
    # Another scheme, ":", then one of three forms:
    f"|{_NOT_SPECIAL}(?P<scheme>{_SCHEME}):(?:"
    # "//" [userinfo "@"] host [":" port] [path] [query] [fragment];
    f"(?P<authority>//{_userinfo('authority_userinfo')}"
    f"(?P<authority_host>{_OPAQUE_HOST}*+|{_IPV6}){_port('authority_port')}"
    f"{_path_absolute('authority', False)}?{_query_fragment('authority', False)})"
    # or a path (not from "//") [query] [fragment];
    f"|(?P<absolute>(?!//){_path_absolute('absolute', False)}"
    f"{_query_fragment('absolute', False)})"
    # or an opaque path [query] [fragment].
    f"|(?P<opaque>(?P<opaque_path>{_OPAQUE_PATH}){_query_fragment('opaque', False)}))"
).fullmatch
# https://url.spec.whatwg.org/#concept-ipv4-serializer's output: four decimal numbers 0 to 255.
_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_canonical_ipv4 = re.compile(f"(?:{_OCTET}\\.){{3}}{_OCTET}").fullmatch
_windows_drive_letter_start = re.compile(r"/[A-Za-z][:|](?:[/?#]|$)").match
# A single- or double-dot segment (https://url.spec.whatwg.org/#single-dot-path-segment,
# #double-dot-path-segment) in a path of the fast path (which starts with "/" and holds no "?" or
# "#"). tests/engine/test_url_parsing.py checks it against engine.url's sets of the two.
_dot_segment = re.compile(r"/(?:\.|%2[eE]){1,2}(?=/|\Z)").search
_new_record = object.__new__  # a URLRecord whose every field the fast path sets


def parse_fast_path(input: str) -> URLRecord | None:
    """The fast path of ``basic_url_parse`` (no base, no state override, UTF-8, no listener):
    the URL record, or None where the input is not of the simple form it handles.

    Each form is taken by its own function, looked up by the form's group, so that a parse
    tests little (a fuzzer's instrumentation counts each branch taken)."""
    if not input.isascii():  # (O(1); a non-ASCII input never fits)
        return None
    m = _fast(input)
    if m is None:
        return None
    return _FAST_FORMS[m.lastgroup](m)


def _fast_special(m: re.Match) -> URLRecord | None:
    """A special URL but file: a host always, a domain, an IPv4 address or an IPv6 address."""
    url = _new_record(URLRecord)
    url.scheme = scheme = m["special_scheme"].lower()
    url.username, _, url.password = m["special_userinfo"][:-1].partition(":")
    host = m["special_host"]
    if "[" in host:
        host = _fast_ipv6(host)
    elif ends_in_a_number_search(host) is not None:
        host = _fast_ipv4(host)
    else:
        host = Domain(host.lower())
    if host is None:
        return None
    url.host = host
    port = m["special_port"]
    if port:
        port = int(port)
        if port > 0xFFFF:
            return None
        url.port = None if port == SPECIAL_SCHEMES[scheme] else port
    else:
        url.port = None
    # The path start state: a special URL's path is at least one empty segment.
    path = m["special_path"]
    if path is None:
        url.path = [""]
    elif _dot_segment(path) is not None:
        return None
    else:
        url.path = path[1:].split("/")
    url.query = m["special_query"]
    url.fragment = m["special_fragment"]
    return url


def _fast_file(m: re.Match) -> URLRecord | None:
    """A file URL: no userinfo or port; the host may be empty, or localhost (empty too)."""
    url = _new_record(URLRecord)
    url.scheme = "file"
    url.username = url.password = ""
    url.port = None
    host = m["file_host"]
    if not host:
        host = EmptyHost("")
    elif "[" in host:
        host = _fast_ipv6(host)
    elif ends_in_a_number_search(host) is not None:
        host = _fast_ipv4(host)
    else:
        host = host.lower()
        host = EmptyHost("") if host == "localhost" else Domain(host)
    if host is None:
        return None
    url.host = host
    path = m["file_path"]
    if path is None:
        url.path = [""]
    elif _dot_segment(path) is not None or _windows_drive_letter_start(path):
        return None
    else:
        url.path = path[1:].split("/")
    url.query = m["file_query"]
    url.fragment = m["file_fragment"]
    return url


def _fast_authority(m: re.Match) -> URLRecord | None:
    """Another scheme, with a host: an opaque host, an IPv6 address, or empty (then with no
    userinfo or port: host-missing). A path only from a "/"."""
    url = _new_record(URLRecord)
    url.scheme = m["scheme"].lower()
    userinfo = m["authority_userinfo"]
    url.username, _, url.password = userinfo[:-1].partition(":")
    host = m["authority_host"]
    port = m["authority_port"]
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
    path = m["authority_path"]
    if path is None:
        url.path = []
    elif _dot_segment(path) is not None:
        return None
    else:
        url.path = path[1:].split("/")
    url.query = m["authority_query"]
    url.fragment = m["authority_fragment"]
    return url


def _fast_absolute(m: re.Match) -> URLRecord | None:
    """Another scheme, no host, a path from "/"."""
    path = m["absolute_path"]
    if _dot_segment(path) is not None:
        return None
    url = _new_record(URLRecord)
    url.scheme = m["scheme"].lower()
    url.username = url.password = ""
    url.host = url.port = None
    url.path = path[1:].split("/")
    url.query = m["absolute_query"]
    url.fragment = m["absolute_fragment"]
    return url


def _fast_opaque(m: re.Match) -> URLRecord:
    """Another scheme, an opaque path."""
    url = _new_record(URLRecord)
    url.scheme = m["scheme"].lower()
    url.username = url.password = ""
    url.host = url.port = None
    url.path = m["opaque_path"]
    url.query = m["opaque_query"]
    url.fragment = m["opaque_fragment"]
    return url


_FAST_FORMS = {"special": _fast_special, "file": _fast_file, "authority": _fast_authority,
               "absolute": _fast_absolute, "opaque": _fast_opaque}


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
