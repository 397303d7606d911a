"""The sealed network's listener process: ``python -m urlwb.ssrf.observe.listen PORTS REDIRECT``.

Run by :class:`urlwb.ssrf.observe.network.Network`, never by hand. In order:

1. ``unshare(CLONE_NEWNET)`` (unshare(2)): this process gets a network namespace of its own,
   whose only interface is ``lo``, down. The HTTP clients join it (setns(2),
   :func:`urlwb.sandbox.join_netns`), so that every connection they make lands here or nowhere.
2. ``lo`` up, and on it the addresses a validator is meant to keep a client from:
   127.0.0.1/8 and ::1 (the kernel's own when ``lo`` comes up), 10.0.0.1/32, 169.254.169.254/32
   and fd00::1/128 (``ip addr add``, iproute2). Then every other address is made local too
   (``ip route add local 0.0.0.0/0 dev lo`` and ``::/0``, the "AnyIP" local route, ip-route(8)):
   a connection to *any* address ends on a listener here, so where a client went is seen even
   when it is an address nobody meant (Java's 177.0.0.1 for ``0177.0.0.1``), and nothing leaves
   the namespace: there is no other interface. No DNS: nothing listens on port 53, so a lookup
   fails at once; ``/etc/hosts`` is read as usual (the mount namespace is the host's).
3. On each port of ``PORTS`` (comma-separated) one dual-stack listener on ``[::]`` (IPV6_V6ONLY
   off): it accepts a connection to *any* address of the namespace, and the address the client
   connected to is the socket's local address (an IPv4 one as ``::ffff:a.b.c.d``, written back as
   IPv4).
4. For every accepted connection (every one is accepted by the main thread, then served by a
   thread of its own) one JSON line on standard output: ``{"local", "port", "peer",
   "host"}`` (the ``Host`` header, or the TLS ClientHello's server name with ``"tls": true``),
   ``"path"`` (the request target), written before the answer, so that it is on the pipe before
   the client can have its response. The answer: ``200`` with a short body; on ``REDIRECT``'s
   port, a request for ``/r/<base64url>`` is answered ``302 Location: <the decoded bytes>``
   (the input, byte for byte, as a hostile server would send it); a TLS hello is closed.
5. Standard input: ``mark N`` is answered ``{"mark": N}`` after every connection queued on a
   listener has been accepted and its line written (so every connection a client made before it
   answered is before the mark); end of input ends the process.

With ``--host-network`` (namespaces unavailable) it makes no namespace and binds 127.0.0.1 and
::1 only, never a wildcard (which would listen on the host's other interfaces).

The first line is ``{"ready": true, "netns": INODE, "namespace": bool, "addresses": [...],
"ports": [...], "note": ...}``.
"""

from __future__ import annotations

import base64
import ctypes
import ipaddress
import json
import os
import select
import shutil
import socket
import struct
import subprocess
import sys
import threading

CLONE_NEWNET = 0x40000000
#: the addresses the sealed network carries beyond the kernel's 127.0.0.1/8 and ::1
EXTRA_ADDRESSES = ("10.0.0.1/32", "169.254.169.254/32", "fd00::1/128")
READ_SECONDS = 2.0

_out = threading.Lock()


def emit(obj: dict) -> None:
    with _out:
        sys.stdout.write(json.dumps(obj, ensure_ascii=True) + "\n")
        sys.stdout.flush()


def _unshare() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWNET) != 0:
        e = ctypes.get_errno()
        raise OSError(e, f"unshare(CLONE_NEWNET): {os.strerror(e)}")


def _own_namespace() -> bool:
    """Whether this process's network namespace differs from its parent's (the workbench's)."""
    return os.stat("/proc/self/ns/net").st_ino != os.stat(f"/proc/{os.getppid()}/ns/net").st_ino


def _configure() -> tuple[list[str], str | None]:
    """``lo`` up with the extra addresses: (addresses carried, a note when some are missing).
    Refuses (RuntimeError) unless this process is in a namespace of its own: the addresses and the
    local routes would take the host's traffic (fd00::1 may be its IPv6 gateway)."""
    if not _own_namespace():
        raise RuntimeError("refusing to configure the network: not in a namespace of its own")
    ip = shutil.which("ip") or next((p for p in ("/usr/sbin/ip", "/sbin/ip") if os.path.exists(p)), None)
    if ip is None:
        import fcntl  # lo up without iproute2: SIOCSIFFLAGS (netdevice(7))
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            fcntl.ioctl(s, 0x8914, struct.pack("16sH14x", b"lo", 0x1 | 0x8 | 0x40))
        finally:
            s.close()
        return ["127.0.0.1", "::1"], "iproute2's ip is not installed: only 127.0.0.0/8 and ::1 carried"
    cmds = [[ip, "link", "set", "lo", "up"]]
    cmds += [[ip, "-6" if ":" in a else "-4", "addr", "add", a, "dev", "lo"] + (["nodad"] if ":" in a else [])
             for a in EXTRA_ADDRESSES]
    cmds += [[ip, "-4", "route", "add", "local", "0.0.0.0/0", "dev", "lo"],
             [ip, "-6", "route", "add", "local", "::/0", "dev", "lo"]]
    carried, failed = ["127.0.0.1", "::1"], []
    for c in cmds:
        r = subprocess.run(c, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if r.returncode != 0:
            failed.append(f"{' '.join(c[1:])}: {r.stderr.strip()[:80]}")
        elif c[2] == "addr":
            carried.append(c[4].split("/")[0])
        elif c[2] == "route":
            carried.append("every other IPv4 address" if c[1] == "-4" else "every other IPv6 address")
    return carried, ("; ".join(failed) or None)


def _plain(addr: str) -> str:
    """An address as the model writes it: IPv4-mapped as IPv4, IPv6 compressed (``::7f00:1``)."""
    a = ipaddress.ip_address(addr.partition("%")[0])
    if isinstance(a, ipaddress.IPv6Address) and a.ipv4_mapped is not None:
        return str(a.ipv4_mapped)
    return str(a)


def server_name(hello: bytes) -> str | None:
    """The SNI host name of a TLS ClientHello (RFC 8446 4.1.2, RFC 6066 3), or None."""
    try:
        p = 5 + 4 + 2 + 32  # record header, handshake header, version, random
        p += 1 + hello[p]  # session id
        p += 2 + int.from_bytes(hello[p:p + 2], "big")  # cipher suites
        p += 1 + hello[p]  # compression methods
        end = p + 2 + int.from_bytes(hello[p:p + 2], "big")
        p += 2
        while p + 4 <= end:
            kind, n = int.from_bytes(hello[p:p + 2], "big"), int.from_bytes(hello[p + 2:p + 4], "big")
            if kind == 0:
                q = p + 4 + 2 + 1
                length = int.from_bytes(hello[q:q + 2], "big")
                return hello[q + 2:q + 2 + length].decode("utf-8", "replace")
            p += 4 + n
    except (IndexError, ValueError):
        return None
    return None


def _read_head(conn: socket.socket) -> bytes:
    conn.settimeout(READ_SECONDS)
    data = b""
    try:
        while b"\r\n\r\n" not in data and len(data) < 65536:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
            if data[:1] == b"\x16" and len(data) >= 5 and len(data) >= 5 + int.from_bytes(data[3:5], "big"):
                break
    except OSError:
        pass
    return data


def _serve(conn: socket.socket, redirect_port: int) -> None:
    try:
        local = conn.getsockname()
        peer = conn.getpeername()
        data = _read_head(conn)
        rec = {"local": _plain(local[0]), "port": local[1], "peer": _plain(peer[0]), "host": None, "path": None}
        if data[:1] == b"\x16":
            rec.update(tls=True, host=server_name(data))
            emit(rec)
            return
        head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
        parts = head[0].split(" ")
        rec["path"] = parts[1] if len(parts) > 1 else None
        for line in head[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "host":
                rec["host"] = value.strip()
                break
        if local[1] == redirect_port and (rec["path"] or "").startswith("/r/"):
            rec["redirector"] = True
            emit(rec)
            target = base64.urlsafe_b64decode(rec["path"][3:] + "=" * (-len(rec["path"][3:]) % 4))
            conn.sendall(b"HTTP/1.1 302 Found\r\nLocation: " + target +
                         b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        emit(rec)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n"
                     b"Connection: close\r\n\r\nurlwb\n")
    except OSError:
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass


def _accept_ready(socks: list[socket.socket], redirect_port: int, pending: list[threading.Thread],
                  timeout: float) -> None:
    """Accept every connection waiting on ``socks`` (waiting at most ``timeout`` for the first),
    each served by a thread of its own, put in ``pending``."""
    ready, _, _ = select.select(socks, [], [], timeout)
    for sock in ready:
        while True:
            try:
                conn, _ = sock.accept()
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                break
            conn.setblocking(True)
            t = threading.Thread(target=_serve, args=(conn, redirect_port), daemon=True)
            t.start()
            pending.append(t)


def _listeners(ports: list[int], sealed: bool) -> tuple[list[socket.socket], list[str]]:
    socks, notes = [], []
    binds = [("::", socket.AF_INET6)] if sealed else [("127.0.0.1", socket.AF_INET), ("::1", socket.AF_INET6)]
    for port in ports:
        for addr, family in binds:
            s = socket.socket(family, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0 if sealed else 1)
            try:
                s.bind((addr, port))
                s.listen(64)
            except OSError as exc:
                notes.append(f"port {port} on {addr}: {exc.strerror}")
                s.close()
                continue
            socks.append(s)
    return socks, notes


def main(argv: list[str]) -> int:
    sealed = "--host-network" not in argv
    args = [a for a in argv if not a.startswith("--")]
    ports = sorted({int(p) for p in args[0].split(",") if p})
    redirect_port = int(args[1])
    note = None
    if sealed:
        _unshare()
        carried, note = _configure()
    else:
        carried = ["127.0.0.1", "::1"]
    socks, notes = _listeners(sorted(set(ports) | {redirect_port}), sealed)
    for s in socks:
        s.setblocking(False)
    emit({"ready": True, "namespace": sealed, "netns": os.stat("/proc/self/ns/net").st_ino,
          "addresses": carried, "ports": sorted({s.getsockname()[1] for s in socks}),
          "note": "; ".join(x for x in [note, *notes] if x) or None})
    # One thread accepts, this one: a mark first accepts what is queued (a client's connect has
    # returned, so its connection is in a listener's queue), waits for those connections' lines,
    # then answers; no connection made before the client answered can come after its mark.
    pending: list[threading.Thread] = []
    stdin = sys.stdin.fileno()
    buf = b""
    while True:
        ready, _, _ = select.select([stdin, *socks], [], [])
        if any(r is not stdin for r in ready):
            _accept_ready(socks, redirect_port, pending, 0)
        if stdin not in ready:
            continue
        chunk = os.read(stdin, 65536)
        if not chunk:
            return 0
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            word, _, n = line.decode("ascii", "replace").strip().partition(" ")
            if word == "mark":
                _accept_ready(socks, redirect_port, pending, 0)
                for t in pending:
                    t.join()
                pending.clear()
                emit({"mark": int(n)})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
