"""Planted parsers for tests/workbench/test_findings_everywhere.py, as ``py:`` oracles: each is the
Standard's parser (the engine's URL API) except where it is planted wrong.

- ``misreads_host`` (family whatwg: it declares the URL Standard) reads the host ``evil.example``
  on inputs that hold ``~q`` and have a host: a bug under its contract;
- ``crashes`` raises ``IndexError`` (no documented rejection) on inputs that hold ``[9``: a crash
- ``reads_own_way`` (family other, no contract declared) reads the same host ``evil.example``:
  a hazard, its own rules say nothing.
"""

import engine


def _api(input, base, planted_host=None):
    try:
        u = engine.URL(input, base)
    except engine.Failure as exc:
        raise ValueError(str(exc)) from None
    api = {"href": u.href, "protocol": u.protocol, "username": u.username, "password": u.password,
           "hostname": u.hostname, "port": u.port, "pathname": u.pathname, "search": u.search,
           "hash": u.hash}
    if u.hostname and planted_host and "~q" in input:
        api["hostname"] = planted_host
    return {"api": api}


def misreads_host(input, base=None):
    return _api(input, base, "evil.example")


misreads_host.family = "whatwg"
misreads_host.version = "planted-1"


def crashes(input, base=None):
    if "[9" in input:
        raise IndexError("index 16 out of bounds for length 16")
    return _api(input, base)


crashes.family = "whatwg"
crashes.version = "planted-1"


def reads_own_way(input, base=None):
    return _api(input, base, "evil.example")


reads_own_way.version = "planted-1"


def standard(input, base=None):
    """The planted parser's next release: the Standard's reading everywhere."""
    return _api(input, base)


standard.family = "whatwg"
standard.version = "planted-2"
