"""The hunt's fuzzers and reach's coverage runs start the parser's code confined, as the
supervisor's adapters are (urlwb.sandbox, issue 31): a planted parser that connects to a listener
on the host's loopback reaches nothing, and with ``URLWB_SANDBOX=off`` it does (what shows that
each check notices a runner started without the sandbox: planted by dropping ``sandbox=`` from
``Runner.start`` / ``reach.python.measure``, the "on" case fails)."""

from __future__ import annotations

import os
import pathlib
import sys
import types

import pytest

from test_sandbox import Listener
from urlwb import children, sandbox
from urlwb.hunt import runners

pytestmark = pytest.mark.skipif(sandbox._probe_namespace() is not None,
                                reason="network namespaces unavailable here (not root, or unshare refused)")

CONNECT = """
import socket, sys
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=5).close()
    print("connected")
except OSError as exc:
    print("refused", exc.errno)
"""


class CallHome(runners.Runner):
    """A hunt runner whose "fuzzer" is the planted call home."""

    port = 0

    def command(self, seconds):
        return [sys.executable, "-c", CONNECT.format(port=self.port)], dict(os.environ), self.root


@pytest.mark.parametrize("setting,reaches", [("on", False), ("off", True)])
def test_a_hunt_runner_s_child_has_no_network(tmp_path, monkeypatch, setting, reaches):
    monkeypatch.setenv("URLWB_SANDBOX", setting)
    monkeypatch.setenv("URLWB_WORKDIR", str(tmp_path))
    listener = Listener()
    try:
        runner = CallHome(types.SimpleNamespace(name="planted-callhome"))
        runner.port = listener.port
        runner.root.mkdir(parents=True)
        proc = runner.start(5)
        out = proc.stdout.read()
        proc.wait(30)
        children.release(proc)
    finally:
        listener.close()
    assert (listener.seen > 0) == reaches
    assert out.strip() == ("connected" if reaches else "refused 101"), out   # 101: ENETUNREACH


PLANTED_PARSER = """
import socket
def parse(input, base=None):
    try:
        socket.create_connection(("127.0.0.1", {port}), timeout=5).close()
    except OSError:
        pass
    return {{"scheme": "http", "username": "", "password": "", "host": "h", "port": None,
            "path": "/", "query": None, "fragment": None, "href": "http://h/"}}
"""


@pytest.mark.parametrize("setting,reaches", [("on", False), ("off", True)])
def test_a_python_reach_run_has_no_network(tmp_path, monkeypatch, setting, reaches):
    from urlwb.reach import python as reach_python
    monkeypatch.setenv("URLWB_SANDBOX", setting)
    listener = Listener()
    try:
        (tmp_path / "planted_callhome.py").write_text(PLANTED_PARSER.format(port=listener.port), encoding="utf-8")
        monkeypatch.syspath_prepend(str(tmp_path))
        monkeypatch.chdir(tmp_path)
        reach = reach_python.measure("callhome", "Python", ("planted_callhome",), [["http://h/", None]] * 2,
                                     ["callhome=py:planted_callhome:parse"], timeout=120)
    finally:
        listener.close()
    assert reach.inputs == 2
    assert (listener.seen > 0) == reaches


def test_a_crate_s_build_runs_confined_after_a_fetch_with_the_network(tmp_path, monkeypatch):
    """A Rust release: ``cargo fetch`` (the network, no build script runs) then ``cargo build
    --offline`` confined, where every ``build.rs`` runs (the commands, recorded; the confined
    step's own no-network check is the next test)."""
    from urlwb.oracles.versions import builds
    from urlwb.oracles.versions.catalog import PACKAGES
    monkeypatch.setenv("URLWB_VERSIONS_CACHE", str(tmp_path / "cache"))
    steps = []

    def record(cmd, d, registry, env=None, refusal=None, confined=False):
        steps.append((cmd[:2], "--offline" in cmd, confined))
        if cmd[1] == "build":
            target = pathlib.Path(cmd[cmd.index("--target-dir") + 1]) / "release"
            target.mkdir(parents=True)
            (target / "urlwb-rust").write_text("")
        return ""

    monkeypatch.setattr(builds, "_run", record)
    d = tmp_path / "build"
    d.mkdir()
    builds._crates(PACKAGES["rust-url"], "2.1.1", d)
    assert steps == [(["cargo", "fetch"], False, False), (["cargo", "build"], True, True)]


def test_a_confined_build_step_has_no_network(tmp_path, monkeypatch):
    from urlwb.oracles.versions import builds
    monkeypatch.setenv("URLWB_SANDBOX", "on")
    listener = Listener()
    try:
        out = builds._run([sys.executable, "-c", CONNECT.format(port=listener.port)], tmp_path, "crates",
                          confined=True)
    finally:
        listener.close()
    assert listener.seen == 0 and out.strip() == "refused 101"
