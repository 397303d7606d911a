"""URLs: the URL record, its serializing and equivalence, and setting its username and password.

https://url.spec.whatwg.org/#urls

``URLRecord`` is the Standard's URL (https://url.spec.whatwg.org/#concept-url), the one record
both URL parsers fill (the fast one, ``engine.url`` and ``engine.fast_path``, and the reference,
``engine.reference``) and the API (``engine.api``) holds. This module knows nothing of parsing:
the parsers import it, never the other way round.
"""

from __future__ import annotations

from .host import Host, serialize_host
from .infra import to_scalar_value_string
from .percent_encoding import USERINFO_PERCENT_ENCODE_SET, percent_encode_utf8

__all__ = [
    "URLRecord",
    "SPECIAL_SCHEMES",
    "serialize_url",
    "serialize_path",
    "urls_equal",
    "set_username",
    "set_password",
]

# https://url.spec.whatwg.org/#special-scheme -> default port
SPECIAL_SCHEMES = {"ftp": 21, "file": None, "http": 80, "https": 443, "ws": 80, "wss": 443}


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


def _not_a_record(function: str, url: object) -> TypeError:
    return TypeError(f"{function}() takes a URL record, not {type(url).__name__}")


def serialize_path(url: URLRecord) -> str:
    """https://url.spec.whatwg.org/#url-path-serializer"""
    if url.__class__ is not URLRecord:
        raise _not_a_record("serialize_path", url)
    path = url.path
    if path.__class__ is str:
        return path
    # "/" and the segment, for each segment.
    return "/" + "/".join(path) if path else ""


def serialize_url(url: URLRecord, exclude_fragment: bool = False) -> str:
    """https://url.spec.whatwg.org/#concept-url-serializer"""
    try:
        host = url.host
        path = url.path
    except AttributeError:  # checked only when it fails: this runs for every URL the API makes
        raise _not_a_record("serialize_url", url) from None
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
    url.username = percent_encode_utf8(to_scalar_value_string(username), USERINFO_PERCENT_ENCODE_SET, False)


def set_password(url: URLRecord, password: str) -> None:
    """https://url.spec.whatwg.org/#set-the-password"""
    url.password = percent_encode_utf8(to_scalar_value_string(password), USERINFO_PERCENT_ENCODE_SET, False)
