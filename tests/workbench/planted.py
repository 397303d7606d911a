"""In-process validators for the tests of ``urlwb ssrf`` (``py:`` callables, imported by path).

``permissive`` is the planted bug: it denies only the literal host text ``127.0.0.1``, so any
other spelling of a denied address gets through. ``strict_for_getaddrinfo`` denies whatever a
getaddrinfo client using urllib's ``urlsplit`` would connect to in a denied place: against the
``urllib`` fetcher it can have no bypass. ``raises`` shows the ``ValueError``/other-exception
contract; ``not_bool`` answers out of schema.
"""

import urllib.parse

from urlwb.ssrf import policy, resolvers

POLICY = policy.parse(None, None)


def permissive(s):
    return urllib.parse.urlsplit(s).hostname != "127.0.0.1"


def strict_for_getaddrinfo(s):
    parts = urllib.parse.urlsplit(s)
    host = parts.hostname
    if host is None:
        return True
    if ":" in host:
        host = f"[{host}]"
    return POLICY.denied(policy.Destination(host, resolvers.read_getaddrinfo(host))) is None


def raises(s):
    if "value" in s:
        raise ValueError("refused: " + s)
    if "boom" in s:
        raise KeyError("boom")
    return True


def not_bool(s):
    return "yes"
