"""``urlwb hunt go-net-url``: net/url under Go's native fuzzer, a few seconds (``-fuzztime`` as a
number of executions, so that a loaded machine does the same work). Skipped, with the reason,
where ``go`` is not on PATH (``make oracles`` installs it) or the go-net-url oracle is not built.
The first run compiles the instrumented test binary (about 40 s here); later runs use Go's cache.
"""

from __future__ import annotations

import json
import pathlib
import shutil

import pytest

from urlwb import oracles
from test_hunt import hunt

pytestmark = [
    pytest.mark.skipif(shutil.which("go") is None, reason="go is not on PATH (make oracles)"),
    pytest.mark.skipif(bool(oracles.REGISTRY["go-net-url"].skip),
                       reason=f"go-net-url: {oracles.REGISTRY['go-net-url'].skip}"),
]


def test_go_smoke(tmp_path):
    s = hunt(tmp_path, "go-net-url", "--minutes", "1", "--executions", "20000", "--generate", "50",
             "--every-seconds", "2", "--no-reach")
    assert s["language"] == "go" and s["execs"] >= 20000
    cache = tmp_path / "work" / "hunt" / "go-net-url" / "cache" / "FuzzNetURL"
    assert cache.is_dir()
    folder = pathlib.Path(s["distilled_dir"])
    assert len(list(folder.iterdir()) if folder.exists() else []) == s["distilled"] == s["kept"]
    assert s["judged"] >= s["seeds"]
    assert json.loads(json.dumps(s))   # the summary is JSON
