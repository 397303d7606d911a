"""The wheel: the packages under the project's one name, and no tests.

Everything else is in pyproject.toml. Two things it cannot say:

- **No tests.** ``properties/`` is a package the wheel ships (``urlwb.strategies`` re-exports its
  strategies) and also the folder of the workbench's Hypothesis tests (``properties/test_*.py``,
  ``properties/conftest.py``, collected by pytest from the source tree); setuptools has no setting
  that leaves some modules of a package out of a wheel, hence ``find_package_modules`` below.
- **One top-level name.** The repository keeps its three folders, ``engine/``, ``properties/`` and
  ``urlwb/`` (the layers of STYLE.md, each a top-level package in a checkout and in the editable
  install ``make test`` uses). An installed wheel must not take names as common as ``engine`` and
  ``properties``: a user's own ``engine.py`` beside their tests would shadow it, or be shadowed
  (issue 37: ``cannot import name 'idna' from 'engine'``). So the wheel ships them as
  ``urlwb._engine`` and ``urlwb._properties``, private packages of ``urlwb``: after the copy into
  the build folder, ``engine/`` and ``properties/`` are moved under ``urlwb/`` and every import of
  them in the shipped code is rewritten (:func:`rewrite_imports`: ``import engine`` becomes
  ``from urlwb import _engine as engine``, ``from properties.x import y`` becomes ``from
  urlwb._properties.x import y``, so the names the code uses stay as they are). The public names
  are ``urlwb.strategies`` and ``urlwb.strategies.invariants``, the same in a checkout and in the
  wheel. An editable install is left as it is (its modules are the checkout's own files).

``tests/workbench/test_wheel.py`` builds the wheel, checks its file list and imports it beside a
user's ``engine.py``.
"""

from __future__ import annotations

import ast
import pathlib
import re
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel   # setuptools >= 70.1
except ImportError:
    from wheel.bdist_wheel import bdist_wheel

#: the repository's top-level packages -> their name in the wheel (under urlwb)
NAMESPACE = {"engine": "_engine", "properties": "_properties"}


def is_test_module(module: str) -> bool:
    return module == "conftest" or module.startswith("test_")


def _import_statement(alias: ast.alias) -> str:
    """One alias of ``import ...`` as it reads in the wheel."""
    top, _, rest = alias.name.partition(".")
    if top not in NAMESPACE:
        return f"import {alias.name}" + (f" as {alias.asname}" if alias.asname else "")
    moved = f"urlwb.{NAMESPACE[top]}" + (f".{rest}" if rest else "")
    if alias.asname:
        return f"import {moved} as {alias.asname}"
    bind = f"from urlwb import {NAMESPACE[top]} as {top}"   # the name the code goes on using
    return f"import {moved}; {bind}" if rest else bind


def rewrite_imports(source: str, path: str = "<module>") -> str:
    """``source`` with every absolute import of ``engine`` and ``properties`` (and their
    submodules) made an import of ``urlwb._engine`` and ``urlwb._properties``, binding the same
    names; strings and comments are left alone. Raises SyntaxError when the result still imports
    either name."""
    tree = ast.parse(source, path)
    lines = source.splitlines(keepends=True)
    edits = []   # (line index, byte start, byte end, text): each on one line
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            top, _, rest = node.module.partition(".")
            if top in NAMESPACE:
                line = lines[node.lineno - 1].encode("utf-8")
                m = re.compile(rb"from\s+" + re.escape(node.module.encode()) + rb"\b").match(line, node.col_offset)
                if m is None:
                    raise SyntaxError(f"{path}:{node.lineno}: cannot rewrite this import of {top}")
                moved = f"urlwb.{NAMESPACE[top]}" + (f".{rest}" if rest else "")
                edits.append((node.lineno - 1, m.start(), m.end(), f"from {moved}"))
        elif isinstance(node, ast.Import) and any(a.name.partition(".")[0] in NAMESPACE for a in node.names):
            if node.end_lineno != node.lineno:
                raise SyntaxError(f"{path}:{node.lineno}: an import over several lines")
            edits.append((node.lineno - 1, node.col_offset, node.end_col_offset,
                          "; ".join(_import_statement(a) for a in node.names)))
    for index, start, end, text in sorted(edits, reverse=True):
        line = lines[index].encode("utf-8")
        lines[index] = (line[:start] + text.encode("utf-8") + line[end:]).decode("utf-8")
    out = "".join(lines)
    for node in ast.walk(ast.parse(out, path)):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                 [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
        if any(n.partition(".")[0] in NAMESPACE for n in names):
            raise SyntaxError(f"{path}:{node.lineno}: still imports {names}")
    return out


def move_under_namespace(build_lib: pathlib.Path) -> None:
    """``engine/`` and ``properties/`` of the build folder moved to ``urlwb/_engine/`` and
    ``urlwb/_properties/``, and every shipped module's imports rewritten."""
    for top, moved in NAMESPACE.items():
        target = build_lib / "urlwb" / moved
        if target.exists():
            shutil.rmtree(target)
        if (build_lib / top).exists():
            shutil.move(build_lib / top, target)
    for module in sorted((build_lib / "urlwb").rglob("*.py")):
        source = module.read_text(encoding="utf-8")
        rewritten = rewrite_imports(source, str(module))
        if rewritten != source:
            module.write_text(rewritten, encoding="utf-8")


class BuildPy(build_py):
    def find_package_modules(self, package, package_dir):
        return [m for m in super().find_package_modules(package, package_dir) if not is_test_module(m[1])]

    def run(self):
        super().run()
        if not getattr(self, "editable_mode", False):
            move_under_namespace(pathlib.Path(self.build_lib))


class BdistWheel(bdist_wheel):
    def egg2dist(self, egginfo_path, distinfo_path):
        super().egg2dist(egginfo_path, distinfo_path)
        # egg_info listed the checkout's three top-level packages; the wheel has one
        (pathlib.Path(distinfo_path) / "top_level.txt").write_text("urlwb\n", encoding="utf-8")


setup(cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel})
