"""Origin: the origin of a URL, and its serialization.

https://url.spec.whatwg.org/#origin

The origin of a blob: URL is that of the URL its path parses to, so this module sits above the
parser (``engine.url``), apart from the URL record (``engine.record``), which the reference
parser imports and which must not reach the fast parser.
"""

from __future__ import annotations

from .failure import Failure
from .host import serialize_host
from .record import URLRecord, serialize_path
from .url import basic_url_parse

__all__ = ["Origin", "OpaqueOrigin", "url_origin", "serialize_origin"]


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
    if url.__class__ is not URLRecord:
        raise TypeError(f"url_origin() takes a URL record, not {type(url).__name__}")
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
    if not isinstance(origin, Origin):
        raise TypeError(f"serialize_origin() takes an origin, not {type(origin).__name__}")
    scheme, host, port, _ = origin
    result = scheme + "://" + serialize_host(host)
    if port is not None:
        result += ":" + str(port)
    return result
