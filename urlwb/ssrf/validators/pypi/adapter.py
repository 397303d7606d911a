#!/usr/bin/env python3
"""Python SSRF validators behind the oracle protocol, kind "validator" (docs/oracle-protocol.md,
"Validators"): ``python adapter.py NAME``.

- ``validators``: PyPI validators' ``validators.url(input, private=False)`` (0.21 and later: a
  private or local address is invalid); from 0.10.3 to 0.20 the same check was ``public=True``,
  and 0.21 to 0.27 have neither (python-validators/validators#309), so the adapter passes
  whichever keyword the installed release's signature has, or none. A falsy answer
  (``ValidationError``) denies; its text is not sent (it repeats the input).
- ``ipaddress``: ``urllib.parse.urlsplit(input).hostname`` then ``ipaddress.ip_address(host)``:
  allow iff ``is_global``; a hostname that is not an address is allowed (a name), an input
  urlsplit refuses (ValueError) is "error", and so is no hostname.

The release of ``validators`` is the one in ``$URLWB_VALIDATOR_SITE`` (urlwb/ssrf/install.py)
or else ``build/site`` beside this file (``make oracles``).
"""

import inspect
import ipaddress
import json
import os
import pathlib
import sys
import urllib.parse

HERE = pathlib.Path(__file__).resolve().parent


def load_validators():
    sys.path.insert(0, os.environ.get("URLWB_VALIDATOR_SITE") or str(HERE / "build" / "site"))
    import validators
    params = inspect.signature(validators.url).parameters
    keyword = {"private": False} if "private" in params else {"public": True} if "public" in params else {}
    version = getattr(validators, "__version__", "?")

    def judge(text):
        return {"allow": bool(validators.url(text, **keyword))}
    return judge, version, f"validators.url(input, {', '.join(f'{k}={v}' for k, v in keyword.items())})"


def load_ipaddress():
    def judge(text):
        try:
            host = urllib.parse.urlsplit(text).hostname
        except ValueError as exc:
            return {"error": f"urlsplit: {exc}"}
        if host is None:
            return {"error": "no hostname"}
        try:
            addr = ipaddress.ip_address(host)
        except ValueError:
            return {"allow": True}
        return {"allow": addr.is_global}
    return judge, sys.version.split()[0], "ipaddress.ip_address(urlsplit(input).hostname).is_global"


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else ""
    loaders = {"validators": load_validators, "ipaddress": load_ipaddress}
    if name not in loaders:
        print(f"usage: adapter.py {'|'.join(loaders)}", file=sys.stderr)
        return 2
    judge, version, what = loaders[name]()
    out = sys.stdout
    out.write(json.dumps({"hello": "urlwb-oracle/1", "name": os.environ.get("URLWB_VALIDATOR_NAME") or name,
                          "kind": "validator", "validator": what, "parser": what, "language": "Python",
                          "version": version, "family": "other"}) + "\n")
    out.flush()
    for line in sys.stdin.buffer:
        req = json.loads(line)
        try:
            answer = judge(req["input"])
        except Exception as exc:  # noqa: BLE001 - undocumented: reported as this input's crash
            answer = {"crash": f"{type(exc).__name__}: {exc}"[:300]}
        out.write(json.dumps({"id": req["id"], **answer}) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
