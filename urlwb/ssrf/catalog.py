"""Where validators are declared: the shipped ones (``urlwb/ssrf/validators/<folder>/oracles.toml``,
each oracle of kind ``validator``), ``--oracle`` flags and the ``[tool.urlwb.validators]``
table of ``urlwb.toml`` / ``pyproject.toml`` in the working directory.

An ``--oracle`` value is ``NAME`` (a shipped validator), ``NAME@VERSION`` (a shipped npm, PyPI
or Maven validator at another release, :func:`.install.release`; or a ``[tool.urlwb.validators]``
entry that names its ``package``, at that release of it: :func:`urlwb.oracles.versions.installs.release`), ``NAME=CMD`` (a program
speaking the protocol's kind ``validator``) or ``NAME=py:package.module:function``. A table entry is ``CMD``,
``py:...`` or a table of the manifest's per-oracle fields with a ``command``. A flag overrides a
table entry of the same name; a shipped name cannot be taken.
"""

from __future__ import annotations

import dataclasses
import pathlib
import sys

from urlwb import oracles
from urlwb.errors import UsageError
from urlwb.oracles import manifests
from urlwb.oracles.versions import installs
from urlwb.ssrf import install
from urlwb.ssrf.validator import CallableValidator, SubprocessValidator, Validator

ROOT = manifests.VALIDATORS_ROOT
FOLDERS: list[manifests.Folder] = oracles.VALIDATOR_FOLDERS
#: name -> Spec of every shipped validator
SHIPPED: dict[str, manifests.Spec] = oracles.VALIDATOR_SPECS
ERRORS: list[str] = [f.error for f in FOLDERS if f.error]
#: a user's validator whose table entry cannot be read -> its one line (refused alone)
REFUSED: dict[str, str] = {}


@dataclasses.dataclass
class Declared:
    """One validator to start: its name in reports and either a Spec or a ``py:`` target;
    ``version`` and ``folder`` when it is a shipped one at another release."""

    name: str
    spec: manifests.Spec | None = None
    target: str | None = None
    base: str | None = None
    version: str | None = None

    @property
    def skip(self) -> str | None:
        return self.spec.skip if self.spec is not None else None


def _user(name: str, value, source: str, cwd: pathlib.Path) -> Declared:
    if name in SHIPPED:
        raise UsageError(f"validator {name!r}: the name of a shipped validator; choose another")
    try:
        spec = manifests.user_spec(name, value, source, cwd)
    except manifests.ManifestError as exc:
        raise UsageError(str(exc).replace("oracle ", "validator ", 1)) from None
    if not (isinstance(value, dict) and "role" in value):
        spec.role = "validator"   # the table of validators: a validator's contract
    if spec.callable:
        return Declared(name, spec=dataclasses.replace(spec, kind="validator"), target=spec.callable)
    return Declared(name, spec=dataclasses.replace(spec, kind="validator"))


def parse_flag(value: str, cwd: pathlib.Path | None = None, progress=print) -> Declared:
    """One ``--oracle`` value (module docstring); UsageError (one line) when it is bad."""
    cwd = cwd or pathlib.Path.cwd()
    name, eq, rest = value.partition("=")
    name = name.strip()
    if eq:
        if not name or not rest.strip():
            raise UsageError(f"--oracle {value!r}: expected NAME, NAME@VERSION, NAME=COMMAND or NAME=py:module:function")
        return _user(name, rest.strip(), "flag", cwd)
    base, at, version = name.partition("@")
    if at and version and base not in SHIPPED:
        mine = _user_validator(base, cwd)
        if mine is not None:   # a user's validator that names its package: that release installed
            spec = installs.release(mine, version, log=progress)
            return Declared(f"{base}@{version}", spec=dataclasses.replace(spec, kind="validator"),
                            base=base, version=version)
    if not at and base not in SHIPPED:
        mine = _user_validator(base, cwd)
        if mine is not None:   # a [tool.urlwb.validators] entry, named as the finding's command names it
            return Declared(base, spec=mine, target=mine.callable)
        if base in REFUSED:
            raise UsageError(REFUSED[base])
    if base not in SHIPPED:
        raise UsageError(f"--oracle {value!r}: unknown validator {base!r} (shipped: {', '.join(SHIPPED)}; "
                         "or NAME=COMMAND, NAME=py:module:function)")
    if not at:
        return Declared(base, spec=SHIPPED[base], base=base)
    if not version:
        raise UsageError(f"--oracle {value!r}: no version after '@'")
    spec = install.release(SHIPPED[base], version, progress)
    return Declared(f"{base}@{version}", spec=spec, base=base, version=version)


def _user_validator(name: str, cwd: pathlib.Path) -> manifests.Spec | None:
    """The ``[tool.urlwb.validators]`` entry ``name`` (its spec, kind validator), or None."""
    for d in config(cwd):
        if d.name == name:
            return d.spec
    return None


def project_of(name: str, cwd: pathlib.Path | None = None) -> pathlib.Path | None:
    """The folder whose table declares the user's validator ``name`` (``NAME@VERSION`` too), where
    its finding's command runs; None for a shipped one or a flag's."""
    base = name.partition("@")[0]
    cwd = cwd or pathlib.Path.cwd()
    if base in SHIPPED:
        return None
    try:
        return cwd if _user_validator(base, cwd) is not None else None
    except UsageError:
        return None


def config(cwd: pathlib.Path | None = None) -> list[Declared]:
    """The ``[tool.urlwb.validators]`` entries of ``urlwb.toml`` and ``pyproject.toml``."""
    cwd = cwd or pathlib.Path.cwd()
    out: list[Declared] = []
    try:
        for fname, name, value in manifests.config_tables("validators", "validator", cwd):
            try:
                out.append(_user(name, value, "config", cwd))
            except UsageError as exc:
                line = f"{fname}: {exc}"
                if REFUSED.get(name) != line:
                    print(f"urlwb: {line} (this validator is refused; the others run)", file=sys.stderr)
                REFUSED[name] = line
    except manifests.ManifestError as exc:
        raise UsageError(str(exc)) from None
    return out


def declared(flags: list[str] | None, cwd: pathlib.Path | None = None, progress=print) -> list[Declared]:
    """The flags' validators; without flags, the table's (``--validator``'s default, as its help
    says: a table entry that names a package runs only at a release, ``NAME@VERSION``, so adding
    the table's entries to the flags' would start it with nothing on its path); with neither,
    every shipped one."""
    flagged = [parse_flag(f, cwd, progress) for f in flags or []]
    if flagged:
        return flagged
    return config(cwd) or [Declared(n, spec=s, base=n) for n, s in SHIPPED.items()]


def start(entries: list[Declared]) -> tuple[dict[str, Validator], dict[str, str]]:
    """Start every validator: (name -> Validator, name -> one-line reason it was skipped)."""
    started: dict[str, Validator] = {}
    skipped: dict[str, str] = {}
    for d in entries:
        why = d.skip
        if why:
            skipped[d.name] = why
            continue
        try:
            started[d.name] = (CallableValidator(d.name, d.target) if d.target
                               else SubprocessValidator(d.spec, display=d.name))
        except oracles.Unavailable as exc:
            skipped[d.name] = str(exc)
    for name, v in list(started.items()):
        if isinstance(v, SubprocessValidator):
            try:
                v.ready()
            except oracles.Unavailable as exc:
                skipped[name] = str(exc)
                started.pop(name).close()
    return started, skipped
