#!/usr/bin/env python3
"""A deliberately broken oracle adapter, for the supervisor's tests and ``urlwb oracle check``'s.

Without arguments it is a correct adapter of the protocol (``docs/oracle-protocol.md``) around
``urllib.parse.urlsplit``. Each argument breaks it one way, ``MODE`` or ``MODE=TEXT`` (TEXT with
Python escapes, e.g. ``crash=\\x00``): the misbehaviour happens on every input containing TEXT.

  garbage=T     write a line that is not JSON instead of the answer
  crash=T       exit with status 3 (after a line on standard error)
  hang=T        never answer, never read again
  unknown-id=T  answer with an id never sent
  duplicate=T   answer twice
  schema=T      answer out of schema (port a list)
  slow=SECONDS  sleep that long before each answer
  connect=PORT  before each answer, try a TCP connection to 127.0.0.1:PORT (and answer anyway)
  allocate=T    allocate memory without bound (the sandbox's memory cap must stop it)
  hog           after the hello line, before reading anything, allocate without bound (it dies of
                the memory cap with its requests unread)
  reorder       answer each batch of waiting requests in reverse order
  no-hello      never write the hello line
  bad-hello     write a hello line of another protocol
  no-exit       stay alive after the end of standard input
  name=N family=F base=false   the hello line's fields
  host          a host-level oracle (kind host): to-ascii by Python's idna codec, ip by ipaddress
"""

import codecs
import ipaddress
import json
import os
import select
import sys
import time
import urllib.parse


def options(argv):
    opts = {}
    for arg in argv:
        mode, eq, text = arg.partition("=")
        opts[mode] = codecs.decode(text, "unicode_escape") if eq else True
    return opts


def parse(input, base):
    try:
        s = urllib.parse.urlsplit(urllib.parse.urljoin(base, input) if base is not None else input)
        port = s.port
    except ValueError as exc:
        return {"error": str(exc)}
    host = s.hostname
    if host is not None and ":" in host:
        host = f"[{host}]"
    return {"scheme": s.scheme or None, "username": s.username, "password": s.password,
            "host": host, "port": port, "path": s.path, "query": s.query or None,
            "fragment": s.fragment or None, "href": s.geturl()}


def answer_host(question, text):
    try:
        if question == "to-ascii":
            return {"value": text.encode("idna").decode("ascii")}
        addr = ipaddress.ip_address(text[1:-1] if text.startswith("[") else text)
        return {"value": f"[{addr.compressed}]" if addr.version == 6 else addr.compressed}
    except (UnicodeError, ValueError) as exc:
        return {"error": str(exc)}


def lines(fd=0):
    """Lines of standard input, read with os.read so that select() tells the truth about what
    is waiting; yields None when nothing more is waiting right now."""
    buf = b""
    while True:
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            yield line
        if not select.select([fd], [], [], 0)[0]:
            yield None
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        buf += chunk


def main():
    opts = options(sys.argv[1:])
    out = sys.stdout

    def write(obj):
        out.write(json.dumps(obj) + "\n")

    def hit(mode, input):
        return mode in opts and isinstance(opts[mode], str) and opts[mode] in input

    if "bad-hello" in opts:
        write({"hello": "other-protocol/9"})
    elif "host" in opts:
        write({"hello": "urlwb-oracle/1", "name": opts.get("name", "broken"), "parser": "idna codec, ipaddress",
               "language": "Python", "version": sys.version.split()[0], "family": "other", "kind": "host",
               "questions": ["to-ascii", "ip"]})
    elif "no-hello" not in opts:
        write({"hello": "urlwb-oracle/1", "name": opts.get("name", "broken"), "parser": "urllib.parse",
               "language": "Python", "version": sys.version.split()[0],
               "family": opts.get("family", "other"), "kind": "url", "base": opts.get("base") != "false"})
    out.flush()
    if "hog" in opts:
        hoard = []
        while True:
            hoard.append(bytearray(64 << 20))
    batch = []
    for line in lines():
        if line is None or ("reorder" not in opts and batch):
            for obj in reversed(batch) if "reorder" in opts else batch:
                write(obj)
            batch = []
            out.flush()
            if line is None:
                continue
        req = json.loads(line)
        input, base, rid = req["input"], req.get("base"), req["id"]
        if "slow" in opts:
            time.sleep(float(opts["slow"]))
        if "connect" in opts:
            import socket
            try:
                socket.create_connection(("127.0.0.1", int(opts["connect"])), timeout=1).close()
            except OSError:
                pass
        if hit("allocate", input):
            hoard = []
            while True:
                hoard.append(bytearray(64 << 20))
        if hit("crash", input):
            sys.stderr.write("broken_adapter: boom\n")
            sys.stderr.flush()
            os._exit(3)
        if hit("hang", input):
            for obj in batch:
                write(obj)
            out.flush()
            while True:
                time.sleep(3600)
        if hit("garbage", input):
            out.write("this is not JSON\n")
            continue
        if "host" in opts:
            answer = {"id": rid, **answer_host(req["question"], input)}
        else:
            answer = {"id": rid, **parse(input, base)}
        if hit("unknown-id", input):
            answer["id"] = rid + 10 ** 9
        if hit("schema", input):
            answer = {"id": rid, **parse("http://a/", None), "port": [1]}
        batch.append(answer)
        if hit("duplicate", input):
            batch.append(answer)
    for obj in batch:
        write(obj)
    out.flush()
    if "no-exit" in opts:
        while True:
            time.sleep(3600)


if __name__ == "__main__":
    main()
