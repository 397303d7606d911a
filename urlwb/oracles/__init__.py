"""Oracles: other URL parsers behind one small interface, for differential testing.

https://url.spec.whatwg.org/#url-parsing

Every adapter turns one parser's answer into a common :class:`Record` (failure, or scheme,
username, password, host, port, path, query, fragment, href), so that any two parsers can be
compared field by field. Families:

- ``whatwg``: parsers that claim the URL Standard (the engine, ``ada_url``, ``upa_url``,
  ``pywhatwgurl``, Node's global ``URL`` and ``whatwg-url``): any disagreement with the engine is a
  bug on one side.
- ``other``: URL parsers users pair with WHATWG ones (``urllib``, ``rfc3986``, ``yarl``,
  ``urllib3``, ``hyperlink``): their differences are findings about them.
- ``host``: host-level oracles (``idna``, ``ipaddress``, the public suffix libraries), compared on
  hosts rather than URLs (see :mod:`urlwb.oracles.hosts`).

Each adapter catches exactly the exception types its parser documents for rejection; anything else
comes back as a record with ``crash`` set ("oracle crashed"), never swallowed. An adapter that
cannot start (package or ``node`` missing) is skipped with a one-line reason.
"""

from __future__ import annotations

import importlib
import pathlib
import re
import traceback
from typing import NamedTuple

#: The special schemes and their default ports (https://url.spec.whatwg.org/#special-scheme).
SPECIAL_SCHEMES = {"ftp": 21, "file": None, "http": 80, "https": 443, "ws": 80, "wss": 443}


class Record(NamedTuple):
    """One parser's reading of one input; ``failure`` (rejected) or the components.

    ``host`` is the serialized host (IPv6 in brackets) or None when the URL has no host; ``port``
    an int or None; ``path`` the serialized path; ``query``/``fragment`` None when absent (the
    Standard's null), "" when present but empty. ``crash`` is set, with ``failure`` False, when
    the parser raised something it does not document: the oracle crashed.
    """

    failure: bool
    scheme: str | None = None
    username: str | None = None
    password: str | None = None
    host: str | None = None
    port: int | None = None
    path: str | None = None
    query: str | None = None
    fragment: str | None = None
    href: str | None = None
    crash: str | None = None

    @property
    def ok(self) -> bool:
        return not self.failure and self.crash is None


FAILURE = Record(failure=True)
#: An input an oracle does not take (e.g. a base for a parser without resolution): not compared.
NOT_APPLICABLE = None


def crashed(exc: BaseException, where: bool = False) -> Record:
    """An "oracle crashed" record: the exception's type and message, and with ``where`` the
    innermost frame of its traceback (for the engine: the line that broke its promise)."""
    text = f"{type(exc).__name__}: {exc}"
    if where and exc.__traceback__ is not None:
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        text += f" (at {pathlib.Path(frame.filename).name}:{frame.lineno} in {frame.name})"
    return Record(failure=False, crash=text[:400])


_SURROGATE = re.compile("[\ud800-\udfff]")


def to_usv(s: str) -> str:
    """https://webidl.spec.whatwg.org/#idl-USVString: lone surrogates become U+FFFD.

    The URL API takes USVStrings, so every oracle gets the same scalar-value string (paired
    surrogates cannot occur in a Python str)."""
    return _SURROGATE.sub("\ufffd", s) if _SURROGATE.search(s) else s


def from_api(href: str, protocol: str, username: str, password: str, hostname: str, port: str,
             pathname: str, search: str, hash_: str) -> Record:
    """A Record from the URL API's getters (https://url.spec.whatwg.org/#api).

    The getters fold null and empty query and fragment into ""; the href keeps them apart, so they
    are recovered from it: the fragment follows the last component, the query comes before it."""
    scheme = protocol[:-1]
    rest = href
    if hash_:
        fragment = hash_[1:]
        rest = href[: len(href) - len(hash_)]
    elif href.endswith("#"):
        fragment, rest = "", href[:-1]
    else:
        fragment = None
    if search:
        query = search[1:]
    elif rest.endswith("?"):
        query = ""
    else:
        query = None
    # https://url.spec.whatwg.org/#url-serializing: "//" follows the scheme iff host is non-null
    # (a null host with a path starting "//" is written "/." + path).
    has_host = href.startswith("//", len(scheme) + 1)
    return Record(False, scheme, username, password, hostname if has_host else None,
                  int(port) if port else None, pathname, query, fragment, href)


class Oracle:
    """One parser. ``parse_many`` takes (input, base or None) pairs and returns one Record (or
    ``NOT_APPLICABLE``) per pair; inputs are already USV strings."""

    name: str = ""
    family: str = ""
    version: str = ""
    #: False when the parser has no notion of a base URL (such pairs are not compared).
    supports_base: bool = True

    def parse(self, input: str, base: str | None = None) -> Record | None:
        raise NotImplementedError

    def parse_many(self, items: list[tuple[str, str | None]]) -> list[Record | None]:
        return [self.parse(i, b) for i, b in items]

    def close(self) -> None:
        pass


class Unavailable(Exception):
    """An oracle that cannot start; its message is the one-line reason."""


#: name -> (module, factory, family); import is lazy so a missing package costs nothing.
REGISTRY: dict[str, tuple[str, str, str]] = {
    "engine": ("urlwb.oracles.whatwg", "EngineOracle", "whatwg"),
    "ada_url": ("urlwb.oracles.whatwg", "AdaOracle", "whatwg"),
    "upa_url": ("urlwb.oracles.whatwg", "UpaOracle", "whatwg"),
    "pywhatwgurl": ("urlwb.oracles.whatwg", "PyWhatwgUrlOracle", "whatwg"),
    "node": ("urlwb.oracles.node_oracle", "NodeURLOracle", "whatwg"),
    "whatwg-url": ("urlwb.oracles.node_oracle", "WhatwgURLOracle", "whatwg"),
    "urllib": ("urlwb.oracles.other", "UrllibOracle", "other"),
    "rfc3986": ("urlwb.oracles.other", "Rfc3986Oracle", "other"),
    "yarl": ("urlwb.oracles.other", "YarlOracle", "other"),
    "urllib3": ("urlwb.oracles.other", "Urllib3Oracle", "other"),
    "hyperlink": ("urlwb.oracles.other", "HyperlinkOracle", "other"),
}

WHATWG = [n for n, (_, _, f) in REGISTRY.items() if f == "whatwg"]
OTHER = [n for n, (_, _, f) in REGISTRY.items() if f == "other"]


def family(name: str) -> str:
    return REGISTRY[name][2]


def resolve_names(spec: str | list[str] | None) -> list[str]:
    """Parser names from a ``--parsers`` value: a comma list of names or of ``all``, ``whatwg``,
    ``other``; ValueError naming the unknown ones."""
    if spec is None:
        return list(REGISTRY)
    parts = spec.split(",") if isinstance(spec, str) else list(spec)
    names: list[str] = []
    for part in (p.strip() for p in parts):
        if not part:
            continue
        group = {"all": list(REGISTRY), "whatwg": WHATWG, "other": OTHER}.get(part)
        if group is None and part not in REGISTRY:
            raise ValueError(f"unknown parser {part!r} (known: {', '.join(REGISTRY)}, or all, whatwg, other)")
        for n in group or [part]:
            if n not in names:
                names.append(n)
    if not names:
        raise ValueError("no parser named")
    return names


def load(names: list[str]) -> tuple[dict[str, Oracle], dict[str, str]]:
    """Start the named oracles: (name -> oracle, name -> one-line reason for each skipped one)."""
    oracles: dict[str, Oracle] = {}
    skipped: dict[str, str] = {}
    shared: dict[str, object] = {}
    for name in names:
        module_name, factory, _ = REGISTRY[name]
        try:
            module = importlib.import_module(module_name)
            oracles[name] = getattr(module, factory)(shared)
        except Unavailable as exc:
            skipped[name] = str(exc)
        except ImportError as exc:
            skipped[name] = f"not installed ({exc})"
    return oracles, skipped


def close_all(oracles: dict[str, Oracle]) -> None:
    for oracle in oracles.values():
        oracle.close()
