"""The README's conformance table is the output of scripts/conformance.py, not typed by hand."""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import conformance  # noqa: E402


def test_readme_conformance_table_is_computed():
    readme = (ROOT / "README.md").read_text("utf-8")
    start = readme.index("<!-- conformance:start -->") + len("<!-- conformance:start -->")
    end = readme.index("<!-- conformance:end -->")
    assert readme[start:end].strip() == conformance.markdown()
