"""Oracles: other URL parsers behind one small interface, for differential testing.

https://url.spec.whatwg.org/#url-parsing

Every adapter turns one parser's answer into a common :class:`Record` (failure, or scheme,
username, password, host, port, path, query, fragment, href), so that any two parsers can be
compared field by field. Families:

- ``whatwg``: parsers that claim the URL Standard (the engine, ``ada_url``, ``upa_url``,
  ``pywhatwgurl``, Node's global ``URL`` and ``whatwg-url``): any disagreement with the engine is a
  bug on one side.
- ``other``: URL parsers users pair with WHATWG ones (``urllib``, ``rfc3986``, ``yarl``,
  ``urllib3``, ``hyperlink``, ``httptools``, and the adapters in other languages): their
  differences are findings about them.
- ``host``: host-level oracles (``idna``, ``ipaddress``, the public suffix libraries), compared on
  hosts rather than URLs (see :mod:`urlwb.oracles.hosts`).

Each adapter catches exactly the exception types its parser documents for rejection; anything else
comes back as a record with ``crash`` set ("oracle crashed"), never swallowed. An adapter that
cannot start (package or ``node`` missing) is skipped with a one-line reason.

Parsers in other languages are programs speaking one JSON-lines protocol (``docs/oracle-protocol.md``),
declared by an ``oracles.toml`` in a folder here (:mod:`urlwb.oracles.manifests`) or by the user
(``--oracle``, ``[tool.urlwb.oracles]``), and run by :mod:`urlwb.oracles.supervisor`.
"""

from __future__ import annotations

import importlib
import pathlib
import re
import traceback
import sys
from typing import NamedTuple

from urlwb.oracles import manifests

#: The special schemes and their default ports (https://url.spec.whatwg.org/#special-scheme).
SPECIAL_SCHEMES = {"ftp": 21, "file": None, "http": 80, "https": 443, "ws": 80, "wss": 443}


class Record(NamedTuple):
    """One parser's reading of one input; ``failure`` (rejected) or the components.

    ``host`` is the serialized host (IPv6 in brackets) or None when the URL has no host; ``port``
    an int or None; ``path`` the serialized path; ``query``/``fragment`` None when absent (the
    Standard's null), "" when present but empty. ``crash`` is set, with ``failure`` False, when
    the parser raised something it does not document, or its process died on this input: the
    oracle crashed; ``hung`` too when it gave no answer within its deadline.
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
    #: with ``crash``: the oracle did not answer within its deadline ("oracle hung")
    hung: bool = False

    @property
    def ok(self) -> bool:
        return not self.failure and self.crash is None


def answer_text(r: Record | None, missing: str = "n/a", with_host: bool = False) -> str:
    """One parser's answer as every report and table writes it (the one renderer): ``missing``
    when it was not asked (the caller says why: ``n/a``, ``not asked``); ``HUNG: ...`` or
    ``CRASH: ...``; ``failure``; else the href, with the host after it where the href does not
    show it (a parser whose host and href part), or the host and path when there is no href.
    ``with_host``: the host first, always (``host 'h', href 'u'``: where the host is the
    question, as in bisect)."""
    if r is None:
        return missing
    if r.crash:
        return f"{'HUNG' if r.hung else 'CRASH'}: {r.crash[:160]}"
    if r.failure:
        return "failure"
    host = r.host if isinstance(r.host, str) else None
    if r.href is None:
        return f"(no href) host {host!r}, path {r.path!r}"
    if with_host:
        return f"host {host!r}, href {r.href!r}"
    return r.href if host is None or host.lower() in r.href.lower() else f"{r.href} (host {host})"


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


def crash_record(reason: str) -> Record:
    """"oracle crashed" on one input, with the one-line reason (exit status, stderr, bad line)."""
    return Record(failure=False, crash=reason[:300])


def hang_record(reason: str) -> Record:
    """"oracle hung" on one input: no answer within the deadline."""
    return Record(failure=False, crash=reason[:300], hung=True)


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
    #: The longest input (code points) the parser is given; longer ones are not applicable:
    #: an in-process parser cannot be stopped mid-input, so one that is not linear gets less.
    max_input: int = 1_000_000

    def parse(self, input: str, base: str | None = None) -> Record | None:
        raise NotImplementedError

    def parse_many(self, items: list[tuple[str, str | None]]) -> list[Record | None]:
        return [self.parse(i, b) for i, b in items]

    def close(self) -> None:
        pass


class Unavailable(Exception):
    """An oracle that cannot start; its message is the one-line reason."""


class Entry:
    """A registry entry: what ``load`` needs to start one oracle, and its family before it starts.

    In-process oracles name a module and a factory (called with a dict the oracles of one ``load``
    share); the others carry a :class:`~urlwb.oracles.manifests.Spec` (a subprocess speaking
    ``docs/oracle-protocol.md``, or a ``py:`` callable). ``family`` is updated from the hello line once the
    oracle has started."""

    __slots__ = ("name", "family", "language", "module", "factory", "spec", "_card")

    def __init__(self, name: str, family: str, language: str, module: str, factory: str,
                 spec: manifests.Spec | None = None, card: manifests.Spec | None = None):
        self.name, self.family, self.language = name, family, language
        self.module, self.factory, self.spec = module, factory, spec
        self._card = card

    @property
    def card(self) -> manifests.Spec | None:
        """Everything declared about the parser: its ``spec`` for a program or a ``py:``
        callable, its ``in_process.toml`` card for an in-process one."""
        return self._card if self._card is not None else self.spec

    @property
    def skip(self) -> str | None:
        return self.spec.skip if self.spec is not None else None

    @property
    def in_process(self) -> bool:
        """Whether it runs in the workbench's own process (a module's oracle or a ``py:``
        callable), cheap enough to ask once per fuzz execution."""
        return self.spec is None or self.spec.callable is not None


def _in_process(card: manifests.Spec) -> Entry:
    module, _, factory = card.adapter.partition(":")
    return Entry(card.name, card.family, card.language, f"urlwb.oracles.{module}", factory, card=card)


#: name -> Entry: the in-process oracles (``in_process.toml``), then every shipped manifest's
#: (``*/oracles.toml``), then the user's (:func:`configure`); imports are lazy, so a missing
#: package costs nothing.
REGISTRY: dict[str, Entry] = {c.name: _in_process(c) for c in manifests.read_in_process()}
#: name -> Spec: host-level oracles declared by manifests (kind "host"), for urlwb.oracles.hosts
HOST_SPECS: dict[str, manifests.Spec] = {}
#: one line per manifest that could not be read
MANIFEST_ERRORS: list[str] = []
#: a user's oracle whose entry in urlwb.toml / pyproject.toml cannot be read -> its one line
#: (refused alone: the file's other oracles run)
REFUSED: dict[str, str] = {}
#: every manifest folder (``urlwb/oracles/<folder>/``), read or not
FOLDERS: list[manifests.Folder] = manifests.discover()


def _register_manifests() -> None:
    for folder in FOLDERS:
        if folder.error:
            MANIFEST_ERRORS.append(folder.error)
        for spec in folder.specs:
            if spec.name in REGISTRY or spec.name in HOST_SPECS:
                MANIFEST_ERRORS.append(f"{folder.path.name}/oracles.toml: {spec.name}: name already taken")
            elif spec.kind == "host":
                HOST_SPECS[spec.name] = spec
            else:
                REGISTRY[spec.name] = Entry(spec.name, spec.family, spec.language,
                                            "urlwb.oracles.supervisor", "SubprocessOracle", spec)


_register_manifests()

#: every shipped SSRF validator's folder (``manifests.VALIDATORS_ROOT``), read or not
VALIDATOR_FOLDERS: list[manifests.Folder] = manifests.discover(manifests.VALIDATORS_ROOT)
#: name -> Spec of every shipped validator (kind ``validator``): run by urlwb.ssrf, checked by
#: ``urlwb oracle check``, built at other versions by urlwb.oracles.versions.builds (Maven)
VALIDATOR_SPECS: dict[str, manifests.Spec] = {s.name: s for f in VALIDATOR_FOLDERS for s in f.specs
                                              if s.kind == "validator"}


def configure(flags: list[str] | None = None, cwd=None, config: bool = True) -> list[str]:
    """Register the user's oracles: each ``--oracle NAME=...`` of ``flags`` and (``config``) the
    ``[tool.urlwb.oracles]`` table of ``urlwb.toml`` / ``pyproject.toml`` in ``cwd``. Returns
    the names the flags gave (always run). Raises :class:`~urlwb.oracles.manifests.ManifestError`
    (one line) for a misconfigured one."""
    refused: dict[str, str] = {}
    specs = manifests.config_specs(cwd, refused) if config else []
    for name, line in refused.items():
        if REFUSED.get(name) != line:
            print(f"urlwb: {line} (this oracle is refused; the others run)", file=sys.stderr)
        REFUSED[name] = line
    flagged = [manifests.parse_flag(f) for f in flags or []]
    by_name = {s.name: s for s in specs}
    by_name.update({s.name: s for s in flagged})  # a flag overrides the table
    for spec in by_name.values():
        if _shipped(spec.name):
            raise manifests.ManifestError(f"oracle {spec.name!r}: the name of a shipped oracle; choose another")
        if spec.kind == "host" and not spec.callable:
            HOST_SPECS[spec.name] = spec
        elif spec.callable:
            REGISTRY[spec.name] = Entry(spec.name, spec.family, "Python", "urlwb.oracles.protocol",
                                        "CallableOracle", spec)
        else:
            REGISTRY[spec.name] = Entry(spec.name, spec.family, spec.language,
                                        "urlwb.oracles.supervisor", "SubprocessOracle", spec)
    return [s.name for s in flagged if s.name in REGISTRY]


def project_of(name: str) -> pathlib.Path | None:
    """The folder whose ``urlwb.toml`` / ``pyproject.toml`` declares the user's oracle ``name``
    (or the adapter a ``NAME@VERSION`` release runs), where a command that names it runs; None
    for a shipped one."""
    entry = REGISTRY.get(name)
    spec = entry.spec if entry is not None else HOST_SPECS.get(name)
    if spec is not None and (spec.source == "config" or (spec.source == "version" and spec.package)):
        return spec.cwd
    return None


def _shipped(name: str) -> bool:
    """Whether ``name`` is taken by an in-process oracle or a manifest's (not by the user's)."""
    if name in HOST_SPECS:
        return HOST_SPECS[name].source == "manifest"
    entry = REGISTRY.get(name)
    return entry is not None and (entry.spec is None or entry.spec.source == "manifest")


def family(name: str) -> str:
    return REGISTRY[name].family


def groups() -> dict[str, list[str]]:
    """``--parsers`` groups: ``all``, ``whatwg``, ``other``, and one per language (lowercase,
    e.g. ``go``, ``javascript``) unless a parser has that name."""
    out = {"all": list(REGISTRY),
           "whatwg": [n for n, e in REGISTRY.items() if e.family == "whatwg"],
           "other": [n for n, e in REGISTRY.items() if e.family != "whatwg"]}
    for n, e in REGISTRY.items():
        lang = e.language.lower().replace(" ", "-")
        if lang not in REGISTRY and lang not in ("all", "whatwg", "other", "?"):
            out.setdefault(lang, []).append(n)
    return out


def resolve_names(spec: str | list[str] | None) -> list[str]:
    """Parser names from a ``--parsers`` value: a comma list of names or groups (:func:`groups`);
    ValueError naming the unknown ones."""
    if spec is None:
        return list(REGISTRY)
    parts = spec.split(",") if isinstance(spec, str) else list(spec)
    named = groups()
    names: list[str] = []
    for part in (p.strip() for p in parts):
        if not part:
            continue
        group = named.get(part)
        if group is None and part not in REGISTRY and part in REFUSED:
            raise ValueError(REFUSED[part])
        if group is None and part not in REGISTRY:
            raise ValueError(f"unknown parser {part!r} (known: {', '.join(REGISTRY)}, or "
                             f"{', '.join(named)})")
        for n in group or [part]:
            if n not in names:
                names.append(n)
    if not names:
        raise ValueError("no parser named")
    return names


def load(names: list[str]) -> tuple[dict[str, Oracle], dict[str, str]]:
    """Start the named oracles: (name -> oracle, name -> one-line reason for each skipped one).
    Oracles outside the process start together (each waits for its hello line at once)."""
    oracles: dict[str, Oracle] = {}
    skipped: dict[str, str] = {}
    shared: dict[str, object] = {}
    for name in names:
        entry = REGISTRY[name]
        if entry.skip:
            skipped[name] = entry.skip
            continue
        try:
            factory = getattr(importlib.import_module(entry.module), entry.factory)
            oracles[name] = factory(entry.spec) if entry.spec is not None else factory(shared)
        except Unavailable as exc:
            skipped[name] = str(exc)
        except ImportError as exc:
            skipped[name] = f"not installed ({exc})"
    for name in [n for n, o in oracles.items() if hasattr(o, "ready")]:
        try:
            oracles[name].ready()
            REGISTRY[name].family = oracles[name].family
        except Unavailable as exc:
            skipped[name] = str(exc)
            oracles.pop(name).close()
    return {n: oracles[n] for n in names if n in oracles}, skipped


def close_all(oracles: dict[str, Oracle]) -> None:
    for oracle in oracles.values():
        oracle.close()
