#!/usr/bin/env python3
"""A deliberately broken validator (kind "validator" of docs/oracle-protocol.md), for the tests
of ``urlwb.ssrf.validator``. Without arguments it is a correct, permissive validator: it allows
every input whose ``urlsplit`` hostname is not the literal text ``127.0.0.1`` (so ``0x7f.1``
gets through). Each ``MODE=TEXT`` argument misbehaves on inputs containing TEXT (backslash
escapes in TEXT decoded, so ``crash=\\udc80`` picks the lone surrogate):

  crash=T    exit with status 3 after a line on standard error
  hang=T     never answer again
  skip=T     never answer this request, but answer the others
  schema=T   answer {"id": ..., "allow": "yes"} (out of schema)
  noid=T     answer {"allow": true}, without the request's id
  garbage=T  write a line that is not JSON
  kind=K     say kind K in the hello line
"""

import json
import sys
import time
import urllib.parse


def main():
    opts = dict(a.partition("=")[::2] for a in sys.argv[1:])
    opts = {m: (t.encode("ascii", "backslashreplace").decode("unicode_escape") if m != "kind" else t)
            for m, t in opts.items()}
    out = sys.stdout
    out.write(json.dumps({"hello": "urlwb-oracle/1", "name": "broken-validator", "kind": opts.get("kind", "validator"),
                          "validator": "urlsplit hostname != '127.0.0.1'", "language": "Python",
                          "version": "0", "family": "other", "base": False}) + "\n")
    out.flush()
    for line in sys.stdin:
        req = json.loads(line)
        s = req["input"]
        hit = {m for m, t in opts.items() if m != "kind" and t and t in s}
        if "crash" in hit:
            sys.stderr.write("broken_validator: boom\n")
            sys.stderr.flush()
            sys.exit(3)
        if "hang" in hit:
            while True:
                time.sleep(3600)
        if "skip" in hit:
            continue
        if "garbage" in hit:
            out.write("not json\n")
        elif "noid" in hit:
            out.write(json.dumps({"allow": True}) + "\n")
        elif "schema" in hit:
            out.write(json.dumps({"id": req["id"], "allow": "yes"}) + "\n")
        else:
            try:
                host = urllib.parse.urlsplit(s).hostname
                out.write(json.dumps({"id": req["id"], "allow": host != "127.0.0.1"}) + "\n")
            except ValueError as exc:
                out.write(json.dumps({"id": req["id"], "error": str(exc)}) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
