"""A planted slow parser for the silence test (tests/workbench/test_progress.py): the engine's
reading, after a sleep of :data:`SLEEP` seconds per input."""

import os
import time

import engine

family = "other"
base = False
__version__ = "planted-slow-1"

#: seconds per input (the test sets PLANTED_SLOW_SECONDS: the parser may run in a child)
SLEEP = float(os.environ.get("PLANTED_SLOW_SECONDS", "0.25"))


def parse(input, base=None):
    time.sleep(SLEEP)
    try:
        u = engine.URL(input)
    except engine.Failure as exc:
        raise ValueError(str(exc)) from None
    return {"api": {"href": u.href, "protocol": u.protocol, "username": u.username, "password": u.password,
                    "hostname": u.hostname, "port": u.port, "pathname": u.pathname, "search": u.search,
                    "hash": u.hash}}


def permissive(s):
    """A planted slow SSRF validator (``--oracle mine=py:planted_slow:permissive``): allows all
    but the literal 127.0.0.1, after the same sleep."""
    import urllib.parse
    time.sleep(SLEEP)
    return urllib.parse.urlsplit(s).hostname != "127.0.0.1"
