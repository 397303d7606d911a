"""The wheel carries no tests: setuptools' ``build_py`` with the test modules left out.

Everything else is in pyproject.toml. ``properties/`` is a package the wheel ships
(``urlwb.strategies`` re-exports its strategies) and also the folder of the workbench's Hypothesis
tests (``properties/test_*.py``, ``properties/conftest.py``, collected by pytest from the source
tree); setuptools has no setting that leaves some modules of a package out of a wheel, hence this
command. ``tests/workbench/test_wheel.py`` builds the wheel and checks its file list.
"""

from setuptools import setup
from setuptools.command.build_py import build_py


def is_test_module(module: str) -> bool:
    return module == "conftest" or module.startswith("test_")


class BuildPyWithoutTests(build_py):
    def find_package_modules(self, package, package_dir):
        return [m for m in super().find_package_modules(package, package_dir) if not is_test_module(m[1])]


setup(cmdclass={"build_py": BuildPyWithoutTests})
