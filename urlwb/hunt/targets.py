"""The parsers ``urlwb hunt`` can guide, and what is instrumented in each.

A target is an oracle of :data:`urlwb.oracles.REGISTRY` (its name, which the judge asks) and the
code whose coverage guides the fuzzer: for a Python parser the modules atheris instruments (the
parser's own package, nothing else: not the engine, not the workbench); for Go the package whose
coverage ``go test -fuzz`` follows and measures; for a JVM parser Jazzer's
``--instrumentation_includes``; for Rust the crates compiled with SanitizerCoverage (the
harness's dependency tree: ``url`` and what it uses; std is precompiled, not instrumented); for
an npm parser (shipped, or a user's program run by ``node``) the folders whose scripts' V8 block
coverage is read (:func:`js_roots`; ``urlwb/hunt/js_fuzz.py``). Each parser's card says which
(its ``[oracle.hunt]`` table: ``language``, ``instrument``, ``harness``); a parser that cannot be
guided says why in one line there (``unguided``).
"""

from __future__ import annotations

import dataclasses
import os
import pathlib

from urlwb import oracles
from urlwb.errors import UsageError


@dataclasses.dataclass(frozen=True)
class Target:
    name: str                    # the oracle the judge asks (urlwb.oracles.REGISTRY)
    language: str                # "python", "go", "jvm", "rust" or "js"
    instrument: tuple[str, ...]  # python: modules; go: packages; jvm: class patterns; rust: crates; js: folders
    harness: str = ""            # go: the fuzz function; jvm: the parser the harness calls; rust: the binary
    #: another released version (``PARSER@VERSION``): its build folder in the versions cache
    #: (urlwb.oracles.versions.builds), None for the shipped one
    build: pathlib.Path | None = None
    #: a user's ``py:`` adapter at a release: the ``--oracle`` flag that declares it in the
    #: fuzzing child, and the folders its module is imported from (the user's project)
    flags: tuple[str, ...] = ()
    path: tuple[str, ...] = ()

    @property
    def base(self) -> str:
        """The shipped parser's name (``yarl`` for ``yarl@1.4.2``)."""
        return self.name.partition("@")[0]


def resolve(name: str, instrument: list[str] | None = None) -> Target:
    """The target for oracle ``name``, as its card's ``[oracle.hunt]`` table says (a user's
    ``[tool.urlwb.oracles.NAME.hunt]`` as a shipped one's); ``instrument`` overrides what a Python,
    JVM or npm target instruments. A user's ``py:`` oracle without one (registered by
    ``oracles.configure``) is instrumented in its own top-level package unless ``instrument`` names
    modules, an oracle started by ``node`` in its script's folder. ``PARSER@VERSION`` is that
    parser's target on that release, built (or found) in the versions cache first and registered as
    an oracle of that name, which the judge asks. UsageError (one line) for an unknown or unguidable
    parser, or a version that cannot be had."""
    if "@" in name:
        return _versioned(name, instrument)
    entry = oracles.REGISTRY.get(name)
    hunt = (entry.card.hunt if entry is not None and entry.card is not None else None) or {}
    if "language" in hunt:
        language, own = hunt["language"], tuple(hunt.get("instrument", ()))
        chosen = own if language in ("go", "rust") else tuple(instrument or own)
        return Target(name, language, chosen, hunt.get("harness", ""))
    if "unguided" in hunt:
        raise UsageError(f"{name}: cannot be hunted: {hunt['unguided']}")
    if entry is not None and _runs_on_node(entry.spec):
        return Target(name, "js", tuple(instrument or ()))
    if entry is not None and entry.spec is not None and entry.spec.callable:
        module = entry.spec.callable.partition(":")[0]
        return Target(name, "python", tuple(instrument or [module.split(".")[0]]))
    if entry is not None:
        raise UsageError(f"{name}: no guided harness for it (huntable: {', '.join(huntable())}, "
                         f"or your own with --oracle NAME=py:package.module:function)")
    raise UsageError(f"unknown parser {name!r} (huntable: {', '.join(huntable())})")


def huntable() -> list[str]:
    """The parsers whose card says what guides a hunt in them, in the registry's order."""
    return [n for n, e in oracles.REGISTRY.items()
            if e.card is not None and "language" in (e.card.hunt or {}) and "@" not in n]


def _runs_on_node(spec) -> bool:
    """A program oracle started by ``node`` (a user's npm adapter: ``node parse-url.mjs``)."""
    return bool(spec is not None and spec.command and os.path.basename(spec.command[0]) in ("node", "nodejs"))


def js_roots(target: Target) -> list[pathlib.Path]:
    """The folders whose scripts' coverage guides a JavaScript hunt: ``target.instrument``
    relative to the oracle's folder (its ``cwd``), or, when none is named, the folder of the
    script ``node`` runs and every NODE_PATH folder of its environment (where a release
    installed for it is found). UsageError when one does not exist."""
    spec = oracles.REGISTRY[target.name].spec
    if target.instrument:
        roots = [(spec.cwd / p).resolve() for p in target.instrument]
    else:
        script = next((spec.cwd / a for a in spec.command[1:] if not a.startswith("-")
                       and (spec.cwd / a).is_file()), None)
        roots = [script.resolve().parent] if script is not None else [spec.cwd.resolve()]
        node_path = spec.env.get("NODE_PATH") or ""
        roots += [pathlib.Path(p).resolve() for p in node_path.split(os.pathsep) if p]
    missing = [str(r) for r in roots if not r.exists()]
    if missing:
        raise UsageError(f"{target.name}: no such folder to follow the coverage of: {missing[0]}")
    return roots


def _versioned(ref: str, instrument: list[str] | None) -> Target:
    from urlwb.oracles.versions import builds, names
    parser, version = names.split(ref)
    if parser not in oracles.REGISTRY and names.user_spec(parser) is not None:
        # a user's adapter that names its package ([tool.urlwb.oracles]): that release installed,
        # the adapter started with it; an npm one is guided by V8 coverage of its NODE_PATH too
        mine = names.user_spec(parser)
        name = names.register(ref)
        entry = oracles.REGISTRY.get(name)
        if entry is not None and _runs_on_node(entry.spec):
            return Target(name, "js", tuple(instrument or ()))
        if entry is not None and mine.callable and (mine.package or "").startswith("pypi:"):
            # the fuzzing child runs the py: adapter in process with the release's site-packages
            # first on its path; the judge asks NAME@VERSION (out of process, in the venv)
            module = mine.callable.partition(":")[0]
            return Target(name, "python", tuple(instrument or [*top_level(entry.spec.folder), module.split(".")[0]]),
                          build=entry.spec.folder, flags=(f"{parser}=py:{mine.callable}",), path=(str(mine.cwd),))
        raise UsageError(f"{ref}: a user's adapter at a release is hunted when node runs it (npm) or it is "
                         "a py:package.module:function adapter of a pypi package")
    shipped = resolve(parser, instrument)   # the unknown and the unguidable say so first
    if shipped.language == "go":
        raise UsageError(f"{ref}: net/url ships with the Go toolchain, and this machine has one "
                         f"Go (go-net-url has no registry version)")
    name = names.register(ref)
    return dataclasses.replace(shipped, name=name, build=builds.build_dir(parser, version))


def top_level(folder: pathlib.Path) -> list[str]:
    """The importable top-level names a release installed in ``folder/venv`` (each
    distribution's ``RECORD``: its first path parts that are a package or a module, not the
    dist-info, scripts or ``..``), so that a hunt of a user's ``py:`` adapter is guided by the
    package's own code."""
    names: set[str] = set()
    for record in sorted(folder.glob("venv/lib/python*/site-packages/*.dist-info/RECORD")):
        for line in record.read_text(encoding="utf-8", errors="replace").splitlines():
            first = line.split(",", 1)[0].split("/", 1)
            top = first[0]
            if top.endswith((".dist-info", ".data")) or top in ("..", "__pycache__") or not top:
                continue
            if len(first) == 2 or top.endswith(".py"):
                name = top.removesuffix(".py")
                if name.isidentifier():
                    names.add(name)
    return sorted(names)


def python_path(target: Target) -> str | None:
    """For a Python parser at another version: the site-packages of its venv, which goes first
    on the fuzzing (and reach) child's PYTHONPATH, so that the child imports that release (and
    its own dependencies' releases) under the shipped oracle class; None for the shipped one."""
    if target.build is None or target.language != "python":
        return None
    found = sorted((target.build / "venv" / "lib").glob("python*/site-packages"))
    if not found:
        raise UsageError(f"{target.name}: its venv has no site-packages ({target.build / 'venv'})")
    return os.pathsep.join([str(found[0]), *target.path])


def child_env(target: Target, env: dict) -> dict:
    """``env`` with :func:`python_path` first on PYTHONPATH (unchanged for a shipped parser)."""
    extra = python_path(target)
    if extra is None:
        return env
    return {**env, "PYTHONPATH": os.pathsep.join(p for p in (extra, env.get("PYTHONPATH", "")) if p)}
