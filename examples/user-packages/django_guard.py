"""A user's SSRF validator on Django's URLValidator (kind "validator"): allow what URLValidator
accepts unless urlsplit's hostname is a private, loopback or link-local address."""
import ipaddress
import json
import sys
import urllib.parse

import django
from django.conf import settings

settings.configure()
from django.core.exceptions import ValidationError  # noqa: E402
from django.core.validators import URLValidator  # noqa: E402

validate = URLValidator()
print(json.dumps({"hello": "urlwb-oracle/1", "name": "django-guard", "kind": "validator", "version": django.get_version(),
                  "validator": "URLValidator()(input), then urlsplit hostname not private", "language": "Python"}),
      flush=True)
for line in sys.stdin:
    req = json.loads(line)
    try:
        validate(req["input"])
        host = urllib.parse.urlsplit(req["input"]).hostname or ""
        try:
            ip = ipaddress.ip_address(host)
            allow = not (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_unspecified)
        except ValueError:
            allow = host != "localhost"
        ans = {"id": req["id"], "allow": allow}
    except (ValidationError, ValueError) as exc:
        ans = {"id": req["id"], "error": type(exc).__name__}
    print(json.dumps(ans), flush=True)
