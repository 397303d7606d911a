"""Checks the adapters' own tests share (``docs/oracle-protocol.md``): start an oracle from its
folder's ``oracles.toml`` (or skip with the one-line reason that it is not built), the answer
schema, the host each of ORACLES.md's nine probes gets, the protocol's hostile strings,
pipelined requests matched by id, answers turned into ``Record``s.

Each ``test_<folder>.py`` states what its own parser gives; these functions only ask and check
the form of the answers."""

from __future__ import annotations

import random
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from urlwb.oracles import FAILURE, Record, manifests

from .adapter_driver import HOSTILE, PROBES, Adapter

ORACLES = Path(__file__).resolve().parents[2] / "urlwb" / "oracles"

#: The answer forms of docs/oracle-protocol.md: exactly one of these keys besides "id" (components: "href").
FORMS = ("href", "value", "error", "not_applicable", "crash", "api")

#: A probe the parser rejects (ORACLES.md's ✗).
REJECTED = "rejected"

COMPONENTS = ("scheme", "username", "password", "host", "port", "path", "query", "fragment", "href")


def start(folder: str, name: str) -> Adapter:
    """Oracle ``name`` of ``urlwb/oracles/<folder>/oracles.toml``, started as its manifest says;
    skipped when its binary has not been built."""
    root = ORACLES / folder
    manifest = tomllib.loads((root / "oracles.toml").read_text(encoding="utf-8"))
    (entry,) = [o for o in manifest["oracle"] if o["name"] == name]
    command = list(entry["command"])
    if not (root / command[0]).exists():
        pytest.skip(f"{name} not built: run `{manifest['build']}` in {root} (or make oracles)")
    command[0] = str(root / command[0])
    return Adapter(command, cwd=root)


def oracle_fixture(folder: str, name: str, fixture_name: str):
    """A module-scoped pytest fixture named ``fixture_name``: oracle ``name`` of ``folder``,
    started once (or skipped, see :func:`start`) and closed after the module."""
    @pytest.fixture(scope="module", name=fixture_name)
    def adapter():
        started = start(folder, name)
        yield started
        started.close()
    return adapter


def assert_hello(adapter: Adapter, name: str, family: str, kind: str, base: bool) -> str:
    """The hello line says the protocol and these; its version is returned."""
    hello = adapter.hello
    assert (hello["hello"], hello["name"], hello["family"], hello["kind"], hello["base"]) == \
        ("urlwb-oracle/1", name, family, kind, base)
    return hello["version"]


def record(answer: dict) -> Record | None:
    """The answer as the supervisor reads it: a Record, FAILURE, or None (not applicable)."""
    if "error" in answer:
        return FAILURE
    if "not_applicable" in answer:
        return None
    if "crash" in answer:
        return Record(False, crash=answer["crash"])
    return Record(False, *(answer[f] for f in ("scheme", "username", "password", "host", "port",
                                                "path", "query", "fragment", "href")))


def ask_urls(adapter: Adapter, pairs: list[tuple[str, str | None]]) -> list[dict]:
    answers = adapter.ask([{"id": i, "input": s, "base": b} for i, (s, b) in enumerate(pairs)])
    return [answers[i] for i in range(len(pairs))]


def assert_hostile_answered(adapter: Adapter) -> list[dict]:
    """Every hostile string comes back as one answer with its id, in one of the protocol's forms;
    the answers in HOSTILE's order."""
    answers = ask_urls(adapter, [(s, None) for s in HOSTILE])
    for s, a in zip(HOSTILE, answers):
        assert [f for f in FORMS if f in a] != [], (s[:40], a)
        assert "crash" not in a, (s[:40], a)
    return answers


def assert_pipelined(adapter: Adapter, n: int = 3000) -> None:
    """``n`` requests written before any answer is read, with ids sparse and shuffled: each
    answered once, and each answer is the one for its own input."""
    ids = random.Random(13).sample(range(10 * n), n)
    requests = [{"id": i, "input": f"http://h{i % 7}.example/p{i}?q={i}", "base": None} for i in ids]
    answers = adapter.ask(requests)
    assert sorted(answers) == sorted(ids)
    for i in ids:
        assert (answers[i]["host"], answers[i]["path"], answers[i]["query"]) == \
            (f"h{i % 7}.example", f"/p{i}", f"q={i}")


def assert_base_resolution(adapter: Adapter) -> dict:
    """A path, a query-only input and a base that does not parse (RFC 3986 and the Standard agree
    on the first two); the third's answer, which must be not applicable, is returned."""
    resolved, query_only, bad_base = ask_urls(adapter, [
        ("../x?y#z", "http://h/a/b/c"), ("?q", "http://h/a?b#c"), ("x", "http://[")])
    assert (resolved["href"], resolved["path"], resolved["query"], resolved["fragment"]) == \
        ("http://h/a/x?y#z", "/a/x", "y", "z")
    assert query_only["href"] == "http://h/a?q"
    assert "not_applicable" in bad_base
    return bad_base


def assert_to_ascii(adapter: Adapter, domain: str, ascii_form: str | None) -> None:
    """The host oracle's answer to "to-ascii": ``ascii_form``, or a rejection when None."""
    answer = adapter.ask([{"id": 1, "question": "to-ascii", "input": domain}])[1]
    if ascii_form is None:
        assert "error" in answer, answer
    else:
        assert answer == {"id": 1, "value": ascii_form}


def require(folder: str, needs: list[str], check: list[str] | None = None) -> None:
    """Skip the calling test module, with a one-line reason, when a command in ``needs`` is not on
    PATH, a file in ``needs`` (a path relative to ``urlwb/oracles/<folder>``, e.g. a build
    output) does not exist, or the command ``check`` fails (e.g. a library missing); and under
    ``URLWB_HIDE_BUILT=1`` when only ``make oracles`` makes the folder's adapters ready (the
    reason manifests.py gives, as tests/workbench/built.py skips)."""
    cwd = ORACLES / folder
    for spec in manifests.read_folder(cwd / "oracles.toml").specs:
        if spec.unready and spec.unready.startswith(f"hidden by {manifests.HIDE_ENV}"):
            pytest.skip(f"{folder}: {spec.unready}", allow_module_level=True)
    for need in needs:
        if "/" in need:
            if not (cwd / need).exists():
                pytest.skip(f"{folder}: {need} not built (run `make oracles`)", allow_module_level=True)
        elif shutil.which(need) is None:
            pytest.skip(f"{folder}: {need} not on PATH (run `make oracles`)", allow_module_level=True)
    if check and subprocess.run(check, cwd=cwd, capture_output=True).returncode != 0:
        pytest.skip(f"{folder}: `{' '.join(check)}` fails (run `make oracles`)", allow_module_level=True)


def start_command(folder: str, command: list[str]) -> Adapter:
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
