"""Shared helpers for the engine's conformance tests (imported by them as ``wpt_data``): vendored data and the expected-failure discipline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
import engine.reference

DATA = Path(__file__).resolve().parents[1] / "data"

#: The two parsers every conformance test runs: the engine's fast one and the reference
#: (engine/reference/, the Standard's steps as written), each as the URL API and as the basic URL
#: parser.
URL_CLASSES = {"fast": engine.URL, "reference": engine.reference.ReferenceURL}
PARSERS = {"fast": engine.basic_url_parse, "reference": engine.reference.basic_url_parse}
SERIALIZERS = {"fast": engine.serialize_url, "reference": engine.reference.serialize_url}


def load_wpt(name: str) -> list[dict]:
    """The test objects of a vendored WPT JSON file (strings in the lists are comments)."""
    with open(DATA / "wpt" / name, encoding="utf-8") as f:
        return [case for case in json.load(f) if not isinstance(case, str)]


def load_expected_failures(name: str) -> dict[str, str]:
    """``tests/expected_failures/<name>.json``: {case id: reason}. Every entry needs a reason."""
    path = Path(__file__).resolve().parents[1] / "expected_failures" / f"{name}.json"
    if not path.exists():
        return {}
    entries = json.loads(path.read_text(encoding="utf-8"))
    for key, reason in entries.items():
        assert isinstance(reason, str) and reason.strip(), f"{path}: entry {key!r} has no reason"
    return entries


def check_with_expected_failures(expected: dict[str, str], case_id: str, check) -> None:
    """Run ``check()``; a listed case must fail (strictly: a listed case that passes fails)."""
    if case_id not in expected:
        check()
        return
    try:
        check()
    except AssertionError:
        pytest.xfail(expected[case_id])
    pytest.fail(f"{case_id!r} is listed as an expected failure ({expected[case_id]}) but passes: unlist it")
