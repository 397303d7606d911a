"""A user's PyPI adapter: the planted package ``urlwb_planted_py`` behind the oracle protocol. It
imports only from the release's venv, which ``NAME@VERSION`` starts it in."""
import json
import sys

import urlwb_planted_py as planted

print(json.dumps({"hello": "urlwb-oracle/1", "name": "planted-py", "parser": "urlwb-planted-py", "language": "Python",
                  "version": planted.VERSION, "family": "other", "kind": "url", "base": False}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    print(json.dumps({"id": req["id"], "scheme": req["input"].split(":")[0], "username": None, "password": None,
                      "host": planted.host(req["input"]), "port": None, "path": "", "query": None,
                      "fragment": None, "href": req["input"]}), flush=True)
