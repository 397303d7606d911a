"""Hypothesis settings profiles for the properties: ``dev``, ``ci`` and ``nightly``.

https://hypothesis.readthedocs.io/en/latest/reference/api.html#settings-profiles

- ``dev`` (the default on a workstation): a quick run, failures saved to the example database
  (``.hypothesis/examples`` at the repository root), which ``urlwb export-hypothesis`` reads.
- ``ci`` (the default when the ``CI`` environment variable is set): deterministic
  (``derandomize=True``, hence no database), bounded so that the whole properties suite takes
  about two minutes on two cores; no deadline (the machine is shared).
- ``nightly``: many examples and long state-machine runs, failures saved to the database.
- ``mutants``: the kill suite of ``urlwb mutants`` (urlwb/mutation/killsuite.py): deterministic, 100
  examples, short state-machine runs, no shrinking (a mutant is killed by any failing example,
  not the smallest) and no health checks (a mutant that slows generation down is not thereby
  wrong).

Select one with ``pytest --hypothesis-profile NAME`` or ``URLWB_HYPOTHESIS_PROFILE=NAME``.
"""

from __future__ import annotations

import os
import pathlib

from hypothesis import HealthCheck, Phase, settings
from hypothesis.database import DirectoryBasedExampleDatabase

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: the example database shared by dev and nightly runs and by ``urlwb export-hypothesis``
DATABASE_PATH = ROOT / ".hypothesis" / "examples"
PROFILES = ("dev", "ci", "nightly", "mutants")
ENV_VAR = "URLWB_HYPOTHESIS_PROFILE"

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]


def database() -> DirectoryBasedExampleDatabase:
    return DirectoryBasedExampleDatabase(str(DATABASE_PATH))


def register_profiles() -> None:
    settings.register_profile("dev", max_examples=60, deadline=None, database=database(),
                              stateful_step_count=20, suppress_health_check=_SLOW_OK)
    settings.register_profile("ci", max_examples=120, deadline=None, derandomize=True,
                              database=None, print_blob=True, stateful_step_count=20,
                              suppress_health_check=_SLOW_OK)
    settings.register_profile("nightly", max_examples=20_000, deadline=None, database=database(),
                              stateful_step_count=60, suppress_health_check=_SLOW_OK)
    settings.register_profile("mutants", max_examples=100, deadline=None, derandomize=True,
                              database=None, stateful_step_count=10,
                              phases=(Phase.explicit, Phase.generate), report_multiple_bugs=False,
                              suppress_health_check=list(HealthCheck))


def default_profile() -> str:
    """The profile named by URLWB_HYPOTHESIS_PROFILE, else ``ci`` under CI, else ``dev``."""
    name = os.environ.get(ENV_VAR) or ("ci" if os.environ.get("CI") else "dev")
    if name not in PROFILES:
        raise ValueError(f"{ENV_VAR}={name!r}: expected one of {', '.join(PROFILES)}")
    return name
