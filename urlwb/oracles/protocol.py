"""The messages of the oracle protocol (``docs/oracle-protocol.md``, ``urlwb-oracle/1``): the
hello line, requests, and answers turned into :class:`~urlwb.oracles.Record`,
:class:`~urlwb.oracles.host_answer.HostAnswer` and (kind ``validator``) :class:`Verdict`; and :class:`CallableOracle`, the same answers from a
Python callable (``py:package.module:function``).

Every check of an answer's schema lives here, so that the supervisor, the ``py:`` oracles and
``urlwb oracle check`` hold adapters to the very same rules.
"""

from __future__ import annotations

import importlib
import ipaddress
import json
import pathlib
import sys
from typing import NamedTuple

from urlwb.oracles import (FAILURE, NOT_APPLICABLE, Oracle, Record, Unavailable, crash_record,
                           from_api, manifests)
from urlwb.oracles.host_answer import HostAnswer

VERSION = "urlwb-oracle/1"
COMPONENTS = ("scheme", "username", "password", "host", "port", "path", "query", "fragment", "href")
API = ("href", "protocol", "username", "password", "hostname", "port", "pathname", "search", "hash")
#: kind "validator": a predicate on URLs (docs/oracle-protocol.md, "Validators"), run by urlwb.ssrf.validator
KINDS = ("url", "host", "validator")
QUESTIONS = ("to-ascii", "ip", "public-suffix", "registrable-domain")
#: the answer forms other than the components, each with a string
FORMS = ("error", "not_applicable", "crash")


class SchemaError(ValueError):
    """A line out of the protocol's schema; the message says what is wrong, in one line."""


def check_hello(obj) -> dict:
    """The hello line's fields, checked (SchemaError otherwise); ``parser`` and ``language``
    default to "?"."""
    if not isinstance(obj, dict):
        raise SchemaError("the hello line is not a JSON object")
    if obj.get("hello") != VERSION:
        raise SchemaError(f"the first line is not a hello line ({{\"hello\": \"{VERSION}\", ...}})")
    for key in ("name", "version"):
        if not isinstance(obj.get(key), str) or not obj[key]:
            raise SchemaError(f"hello line: {key} must be a non-empty string")
    if not manifests.NAME.match(obj["name"]):
        raise SchemaError(f"hello line: name {obj['name']!r} must match {manifests.NAME.pattern[:-2]}")
    kind = obj.get("kind", "url")
    if kind not in KINDS:
        raise SchemaError("hello line: kind must be \"url\", \"host\" or \"validator\"")
    if obj.get("family", "other" if kind == "validator" else None) not in ("whatwg", "other"):
        raise SchemaError("hello line: family must be \"whatwg\" or \"other\"")
    if kind == "url" and not isinstance(obj.get("base"), bool):
        raise SchemaError("hello line: base must be true or false")
    if kind == "host":
        q = obj.get("questions")
        if not isinstance(q, list) or not q or not all(x in QUESTIONS for x in q):
            raise SchemaError(f"hello line: questions must list some of {', '.join(QUESTIONS)}")
    for key in ("parser", "language", "validator"):
        if key in obj and not isinstance(obj[key], str):
            raise SchemaError(f"hello line: {key} must be a string")
    return {"parser": "?", "language": "?", "kind": "url", "base": True, "questions": [], "family": "other", **obj}


def request_line(id: int, input: str, base: str | None) -> bytes:
    """A URL request, pure ASCII (lone surrogates and every non-ASCII code point as escapes)."""
    return json.dumps({"id": id, "input": input, "base": base}).encode("ascii") + b"\n"


def question_line(id: int, question: str, input: str) -> bytes:
    return json.dumps({"id": id, "question": question, "input": input}).encode("ascii") + b"\n"


def decode_line(line: bytes) -> dict:
    """A line of an adapter's output as a JSON object with an integer ``id``."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError) as exc:  # ValueError covers bad UTF-8 and bad JSON
        raise SchemaError(f"not JSON ({str(exc)[:80]})") from None
    if not isinstance(obj, dict):
        raise SchemaError("not a JSON object")
    if not isinstance(obj.get("id"), int) or isinstance(obj.get("id"), bool):
        raise SchemaError("no integer id")
    return obj


def _string(obj: dict, key: str, nullable: bool = True) -> str | None:
    v = obj.get(key)
    if v is None and nullable:
        return None
    if not isinstance(v, str):
        raise SchemaError(f"{key} must be a string{' or null' if nullable else ''}, not {type(v).__name__}")
    return v


def _form(obj: dict, components: tuple[str, ...]) -> str:
    """Which answer form ``obj`` is: one of FORMS, ``api``, or ``components``; exactly one."""
    forms = [k for k in FORMS + ("api",) if k in obj]
    if any(k in obj for k in components):
        forms.append("components")
    if len(forms) != 1:
        raise SchemaError("an answer has exactly one of: the components, error, not_applicable, crash, api"
                          + (f" (got {', '.join(forms)})" if forms else ""))
    if forms[0] in FORMS:
        _string(obj, forms[0], nullable=False)
    return forms[0]


def url_answer(obj: dict) -> Record | None:
    """A URL answer as a Record (None: not applicable); SchemaError when out of schema.

    An accepted answer without a scheme is counted as a rejection: the workbench asks for an
    absolute URL, as the in-process non-WHATWG oracles do."""
    form = _form(obj, COMPONENTS)
    if form == "error":
        return FAILURE
    if form == "not_applicable":
        return NOT_APPLICABLE
    if form == "crash":
        return crash_record(obj["crash"])
    if form == "api":
        api = obj["api"]
        if not isinstance(api, dict):
            raise SchemaError("api must be an object of the URL getters")
        values = [_string(api, k, nullable=False) for k in API]
        if not values[1].endswith(":"):
            raise SchemaError("api.protocol must end with ':'")
        if values[5] and not values[5].isdigit():
            raise SchemaError("api.port must be digits or empty")
        return from_api(*values)
    missing = [k for k in COMPONENTS if k not in obj]
    if missing:
        raise SchemaError(f"an accepted answer has every component (null when absent); missing {', '.join(missing)}")
    port = obj["port"]
    if isinstance(port, bool) or not (port is None or isinstance(port, (int, str))):
        raise SchemaError(f"port must be an integer, a string or null, not {type(port).__name__}")
    scheme, username, password, host, _, path, query, fragment, href = (
        _string(obj, k) if k != "port" else None for k in COMPONENTS)
    if not scheme:
        return FAILURE
    return Record(False, scheme, username, password, host, port, path, query, fragment, href)


def host_answer(obj: dict) -> HostAnswer | None:
    """A host answer (None: not applicable); SchemaError when out of schema."""
    form = _form(obj, ("value",))
    if form == "error":
        return HostAnswer(True)
    if form == "not_applicable":
        return None
    if form == "crash":
        return HostAnswer(False, None, obj["crash"][:300])
    if form == "api":
        raise SchemaError("api is an answer to URL requests, not to host questions")
    return HostAnswer(False, _string(obj, "value"))


class Verdict(NamedTuple):
    """One validator's answer on one input. ``allow`` is True or False when it answered;
    ``failure`` is set with ``allow`` False when it refused the input (``error``); ``crash`` (and
    ``hung``) when it did not answer (a finding)."""

    allow: bool | None
    failure: bool = False
    reason: str | None = None
    crash: str | None = None
    hung: bool = False

    @property
    def ok(self) -> bool:
        return self.crash is None


def validator_request_line(id: int, input: str) -> bytes:
    """A validator request, pure ASCII: ``{"id", "input"}`` (no base)."""
    return json.dumps({"id": id, "input": input}).encode("ascii") + b"\n"


def validator_answer(obj: dict) -> Verdict | None:
    """A validator's answer line as a Verdict (None: not applicable); SchemaError when out of
    schema: exactly one of ``allow`` (a JSON boolean, with an optional string ``reason``),
    ``error``, ``not_applicable``, ``crash`` (each a string)."""
    forms = [k for k in ("allow", *FORMS) if k in obj]
    if len(forms) != 1:
        raise SchemaError("a validator's answer has exactly one of: allow, error, not_applicable, crash"
                          + (f" (got {', '.join(forms)})" if forms else ""))
    form = forms[0]
    if form == "allow":
        if not isinstance(obj["allow"], bool):
            raise SchemaError(f"allow must be true or false, not {type(obj['allow']).__name__}")
        reason = obj.get("reason")
        if reason is not None and not isinstance(reason, str):
            raise SchemaError("reason must be a string")
        return Verdict(obj["allow"], reason=reason)
    if not isinstance(obj[form], str):
        raise SchemaError(f"{form} must be a string")
    if form == "error":
        return Verdict(False, failure=True, reason=obj["error"][:300])
    if form == "crash":
        return Verdict(None, crash=obj["crash"][:300])
    return None


def lint_url_answer(obj: dict) -> list[tuple[str, str]]:
    """What ``urlwb oracle check`` flags beyond the schema, as (kind, message): legal, but
    probably a mistake of the adapter."""
    out = []
    if "api" in obj or not any(k in obj for k in COMPONENTS):
        return out
    port = obj.get("port")
    if isinstance(port, str) and port.isascii() and port.isdigit() and int(port) < 2 ** 53:
        out.append(("numeric port string", f"port {port!r} is a numeric string: send an integer"))
    host = obj.get("host")
    if isinstance(host, str) and ":" in host and "[" not in host:
        try:
            ipaddress.IPv6Address(host.split("%")[0])
            out.append(("IPv6 host without brackets", f"host {host!r} is an IPv6 address without its brackets"))
        except ValueError:
            pass
    if isinstance(obj.get("scheme"), str) and obj["scheme"].endswith(":"):
        out.append(("scheme with ':'", f"scheme {obj['scheme']!r} ends with ':' (send it without)"))
    return out


def import_callable(target: str, folder: pathlib.Path | None = None):
    """``package.module:function`` imported: (the function, its module), or :class:`Unavailable`
    in one line. ``folder`` (the user's project, where the config or the flag named it; the
    working directory by default) is put first on the import path, as ``python -m`` puts the
    current directory: a user's own module imports without ``PYTHONPATH=$PWD``."""
    module_name, _, attr = target.partition(":")
    where = str(folder or pathlib.Path.cwd())
    if where not in sys.path:
        sys.path.insert(0, where)
    try:
        module = importlib.import_module(module_name)
        fn = getattr(module, attr)
    except ImportError as exc:
        raise Unavailable(f"py:{target}: cannot import {module_name} ({exc})") from None
    except AttributeError:
        raise Unavailable(f"py:{target}: {module_name} has no {attr}") from None
    if not callable(fn):
        raise Unavailable(f"py:{target}: not callable")
    return fn, module


class CallableOracle(Oracle):
    """``py:package.module:function``: ``function(input, base)`` returns a mapping with an
    answer's fields, or raises ``ValueError`` for a rejection; anything else it raises is a
    crash on that input. Optional attributes of the function: ``family`` ("other" by default),
    ``version``, ``base`` (False: it takes no base)."""

    def __init__(self, spec: manifests.Spec):
        fn, module = import_callable(spec.callable, spec.cwd)
        self._fn = fn
        self.name = spec.name
        self.family = getattr(fn, "family", spec.family)
        if self.family not in ("whatwg", "other"):
            raise Unavailable(f"py:{spec.callable}: family must be \"whatwg\" or \"other\"")
        self.version = str(getattr(fn, "version", getattr(module, "__version__", "?")))
        self.supports_base = bool(getattr(fn, "base", True))

    def parse(self, input, base=None):
        if base is not None and not self.supports_base:
            return NOT_APPLICABLE
        try:
            answer = self._fn(input, base)
        except ValueError:
            return FAILURE
        except Exception as exc:  # noqa: BLE001 - undocumented: the oracle crashed
            return crash_record(f"{type(exc).__name__}: {exc}")
        try:
            return url_answer(dict(answer))
        except (SchemaError, TypeError, ValueError) as exc:
            return crash_record(f"out of schema: {exc}: {answer!r}")
