"""``urlwb hunt okhttp``: OkHttp's ``HttpUrl`` under Jazzer, a few seconds (libFuzzer ``-runs``).
Skipped, with the reason, where the Java oracles are not built (``make oracles``) or Jazzer is
not in the local Maven repository (the test does not fetch it: ``urlwb hunt okhttp`` does, once,
through ``mvn dependency:get``).
"""

from __future__ import annotations

import pathlib
import shutil

import pytest

from urlwb import oracles
from urlwb.hunt.runners import JAZZER_VERSION
from test_hunt import hunt


_JARS = [pathlib.Path.home() / ".m2" / "repository" / "com" / "code-intelligence" / a / JAZZER_VERSION
         / f"{a}-{JAZZER_VERSION}.jar" for a in ("jazzer", "jazzer-api")]

pytestmark = [
    pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not on PATH (make oracles)"),
    pytest.mark.skipif(bool(oracles.REGISTRY["okhttp"].skip), reason=f"okhttp: {oracles.REGISTRY['okhttp'].skip}"),
    pytest.mark.skipif(not all(j.exists() for j in _JARS),
                       reason=f"Jazzer {JAZZER_VERSION} is not in ~/.m2 (urlwb hunt okhttp fetches it)"),
]


def test_jvm_smoke(tmp_path):
    s = hunt(tmp_path, "okhttp", "--minutes", "1", "--executions", "5000", "--generate", "0",
             "--no-judge", "--no-distill")
    assert s["language"] == "jvm" and s["execs"] > 0
    assert s["cov_start"] is not None and s["cov_end"] >= s["cov_start"]
    assert s["reach_generated"].endswith("edges (libFuzzer)")
