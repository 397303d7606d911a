"""Python HTTP clients behind ``urlwb ssrf``'s client protocol (urlwb/ssrf/observe/clients.py):
``client.py python-urllib|requests|httpx``. Hello line ``{"client", "version"}``; then for each
line on stdin (a JSON string: the URL) one JSON line: ``{"ok": true, "status"}`` or
``{"ok": false, "error": CLASS, "message"}``. Each fetches with its defaults except: redirects
followed (httpx's default is not to), at most 5; 3 s timeout; no proxy from the environment."""

import json
import sys

NAME = sys.argv[1]
TIMEOUT = 3.0


def _urllib():
    import urllib.request
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def fetch(url):
        with opener.open(url, timeout=TIMEOUT) as r:
            return r.status
    return fetch, sys.version.split()[0]


def _requests():
    import requests
    s = requests.Session()
    s.trust_env = False
    s.max_redirects = 5

    def fetch(url):
        return s.get(url, timeout=TIMEOUT, allow_redirects=True).status_code
    return fetch, requests.__version__


def _httpx():
    import httpx
    c = httpx.Client(follow_redirects=True, max_redirects=5, timeout=TIMEOUT, trust_env=False)

    def fetch(url):
        return c.get(url).status_code
    return fetch, httpx.__version__


def main():
    fetch, version = {"python-urllib": _urllib, "requests": _requests, "httpx": _httpx}[NAME]()
    print(json.dumps({"client": NAME, "version": version}), flush=True)
    for line in sys.stdin:
        url = json.loads(line)
        try:
            out = {"ok": True, "status": fetch(url)}
        except BaseException as exc:  # every failure is an answer: the class is the observation
            if isinstance(exc, KeyboardInterrupt):
                raise
            cause = exc
            out = {"ok": False, "error": f"{type(exc).__module__}.{type(exc).__qualname__}",
                   "message": str(exc)[:300]}
            while getattr(cause, "__cause__", None) is not None or getattr(cause, "reason", None) is not None:
                nxt = cause.__cause__ or getattr(cause, "reason", None)
                if not isinstance(nxt, BaseException) or nxt is cause:
                    break
                cause = nxt
            if cause is not exc:
                out["cause"] = f"{type(cause).__module__}.{type(cause).__qualname__}"
        print(json.dumps(out, ensure_ascii=True), flush=True)


main()
