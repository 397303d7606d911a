"""Hooks for the whole suite: tests marked ``slow`` (registry fetches, builds of old versions)
are opt-in."""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true",
                     help="run the tests marked slow (registry fetches, builds of old versions)")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` run only with ``--run-slow`` (or URLWB_RUN_SLOW=1); otherwise each is
    skipped with that one-line reason."""
    if config.getoption("--run-slow") or os.environ.get("URLWB_RUN_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow (a registry fetch or a build): run with pytest --run-slow "
                                   "or URLWB_RUN_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
