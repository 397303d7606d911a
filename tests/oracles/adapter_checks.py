"""Checks every adapter test shares (``urlwb/oracles/PROTOCOL.md``): the answer schema, the host
each of ORACLES.md's nine probes gets, the protocol's hostile strings, pipelining.

Each ``test_<folder>.py`` states what its own parser gives; these functions only ask and check
the form of the answers."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from .adapter_driver import HOSTILE, PROBES, Adapter

ORACLES = Path(__file__).resolve().parents[2] / "urlwb" / "oracles"

#: A probe the parser rejects (ORACLES.md's ✗).
REJECTED = "rejected"

COMPONENTS = ("scheme", "username", "password", "host", "port", "path", "query", "fragment", "href")


def require(folder: str, needs: list[str], check: list[str] | None = None) -> None:
    """Skip the calling test module, with a one-line reason, when a command in ``needs`` is not on
    PATH, a file in ``needs`` (a path relative to ``urlwb/oracles/<folder>``, e.g. a build
    output) does not exist, or the command ``check`` fails (e.g. a library missing)."""
    cwd = ORACLES / folder
    for need in needs:
        if "/" in need:
            if not (cwd / need).exists():
                pytest.skip(f"{folder}: {need} not built (run `make oracles`)", allow_module_level=True)
        elif shutil.which(need) is None:
            pytest.skip(f"{folder}: {need} not on PATH (run `make oracles`)", allow_module_level=True)
    if check and subprocess.run(check, cwd=cwd, capture_output=True).returncode != 0:
        pytest.skip(f"{folder}: `{' '.join(check)}` fails (run `make oracles`)", allow_module_level=True)


def start(folder: str, command: list[str]) -> Adapter:
    """The adapter of ``urlwb/oracles/<folder>``, run there."""
    return Adapter(command, cwd=ORACLES / folder)


def check_hello(adapter: Adapter, name: str, base: bool) -> None:
    h = adapter.hello
    assert h["hello"] == "urlwb-oracle/1"
    assert h["name"] == name and h["family"] == "other" and h["kind"] == "url"
    assert h["base"] is base


def check_schema(answer: dict) -> None:
    """One of the protocol's answer forms for a URL request (a crash is a failure here)."""
    assert isinstance(answer.get("id"), int), answer
    assert "crash" not in answer, answer
    if "error" in answer or "not_applicable" in answer:
        assert isinstance(answer.get("error", answer.get("not_applicable")), str), answer
        return
    for field in COMPONENTS:
        assert field in answer, (field, answer)
        value = answer[field]
        if field == "port":
            assert value is None or isinstance(value, (int, str)) and not isinstance(value, bool), answer
        else:
            assert value is None or isinstance(value, str), (field, answer)


def ask_all(adapter: Adapter, inputs: list[str], base: str | None = None) -> list[dict]:
    """The answers to ``inputs``, sent pipelined, in the inputs' order; each checked for form."""
    answers = adapter.ask([{"id": i, "input": s, "base": base} for i, s in enumerate(inputs)])
    assert sorted(answers) == list(range(len(inputs)))
    for a in answers.values():
        check_schema(a)
    return [answers[i] for i in range(len(inputs))]


def probe_hosts(adapter: Adapter) -> list[str | None]:
    """The host each of the nine probes gets (None: accepted without a host; REJECTED)."""
    return [REJECTED if "error" in a else a["host"] for a in ask_all(adapter, PROBES)]


def hostile_answers(adapter: Adapter) -> dict[str, dict]:
    """The answers to the protocol's hostile strings, by input; each an answer of the protocol's
    forms (never a crash), so the string got through the pipe and back."""
    return dict(zip(HOSTILE, ask_all(adapter, HOSTILE)))


def check_pipelining(adapter: Adapter, n: int = 400) -> None:
    """``n`` distinct inputs written before any answer is read (the adapter's standard input
    stays open, so it must answer as lines come): every id answered once, each with its own
    input's host."""
    inputs = [f"http://h{i}.example/p{i}?q{i}" for i in range(n)]
    for i, a in enumerate(ask_all(adapter, inputs)):
        assert a["host"] == f"h{i}.example" and a["path"] == f"/p{i}", (i, a)
