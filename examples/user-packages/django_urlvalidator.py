"""A user's adapter on Django's URLValidator (a parser's answer when it accepts, `error` when it
raises ValidationError): the components are urllib.parse.urlsplit's of the accepted input."""
import json
import sys
import urllib.parse

import django
from django.conf import settings

settings.configure()
from django.core.exceptions import ValidationError  # noqa: E402
from django.core.validators import URLValidator  # noqa: E402

validate = URLValidator()
print(json.dumps({"hello": "urlwb-oracle/1", "name": "django-urlvalidator", "parser": "django URLValidator",
                  "language": "Python", "version": django.get_version(), "family": "other", "kind": "url",
                  "base": False}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    s = req["input"]
    try:
        validate(s)
        u = urllib.parse.urlsplit(s)
        host = f"[{u.hostname}]" if u.hostname and ":" in u.hostname else u.hostname   # IPv6, bracketed
        ans = {"id": req["id"], "scheme": u.scheme, "username": u.username, "password": u.password,
               "host": host, "port": u.port, "path": u.path, "query": u.query or None,
               "fragment": u.fragment or None, "href": s}
    except ValidationError:
        ans = {"id": req["id"], "error": "ValidationError"}
    except ValueError as exc:
        ans = {"id": req["id"], "error": f"ValueError: {exc}"}
    print(json.dumps(ans), flush=True)
