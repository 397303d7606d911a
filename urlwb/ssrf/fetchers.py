"""Fetchers: a URL parser of ``urlwb.oracles.REGISTRY`` (kind ``url``), read as the client that
connects where that parser's host says, through the resolver that client uses (:mod:`.resolvers`).

The resolver of each is its contract's ``client`` (``urlwb/oracles/contracts.toml``, read by
:mod:`urlwb.oracles.contracts`); a parser declared nowhere falls back to its family (below). Why:

- ``go-net-url``: Go's ``net/http`` dials ``URL.Host`` through ``net.Dialer``, which tries
  ``net.ParseIP`` before any lookup: ``go``.
- ``java-url``, ``java-uri`` (``java.net.http.HttpClient``), ``okhttp`` (``Dns.SYSTEM`` is
  ``InetAddress.getAllByName``), ``apache-httpclient5`` (``SystemDefaultDnsResolver``, the same),
  ``spring-uricomponents*`` (``RestTemplate`` over the JDK's connection): ``java``.
- the WHATWG parsers (``engine``, ``ada_url``, ``upa_url``, ``pywhatwgurl``, ``node``,
  ``whatwg-url``, ``rust-url``, the browsers) serialize the host, IPv4 in dotted decimal:
  ``whatwg`` (a canonical host reads the same in every resolver).
- every other one: ``getaddrinfo`` (Python's ``socket.create_connection`` under urllib, urllib3
  and requests, yarl/aiohttp, libcurl, Node's ``net.connect`` (``net.isIP``, else ``dns.lookup``),
  Ruby's ``TCPSocket``, Perl's ``IO::Socket::IP``, PHP's streams, Mono's ``Dns`` (``IPAddress``'s
  own parser, which takes inet_aton's forms too)).

The destination of an answer is :class:`~urlwb.ssrf.policy.Destination`: no connection when the
parser rejected the input, crashed, or read no host, or when its scheme is not one a fetcher of
that kind connects to (:data:`FETCHED_SCHEMES`).
"""

from __future__ import annotations

from urlwb import oracles
from urlwb.oracles import contracts
from urlwb.ssrf import resolvers
from urlwb.ssrf.policy import Destination

WHATWG_FAMILY = "whatwg"
#: schemes a fetcher connects for (a ``file:`` or ``javascript:`` URL opens no socket)
FETCHED_SCHEMES = frozenset(("http", "https", "ws", "wss", "ftp", "gopher"))


def resolver_of(name: str) -> str:
    """The resolver (a key of :data:`resolvers.READERS`) of the fetcher ``name``: its
    contract's ``client``, else ``whatwg`` for the WHATWG family and ``getaddrinfo`` otherwise."""
    declared = contracts.client(name)
    if declared is not None:
        return declared
    entry = oracles.REGISTRY.get(name)
    if entry is not None and entry.family == WHATWG_FAMILY:
        return "whatwg"
    return "getaddrinfo"


def default_names() -> list[str]:
    """Every oracle of kind ``url`` in the registry, in its order (``--fetchers`` default)."""
    return [n for n, e in oracles.REGISTRY.items() if e.spec is None or e.spec.kind == "url"]


def destination(name: str, record) -> Destination:
    """Where fetcher ``name`` connects, given its parser's Record (None: not applicable)."""
    if record is None or not record.ok or not record.host:
        return Destination(None)
    if (record.scheme or "").lower() not in FETCHED_SCHEMES:
        return Destination(None)
    return Destination(record.host, resolvers.read(resolver_of(name), record.host))
