"""``PARSER@VERSION`` wherever parsers are named: parsed, built (or found in the cache) and
registered beside the shipped oracle.

Invariant: after :func:`register` ``"url-parse@1.4.0"`` is a name of ``urlwb.oracles.REGISTRY``
(kind url) or of ``HOST_SPECS`` (kind host), distinct from ``"url-parse"``, whose spec runs that
version's build; anything that cannot be had is one line (:class:`~urlwb.errors.UsageError`):
a parser that is not shipped, one with no registry version (it ships with its runtime), a
version that does not resolve or does not build (the registry's own reason).

A user's adapter that names its package (``package = "npm:parse-url"`` in ``[tool.urlwb.oracles]``
or ``[tool.urlwb.validators]``, :func:`user_spec`) takes ``NAME@VERSION`` the same way: the
release is installed by :mod:`.installs` and the user's command started with it. A user's
validator at a release is kept in :data:`VALIDATORS` (not a parser of ``--parsers``).
"""

from __future__ import annotations

from urlwb import oracles
from urlwb.errors import UsageError
from urlwb.oracles import manifests
from urlwb.oracles.versions import builds, installs
from urlwb.oracles.versions.catalog import NO_REGISTRY, PACKAGES, Package


def split(ref: str) -> tuple[str, str | None]:
    """``"url-parse@1.4.0"`` -> ``("url-parse", "1.4.0")``; a name without ``@`` -> (name, None)."""
    parser, at, version = ref.strip().partition("@")
    if at and not version:
        raise UsageError(f"{ref!r}: no version after '@' (PARSER@VERSION, e.g. url-parse@1.4.0)")
    return parser, (version if at else None)


def package(parser: str) -> Package:
    """The registry package of a shipped oracle; one line when it has none."""
    if parser in PACKAGES:
        return PACKAGES[parser]
    if parser in NO_REGISTRY:
        raise UsageError(f"{parser} has no registry version: it {NO_REGISTRY[parser]}")
    known = parser in oracles.REGISTRY or parser in oracles.HOST_SPECS
    raise UsageError(f"{parser}: " + ("a user's adapter with no package: package = \"npm:NAME\" (pypi:, maven:) "
                                      "in its table gives it releases"
                                      if known else f"unknown parser (with versions: {', '.join(PACKAGES)}, "
                                      "or a user's adapter that names its package)"))


#: a user's validator at a release (``NAME@VERSION`` of a ``[tool.urlwb.validators]`` entry)
VALIDATORS: dict[str, manifests.Spec] = {}


def user_spec(name: str, cwd=None) -> manifests.Spec | None:
    """The user's adapter ``name``: registered by ``--oracle`` or the config table, else read from
    ``[tool.urlwb.oracles]``, else ``[tool.urlwb.validators]`` (kind validator) of ``urlwb.toml``
    / ``pyproject.toml`` in ``cwd``; None when there is none of that name."""
    entry = oracles.REGISTRY.get(name)
    spec = entry.spec if entry is not None else oracles.HOST_SPECS.get(name)
    if spec is not None and spec.source in ("config", "flag"):
        return spec
    if name in oracles.REGISTRY or name in oracles.HOST_SPECS:
        return None   # a shipped one
    try:
        refused: dict[str, str] = {}
        for s in manifests.config_specs(cwd, refused):
            if s.name == name:
                return s
        if name in refused:
            raise UsageError(refused[name])
        for fname, n, value in manifests.config_tables("validators", "validator", cwd):
            if n == name:
                spec = manifests.user_spec(n, value, "config", cwd)
                if not (isinstance(value, dict) and "role" in value):
                    spec.role = "validator"
                spec.kind = "validator"
                return spec
    except manifests.ManifestError as exc:
        raise UsageError(str(exc)) from None
    return None


def spec_of(name: str) -> manifests.Spec | None:
    """The spec a registered name runs (a parser's, a host oracle's, a user's validator's)."""
    entry = oracles.REGISTRY.get(name)
    return (entry.spec if entry is not None else None) or oracles.HOST_SPECS.get(name) or VALIDATORS.get(name)


def register(ref: str, rebuild: bool = False, log=None) -> str:
    """Register ``PARSER@VERSION`` (building it when the cache has no build, installing a user's
    package's release) and return its registry name."""
    parser, version = split(ref)
    if version is None:
        raise UsageError(f"{ref!r}: expected PARSER@VERSION")
    name = f"{parser}@{version}"
    if not rebuild and (name in oracles.REGISTRY or name in oracles.HOST_SPECS or name in VALIDATORS):
        return name
    mine = user_spec(parser)
    if mine is not None:
        spec = installs.release(mine, version, log=log)
        if spec.kind == "validator":
            VALIDATORS[name] = spec
        else:
            add(spec)
        return name
    pkg = package(parser)
    spec = builds.build(pkg, version, rebuild=rebuild, log=log)
    add(spec)
    return name


def add(spec: manifests.Spec) -> None:
    """Put a versioned build's spec into the oracle registry (host kind: HOST_SPECS)."""
    if spec.kind == "host":
        oracles.HOST_SPECS[spec.name] = spec
    else:
        oracles.REGISTRY[spec.name] = oracles.Entry(spec.name, spec.family, spec.language,
                                                    "urlwb.oracles.supervisor", "SubprocessOracle", spec)


def resolve_names(spec: str | list[str] | None, rebuild: bool = False, log=None) -> list[str]:
    """:func:`urlwb.oracles.resolve_names` with ``PARSER@VERSION`` parts too: each is built and
    registered first (a host oracle's goes to the host round, not to the returned names; with
    host oracles alone the names are the engine's, whose hosts the host round asks about)."""
    if spec is None:
        return oracles.resolve_names(None)
    parts = [p.strip() for p in (spec.split(",") if isinstance(spec, str) else spec) if p.strip()]
    names: list[str] = []
    for part in parts:
        if "@" in part:
            found = [register(part, rebuild=rebuild, log=log)]
            found = [n for n in found if n in oracles.REGISTRY]
        else:
            found = oracles.resolve_names([part])
        names += [n for n in found if n not in names]
    if not names and not any("@" in p for p in parts):
        raise ValueError("no parser named")
    if not names:
        names = ["engine"]   # host oracles only: the engine's hosts are what the host round asks about
    return names
