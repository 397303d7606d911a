"""A planted bug for urlwb hunt's power test: a ``py:`` oracle that is the Standard's parser (the
engine's URL API), except on inputs that hold ``~q`` and have a host: there it reads the host
``evil.example``. The grammar generator and WPT never write it (WPT has ``~``, never followed by ``q``) (the test checks), and
each of its code points is a branch of its own, so coverage guidance reaches it one step at a time.
"""

import engine

family = "other"
base = False
__version__ = "planted-1"


def planted(text: str) -> bool:
    """Whether ``text`` holds ``~q``: one comparison per code point, each a branch."""
    for i in range(len(text) - 1):
        if text[i] == "~":
            if text[i + 1] == "q":
                return True
    return False


def parse(input, base=None):
    try:
        u = engine.URL(input)
    except engine.Failure as exc:
        raise ValueError(str(exc)) from None
    api = {"href": u.href, "protocol": u.protocol, "username": u.username, "password": u.password,
           "hostname": u.hostname, "port": u.port, "pathname": u.pathname, "search": u.search,
           "hash": u.hash}
    if u.hostname and planted(input):
        api["hostname"] = "evil.example"
    return {"api": api}


def parse_fixed(input, base=None):
    """The planted parser's next release: the bug fixed (the Standard's reading everywhere)."""
    try:
        u = engine.URL(input)
    except engine.Failure as exc:
        raise ValueError(str(exc)) from None
    return {"api": {"href": u.href, "protocol": u.protocol, "username": u.username,
                    "password": u.password, "hostname": u.hostname, "port": u.port,
                    "pathname": u.pathname, "search": u.search, "hash": u.hash}}
