"""A sealed network for one HTTP client: a network namespace the run makes for itself, its
listeners, and what they saw.

:class:`Network` starts :mod:`urlwb.ssrf.observe.listen` (through :func:`urlwb.children.popen`),
which makes the namespace and listens in it; a client is then started inside it
(``children.popen(..., netns=network.netns)``). Each client has a network of its own, so every
connection a listener records is that client's, and clients can run side by side.

:meth:`Network.mark` returns the connections recorded since the previous mark: the listener
writes each connection's line before it answers it, and answers ``mark`` after every line
written before, so a client's answer to one fetch, then a mark, gives exactly that fetch's
connections (a client that connects after it answered, a retry in the background, shows up in
the next fetch's: the clients here do not).

Every address is local in the namespace (:mod:`.listen`), and each port listened on is a
dual-stack wildcard listener, so a connection to any address on such a port is seen.

Namespaces need CAP_SYS_ADMIN (root). Where the kernel refuses (:func:`available`), the network
is the host's loopback only (127.0.0.1 and ::1, no 10.0.0.1, no 169.254.169.254, and DNS not
cut off), said in one line by :func:`unavailable_line`.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import re
import subprocess
import sys
import threading

from urlwb import children, sandbox

#: a port no input is likely to name: the redirector's (``302 Location: INPUT``)
REDIRECT_PORT = 40302
DEFAULT_PORTS = (80, 443)
#: at most this many ports listened on (the first ones the inputs name, after 80 and 443)
MAX_PORTS = 64
START_SECONDS = 20.0
MARK_SECONDS = 10.0

_PORT = re.compile(r":([0-9]{1,5})(?=[/?#\\]|$)")

_probe: list[str | None] = []


def available() -> str | None:
    """None when this process may make network namespaces, else why not (probed once)."""
    if not _probe:
        _probe.append(sandbox.namespace_refused())
    return _probe[0]


def unavailable_line(why: str) -> str:
    return (f"urlwb ssrf: no network namespace ({why}): clients observed on the host's loopback only "
            "(127.0.0.1 and ::1; 10.0.0.1, 169.254.169.254 and fd00::1 not carried, DNS not cut off): "
            "an input is fetched only where the model reads it as loopback")


def ports_of(inputs: list[str]) -> list[int]:
    """80, 443, then every port the inputs write (``:N`` before a ``/ ? # \\`` or the end), at
    most :data:`MAX_PORTS` in all, never the redirector's."""
    seen = dict.fromkeys(DEFAULT_PORTS)
    for s in inputs:
        for m in _PORT.finditer(s):
            p = int(m[1])
            if 0 < p < 65536 and p != REDIRECT_PORT:
                seen.setdefault(p)
        if len(seen) >= MAX_PORTS:
            break
    return list(seen)[:MAX_PORTS]


def redirect_url(target: str) -> str:
    """The URL on the redirector that answers ``302 Location: target`` (the bytes of target)."""
    code = base64.urlsafe_b64encode(target.encode("utf-8", "surrogateescape")).decode("ascii").rstrip("=")
    return f"http://127.0.0.1:{REDIRECT_PORT}/r/{code}"


def _socket_inodes(pid: int) -> set[str]:
    """The inodes of the sockets process ``pid`` holds open (``/proc/PID/fd`` -> ``socket:[N]``)."""
    out = set()
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return out
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            out.add(target[8:-1])
    return out


class NetworkError(RuntimeError):
    """The listener could not start (one line)."""


class Network:
    """One sealed network (module docstring); ``sealed`` False: the host's loopback."""

    def __init__(self, ports: list[int], sealed: bool = True):
        cmd = [sys.executable, "-m", "urlwb.ssrf.observe.listen", ",".join(map(str, ports)), str(REDIRECT_PORT)]
        if not sealed:
            cmd.append("--host-network")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.proc = children.popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=env)
        self._q: queue.Queue = queue.Queue()
        threading.Thread(target=children.read_lines, args=(self.proc.stdout, self._q), daemon=True).start()
        self._marks = 0
        try:
            line = self._q.get(timeout=START_SECONDS)
        except queue.Empty:
            line = None
        hello = json.loads(line) if line else None
        if not hello or not hello.get("ready"):
            try:
                self.proc.wait(timeout=2)
                err = self.proc.stderr.read()
            except subprocess.TimeoutExpired:
                err = ""
            self.close()
            raise NetworkError(f"the listener did not start: {(err.strip().splitlines() or ['no answer'])[-1][:200]}")
        self.sealed = hello["namespace"]
        self.inode = hello["netns"]
        self.addresses = hello["addresses"]
        self.ports = hello["ports"]
        self.note = hello["note"]
        #: the namespace a client joins (None on the host's network)
        self.netns = f"/proc/{self.proc.pid}/ns/net" if self.sealed else None

    def mark(self) -> list[dict]:
        """The connections recorded since the last mark, in order."""
        self._marks += 1
        try:
            self.proc.stdin.write(f"mark {self._marks}\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise NetworkError("the listener is gone") from None
        out = []
        while True:
            try:
                line = self._q.get(timeout=MARK_SECONDS)
            except queue.Empty:
                raise NetworkError("the listener did not answer a mark") from None
            if line is None:
                raise NetworkError("the listener is gone")
            rec = json.loads(line)
            if rec.get("mark") == self._marks:
                return out
            if "mark" not in rec:
                out.append(rec)

    def listeners_outside(self) -> list[str]:
        """The listening sockets of the listener process that the *calling* process's network
        namespace holds (``/proc/self/net/tcp*``, matched by socket inode): [] when every one is
        inside the sealed namespace. Read by the run before any client starts (a run whose
        listeners leaked out stops) and by the tests."""
        mine = _socket_inodes(self.proc.pid)
        here = {}
        for table in ("tcp", "tcp6"):
            try:
                lines = open(f"/proc/self/net/{table}", encoding="ascii").read().splitlines()[1:]
            except OSError:
                continue
            for line in lines:
                f = line.split()
                if len(f) > 9 and f[3] == "0A":  # TCP_LISTEN
                    here[f[9]] = f"{table} {f[1]}"
        return sorted(here[i] for i in mine if i in here)

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        children.release(self.proc)
