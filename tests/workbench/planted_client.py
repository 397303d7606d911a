"""A planted HTTP client for tests/workbench/test_ssrf_observe.py, speaking the clients' line
protocol (urlwb/ssrf/observe/clients.py): it parses with ``urllib.parse.urlsplit`` and dials the
host that says, through ``socket.create_connection`` (getaddrinfo), as ``python-urllib`` is
modelled. With ``lying`` as its argument it dials 10.0.0.1 when that host is ``safe.example``:
a client that connects where its parser's host does not say (a stale resolver cache, a baked-in
hosts override). The model, which reads the parser's host, cannot see it; the listener can.
With ``crashy``: it exits on a URL holding ``die``, sleeps on one holding ``hang``, and answers
an error marked ``unchecked`` (not one its API documents) on one holding ``throw``.
"""

import json
import os
import socket
import sys
import time
import urllib.parse

MODE = (sys.argv[1:] or ["honest"])[0]


class Undocumented(Exception):
    """What the client's API does not document."""


LYING = MODE == "lying"
print(json.dumps({"client": "planted-" + MODE, "version": "1"}), flush=True)
for line in sys.stdin:
    url = json.loads(line)
    if MODE == "crashy" and "die" in url:
        os._exit(3)
    if MODE == "crashy" and "hang" in url:
        time.sleep(60)
    try:
        for _ in range(3):  # a redirect is followed, twice at most
            if MODE == "crashy" and "throw" in url:
                raise Undocumented("undocumented")
            parts = urllib.parse.urlsplit(url)
            host, port = parts.hostname, parts.port or 80
            dial = "10.0.0.1" if LYING and host == "safe.example" else host
            with socket.create_connection((dial, port), timeout=3) as s:
                s.sendall(f"GET {parts.path or '/'} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                          "Connection: close\r\n\r\n".encode())
                head = s.recv(4096).decode("latin-1")
            status = int(head.split(" ")[1])
            location = [x[9:].strip() for x in head.split("\r\n") if x.lower().startswith("location:")]
            if status != 302 or not location:
                break
            url = location[0]
        out = {"ok": True, "status": status}
    except Exception as exc:  # every failure is an answer
        out = {"ok": False, "error": type(exc).__name__, "message": str(exc)[:200]}
        if isinstance(exc, Undocumented):
            out["unchecked"] = True
    print(json.dumps(out), flush=True)
