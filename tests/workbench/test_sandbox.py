"""urlwb.sandbox (issue 31): a foreign adapter has no network and is stopped at its memory cap,
and the run goes on. Each check is also run with the sandbox off (URLWB_SANDBOX=off), where it
must come out the other way: that is what shows the check can notice a sandbox that is not there."""

from __future__ import annotations

import dataclasses
import pathlib
import socket
import sys
import threading

import pytest

from urlwb import sandbox
from urlwb.oracles import manifests, supervisor

ROOT = pathlib.Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "oracles" / "broken_adapter.py"
ITEMS = [(f"http://h{i}/", None) for i in range(3)]

pytestmark = pytest.mark.skipif(sandbox._probe_namespace() is not None,
                                reason="network namespaces unavailable here (not root, or unshare refused)")


class Listener:
    """A TCP listener on the host's loopback that counts the connections it accepts."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.seen = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.seen += 1
            conn.close()

    def close(self):
        self.stop.set()
        self.thread.join()
        self.sock.close()


def answers(*modes, items=ITEMS):
    spec = dataclasses.replace(manifests.user_spec("planted", [sys.executable, str(BROKEN), *modes], "flag"),
                               deadline=10.0)
    o = supervisor.SubprocessOracle(spec)
    o.ready()
    try:
        return o.parse_many(items)
    finally:
        o.close()


@pytest.mark.parametrize("setting,reaches", [("on", False), ("off", True)])
def test_an_adapter_that_connects_reaches_nothing_and_still_answers(monkeypatch, setting, reaches):
    monkeypatch.setenv("URLWB_SANDBOX", setting)
    listener = Listener()
    try:
        records = answers(f"connect={listener.port}")
    finally:
        listener.close()
    assert [r.host for r in records] == ["h0", "h1", "h2"]  # the answers are not lost
    assert (listener.seen > 0) is reaches, listener.seen


def test_an_adapter_that_allocates_without_bound_is_stopped_at_the_cap(monkeypatch):
    monkeypatch.setenv("URLWB_SANDBOX_MEMORY", "256M")
    records = answers("allocate=bomb", items=[("http://a/", None), ("http://bomb/", None), ("http://b/", None)])
    assert records[0].host == "a" and records[2].host == "b"  # the run goes on after the cap
    assert records[1].crash and "memory cap 256 MiB" in records[1].crash, records[1]
