"""Real HTTP clients, each a long-lived child inside a sealed network (:mod:`.network`).

Declared in ``urlwb/ssrf/observe/clients/<folder>/oracles.toml`` (kind ``client``; read by
:mod:`urlwb.oracles.manifests`, installed and built by ``make oracles``): curl (libcurl's easy
interface), Go's ``net/http``, ``java.net.http.HttpClient``, OkHttp's ``Call``, Python's
``urllib.request``, requests, httpx, Node's ``fetch``, Ruby's ``Net::HTTP``, PHP's ``http://``
stream wrapper and .NET's ``HttpWebRequest`` on Mono. Each follows redirects (its own limit), uses no proxy and gives up after 3 s.

The line protocol (simpler than the oracle protocol: a client answers one thing):

- the client's first line: ``{"client": NAME, "version": V}``;
- then, for each line it reads (a JSON string: one URL, which may hold a tab or a newline), one
  JSON line: ``{"ok": true, "status": N}`` or ``{"ok": false, "error": CLASS, "message": TEXT}``
  (with ``"cause"`` when the error wraps another).

What the client *says* is not where it connected: that is what the listeners saw
(:meth:`Network.mark`). A client that cannot start is skipped with a one-line reason. One that
dies, hangs past :data:`DEADLINE` or answers out of protocol on an input is a finding about the
client (:class:`Trouble`); it is restarted and the run goes on.
"""

from __future__ import annotations

import dataclasses
import json
import os
import queue
import subprocess
import threading

from urlwb import children, sandbox
from urlwb.oracles import manifests

#: seconds one fetch may take (the clients give up after 3 s; a JVM's first fetch is slower)
DEADLINE = 10.0
START_SECONDS = 30.0
#: the proxy variables a client must not see (every request goes straight to the sealed network)
PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
              "no_proxy", "NO_PROXY")


def declared() -> dict[str, manifests.Spec]:
    """name -> Spec of every shipped client, in folder order."""
    out = {}
    for folder in manifests.discover(manifests.CLIENTS_ROOT):
        for spec in folder.specs:
            out[spec.name] = spec
    return out


@dataclasses.dataclass
class Trouble:
    """A client that died, hung or answered out of protocol on an input: a finding about it."""

    what: str        # "crashed", "hung", "bad answer"
    detail: str      # exit status and last stderr line, or the answer


class ClientError(RuntimeError):
    """The client cannot start (one line)."""


class Client:
    """One running client inside ``netns`` (None: the host's network)."""

    def __init__(self, spec: manifests.Spec, netns: str | None):
        self.spec, self.netns = spec, netns
        self.name = spec.name
        self.version = "?"
        self.restarts = 0
        #: why it could not be restarted after trouble (then every later fetch is that trouble)
        self.gone: str | None = None
        self._start()

    def _start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in PROXY_VARS}
        env.update(self.spec.env)
        self.proc = children.popen(self.spec.command, cwd=self.spec.cwd, env=env, stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   encoding="utf-8", errors="replace", netns=self.netns,
                                   sandbox=sandbox.limits())
        self._q: queue.Queue = queue.Queue()
        self._err: list[str] = []
        threading.Thread(target=children.read_lines, args=(self.proc.stdout, self._q), daemon=True).start()
        threading.Thread(target=self._stderr, daemon=True).start()
        try:
            line = self._q.get(timeout=START_SECONDS)
        except queue.Empty:
            line = None
        try:
            hello = json.loads(line) if line else None
        except ValueError:
            hello = None
        if not isinstance(hello, dict) or hello.get("client") != self.name:
            self.close()
            said = self._err[-1][:160] if self._err else (f"first line {line[:80]!r}" if line else "no hello line")
            raise ClientError(f"did not start ({said})")
        self.version = str(hello.get("version", "?"))

    def _stderr(self) -> None:
        for line in self.proc.stderr:
            self._err.append(line.rstrip())
            del self._err[:-20]

    def fetch(self, url: str) -> dict | Trouble:
        """The client's answer on ``url``, or the :class:`Trouble` it got into (then restarted)."""
        if self.gone:
            return Trouble("gone", self.gone)
        try:
            self.proc.stdin.write(json.dumps(url, ensure_ascii=True) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            return self._trouble("crashed", "its standard input was closed")
        try:
            line = self._q.get(timeout=DEADLINE)
        except queue.Empty:
            return self._trouble("hung", f"no answer in {DEADLINE:g} s")
        if line is None:
            self.proc.wait()
            return self._trouble("crashed", f"exit status {self.proc.returncode}")
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict) or not isinstance(answer.get("ok"), bool):
            return self._trouble("bad answer", f"{line[:200]!r}")
        return answer

    def _trouble(self, what: str, detail: str) -> Trouble:
        err = next((e for e in reversed(self._err) if e.strip()), "")
        self.close()
        self.restarts += 1
        t = Trouble(what, detail + (f"; stderr: {err[:200]}" if err else ""))
        try:
            self._start()
        except ClientError as exc:
            self.gone = f"not restarted after it {what}: {exc}"
        return t

    def close(self) -> None:
        if self.proc.returncode is not None and self.proc.stdin.closed:
            return
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        children.release(self.proc)
