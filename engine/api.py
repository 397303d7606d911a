"""The URL and URLSearchParams classes.

https://url.spec.whatwg.org/#api

Attribute names are the Standard's, in snake_case where they differ (``search_params``). Every
string argument is converted to a scalar value string first, as USVString does (lone surrogates
become U+FFFD). Setters that the Standard makes no-ops on bad input are no-ops here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from .failure import Failure
from .host import serialize_host
from .infra import to_scalar_value_string
from .origin import serialize_origin, url_origin
from .record import URLRecord, serialize_path, serialize_url, set_password, set_username
from .url import FRAGMENT, HOST, HOSTNAME, PATH_START, PORT, QUERY, SCHEME_START, basic_url_parse
from .urlencoded import form_urlencoded_serialize, form_urlencoded_string_parse

__all__ = ["URL", "URLSearchParams", "api_url_parse"]


def _usv(value: object, what: str) -> str:
    if value.__class__ is str and value.isascii():  # (the usual case, tested first)
        return value
    if isinstance(value, URL):
        return value.href
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    return to_scalar_value_string(value)


_base_cache: dict[str, URLRecord] = {}


def api_url_parse(url: str, base: str | None = None, parser=basic_url_parse) -> URLRecord:
    """https://url.spec.whatwg.org/#api-url-parser

    Parsed bases are kept (up to a bound): code that resolves many inputs against one base, as a
    fuzzer or a crawler does, parses it once. The parser only reads a base, never changes it.
    ``parser`` is the basic URL parser to run (another than the engine's keeps no bases).
    """
    parsed_base = None
    if base is not None:
        base = _usv(base, "base")
        if parser is not basic_url_parse:
            parsed_base = parser(base)
        else:
            parsed_base = _base_cache.get(base)
            if parsed_base is None:
                parsed_base = basic_url_parse(base)
                if len(_base_cache) >= 256:
                    _base_cache.clear()
                _base_cache[base] = parsed_base
    return parser(_usv(url, "url"), parsed_base)


class URL:
    """https://url.spec.whatwg.org/#url-class"""

    __slots__ = ("_url", "_query", "__weakref__")

    #: The basic URL parser the constructor and every setter run (``engine.reference.ReferenceURL``
    #: runs the reference parser instead).
    _basic_url_parse = staticmethod(basic_url_parse)

    def __init__(self, url: str, base: str | None = None):
        self._initialize(api_url_parse(url, base, self._basic_url_parse))

    def _initialize(self, record: URLRecord) -> None:
        """https://url.spec.whatwg.org/#url-initialize"""
        self._url = record
        # The query object is made on first use of search_params (then kept: [SameObject]), or by
        # the search setter; until then its list would be the parse of the URL's query.
        self._query = None

    @classmethod
    def parse(cls, url: str, base: str | None = None) -> "URL | None":
        """https://url.spec.whatwg.org/#dom-url-parse"""
        try:
            record = api_url_parse(url, base, cls._basic_url_parse)
        except Failure:
            return None
        obj = cls.__new__(cls)
        obj._initialize(record)
        return obj

    @classmethod
    def can_parse(cls, url: str, base: str | None = None) -> bool:
        """https://url.spec.whatwg.org/#dom-url-canparse"""
        try:
            api_url_parse(url, base, cls._basic_url_parse)
        except Failure:
            return False
        return True

    # -- href ---------------------------------------------------------------------------------
    @property
    def href(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-href"""
        return serialize_url(self._url)

    @href.setter
    def href(self, value: str) -> None:
        # Raises Failure (the Standard's TypeError) when value does not parse.
        record = self._basic_url_parse(_usv(value, "href"))
        self._url = record
        if self._query is not None:
            self._query._list = form_urlencoded_string_parse(record.query) if record.query is not None else []

    def to_json(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-tojson"""
        return self.href

    def __str__(self) -> str:
        return self.href

    def __repr__(self) -> str:
        return f"URL({self.href!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, URL):
            return self.href == other.href
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.href)

    @property
    def record(self) -> URLRecord:
        """The URL record behind this object (not part of the Standard's API)."""
        return self._url

    # -- origin, protocol ---------------------------------------------------------------------
    @property
    def origin(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-origin"""
        return serialize_origin(url_origin(self._url))

    @property
    def protocol(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-protocol"""
        return self._url.scheme + ":"

    @protocol.setter
    def protocol(self, value: str) -> None:
        self._parse_with_override(_usv(value, "protocol") + ":", SCHEME_START)

    def _parse_with_override(self, value: str, state: int) -> None:
        # The basic URL parser changes the URL in place; a failure it returns after changing a
        # part (the host of "example.com:65536") leaves that change, as the Standard does.
        try:
            self._basic_url_parse(value, url=self._url, state_override=state)
        except Failure:
            pass

    # -- username, password -------------------------------------------------------------------
    @property
    def username(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-username"""
        return self._url.username

    @username.setter
    def username(self, value: str) -> None:
        value = _usv(value, "username")
        if self._url.cannot_have_username_password_port:
            return
        set_username(self._url, value)

    @property
    def password(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-password"""
        return self._url.password

    @password.setter
    def password(self, value: str) -> None:
        value = _usv(value, "password")
        if self._url.cannot_have_username_password_port:
            return
        set_password(self._url, value)

    # -- host, hostname, port -----------------------------------------------------------------
    @property
    def host(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-host"""
        url = self._url
        if url.host is None:
            return ""
        if url.port is None:
            return serialize_host(url.host)
        return serialize_host(url.host) + ":" + str(url.port)

    @host.setter
    def host(self, value: str) -> None:
        value = _usv(value, "host")
        if self._url.has_opaque_path:
            return
        self._parse_with_override(value, HOST)

    @property
    def hostname(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-hostname"""
        return "" if self._url.host is None else serialize_host(self._url.host)

    @hostname.setter
    def hostname(self, value: str) -> None:
        value = _usv(value, "hostname")
        if self._url.has_opaque_path:
            return
        self._parse_with_override(value, HOSTNAME)

    @property
    def port(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-port"""
        return "" if self._url.port is None else str(self._url.port)

    @port.setter
    def port(self, value: str) -> None:
        value = _usv(value, "port")
        if self._url.cannot_have_username_password_port:
            return
        if value == "":
            self._url.port = None
        else:
            self._parse_with_override(value, PORT)

    # -- pathname, search, hash ---------------------------------------------------------------
    @property
    def pathname(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-pathname"""
        return serialize_path(self._url)

    @pathname.setter
    def pathname(self, value: str) -> None:
        value = _usv(value, "pathname")
        if self._url.has_opaque_path:
            return
        self._url.path = []
        self._parse_with_override(value, PATH_START)

    @property
    def search(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-search"""
        query = self._url.query
        return "" if not query else "?" + query

    @search.setter
    def search(self, value: str) -> None:
        value = _usv(value, "search")
        url = self._url
        if value == "":
            url.query = None
            if self._query is not None:
                self._query._list = []
            return
        if value[0] == "?":
            value = value[1:]
        url.query = ""
        self._basic_url_parse(value, url=url, state_override=QUERY)
        # The list is the parse of the value itself, which can differ from the parse of the
        # URL's query (the parser drops tabs and newlines): so the query object is made now.
        self.search_params._list = form_urlencoded_string_parse(value)

    @property
    def search_params(self) -> "URLSearchParams":
        """https://url.spec.whatwg.org/#dom-url-searchparams"""
        if self._query is None:
            self._query = URLSearchParams._for_url(self, self._url.query or "")
        return self._query

    @property
    def hash(self) -> str:
        """https://url.spec.whatwg.org/#dom-url-hash"""
        fragment = self._url.fragment
        return "" if not fragment else "#" + fragment

    @hash.setter
    def hash(self, value: str) -> None:
        value = _usv(value, "hash")
        url = self._url
        if value == "":
            url.fragment = None
            return
        if value[0] == "#":
            value = value[1:]
        url.fragment = ""
        self._basic_url_parse(value, url=url, state_override=FRAGMENT)


def _code_units(s: str) -> list[int]:
    """A string's UTF-16 code units, for sorting "by code unit" as the Standard says."""
    if s.isascii() or max(s) < "\U00010000":
        return list(map(ord, s))
    data = s.encode("utf-16-be", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)]


class URLSearchParams:
    """https://url.spec.whatwg.org/#interface-urlsearchparams"""

    __slots__ = ("_list", "_url_object")

    def __init__(self, init: str | Iterable | Mapping = ""):
        self._url_object: URL | None = None
        # If init is a string and starts with U+003F (?), remove the first code point.
        if isinstance(init, str):
            init = to_scalar_value_string(init)
            if init[:1] == "?":
                init = init[1:]
            self._list = form_urlencoded_string_parse(init)
        elif isinstance(init, URLSearchParams):
            self._list = list(init._list)
        elif isinstance(init, Mapping):
            self._list = [(_usv(k, "name"), _usv(v, "value")) for k, v in init.items()]
        elif isinstance(init, Iterable):
            self._list = []
            for inner in init:
                inner = list(inner) if not isinstance(inner, str) else [inner]
                if len(inner) != 2:
                    raise TypeError("URLSearchParams: each pair must have exactly two items")
                self._list.append((_usv(inner[0], "name"), _usv(inner[1], "value")))
        else:
            raise TypeError(f"URLSearchParams() cannot take {type(init).__name__}")

    @classmethod
    def _for_url(cls, url: URL, query: str) -> "URLSearchParams":
        obj = cls.__new__(cls)
        obj._list = form_urlencoded_string_parse(query) if query else []
        obj._url_object = url
        return obj

    def _update(self) -> None:
        """https://url.spec.whatwg.org/#concept-urlsearchparams-update"""
        if self._url_object is None:
            return
        serialized = form_urlencoded_serialize(self._list)
        self._url_object._url.query = serialized or None

    @property
    def size(self) -> int:
        """https://url.spec.whatwg.org/#dom-urlsearchparams-size"""
        return len(self._list)

    def __len__(self) -> int:
        return len(self._list)

    def append(self, name: str, value: str) -> None:
        """https://url.spec.whatwg.org/#dom-urlsearchparams-append"""
        self._list.append((_usv(name, "name"), _usv(value, "value")))
        self._update()

    def delete(self, name: str, value: str | None = None) -> None:
        """https://url.spec.whatwg.org/#dom-urlsearchparams-delete"""
        name = _usv(name, "name")
        if value is not None:
            value = _usv(value, "value")
            self._list = [p for p in self._list if p != (name, value)]
        else:
            self._list = [p for p in self._list if p[0] != name]
        self._update()

    def get(self, name: str) -> str | None:
        """https://url.spec.whatwg.org/#dom-urlsearchparams-get"""
        name = _usv(name, "name")
        for n, v in self._list:
            if n == name:
                return v
        return None

    def get_all(self, name: str) -> list[str]:
        """https://url.spec.whatwg.org/#dom-urlsearchparams-getall"""
        name = _usv(name, "name")
        return [v for n, v in self._list if n == name]

    def has(self, name: str, value: str | None = None) -> bool:
        """https://url.spec.whatwg.org/#dom-urlsearchparams-has"""
        name = _usv(name, "name")
        if value is not None:
            return (name, _usv(value, "value")) in self._list
        return any(n == name for n, _ in self._list)

    def set(self, name: str, value: str) -> None:
        """https://url.spec.whatwg.org/#dom-urlsearchparams-set"""
        name, value = _usv(name, "name"), _usv(value, "value")
        for i, (n, _) in enumerate(self._list):
            if n == name:
                self._list[i] = (name, value)
                self._list[i + 1 :] = [p for p in self._list[i + 1 :] if p[0] != name]
                break
        else:
            self._list.append((name, value))
        self._update()

    def sort(self) -> None:
        """https://url.spec.whatwg.org/#dom-urlsearchparams-sort (stable, by UTF-16 code units)"""
        self._list.sort(key=lambda pair: _code_units(pair[0]))
        self._update()

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(list(self._list))

    def items(self) -> list[tuple[str, str]]:
        return list(self._list)

    def keys(self) -> list[str]:
        return [n for n, _ in self._list]

    def values(self) -> list[str]:
        return [v for _, v in self._list]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.has(name)

    def __str__(self) -> str:
        """https://url.spec.whatwg.org/#urlsearchparams-stringification-behavior"""
        return form_urlencoded_serialize(self._list)

    def __repr__(self) -> str:
        return f"URLSearchParams({str(self)!r})"
