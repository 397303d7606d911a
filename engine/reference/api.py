"""The URL API run on the reference parser: ``engine.api.URL`` with its parsing and serializing
done by ``engine.reference.url_parser``.

https://url.spec.whatwg.org/#url-class

The constructor, ``parse``, ``can_parse`` and every setter run the reference's basic URL parser
(with the state override each setter gives); ``href`` and ``pathname`` serialize with the
reference's URL serializer and URL path serializer. The setters' own steps are
``engine.api.URL``'s: what differs is the parser they run.
"""

from __future__ import annotations

from ..api import URL
from .url_parser import basic_url_parse, serialize_path, serialize_url

__all__ = ["ReferenceURL"]


class ReferenceURL(URL):
    """https://url.spec.whatwg.org/#url-class, on the reference parser."""

    __slots__ = ()

    _basic_url_parse = staticmethod(basic_url_parse)

    @URL.href.getter
    def href(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-href"""
        return serialize_url(self._url)

    @URL.pathname.getter
    def pathname(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-pathname"""
        return serialize_path(self._url)

    def __repr__(self) -> str:
        return f"ReferenceURL({self.href!r})"
