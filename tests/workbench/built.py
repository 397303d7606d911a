"""The one way a workbench test says that it needs a part only ``make oracles`` sets up: a
shipped parser, SSRF validator or HTTP client that needs what its folder's ``build`` line makes
or its ``apt`` line installs (``Spec.made_by_oracles``). ``built("private-ip", "node-fetch")`` skips the calling test, with each part's
one-line reason, where one of them cannot start here: on a fresh clone before ``make oracles``,
or under ``URLWB_HIDE_BUILT=1``, which hides what it built (tests/workbench/test_fresh_clone.py
walks the suite that way and fails on a test that errors instead of skipping).

A test that drives such a part through ``urlwb`` without this call passes where ``make oracles``
ran and fails on a fresh clone, as ``test_urlwb_ssrf_inputs_judges_a_misclassified_address`` did
(issue 39)."""

from __future__ import annotations

import pytest

from urlwb import oracles
from urlwb.oracles import manifests
from urlwb.ssrf.observe import clients


def folders() -> list[manifests.Folder]:
    """Every shipped manifest folder: parsers, validators, clients."""
    return [*oracles.FOLDERS, *oracles.VALIDATOR_FOLDERS, *manifests.discover(manifests.CLIENTS_ROOT)]


def made_by_oracles() -> dict[str, manifests.Spec]:
    """name -> Spec of every shipped part that only ``make oracles`` sets up."""
    return {s.name: s for f in folders() for s in f.specs if s.made_by_oracles}


def reason(name: str) -> str | None:
    """Why the shipped part ``name`` cannot start here, or None when it can."""
    for f in folders():
        for s in f.specs:
            if s.name == name:
                return s.skip
    raise LookupError(f"no shipped parser, validator or client is named {name!r}")


def built(*names: str) -> None:
    """Skip the calling test unless every part in ``names`` can start here."""
    for name in names:
        why = reason(name)
        if why:
            pytest.skip(f"{name} cannot start here: {why}")
