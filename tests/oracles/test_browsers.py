"""The two browser adapters (urlwb/oracles/browsers/): Debian's Chromium and Firefox ESR speaking
the oracle protocol. Each test is skipped with one line when its browser is not installed."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import signal
import sys
import time

import pytest

from tests.oracles.adapter_driver import HOSTILE, PROBES, Adapter
from urlwb.differential.generate import generate
from urlwb.oracles import from_api

FOLDER = pathlib.Path(__file__).resolve().parents[2] / "urlwb" / "oracles" / "browsers"

_spec = importlib.util.spec_from_file_location("urlwb_browser_adapter", FOLDER / "browser_adapter.py")
browser_adapter = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(browser_adapter)

#: Hosts ORACLES.md reports for the nine probes (None: no host), Chromium and Firefox ESR.
PROBE_HOSTS = {
    "chromium": ["a", "2.2.2.2", "google.com", "evil.com", "example.com", "[::ffff:7f00:1]",
                 "127.0.0.1", "example.com%0aalert(1)", "example.com"],
    "firefox": ["a", "2.2.2.2", "google.com", "evil.com", "example.com", "[::ffff:7f00:1]",
                "127.0.0.1", None, "example.com"],
}


def start(name: str) -> Adapter:
    if browser_adapter.which(name) is None:
        env_var, candidates = browser_adapter.EXECUTABLES[name]
        pytest.skip(f"{name} not installed (none of {', '.join(candidates)}; `make oracles` installs it)")
    return Adapter([sys.executable, f"{name}.py"], cwd=FOLDER, start_timeout=60)


@pytest.fixture(scope="module", params=["chromium", "firefox"])
def adapter(request):
    a = start(request.param)
    yield request.param, a
    a.close()
    assert a.proc.returncode == 0, "the adapter should exit cleanly when its input ends"


def record(answer: dict):
    assert "api" in answer, answer
    g = answer["api"]
    return from_api(g["href"], g["protocol"], g["username"], g["password"], g["hostname"], g["port"],
                    g["pathname"], g["search"], g["hash"])


def test_hello(adapter):
    name, a = adapter
    assert a.hello["hello"] == "urlwb-oracle/1"
    assert (a.hello["name"], a.hello["family"], a.hello["kind"], a.hello["base"]) == (name, "whatwg", "url", True)
    assert a.hello["version"][:1].isdigit(), a.hello["version"]


def test_probes_read_the_hosts_oracles_md_reports(adapter):
    name, a = adapter
    answers = a.ask([{"id": i, "input": p, "base": None} for i, p in enumerate(PROBES)])
    hosts = [record(answers[i]).host or None for i in range(len(PROBES))]
    assert hosts == PROBE_HOSTS[name]


def test_rejection_is_an_error_with_the_browsers_text(adapter):
    name, a = adapter
    answer = a.parse("http://[::1")
    assert set(answer) == {"id", "error"} and answer["error"]


def test_base_is_used(adapter):
    name, a = adapter
    assert record(a.parse("../x?q#f", "http://h/a/b/c")).href == "http://h/a/x?q#f"
    assert "error" in a.parse("x", "not a base")


def test_hostile_strings_come_back(adapter):
    name, a = adapter
    answers = a.ask([{"id": i, "input": s, "base": None} for i, s in enumerate(HOSTILE)])
    paths = [record(answers[i]).path for i in range(len(HOSTILE))]
    assert paths[0] == "/%EF%BF%BDx"            # the lone surrogate reached URL() and became U+FFFD
    assert paths[1] == "/%00b"
    assert paths[2] == "/%01%1F%7F%C2%85"
    assert record(answers[3]).href == "http://a/%F0%9F%98%80?%E2%80%A8#%E2%80%A9"
    assert paths[4] == "/" + "x" * 1_000_000


def test_two_thousand_pipelined_inputs_all_answered(adapter):
    name, a = adapter
    requests = [{"id": 10_000 + i, "input": s, "base": b} for i, (s, b) in enumerate(generate(2000, seed=7))]
    answers = a.ask(requests)
    assert sorted(answers) == [r["id"] for r in requests]
    kinds = {next(k for k in ("api", "error", "crash", "not_applicable") if k in x) for x in answers.values()}
    assert kinds <= {"api", "error"}, kinds


def _processes() -> dict[int, tuple[int, int, str]]:
    """pid -> (parent pid, process group, state) of every process."""
    table = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = pathlib.Path("/proc", entry, "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            table[int(entry)] = (int(fields[1]), int(fields[2]), fields[0])
    return table


@pytest.mark.parametrize("name", ["chromium", "firefox"])
def test_no_browser_outlives_a_killed_adapter(name):
    a = start(name)
    children = [pid for pid, (ppid, _, _) in _processes().items() if ppid == a.proc.pid]
    assert len(children) == 1, children
    browser = children[0]
    assert _processes()[browser][1] == browser, "the browser leads a process group of its own"
    os.kill(a.proc.pid, signal.SIGKILL)
    a.proc.wait()
    deadline = time.monotonic() + 10
    while True:
        alive = [pid for pid, (_, group, state) in _processes().items() if group == browser and state != "Z"]
        if not alive or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    a.proc.stdout.close()
    a.proc.stderr.close()
    a.proc.stdin.close()
    assert alive == [], f"{name} processes left after the adapter was killed: {alive}"
