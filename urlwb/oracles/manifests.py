"""Where oracles outside the process are declared: the shipped adapters' ``oracles.toml``
manifests, and the user's own (``--oracle NAME=...`` and ``[tool.urlwb.oracles]``).

Protocol and manifest format: ``docs/oracle-protocol.md``. This module only reads
declarations into :class:`Spec` records and says why one cannot run (a command not on PATH, a
build output missing); starting and feeding them is :mod:`urlwb.oracles.supervisor`'s job. It
imports nothing else of the workbench (but :mod:`urlwb.children`, which imports none, for its
probes, and :mod:`urlwb.oracles.cards`, the card schema every ``[[oracle]]`` table and user's entry
is held to before its fields are read), so that ``urlwb.oracles`` can read the manifests when it
is imported.
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
from urlwb.oracles.cards import CardError, check as check_card

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
#: set to 1, every shipped adapter that only ``make oracles`` sets up (a folder with a ``build`` or
#: ``apt`` line, but those ``make setup`` builds itself) reads as not built: the workbench as a clone
#: sees it before ``make oracles`` ran, on a machine where it did (tests/workbench/test_fresh_clone.py)
HIDE_ENV = "URLWB_HIDE_BUILT"
#: the folders ``make setup`` builds (the Makefile's ``node`` target), which a fresh clone has too
SETUP_BUILDS = (ROOT / "node",)
#: the commands a new machine of this project's kind has before ``make oracles`` (Go, CPython,
#: Rust, OpenJDK with Maven, Node with npm, gcc with make: the env skill's machines/polyglot.md)
NEW_MACHINE_HAS = frozenset({"python3", "go", "cargo", "java", "javac", "mvn", "node", "npm", "cc",
                             "gcc", "make", "sh", "perl"})
NAME = re.compile(r"[a-z0-9][a-z0-9_.-]*\Z")

_FOLDER_KEYS = {"language", "requires", "apt", "apt_for", "probe", "build", "family", "oracle"}
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
    #: a shipped one that only ``make oracles`` makes ready: it needs what its folder's ``build``
    #: makes, a probe of what its ``apt`` installs, or a command its ``apt`` brings
    made_by_oracles: bool = False
    #: its known deviations, as its card lists them: (``when``, ``reason`` or None), ``when``
    #: naming a predicate of :mod:`urlwb.oracles.deviations` or ``py:package.module:function``
    deviations: tuple[tuple[str, str | None], ...] = ()
    #: an in-process parser (``in_process.toml``): ``module:Factory`` under ``urlwb.oracles``
    adapter: str | None = None
    #: what ``urlwb reach`` measures of it (``tool``, ``code``, ``jars``, ``note``) or why it does not
    #: (``unmeasured``): urlwb.reach.targets
    reach: dict | None = None
    #: what guides ``urlwb hunt`` in it (``language``, ``instrument``, ``harness``) or why nothing
    #: can (``unguided``): urlwb.hunt.targets
    hunt: dict | None = None
    #: its standalone reproducer: a template of urlwb.findings.reproduce by name and its slots
    reproducer: dict | None = None
    #: where its maintainers take reports (a bug's draft names it)
    tracker: str | None = None
    #: its findings as tests in its own language (``urlwb export tests``): the suite's language,
    #: the read template by name, and what the suite must know of its API
    export: dict | None = None
    #: a client (kind ``client``): the parser of the registry it fetches with, which the SSRF
    #: resolver model reads it by (urlwb.ssrf.observe.model)
    parser: str | None = None

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


#: the longest deadline an oracle may declare: an hour (``inf`` would overflow every clock)
MOST_SECONDS = 3600.0


def _card(table: dict, where: str) -> dict:
    """``table`` held to the card schema (:mod:`urlwb.oracles.cards`): ManifestError, one line
    naming the key, when it does not fit."""
    try:
        return check_card(table, where)
    except CardError as exc:
        raise ManifestError(str(exc)) from None


def _fields(table: dict, where: str, base: Spec) -> Spec:
    """The per-oracle fields of ``table`` (a card, already held to the schema) over ``base``."""
    spec = dataclasses.replace(base)

    def number(key, kind, low, high):
        v = table.get(key, getattr(base, key))
        if (isinstance(v, bool) or not isinstance(v, (int, float) if kind is float else int)
                or not low <= v <= high):   # nan fails both; inf fails the bound (a deadline past any clock)
            raise ManifestError(f"{where}: {key} must be a number from {low:g} to {high:g}, not {v!r:.40}")
        return kind(v)

    spec.deadline = number("deadline", float, 0.001, MOST_SECONDS)
    spec.start_deadline = number("start_deadline", float, 0.001, MOST_SECONDS)
    spec.max_input = number("max_input", int, 1, 10**9)
    spec.window = number("window", int, 1, 10**6)
    spec.max_restarts = number("max_restarts", int, 0, 10**6)
    for key in ("family", "kind", "language"):
        if key in table:
            setattr(spec, key, table[key])
    # a folder's own family (its default) is not a card's: checked here
    if spec.family not in ("whatwg", "other"):
        raise ManifestError(f"{where}: family must be \"whatwg\" or \"other\", not {spec.family!r}")
    spec.quirks = tuple(table.get("quirks", base.quirks))
    spec.loopback = table.get("loopback", base.loopback)
    if "probe" in table:
        spec.probe = (*base.probe, _probe(table["probe"], where))
    spec.requires = (*base.requires, *table.get("requires", []))
    spec.env = {**base.env, **table.get("env", {})}
    spec.deviations = tuple((d["when"], d.get("reason")) for d in table.get("deviations", ()))
    spec.reach, spec.hunt = table.get("reach", base.reach), table.get("hunt", base.hunt)
    spec.reproducer = table.get("reproducer", base.reproducer)
    spec.tracker = table.get("tracker", base.tracker)
    spec.export = table.get("export", base.export)
    spec.parser = table.get("parser", base.parser)
    return spec


def _command(value, where: str, cwd: pathlib.Path) -> list[str]:
    """A command from a list of strings or one shell-quoted string; ``{python}`` is this
    interpreter, a relative program path (``build/x``, ``./x``) is relative to ``cwd``."""
    if isinstance(value, str):
        try:
            value = shlex.split(value)
        except ValueError as exc:
            raise ManifestError(f"{where}: command: {exc}") from None
    if not value:
        raise ManifestError(f"{where}: command must be a non-empty list of strings, or one shell-quoted string")
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


def _made_by_oracles(spec: Spec, needs: list[str], build: str | None, apt: list[str]) -> bool:
    """Whether only ``make oracles`` makes ``spec`` ready on a new machine: it needs an output of
    its folder's ``build``, a probe checks what its folder's ``apt`` installs, or it requires a
    command a new machine lacks (:data:`NEW_MACHINE_HAS`)."""
    if spec.folder in SETUP_BUILDS:
        return False
    outputs = bool(needs) or spec.command[0].startswith(str(spec.cwd) + os.sep) or any(
        a.startswith("build/") for a in spec.command[1:])
    probes_apt = bool(apt) and any(cmd[0] != sys.executable for cmd in spec.probe)
    return bool(build and outputs) or probes_apt or any(c not in NEW_MACHINE_HAS for c in spec.requires)


def _hidden(folder: pathlib.Path) -> bool:
    """Whether :data:`HIDE_ENV` hides what ``make oracles`` built in ``folder`` (a shipped one)."""
    return (os.environ.get(HIDE_ENV) == "1"
            and any(folder.is_relative_to(r) for r in (ROOT, VALIDATORS_ROOT, CLIENTS_ROOT)))


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
            name = table.get("name") if isinstance(table, dict) else None
            _card(table, f"{where} {name}" if isinstance(name, str) and NAME.match(name) else f"{where} oracle {n}")
            spec = _fields({k: v for k, v in table.items() if k not in ("name", "command")}, f"{where} {name}", base)
            spec.name = name
            spec.command = _command(table.get("command"), f"{where} {name}", folder)
            missing = [c for c in spec.requires if shutil.which(c) is None]
            if missing:
                spec.unready = f"{', '.join(missing)} not found on PATH ({BUILD_HINT}" + (
                    f", which installs {' '.join(packages)})" if packages else ")")
            else:
                spec.unready = _missing_output(spec, table.get("needs", []))
            needs = table.get("needs", [])
            spec.made_by_oracles = _made_by_oracles(spec, needs, build, apt)
            if spec.unready is None and spec.made_by_oracles and _hidden(folder):
                spec.unready = f"hidden by {HIDE_ENV}=1, as on a clone where `make oracles` has not run"
            specs.append(spec)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ManifestError) as exc:
        msg = str(exc) if isinstance(exc, ManifestError) else f"{where}: {exc}"
        return Folder(folder, "?", [], [], None, [], error=msg)
    return Folder(folder, language, requires, apt, build, specs, apt_for=dict(apt_for))


#: the cards of the parsers that run in the workbench's own process
IN_PROCESS = ROOT / "in_process.toml"


def read_in_process(path: pathlib.Path = IN_PROCESS) -> list[Spec]:
    """The in-process parsers' cards: each ``[[oracle]]`` with an ``adapter`` (``module:Factory``
    under ``urlwb.oracles``) where a program's card has its ``command``. ManifestError (one line)
    for a card that cannot be read: these are the workbench's own."""
    where = path.name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ManifestError(f"{where}: {exc}") from None
    specs = []
    for n, table in enumerate(data.get("oracle", []), 1):
        name, adapter = table.get("name"), table.get("adapter")
        _card(table, f"{where} {name}" if isinstance(name, str) and NAME.match(name) else f"{where} oracle {n}")
        if adapter is None:
            raise ManifestError(f"{where} {name}: an in-process card has an adapter (module:Factory), not a command")
        rest = {k: v for k, v in table.items() if k not in ("name", "adapter")}
        spec = _fields(rest, f"{where} {name}", Spec(name=name, command=[], cwd=ROOT, source="in-process"))
        spec.adapter = adapter
        specs.append(spec)
    return specs


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
    _card({"name": name, **value} if isinstance(value, dict) else {"name": name, "command": value}, where)
    if isinstance(value, dict) and "adapter" in value:
        raise ManifestError(f"{where}: adapter is for the workbench's in-process parsers; "
                            "yours is command = \"py:package.module:function\"")
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


def tool_tables(cwd: pathlib.Path | None = None):
    """Each ``(file name, its [tool.urlwb] table)`` of ``urlwb.toml`` and ``pyproject.toml`` in
    ``cwd`` (those that exist); a file that is not TOML is a ManifestError naming it."""
    cwd = cwd or pathlib.Path.cwd()
    for fname in ("urlwb.toml", "pyproject.toml"):
        path = cwd / fname
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ManifestError(f"{fname}: {exc}") from None
        yield fname, data.get("tool", {}).get("urlwb", {})


def config_tables(section: str, what: str, cwd: pathlib.Path | None = None):
    """Each ``(file name, name, value)`` of the ``[tool.urlwb.<section>]`` tables of
    ``urlwb.toml`` and of ``pyproject.toml`` in ``cwd`` (both read; a name in both is an error),
    each value a command string or a table. ``what`` names an entry in the one-line errors
    (``oracle``, ``validator``)."""
    seen: set[str] = set()
    for fname, tool in tool_tables(cwd):
        table = tool.get(section)
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
