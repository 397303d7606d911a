"""Node's global ``URL`` (ada bundled in Node) and npm ``whatwg-url`` (the reference implementation).

https://url.spec.whatwg.org/#api

Both run in one long-lived ``node`` process (``node/server.js``) that speaks JSON lines; inputs go
in batches, so the cost per input is a JSON round trip, not a process start. The constructor throws
``TypeError`` on failure (the Standard's "throw a TypeError"); the server returns anything else as a
crash. ``whatwg-url`` needs ``npm ci`` in ``urlwb/oracles/node/`` (``make node``).
"""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess

from urlwb.oracles import FAILURE, Oracle, Record, Unavailable, from_api

NODE_DIR = pathlib.Path(__file__).resolve().parent / "node"
SERVER = NODE_DIR / "server.js"
#: Inputs per request line: large enough that the round trip is amortized.
BATCH = 2000


class NodeServer:
    """The ``node server.js`` process, shared by both Node oracles."""

    def __init__(self):
        node = shutil.which("node")
        if node is None:
            raise Unavailable("node not found on PATH")
        try:
            self.proc = subprocess.Popen(
                [node, str(SERVER)], cwd=NODE_DIR, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
        except OSError as exc:
            raise Unavailable(f"node could not start ({exc.strerror or exc})") from None
        line = self.proc.stdout.readline()
        if not line:
            err = self.proc.stderr.read().strip().splitlines()
            self.close()
            raise Unavailable(f"node server did not start ({err[-1] if err else 'no output'})")
        hello = json.loads(line)
        self.versions: dict[str, str] = hello["versions"]
        self.unavailable: dict[str, str] = hello.get("unavailable", {})
        self.dead: str | None = None

    def request(self, parser: str, items: list[tuple[str, str | None]]) -> list:
        if self.dead:
            return [{"crash": self.dead}] * len(items)
        out: list = []
        for start in range(0, len(items), BATCH):
            chunk = [[i, b] for i, b in items[start:start + BATCH]]
            try:
                # ensure_ascii keeps the pipe pure ASCII; lone surrogates travel as \\udXXX escapes.
                self.proc.stdin.write(json.dumps({"parsers": [parser], "items": chunk}) + "\n")
                self.proc.stdin.flush()
                line = self.proc.stdout.readline()
            except (OSError, ValueError) as exc:
                line, self.dead = "", f"node server gone ({exc})"
            if not line:
                self.dead = self.dead or f"node server exited (status {self.proc.poll()})"
                return out + [{"crash": self.dead}] * (len(items) - len(out))
            out.extend(json.loads(line)["results"][parser])
        return out

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            stream.close()


def _server(shared: dict | None) -> NodeServer:
    shared = shared if shared is not None else {}
    if "node" not in shared:
        shared["node"] = NodeServer()
        shared["node_users"] = 0
    shared["node_users"] += 1
    return shared["node"]


def _record(item) -> Record:
    if item is None:
        return FAILURE
    if isinstance(item, dict):
        return Record(failure=False, crash=item.get("crash", "unknown"))
    return from_api(*item)


class _NodeOracle(Oracle):
    family = "whatwg"

    def __init__(self, shared=None):
        self._shared = shared if shared is not None else {}
        self.server = _server(self._shared)
        if self.name in self.server.unavailable:
            self._release()
            reason = self.server.unavailable[self.name]
            raise Unavailable(f"{reason} (run `make node`, i.e. npm ci in {NODE_DIR})")

    def parse_many(self, items):
        return [_record(x) for x in self.server.request(self.name, items)]

    def parse(self, input, base=None):
        return self.parse_many([(input, base)])[0]

    def _release(self):
        self._shared["node_users"] -= 1
        if self._shared["node_users"] == 0:
            self._shared.pop("node").close()

    def close(self):
        if self.server is not None:
            self.server = None
            self._release()


class NodeURLOracle(_NodeOracle):
    """Node's global ``URL`` (implemented by the ada bundled in Node)."""

    name = "node"

    def __init__(self, shared=None):
        super().__init__(shared)
        v = self.server.versions
        self.version = f"{v['node']} (bundled ada {v.get('node-ada') or '?'})"


class WhatwgURLOracle(_NodeOracle):
    """npm ``whatwg-url``, the Standard's reference implementation."""

    name = "whatwg-url"

    def __init__(self, shared=None):
        super().__init__(shared)
        self.version = self.server.versions["whatwg-url"]
