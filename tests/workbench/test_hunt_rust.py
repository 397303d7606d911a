"""``urlwb hunt rust-url``: the url crate under libFuzzer (libfuzzer-sys on stable Rust), a few
thousand executions. Skipped, with the reason, where cargo is missing or the hunt binary has not
been built yet (``build/hunt-rust/``: the first ``urlwb hunt rust-url`` builds it, about 6 min
here, fetching libfuzzer-sys from crates.io; the test does not).
"""

from __future__ import annotations

import shutil

import pytest

from urlwb.hunt.runners import RustRunner
from test_hunt import hunt

_BUILT = any(RustRunner.TARGET_DIR.glob("*/release/hunt_rust_url"))

pytestmark = [
    pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo is not on PATH (make oracles)"),
    pytest.mark.skipif(not _BUILT, reason="build/hunt-rust/ not built (urlwb hunt rust-url builds it)"),
]


def test_rust_smoke(tmp_path):
    s = hunt(tmp_path, "rust-url", "--minutes", "1", "--executions", "20000", "--generate", "50",
             "--every-seconds", "2", "--no-distill")
    assert s["language"] == "rust" and s["execs"] == 20000
    assert s["cov_end"] >= s["cov_start"] > 0
