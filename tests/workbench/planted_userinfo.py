"""A planted parser for the differential report's headline witnesses: the Standard's reading
(the engine's URL API) except in the userinfo, where it is wrong twice: it accepts an empty
userinfo before an empty host ('sc://@/', which the Standard rejects: a difference, and no host
to confuse), and the
userinfo ends at the FIRST '@' (url-parse before 1.5.6), so that 'http://a@b@c/' reads the host
'b@c', a host confusion. Both are the userinfo kind; the report must head the cell with the
second, however short the first."""

import engine

family = "other"
base = False
__version__ = "planted-1"


def parse(input, base=None):
    try:
        u = engine.URL(input)
    except engine.Failure as exc:
        scheme, sep, rest = input.partition("://@")
        if sep and rest.startswith("/"):
            return {"api": {"href": input, "protocol": scheme + ":", "username": "", "password": "",
                            "hostname": "", "port": "", "pathname": rest, "search": "", "hash": ""}}
        raise ValueError(str(exc)) from None
    api = {"href": u.href, "protocol": u.protocol, "username": u.username, "password": u.password,
           "hostname": u.hostname, "port": u.port, "pathname": u.pathname, "search": u.search,
           "hash": u.hash}
    scheme, sep, rest = input.partition("://")
    authority = rest.split("/", 1)[0]
    if sep and authority.count("@") >= 2:
        user, _, host = authority.partition("@")
        api["username"], api["password"], api["hostname"] = user, "", host.lower()
    return {"api": api}
