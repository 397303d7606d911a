"""The reference: the URL Standard's basic URL parser and URL serializer written as the Standard
writes them, and the URL API run on them.

https://url.spec.whatwg.org/#url-parsing

``engine.url`` (with ``engine.fast_path``) is the fast parser; this one is for reading beside the
Standard and for holding the fast one to it (``fuzzers/fuzz_reference.py``, and the WPT tests run
on both). It is not imported by ``engine`` itself: ``import engine.reference``. It shares the URL
record (``engine.record``) with the fast parser and imports nothing of it; ``ReferenceURL`` is
``engine.api``'s ``URL`` run on it (``engine.api`` itself imports the fast parser, its default).
"""

from .url_parser import STATE_MACHINE, basic_url_parse, serialize_path, serialize_url
from .api import ReferenceURL

__all__ = ["basic_url_parse", "serialize_url", "serialize_path", "STATE_MACHINE", "ReferenceURL"]
