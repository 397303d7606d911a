#!/usr/bin/env python3
"""The lowest dependency versions pyproject.toml admits, tested: a CI step.

    python3 scripts/lowest_versions.py [--venv DIR] [--keep]

Creates a separate virtual environment, installs in it each runtime dependency of
pyproject.toml, and pytest from the ``test`` extra, at exactly the lowest version its ``>=``
admits (their own dependencies as pip resolves them: uv's ``--resolution lowest-direct``), then
the project itself (a built wheel, without dependencies, so that what is tested is what installs),
and runs from outside the checkout, against that installed wheel:

- the conformance tests (the WPT data, IdnaTestV2 and toascii, the PSL tests), and the tests of
  the engine's generated data (their comparisons with the ``idna`` and ``publicsuffixlist``
  packages skip: those are not installed, being no runtime dependency);

then, in the same environment, at the same minimums, on the checkout's code (``PYTHONPATH`` the
checkout: these read the vendored WPT data, ``fuzzers/`` and ``corpus/``, and the wheel carries no
tests), in a second pytest run:

- the quicker Hypothesis properties and one state machine (``ci`` profile), for hypothesis's
  minimum (the other properties are left to ``make test``);
- a differential round's report (Markdown rendered to HTML), for markdown-it-py's minimum;
- two fuzz targets run by libFuzzer as OSS-Fuzz runs them, for atheris's minimum.

A minimum that fails here is to be raised to the lowest version that passes. Exit status: that of
pytest, or 2 when a dependency is not written ``name>=version`` or cannot be installed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = [
    # conformance (the encoders' every-scalar-value tests, which no dependency touches, are left
    # to ``make test``)
    "tests/engine/test_url_parsing.py", "tests/engine/test_setters.py", "tests/engine/test_hosts.py", "tests/engine/test_psl.py",
    "tests/engine/test_percent_encoding.py", "tests/engine/test_validation_errors.py", "tests/engine/test_punycode.py",
    "tests/engine/test_api.py",
    # the engine's own data
    "tests/engine/test_idna_tables.py", "tests/engine/test_engine_data.py",
]
#: The workbench's, on the checkout's code (it reads the vendored data, fuzzers/ and corpus/).
CHECKOUT_TESTS = [
    # hypothesis: given-tests, the profiles, one state machine (the wheel ships properties/ without
    # its tests, which are the checkout's)
    "properties/test_urls.py", "properties/test_urlencoded.py", "properties/test_percent.py",
    "properties/test_profiles.py", "properties/test_machines.py::TestSearchParams",
    # markdown-it-py: a differential round's report, Markdown and HTML
    "tests/workbench/test_differential.py::test_campaign_round_returns_markdown_and_summary",
    # atheris
    "tests/workbench/test_fuzzers.py::test_runs_as_oss_fuzz_runs_it[url]",
    "tests/workbench/test_fuzzers.py::test_runs_as_oss_fuzz_runs_it[idna]",
]
#: a sitecustomize for the wheel's run: ``engine`` and ``properties`` (and their submodules) are
#: the installed ``urlwb._engine`` and ``urlwb._properties``, the very module objects
CHECKOUT_NAMES = '''"""The checkout's names for the wheel's packages (scripts/lowest_versions.py).

``engine`` and ``properties`` (and their submodules) are the installed ``urlwb._engine`` and
``urlwb._properties``, the very module objects, unless a real ``engine`` is on sys.path (a
checkout as the working folder): then that one, as without this file.
"""
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys

MOVED = {"engine": "urlwb._engine", "properties": "urlwb._properties"}


class _Same(importlib.abc.Loader):
    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self.spec = module.__spec__   # the import system sets the alias's spec on it next
        return module

    def exec_module(self, module):
        module.__spec__ = self.spec


class CheckoutNames(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top, dot, rest = name.partition(".")
        if top not in MOVED:
            return None
        if not dot:
            real = importlib.machinery.PathFinder.find_spec(name, path)
            if real is not None and real.origin is not None:   # a module or package of its own
                return None
        elif getattr(sys.modules.get(top), "__name__", None) != MOVED[top]:
            return None
        moved = MOVED[top] + dot + rest
        try:
            if importlib.util.find_spec(moved) is None:
                return None
        except ModuleNotFoundError:
            return None
        importlib.import_module(moved)
        # every submodule already loaded under its wheel name gets its checkout name too, so that
        # importing it again sets no attribute on the package (engine.public_suffix, the function,
        # would become the module of that name)
        for loaded in [m for m in sys.modules if m.startswith(MOVED[top] + ".")]:
            sys.modules.setdefault(top + loaded[len(MOVED[top]):], sys.modules[loaded])
        return importlib.util.spec_from_loader(name, _Same(moved))


sys.meta_path.insert(0, CheckoutNames())
'''
_LOWER_BOUND = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)\s*>=\s*([0-9][0-9A-Za-z.]*)")


def lowest_pins(pyproject: dict) -> list[str]:
    """``name==version`` for each runtime dependency (``dependencies`` and the ``workbench``
    extra) and for pytest, at its ``>=`` bound."""
    project = pyproject["project"]
    # the runtime dependencies: the strategies' own, and the workbench extra (the urlwb command's)
    wanted = list(project["dependencies"]) + list(project["optional-dependencies"].get("workbench", []))
    # pytest itself, not its plugins (the lowest-versions run is one process, without coverage)
    wanted += [r for r in project["optional-dependencies"]["test"]
               if re.match(r"pytest\s*(>=|$)", r.strip())]
    pins = []
    for requirement in wanted:
        match = _LOWER_BOUND.fullmatch(requirement.strip())
        if match is None:
            raise SystemExit(f"lowest_versions: cannot tell the lowest version of {requirement!r} "
                             "(write it as name>=version)")
        pins.append(f"{match[1]}=={match[2]}")
    return pins


def clean_copy(dest: Path) -> Path:
    """The files the project's wheel is built from, copied: pip builds in the source folder, and a
    build/ left there from an earlier build could put files no longer in the checkout in the
    wheel (and the checkout stays untouched)."""
    dest.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    for package in ("engine", "urlwb", "properties"):
        shutil.copytree(ROOT / package, dest / package,
                        ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    return dest


def run(argv: list[str], **kwargs) -> int:
    print("+ " + " ".join(argv), flush=True)
    return subprocess.run(argv, **kwargs).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", type=Path, help="where to create the environment (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the environment afterwards")
    args = parser.parse_args(argv)
    pins = lowest_pins(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8")))
    work = Path(tempfile.mkdtemp(prefix="urlwb-lowest-"))
    env_dir = args.venv or work / "venv"
    try:
        venv.create(env_dir, clear=True, with_pip=True)
        python = str(env_dir / "bin" / "python")
        pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        if run([*pip, *pins]) != 0:
            print(f"lowest_versions: could not install {' '.join(pins)}", file=sys.stderr)
            return 2
        if run([*pip, "--no-deps", str(clean_copy(work / "src"))]) != 0:
            print("lowest_versions: could not install the project", file=sys.stderr)
            return 2
        run([python, "-m", "pip", "list", "--disable-pip-version-check", "--format=freeze"])
        # From a folder outside the checkout: ``import engine`` finds the installed wheel's
        # ``urlwb._engine`` (tests/ holds no package, so pytest puts only tests/ itself on
        # sys.path; its files come first). The tests say ``engine`` and ``properties``, the
        # checkout's names; the wheel ships them under ``urlwb`` (setup.py), so a sitecustomize
        # gives them those names: the same module objects, not copies.
        names = work / "checkout-names"
        names.mkdir()
        (names / "sitecustomize.py").write_text(CHECKOUT_NAMES, encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["URLWB_HYPOTHESIS_PROFILE"] = "ci"
        env["PYTHONPATH"] = str(names)
        where = subprocess.run([python, "-c", "import engine; print(engine.__file__)"], cwd=work, env=env,
                               capture_output=True, text=True)
        print(f"engine under test: {where.stdout.strip() or where.stderr.strip()}", flush=True)
        if not where.stdout.startswith(str(env_dir)):
            print("lowest_versions: the engine under test is not the installed wheel", file=sys.stderr)
            return 2
        pytest = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT),
                  "-c", str(ROOT / "pyproject.toml")]
        status = run([*pytest, *(str(ROOT / t) for t in TESTS)], cwd=work, env=env)
        checkout = dict(env, PYTHONPATH=str(ROOT))
        return status or run([*pytest, *(str(ROOT / t) for t in CHECKOUT_TESTS)], cwd=ROOT, env=checkout)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
            if args.venv:
                shutil.rmtree(args.venv, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
