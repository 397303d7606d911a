"""A minimal client of the oracle protocol (``docs/oracle-protocol.md``) for the adapters' own
tests: start an adapter, read its hello line, send requests pipelined, collect answers by id.

It checks nothing beyond what it needs to work; the supervisor (``urlwb.oracles.supervisor``) is
what the workbench runs, and ``urlwb oracle check`` what validates an adapter."""

from __future__ import annotations

import json
import subprocess
import threading


class Adapter:
    def __init__(self, command: list[str], cwd=None, start_timeout: float = 30.0):
        self.proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, start_new_session=True)
        self._lines: list[bytes] = []
        self._done = threading.Event()
        timer = threading.Timer(start_timeout, self.proc.kill)
        timer.start()
        try:
            self.hello = json.loads(self.proc.stdout.readline())
        finally:
            timer.cancel()

    def ask(self, requests: list[dict], timeout: float = 60.0) -> dict[int, dict]:
        """Send every request (each with a unique ``id``) before reading any answer; the answers
        by id."""
        def write():
            for r in requests:
                self.proc.stdin.write(json.dumps(r).encode("ascii") + b"\n")
            self.proc.stdin.flush()
        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        timer = threading.Timer(timeout, self.proc.kill)
        timer.start()
        answers: dict[int, dict] = {}
        try:
            while len(answers) < len(requests):
                line = self.proc.stdout.readline()
                if not line:
                    raise RuntimeError(f"adapter ended after {len(answers)} answers: "
                                       f"{self.proc.stderr.read()[-500:]!r}")
                a = json.loads(line)
                answers[a["id"]] = a
        finally:
            timer.cancel()
        writer.join()
        return answers

    def parse(self, input: str, base: str | None = None) -> dict:
        return self.ask([{"id": 0, "input": input, "base": base}])[0]

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


#: The nine probe inputs of ../shared/ORACLES.md (SSRF-relevant host readings), in its order.
PROBES = [
    "http://a\\b@evil.com/",
    "http://1.1.1.1 &@2.2.2.2# @3.3.3.3/",
    "http://foo@evil.com:80@google.com/",
    "https:/\\evil.com",
    "  http://ex%61mple.com/%2e%2e/x",
    "http://[::ffff:127.0.0.1]/",
    "http://0x7f.1/",
    "javascript://example.com%0aalert(1)",
    "HTTP://EXAMPLE.COM:0080/a/./b/../c?x#y",
]

#: Strings that must survive the pipe (the protocol's hostile strings).
HOSTILE = [
    "http://a/\udc80x",            # a lone surrogate
    "http://a/\x00b",              # NUL
    "http://a/\x01\x1f\x7f\u0085",  # controls
    "http://a/\U0001F600?\u2028#\u2029",
    "http://a/" + "x" * 1_000_000,  # 1 MB
]
