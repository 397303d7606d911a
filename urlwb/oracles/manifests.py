"""Where oracles outside the process are declared: the shipped adapters' ``oracles.toml``
manifests, and the user's own (``--oracle NAME=...`` and ``[tool.urlwb.oracles]``).

Protocol and manifest format: ``docs/oracle-protocol.md``. This module only reads
declarations into :class:`Spec` records and says why one cannot run (a command not on PATH, a
build output missing); starting and feeding them is :mod:`urlwb.oracles.supervisor`'s job. It
imports nothing else of the workbench (but :mod:`urlwb.children`, which imports none, for its
probes), so that ``urlwb.oracles`` can read the manifests when it is imported.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tomllib

from urlwb import children

ROOT = pathlib.Path(__file__).resolve().parent
#: the shipped SSRF validators' folders (``urlwb/ssrf/validators/<folder>/oracles.toml``, kind
#: ``validator``): read here, below every job, so that urlwb.ssrf, ``urlwb oracle check`` and
#: ``make oracles`` name one place
VALIDATORS_ROOT = ROOT.parent / "ssrf" / "validators"
#: the real HTTP clients ``urlwb ssrf`` observes in its sealed network
#: (``urlwb/ssrf/observe/clients/<folder>/oracles.toml``, kind ``client``: a line protocol of their
#: own, urlwb/ssrf/observe/clients.py, not the oracle protocol)
CLIENTS_ROOT = ROOT.parent / "ssrf" / "observe" / "clients"
#: what the user runs to install and build the shipped adapters
BUILD_HINT = "run `make oracles`"
NAME = re.compile(r"[a-z0-9][a-z0-9_.-]*\Z")

_FOLDER_KEYS = {"language", "requires", "apt", "apt_for", "probe", "build", "family", "oracle"}
_ORACLE_KEYS = {"name", "command", "family", "kind", "deadline", "start_deadline", "max_input",
                "window", "max_restarts", "quirks", "needs", "env", "language", "requires", "probe",
                "loopback"}
#: seconds a readiness probe may take (a JVM or a compiler's preprocessor is the slow case)
PROBE_TIMEOUT = 20.0


class ManifestError(ValueError):
    """A declaration that cannot be read; the message is one line naming where."""


@dataclasses.dataclass
class Spec:
    """One oracle outside the process (or a ``py:`` callable), as declared.

    ``command`` is ready for ``subprocess.Popen`` (``{python}`` replaced), run in ``cwd``.
    ``family`` and ``kind`` are the declared ones until the hello line says otherwise.
    :attr:`skip` is the one-line reason it cannot run here, or None: a missing command or build
    output (``unready``, found when the manifest is read), else a failed ``probe`` (run when
    first asked, once per process)."""

    name: str
    command: list[str]
    cwd: pathlib.Path
    family: str = "other"
    kind: str = "url"
    language: str = "?"
    deadline: float = 5.0
    start_deadline: float = 10.0
    max_input: int = 1_000_000
    window: int = 256
    max_restarts: int = 3
    quirks: tuple[str, ...] = ()
    env: dict[str, str] = dataclasses.field(default_factory=dict)
    #: its network namespace's ``lo`` is brought up (urlwb.sandbox): it talks to a process of its
    #: own over 127.0.0.1 (Firefox's Marionette); it reaches nothing outside its namespace
    loopback: bool = False
    #: commands it needs on PATH: its folder's ``requires`` and its own
    requires: tuple[str, ...] = ()
    #: "manifest" (shipped, ``urlwb/oracles/<folder>/``), "flag" (``--oracle``) or "config"
    source: str = "manifest"
    folder: pathlib.Path | None = None
    #: for ``py:package.module:function``: that target, and no command
    callable: str | None = None
    #: why it cannot run, found without running anything (a command, a build output missing)
    unready: str | None = None
    #: a cheap command that exits 0 only when the oracle can start (``perl -MURI -e1``), run in
    #: ``cwd``; the folder's and the oracle's own, in that order
    probe: tuple[tuple[str, ...], ...] = ()
    #: the packages ``make oracles`` installs for it, named in a skip reason
    apt: tuple[str, ...] = ()
    #: a user's adapter: the registry package it runs (``npm:parse-url``, ``pypi:Django``,
    #: ``maven:GROUP:ARTIFACT``, ``crates:NAME``, ``go:MODULE``), so that ``NAME@VERSION`` installs
    #: that release (:mod:`urlwb.oracles.versions.installs`); None for the shipped ones
    package: str | None = None
    #: where that package is fetched from when not the registry's public one: an npm registry URL,
    #: a PyPI index URL or a folder of wheels, a Maven repository URL (``file://`` too)
    registry: str | None = None
    #: its contract: whatwg, rfc3986, rfc3987, rfc2396 or own (read by the verdicts' registry)
    spec: str | None = None
    #: "parser" or "validator": what it is asked to do
    role: str | None = None
    #: the documentation of its contract (a URL)
    docs: str | None = None

    @property
    def skip(self) -> str | None:
        """The one-line reason this oracle cannot start here, or None when it can."""
        if self.unready:
            return self.unready
        for cmd in self.probe:
            why = run_probe(cmd, str(self.cwd))
            if why:
                return f"{why} ({BUILD_HINT}" + (f", which installs {' '.join(self.apt)})" if self.apt else ")")
        return None


@functools.lru_cache(maxsize=None)
def run_probe(cmd: tuple[str, ...], cwd: str) -> str | None:
    """Run a readiness probe once per process: None when it exits 0, else one line naming the
    probe and the first line it wrote (a missing Perl module, a missing C header)."""
    shown = " ".join(shlex.quote(a) for a in cmd)
    try:
        r = children.run(list(cmd), cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                         timeout=PROBE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"probe `{shown}` did not finish in {PROBE_TIMEOUT:g} s"
    except OSError as exc:
        return f"probe `{shown}` could not run ({exc.strerror or exc})"
    if r.returncode == 0:
        return None
    lines = [x for x in (r.stderr or r.stdout).decode("utf-8", "replace").splitlines() if x.strip()]
    said = lines[0].strip()[:160] if lines else "no output"
    return f"probe `{shown}` failed (status {r.returncode}: {said})"


@dataclasses.dataclass
class Folder:
    """One ``urlwb/oracles/<folder>/oracles.toml``: what ``make oracles`` installs and builds."""

    path: pathlib.Path
    language: str
    requires: list[str]
    #: Debian packages the folder needs, each installed when dpkg does not list it
    apt: list[str]
    build: str | None
    specs: list[Spec]
    error: str | None = None
    #: command -> the Debian package that provides it, installed only while the command is not on
    #: PATH (a toolchain such as Go, Node or a JDK often comes from elsewhere)
    apt_for: dict[str, str] = dataclasses.field(default_factory=dict)


def _fields(table: dict, where: str, base: Spec) -> Spec:
    """The per-oracle fields of ``table`` over ``base``, each type-checked."""
    unknown = set(table) - _ORACLE_KEYS
    if unknown:
        raise ManifestError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    spec = dataclasses.replace(base)

    def number(key, kind, low):
        v = table.get(key, getattr(base, key))
        if isinstance(v, bool) or not isinstance(v, (int, float) if kind is float else int) or not v >= low:
            raise ManifestError(f"{where}: {key} must be a number of at least {low}")
        return kind(v)

    spec.deadline = number("deadline", float, 0.001)
    spec.start_deadline = number("start_deadline", float, 0.001)
    spec.max_input = number("max_input", int, 1)
    spec.window = number("window", int, 1)
    spec.max_restarts = number("max_restarts", int, 0)
    for key in ("family", "kind", "language"):
        if key in table:
            if not isinstance(table[key], str):
                raise ManifestError(f"{where}: {key} must be a string")
            setattr(spec, key, table[key])
    if spec.family not in ("whatwg", "other"):
        raise ManifestError(f"{where}: family must be \"whatwg\" or \"other\", not {spec.family!r}")
    if spec.kind not in ("url", "host", "validator", "client"):
        raise ManifestError(f"{where}: kind must be \"url\", \"host\", \"validator\" or \"client\", not {spec.kind!r}")
    for key in ("quirks", "needs", "requires"):
        v = table.get(key, [])
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise ManifestError(f"{where}: {key} must be a list of strings")
    spec.quirks = tuple(table.get("quirks", base.quirks))
    if "loopback" in table:
        if not isinstance(table["loopback"], bool):
            raise ManifestError(f"{where}: loopback must be true or false")
        spec.loopback = table["loopback"]
    if "probe" in table:
        spec.probe = (*base.probe, _probe(table["probe"], where))
    spec.requires = (*base.requires, *table.get("requires", []))
    env = table.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise ManifestError(f"{where}: env must be a table of strings")
    spec.env = {**base.env, **env}
    return spec


def _command(value, where: str, cwd: pathlib.Path) -> list[str]:
    """A command from a list of strings or one shell-quoted string; ``{python}`` is this
    interpreter, a relative program path (``build/x``, ``./x``) is relative to ``cwd``."""
    if isinstance(value, str):
        try:
            value = shlex.split(value)
        except ValueError as exc:
            raise ManifestError(f"{where}: command: {exc}") from None
    if not isinstance(value, list) or not value or not all(isinstance(x, str) and x for x in value):
        raise ManifestError(f"{where}: command must be a non-empty list of strings")
    cmd = [a.replace("{python}", sys.executable) for a in value]
    if "/" in cmd[0] and not os.path.isabs(cmd[0]):
        cmd[0] = str(cwd / cmd[0])
    return cmd


def _probe(value, where: str) -> tuple[str, ...]:
    """A ``probe``: a non-empty list of strings (``{python}`` is this interpreter)."""
    if not isinstance(value, list) or not value or not all(isinstance(x, str) and x for x in value):
        raise ManifestError(f"{where}: probe must be a non-empty list of strings")
    return tuple(a.replace("{python}", sys.executable) for a in value)


def _missing_output(spec: Spec, needs: list[str]) -> str | None:
    """The first build output the oracle needs that is not there: ``needs`` (paths relative to
    its folder), the program itself when it is a path, and every argument under ``build/``."""
    paths = [spec.cwd / n for n in needs]
    if "/" in spec.command[0]:
        paths.append(pathlib.Path(spec.command[0]))
    paths += [spec.cwd / a for a in spec.command[1:] if a.startswith("build/")]
    for p in paths:
        if not p.exists():
            shown = p.relative_to(spec.cwd) if p.is_relative_to(spec.cwd) else p
            return f"{shown} is not built ({BUILD_HINT})"
    return None


def read_folder(manifest: pathlib.Path) -> Folder:
    """One manifest. A manifest that cannot be read gives a Folder with ``error`` set."""
    folder = manifest.parent
    where = str(manifest.relative_to(ROOT.parent.parent)) if manifest.is_relative_to(ROOT.parent.parent) else str(manifest)
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
        unknown = set(data) - _FOLDER_KEYS
        if unknown:
            raise ManifestError(f"{where}: unknown field {sorted(unknown)[0]!r}")
        language = data.get("language", "?")
        requires, apt, build = data.get("requires", []), data.get("apt", []), data.get("build")
        for key, v in (("requires", requires), ("apt", apt)):
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise ManifestError(f"{where}: {key} must be a list of strings")
        apt_for = data.get("apt_for", {})
        if not isinstance(apt_for, dict) or not all(isinstance(v, str) for v in apt_for.values()):
            raise ManifestError(f"{where}: apt_for must be a table of command = \"package\"")
        probe = (_probe(data["probe"], where),) if "probe" in data else ()
        packages = tuple(dict.fromkeys([*apt, *apt_for.values()]))
        if build is not None and not isinstance(build, str):
            raise ManifestError(f"{where}: build must be a string")
        tables = data.get("oracle", [])
        if not isinstance(tables, list) or not tables:
            raise ManifestError(f"{where}: no [[oracle]] table")
        base = Spec(name="", command=[], cwd=folder, language=language, folder=folder,
                    family=data.get("family", "other"), requires=tuple(requires), probe=probe,
                    apt=packages)
        specs = []
        for n, table in enumerate(tables, 1):
            w = f"{where} oracle {n}"
            name = table.get("name")
            if not isinstance(name, str) or not NAME.match(name):
                raise ManifestError(f"{w}: name must match {NAME.pattern[:-2]}")
            spec = _fields({k: v for k, v in table.items() if k not in ("name", "command")}, f"{where} {name}", base)
            spec.name = name
            spec.command = _command(table.get("command"), f"{where} {name}", folder)
            missing = [c for c in spec.requires if shutil.which(c) is None]
            if missing:
                spec.unready = f"{', '.join(missing)} not found on PATH ({BUILD_HINT}" + (
                    f", which installs {' '.join(packages)})" if packages else ")")
            else:
                spec.unready = _missing_output(spec, table.get("needs", []))
            specs.append(spec)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ManifestError) as exc:
        msg = str(exc) if isinstance(exc, ManifestError) else f"{where}: {exc}"
        return Folder(folder, "?", [], [], None, [], error=msg)
    return Folder(folder, language, requires, apt, build, specs, apt_for=dict(apt_for))


def discover(root: pathlib.Path = ROOT) -> list[Folder]:
    """Every ``<root>/*/oracles.toml``, in folder order."""
    return [read_folder(m) for m in sorted(root.glob("*/oracles.toml"))]


# --- the user's own oracles ----------------------------------------------------------------------

def user_spec(name: str, value, source: str, cwd: pathlib.Path | None = None) -> Spec:
    """``NAME`` and ``CMD`` / ``py:package.module:function`` / a table of manifest fields with a
    ``command``, as given by ``--oracle`` or a ``[tool.urlwb.oracles]`` entry."""
    cwd = cwd or pathlib.Path.cwd()
    where = f"oracle {name!r}"
    if not NAME.match(name):
        raise ManifestError(f"{where}: a name is lowercase letters, digits and . _ - (e.g. mine)")
    base = Spec(name=name, command=[], cwd=cwd, source=source)
    table = {}
    if isinstance(value, dict):
        table = dict(value)
        value = table.pop("command", None)
        if value is None:
            raise ManifestError(f"{where}: no command")
        base = _contract(table, where, base)
    if isinstance(value, str) and value.startswith("py:"):
        target = value[3:]
        module, _, function = target.partition(":")
        if not module or not function or not all(p.isidentifier() for p in module.split(".") + [function]):
            raise ManifestError(f"{where}: expected py:package.module:function, got {value!r}")
        spec = _fields(table, where, base)
        spec.callable = target
        return _role(spec)
    spec = _role(_fields(table, where, base))
    spec.command = _command(value, where, cwd)
    program = spec.command[0]
    if (spec.package or "").startswith("pypi:") and program in ("python", "python3"):
        return spec   # the release's venv gives it (urlwb.oracles.versions.installs)
    if ("/" in program and not os.access(program, os.X_OK)) or ("/" not in program and shutil.which(program) is None):
        raise ManifestError(f"{where}: {program} is not an executable program")
    return spec


#: the registries a user's ``package`` may name, and what follows the colon
PACKAGE_REGISTRIES = {"npm": "NAME", "pypi": "NAME", "maven": "GROUP:ARTIFACT", "crates": "NAME", "go": "MODULE"}
#: the contracts a user's adapter may declare (``spec``)
CONTRACTS = ("whatwg", "rfc3986", "rfc3987", "rfc2396", "own")
ROLES = ("parser", "validator")
_PACKAGE_NAME = re.compile(r"[A-Za-z0-9@._~/-][A-Za-z0-9@._~/+-]*\Z")


def _contract(table: dict, where: str, base: Spec) -> Spec:
    """Take a user's table's ``package``, ``registry``, ``spec``, ``role`` and ``docs`` out of
    ``table`` into ``base``, each checked (one line naming the key when wrong)."""
    got = {k: table.pop(k) for k in ("package", "registry", "spec", "role", "docs") if k in table}
    for key, v in got.items():
        if not isinstance(v, str) or not v.strip():
            raise ManifestError(f"{where}: {key} must be a non-empty string")
    package = got.get("package")
    if package is not None:
        registry, _, rest = package.partition(":")
        shape = PACKAGE_REGISTRIES.get(registry)
        parts = rest.split(":")
        if shape is None or not rest or len(parts) != shape.count(":") + 1 or not all(
                _PACKAGE_NAME.match(p) for p in parts):
            raise ManifestError(f"{where}: package must be one of " + ", ".join(
                f"{r}:{n}" for r, n in PACKAGE_REGISTRIES.items()) + f", not {package!r}")
    if "registry" in got and package is None:
        raise ManifestError(f"{where}: registry is where its package comes from: name the package too")
    if got.get("spec") is not None:
        spelled = contract_name(got["spec"])
        if spelled is None:
            raise ManifestError(f"{where}: spec must be one of {', '.join(CONTRACTS)} (RFC 3986, WHATWG ... "
                                f"are read as these), not {got['spec']!r}")
        got["spec"] = spelled
    if got.get("role") is not None:
        got["role"] = got["role"].strip().lower()
    if got.get("role") is not None and got["role"] not in ROLES:
        raise ManifestError(f"{where}: role must be \"parser\" or \"validator\", not {got['role']!r}")
    if got.get("docs") is not None and not re.match(r"https?://\S+\Z", got["docs"]):
        raise ManifestError(f"{where}: docs must be an http(s) URL, not {got['docs']!r}")
    return dataclasses.replace(base, **got)


#: how users write the contracts (``RFC 3986``, ``rfc-3986``, ``WHATWG``, ``URL Standard``), each
#: folded (lower case, no space, '-' or '_') to its name in :data:`CONTRACTS`
_CONTRACT_SPELLINGS = {**{c: c for c in CONTRACTS}, "whatwgurl": "whatwg", "urlstandard": "whatwg",
                       "whatwgurlstandard": "whatwg", "theurlstandard": "whatwg"}


def contract_name(text: str) -> str | None:
    """The contract a user's ``spec`` names, however spelled; None when it names none."""
    return _CONTRACT_SPELLINGS.get(re.sub(r"[\s_-]+", "", text.lower()))


def _role(spec: Spec) -> Spec:
    """A user's adapter's role when it names none: a validator's kind is a validator's role."""
    if spec.role is None:
        spec.role = "validator" if spec.kind == "validator" else "parser"
    return spec


def parse_flag(value: str) -> Spec:
    """One ``--oracle NAME=CMD`` or ``--oracle NAME=py:package.module:function``."""
    name, eq, rest = value.partition("=")
    if not eq or not name or not rest.strip():
        raise ManifestError(f"--oracle {value!r}: expected NAME=COMMAND or NAME=py:package.module:function")
    return user_spec(name.strip(), rest.strip(), "flag")


def config_tables(section: str, what: str, cwd: pathlib.Path | None = None):
    """Each ``(file name, name, value)`` of the ``[tool.urlwb.<section>]`` tables of
    ``urlwb.toml`` and of ``pyproject.toml`` in ``cwd`` (both read; a name in both is an error),
    each value a command string or a table. ``what`` names an entry in the one-line errors
    (``oracle``, ``validator``)."""
    cwd = cwd or pathlib.Path.cwd()
    seen: set[str] = set()
    for fname in ("urlwb.toml", "pyproject.toml"):
        path = cwd / fname
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ManifestError(f"{fname}: {exc}") from None
        table = data.get("tool", {}).get("urlwb", {}).get(section)
        if table is None:
            continue
        if not isinstance(table, dict):
            raise ManifestError(f"{fname}: [tool.urlwb.{section}] must be a table")
        for name, value in table.items():
            if not isinstance(value, (str, dict)):
                raise ManifestError(f"{fname}: {what} {name!r}: expected a command string or a table")
            if name in seen:
                raise ManifestError(f"{fname}: {what} {name!r} is also declared in urlwb.toml")
            seen.add(name)
            yield fname, name, value


def config_specs(cwd: pathlib.Path | None = None, refused: dict[str, str] | None = None) -> list[Spec]:
    """The ``[tool.urlwb.oracles]`` table of ``urlwb.toml`` and of ``pyproject.toml`` in ``cwd``
    (both read; a name in both is an error). With ``refused`` (a dict), an entry that cannot be
    read is refused alone: its one line goes there by name, and the others are read on."""
    cwd = cwd or pathlib.Path.cwd()
    specs: list[Spec] = []
    for fname, name, value in config_tables("oracles", "oracle", cwd):
        try:
            specs.append(user_spec(name, value, "config", cwd))
        except ManifestError as exc:
            if refused is None:
                raise ManifestError(f"{fname}: {exc}") from None
            refused[name] = f"{fname}: {exc}"
    return specs
