"""The pytest plugin of ``urlwb.strategies`` (entry point ``pytest11``: ``urlwb``), loaded by
pytest wherever url-workbench is installed.

It adds two fixtures and a line to pytest's header, and imports nothing until a fixture is asked
for (the engine is imported by ``url_standard`` only). It sits outside ``urlwb.strategies``, whose
``__init__`` imports the strategies and so the engine: pytest loads its plugins before
pytest-cov starts, and an engine imported then has its module-level lines uncounted (the
workbench's own coverage floor fell from 95 % to 84 % that way):

- ``url_standard``: the URL Standard's parse, ``parse(input, base=None) -> href`` (``ValueError``
  for failure), to compare a parser with (:func:`urlwb.strategies.invariants.standard_parse`);
- ``url_invariants``: :mod:`urlwb.strategies.invariants`, the checks that take the parser under
  test.

Both are session-scoped: each is a value that holds no state, the same for every test and every
input, so a test under Hypothesis's ``@given`` may ask for them (a function-scoped fixture fails
its ``function_scoped_fixture`` health check, issue 37).
"""

from __future__ import annotations

import pytest


def pytest_report_header(config) -> str:
    return "urlwb.strategies: Hypothesis strategies of the WHATWG URL Standard (fixtures url_standard, url_invariants)"


@pytest.fixture(scope="session")
def url_standard():
    from urlwb.strategies.invariants import standard_parse

    return standard_parse


@pytest.fixture(scope="session")
def url_invariants():
    from urlwb.strategies import invariants

    return invariants
