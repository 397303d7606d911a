"""What a parser is held to: its contract, and the facts about it that were string tables.

One place (``contracts.toml`` beside this module) holds, for every shipped parser, host oracle and
SSRF validator: the spec it declares (``whatwg-url``, ``rfc3986``, ``rfc3987``, ``rfc2396`` or
``own``), the documentation URL that says so and the line quoted, its documented deviations and
deprecations, its role, its registry package (or why it has none) and the client that fetches
where it reads. :func:`describe` joins that to the registry's name, language and family.

A user's adapter (``--oracle``, ``[tool.urlwb.oracles]``) gets its contract from its own config
keys ``spec``, ``role`` and ``docs`` (read with ``getattr`` so that a declaration without them is
``own``, undocumented); a parser with no contract anywhere is judged by its family: the WHATWG
family by the URL Standard, the others by their own (undeclared) rules.

Issue 25 (https://url.spec.whatwg.org/ for the WHATWG family; RFC 3986, RFC 3987, RFC 2396 for
the others).
"""

from __future__ import annotations

import dataclasses
import functools
import pathlib
import re
import tomllib

DATA = pathlib.Path(__file__).with_name("contracts.toml")
SPECS = ("whatwg-url", "rfc3986", "rfc3987", "rfc2396", "own")
ROLES = ("parser", "host", "validator")
_SECTIONS = {"parsers": "parser", "hosts": "host", "validators": "validator"}
_KEYS = {"spec", "docs", "says", "source", "package", "no_registry", "oracle_class", "client",
         "deprecated", "deviations", "checks", "reads", "rejects"}
REGISTRIES = ("npm", "pypi", "maven", "crates", "go")
CLIENTS = ("go", "java", "whatwg", "getaddrinfo")


class ContractError(ValueError):
    """``contracts.toml`` (or a user's declaration) does not say what it must; one line."""


@dataclasses.dataclass(frozen=True)
class Deviation:
    """A documented deviation from the declared spec: ``cause`` is the step where readings part
    (a differential class id, an RFC component, or ``any`` for a blanket statement)."""

    cause: str
    clause: str
    url: str
    says: str
    #: for cause "crash": a substring of the exception's message this deviation covers
    match: str | None = None
    #: a regular expression the input must match for this deviation to cover it (a scheme's
    #: own rule: curl's login options on imap:, pop3:, smtp: only); None: every input
    when: str | None = None


@dataclasses.dataclass(frozen=True)
class Contract:
    name: str
    role: str
    spec: str
    docs: str | None
    says: str = ""
    source: str = ""
    deviations: tuple[Deviation, ...] = ()
    deprecated: dict | None = None
    #: validators: "url-syntax" (it claims to validate a URL) or "host-address"
    checks: str | None = None
    #: validators: the URL parser of urlwb.oracles.REGISTRY whose host the validator classifies
    reads: str | None = None
    #: validators: {"categories": [...], "url", "says"}: the addresses its documentation says it
    #: rejects (loopback, private, private-ipv4 (RFC 1918 only), link-local, unspecified), the line quoted
    rejects: dict | None = None
    #: "shipped" (contracts.toml), "config" (the user's keys) or "default" (declared nowhere)
    origin: str = "shipped"

    def deviation(self, cause: str | None, input: str | None = None) -> Deviation | None:
        """The documented deviation for ``cause`` (an exact one first, then a blanket ``any``);
        one with ``when`` covers an ``input`` that matches it only."""
        for d in self.deviations:
            if cause is not None and d.cause == cause and d.match is None and \
                    (d.when is None or (input is not None and re.search(d.when, input))):
                return d
        for d in self.deviations:
            if d.cause == "any":
                return d
        return None


    def documented_exception(self, message: str) -> Deviation | None:
        """The documented deviation (cause ``crash``) whose ``match`` is in ``message``."""
        for d in self.deviations:
            if d.cause == "crash" and d.match and d.match in message:
                return d
        return None


@dataclasses.dataclass(frozen=True)
class Entry:
    """One row of ``contracts.toml``: the contract and the registry facts."""

    contract: Contract
    #: ("pypi", "yarl") or None
    package: tuple[str, str] | None
    no_registry: str | None
    oracle_class: str | None
    client: str | None


#: the address classes a validator's ``rejects`` may name
REJECTS = ("loopback", "private", "private-ipv4", "link-local", "unspecified")


def _rejects(where: str, value) -> dict | None:
    if value is None:
        return None
    cats = value.get("categories") if isinstance(value, dict) else None
    if not cats or any(c not in REJECTS for c in cats) or not value.get("says") or not value.get("url"):
        raise ContractError(f"{where}: rejects must be {{categories = [{', '.join(REJECTS)}...], url, says}}")
    return {"categories": list(cats), "url": value["url"], "says": value["says"]}


def _row(section: str, name: str, table: dict) -> Entry:
    where = f"{DATA.name}: [{section}.{name}]"
    unknown = set(table) - _KEYS
    if unknown:
        raise ContractError(f"{where}: unknown key {sorted(unknown)[0]!r}")
    spec = table.get("spec")
    if spec not in SPECS:
        raise ContractError(f"{where}: spec must be one of {', '.join(SPECS)}")
    if ("package" in table) == ("no_registry" in table):
        raise ContractError(f"{where}: exactly one of package and no_registry")
    package = None
    if "package" in table:
        registry, _, coords = str(table["package"]).partition(":")
        if registry not in REGISTRIES or not coords:
            raise ContractError(f"{where}: package must be REGISTRY:COORDINATES ({', '.join(REGISTRIES)})")
        package = (registry, coords)
    client = table.get("client")
    if client is not None and client not in CLIENTS:
        raise ContractError(f"{where}: client must be one of {', '.join(CLIENTS)}")
    deviations = tuple(Deviation(d["cause"], d["clause"], d["url"], d.get("says", ""), d.get("match"), d.get("when"))
                       for d in table.get("deviations", []))
    contract = Contract(name, _SECTIONS[section], spec, table.get("docs"), table.get("says", ""),
                        table.get("source", ""), deviations, table.get("deprecated"),
                        table.get("checks"), table.get("reads"), _rejects(where, table.get("rejects")))
    return Entry(contract, package, table.get("no_registry"), table.get("oracle_class"), client)


@functools.lru_cache(maxsize=1)
def table() -> dict[str, dict[str, Entry]]:
    """role -> name -> Entry, read once; ContractError for a malformed file."""
    try:
        data = tomllib.loads(DATA.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ContractError(f"{DATA.name}: {exc}") from None
    out: dict[str, dict[str, Entry]] = {role: {} for role in ROLES}
    for section, role in _SECTIONS.items():
        for name, row in data.get(section, {}).items():
            out[role][name] = _row(section, name, row)
    return out


def _base(name: str) -> str:
    """The shipped name of ``NAME@VERSION``."""
    return name.partition("@")[0]


def entry(name: str, role: str | None = None) -> Entry | None:
    """The row of ``name`` (``NAME@VERSION`` reads NAME's) in ``role``, or in the first role that
    has it (parsers, then hosts, then validators)."""
    rows = table()
    for r in ([role] if role else ROLES):
        found = rows[r].get(_base(name))
        if found is not None:
            return found
    return None


def contract(name: str, family: str | None = None, declared=None, role: str | None = None) -> Contract:
    """``name``'s contract: the shipped one; else the user's declaration's ``spec``/``role``/``docs``
    keys (``declared``: a manifests.Spec, read with getattr); else by ``family`` (whatwg: the URL
    Standard; otherwise its own, undocumented rules)."""
    found = entry(name, role)
    if found is not None:
        return found.contract
    spec = getattr(declared, "spec", None) if declared is not None else None
    spec = "whatwg-url" if spec == "whatwg" else spec   # a user's config says "whatwg" (manifests.CONTRACTS)
    if spec is not None:
        if spec not in SPECS:
            raise ContractError(f"oracle {name!r}: spec must be one of {', '.join(SPECS)}")
        return Contract(name, getattr(declared, "role", None) or role or "parser", spec,
                        getattr(declared, "docs", None), "declared in the user's configuration",
                        origin="config")
    if family == "whatwg":
        return Contract(name, role or "parser", "whatwg-url", "https://url.spec.whatwg.org/",
                        "declared family whatwg", origin="default")
    return Contract(name, role or "parser", "own", None, "no contract declared", origin="default")


def package(name: str, role: str | None = None) -> tuple[str, str] | None:
    """(registry, coordinates) of ``name``'s registry package, or None."""
    found = entry(name, role)
    return found.package if found else None


def no_registry(name: str, role: str | None = None) -> str | None:
    """Why ``name`` has no registry version (None when it has one, or is not shipped)."""
    found = entry(name, role)
    return found.no_registry if found else None


def client(name: str) -> str | None:
    """The resolver of the client that fetches where parser ``name`` reads, when declared."""
    found = entry(name, "parser")
    return found.client if found else None


@dataclasses.dataclass(frozen=True)
class Parser:
    """What a parser is, in one record: ``urlwb oracle list`` and the judge read this."""

    name: str
    language: str
    family: str
    contract: Contract
    package: tuple[str, str] | None
    no_registry: str | None
    client: str | None


def describe(name: str) -> Parser:
    """Joins the registry's name, language and family to the contract and registry facts."""
    from urlwb import oracles   # the registry imports this module's users; read it late

    base = _base(name)
    reg = oracles.REGISTRY.get(name) or oracles.REGISTRY.get(base)
    host = oracles.HOST_SPECS.get(base)
    validator = oracles.VALIDATOR_SPECS.get(base)
    if reg is not None:
        language, family, declared, role = reg.language, reg.family, reg.spec, "parser"
    elif host is not None:
        language, family, declared, role = host.language, "host", host, "host"
    elif validator is not None:
        language, family, declared, role = validator.language, "validator", validator, "validator"
    else:
        language, family, declared, role = "?", "other", None, None
    found = entry(name, role)
    return Parser(name, language, family, contract(name, family, declared, role),
                  found.package if found else None, found.no_registry if found else None,
                  found.client if found else None)
