"""Which shipped oracle comes from which registry package, and which have no registry version.

The facts come from :mod:`urlwb.oracles.contracts` (``contracts.toml``: ``package``,
``no_registry``, ``oracle_class``), the one place that says what a parser is; this module gives
them the shape the version builds use. A :class:`Package` names the registry (``npm``, ``pypi``, ``maven``, ``crates``, ``go``) and the
package's coordinates there; ``folder`` is the shipped adapter's folder under ``urlwb/oracles/``
(None for the in-process Python peers, whose adapter at another version is
:mod:`urlwb.oracles.versions.pyadapter`). ``NO_REGISTRY`` gives, for every shipped oracle that ships with
a runtime or a Debian package, why ``PARSER@VERSION`` cannot be asked of it.

:data:`VALIDATORS` and :data:`VALIDATORS_NO_REGISTRY` are the same for ``urlwb ssrf``'s shipped
validators (kind ``validator``, folders under ``urlwb/ssrf/validators/``) that this module's
builds serve (Maven); they are kept apart from the parsers, so that ``--parsers jvm-guava@V``
is no parser, and npm and PyPI validators are ``urlwb.ssrf.install``'s.
"""

from __future__ import annotations

import dataclasses

from urlwb.oracles import contracts


@dataclasses.dataclass(frozen=True)
class Package:
    parser: str
    registry: str
    #: npm/PyPI/crate name, Maven ``group:artifact``, Go module path
    package: str
    kind: str = "url"
    folder: str | None = None
    #: for the in-process Python peers: ``module:Class`` of urlwb.oracles whose answers it gives
    oracle_class: str | None = None

    @property
    def coordinates(self) -> str:
        return f"{self.registry}:{self.package}"


def _folder(name: str, role: str) -> str | None:
    """The shipped adapter's folder under ``urlwb/oracles/`` (or ``urlwb/ssrf/validators/``);
    None for an in-process Python peer."""
    from urlwb import oracles
    spec = {"parser": getattr(oracles.REGISTRY.get(name), "spec", None),
            "host": oracles.HOST_SPECS.get(name),
            "validator": oracles.VALIDATOR_SPECS.get(name)}[role]
    return spec.folder.name if spec is not None and spec.folder is not None else None


def _packages(roles: tuple[str, ...], registries: tuple[str, ...] | None = None) -> dict[str, Package]:
    """Every row of :mod:`urlwb.oracles.contracts` in ``roles`` with a registry package."""
    out = {}
    for role in roles:
        for name, row in contracts.table()[role].items():
            if row.package is None or (registries and row.package[0] not in registries):
                continue
            kind = {"parser": "url", "host": "host", "validator": "validator"}[role]
            out[name] = Package(name, row.package[0], row.package[1], kind,
                                None if row.oracle_class else _folder(name, role), row.oracle_class)
    return out


def _no_registry(roles: tuple[str, ...]) -> dict[str, str]:
    return {name: row.no_registry for role in roles for name, row in contracts.table()[role].items()
            if row.no_registry}


#: parser -> its registry package (urlwb/oracles/contracts.toml ``package``)
PACKAGES: dict[str, Package] = _packages(("parser", "host"))

#: shipped oracles without a registry version, and why (contracts.toml ``no_registry``)
NO_REGISTRY: dict[str, str] = _no_registry(("parser", "host"))

#: shipped SSRF validators built at another release here (``urlwb ssrf --oracle NAME@VERSION``):
#: the Maven ones (npm and PyPI validators are urlwb.ssrf.install's)
VALIDATORS: dict[str, Package] = _packages(("validator",), ("maven",))

#: shipped SSRF validators without a registry version, and why
VALIDATORS_NO_REGISTRY: dict[str, str] = _no_registry(("validator",))
