"""The npm validators' coverage-guided pass (``urlwb/ssrf/validators/npm/guided.mjs``), and the
adapter copy beside another release.

Power: the planted validator (``planted_npm/``) allows only hosts that begin ``f0x9``, one V8
block per character; from two seeds that hold none of it, 20,000 mutants (seed 1) guided by the
package's block coverage reach it, and the same mutants with coverage looked for in a folder that
holds none of the validator's code (nothing guides) allow nothing.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess

import pytest

from urlwb.ssrf import install
from urlwb.ssrf.command import GUIDED_JS

HERE = pathlib.Path(__file__).resolve().parent
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs node (make oracles installs it)")


def _guided(tmp_path, name: str) -> tuple[dict, list[str]]:
    corpus = tmp_path / "corpus"
    corpus.mkdir(exist_ok=True)
    (corpus / "a").write_text("http://a.example/")
    (corpus / "b").write_text("http://b/")
    out = tmp_path / f"{name}.jsonl"
    r = subprocess.run(["node", str(GUIDED_JS), str(HERE / "planted_npm" / "adapter.mjs"), name, str(out),
                        str(corpus), "20000x", "1"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-1000:]
    stats = json.loads(r.stdout.strip().splitlines()[-1])
    return stats, [json.loads(x)["input"] for x in out.read_text().splitlines() if x.strip()]


@needs_node
def test_block_coverage_reaches_the_planted_host(tmp_path):
    stats, allowed = _guided(tmp_path, "planted")
    assert stats["execs"] == 20_002 and stats["blocks"] > stats["blocks_seeds"] and stats["kept"] >= 3
    import engine
    assert allowed and all(engine.URL(x).hostname.startswith("f0x9") for x in allowed)   # WHATWG, as Node reads it


@needs_node
def test_without_the_package_s_coverage_nothing_is_found(tmp_path):
    stats, allowed = _guided(tmp_path, "planted-blind")
    assert stats["execs"] == 20_002 and stats["blocks"] == 0 and stats["kept"] == 0
    assert allowed == []


def test_an_installed_release_gets_the_current_adapter(tmp_path):
    """A copy made before the shipped adapter changed is replaced (guided.mjs imports its load(),
    which an old copy lacks); an identical copy is left as it is."""
    shipped = tmp_path / "adapter.mjs"
    shipped.write_text("export async function load() {}\n")
    copy = tmp_path / "release" / "adapter.mjs"
    copy.parent.mkdir()
    copy.write_text("// the adapter before load() was exported\n")
    install._same_adapter(shipped, copy)
    assert copy.read_text() == shipped.read_text()
    stamp = copy.stat().st_mtime_ns
    install._same_adapter(shipped, copy)
    assert copy.stat().st_mtime_ns == stamp
