"""Non-WHATWG URL parsers that users pair with WHATWG ones: ``urllib.parse``, ``rfc3986``,
``yarl``, ``urllib3.util.parse_url``, ``hyperlink`` and ``httptools.parse_url``.

https://url.spec.whatwg.org/#goals (the Standard obsoletes RFC 3986 and RFC 3987)

These follow RFC 3986 or their own rules; a difference with the engine is a finding about *them*
(the validator-vs-fetcher confusions behind SSRF bugs), never an engine bug. Their records are
taken as the parser reports them, without normalization (:mod:`urlwb.differential.classify` compares them
leniently). A result without a scheme when no base was given is counted as failure: it is not an
absolute URL, which is what the Standard's parser is asked for. Documented rejections caught:
``urllib.parse``: ``ValueError`` (``urlsplit`` on bad brackets, ``.port`` out of range);
``rfc3986``: ``rfc3986.exceptions.RFC3986Exception``; ``yarl``: ``ValueError``; ``urllib3``:
``urllib3.exceptions.LocationParseError``; ``hyperlink``: ``hyperlink.URLParseError``;
``httptools``: ``httptools.HttpParserInvalidURLError``.
"""

from __future__ import annotations

import importlib.metadata
import sys
import urllib.parse
import warnings

from urlwb.oracles import FAILURE, NOT_APPLICABLE, Oracle, Record, Unavailable, crashed


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _bracket(host: str | None) -> str | None:
    return f"[{host}]" if host and ":" in host and not host.startswith("[") else host


def _none_if_empty(s: str | None) -> str | None:
    return s if s else None


class UrllibOracle(Oracle):
    """``urllib.parse.urlsplit`` (after ``urljoin`` when there is a base)."""

    name, family = "urllib", "other"

    def __init__(self, shared=None):
        self.version = f"Python {sys.version.split()[0]}"

    def parse(self, input, base=None):
        try:
            s = urllib.parse.urlsplit(urllib.parse.urljoin(base, input) if base is not None else input)
            if not s.scheme:
                return FAILURE
            port = s.port
        except ValueError:
            return FAILURE
        except Exception as exc:  # noqa: BLE001 - undocumented: the oracle crashed
            return crashed(exc)
        # urlsplit cannot tell an empty query or fragment from none. The userinfo as urlsplit
        # reads it: None absent, "" present and empty (http://:@h); brackets back on an IP literal
        # written in them (an IPvFuture too), as its owner's tests read it (urlwb/verdicts/owner_tests).
        host = s.hostname
        return Record(False, s.scheme, s.username, s.password,
                      (f"[{host}]" if host and "[" in s.netloc else host) if s.netloc or host else None, port, s.path,
                      _none_if_empty(s.query), _none_if_empty(s.fragment), s.geturl())


class Rfc3986Oracle(Oracle):
    """``rfc3986.uri_reference`` validated as a URI with a scheme (resolved against the base)."""

    name, family = "rfc3986", "other"

    def __init__(self, shared=None):
        try:
            import rfc3986
            from rfc3986 import exceptions, validators
        except ImportError as exc:
            raise Unavailable(f"rfc3986 not installed ({exc})") from None
        # resolve_with() calls rfc3986's own deprecated is_valid(); its warnings are not ours.
        warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"rfc3986\.")
        self._ref = rfc3986.uri_reference
        self._error = exceptions.RFC3986Exception
        self._validator = validators.Validator().require_presence_of("scheme").check_validity_of(
            "scheme", "userinfo", "host", "port", "path", "query", "fragment")
        self.version = _version("rfc3986")

    def parse(self, input, base=None):
        try:
            ref = self._ref(input)
            if base is not None:
                ref = ref.resolve_with(base)
            self._validator.validate(ref)
            info = ref.authority_info() if ref.authority is not None else None
        except self._error:
            return FAILURE
        except Exception as exc:  # noqa: BLE001 - undocumented: the oracle crashed
            return crashed(exc)
        # the userinfo as rfc3986 holds it: none (None, None), "user" (no password), "user:" (an
        # empty one), as its owner's tests read it (urlwb/verdicts/owner_tests/rfc3986.json)
        userinfo = info["userinfo"] if info else None
        user, colon, password = (userinfo or "").partition(":")
        user, password = (None, None) if userinfo is None else (user, password if colon else None)
        port = int(info["port"]) if info and info["port"] else None
        return Record(False, ref.scheme, user, password, info["host"] if info else None, port,
                      ref.path or "", ref.query, ref.fragment, ref.unsplit())


class YarlOracle(Oracle):
    """``yarl.URL`` (``URL(base).join(URL(input))`` with a base), raw (encoded) components."""

    name, family = "yarl", "other"

    def __init__(self, shared=None):
        try:
            import yarl
        except ImportError as exc:
            raise Unavailable(f"yarl not installed ({exc})") from None
        self._URL = yarl.URL
        self.version = _version("yarl")

    def parse(self, input, base=None):
        try:
            u = self._URL(input) if base is None else self._URL(base).join(self._URL(input))
            if not u.scheme:
                return FAILURE
            port = u.explicit_port
            # the userinfo as yarl holds it: None absent, '' present and empty (http://:@h/)
            rec = Record(False, u.scheme, u.raw_user, u.raw_password,
                         _bracket(u.raw_host), port, u.raw_path,
                         _none_if_empty(u.raw_query_string), _none_if_empty(u.raw_fragment), str(u))
        except ValueError:
            return FAILURE
        except Exception as exc:  # noqa: BLE001 - undocumented: the oracle crashed
            return crashed(exc)
        return rec


class Urllib3Oracle(Oracle):
    """``urllib3.util.parse_url`` (no base: pairs with a base are not compared)."""

    name, family = "urllib3", "other"
    supports_base = False

    def __init__(self, shared=None):
        try:
            import urllib3.exceptions
            import urllib3.util
        except ImportError as exc:
            raise Unavailable(f"urllib3 not installed ({exc})") from None
        self._parse_url = urllib3.util.parse_url
        self._error = urllib3.exceptions.LocationParseError
        self.version = _version("urllib3")

    def parse(self, input, base=None):
        if base is not None:
            return NOT_APPLICABLE
        try:
            u = self._parse_url(input)
        except self._error:
            return FAILURE
        except Exception as exc:  # noqa: BLE001 - undocumented: the oracle crashed
            return crashed(exc)
        if not u.scheme:
            return FAILURE
        # the userinfo as urllib3 holds it (auth None: none; a password only after a ':')
        user, colon, password = (u.auth or "").partition(":")
        user, password = (None, None) if u.auth is None else (user, password if colon else None)
        return Record(False, u.scheme, user, password, u.host, u.port, u.path or "", u.query,
                      u.fragment, u.url)


class HyperlinkOracle(Oracle):
    """``hyperlink.URL.from_text`` (``.click(input)`` on the base)."""

    name, family = "hyperlink", "other"

    def __init__(self, shared=None):
        try:
            import hyperlink
        except ImportError as exc:
            raise Unavailable(f"hyperlink not installed ({exc})") from None
        self._from_text = hyperlink.URL.from_text
        self._error = hyperlink.URLParseError
        self.version = _version("hyperlink")

    def parse(self, input, base=None):
        try:
            u = self._from_text(input) if base is None else self._from_text(base).click(input)
            if not u.scheme:
                return FAILURE
            # hyperlink's userinfo is '' when none is written; a password only after a ':'
            user, colon, password = u.userinfo.partition(":")
            password = password if colon else None
            path = ("/" if u.rooted else "") + "/".join(u.path)
            query = "&".join(k if v is None else f"{k}={v}" for k, v in u.query) if u.query else None
            href = u.to_text(with_password=True)
            rec = Record(False, u.scheme, user, password, _bracket(u.host) if u.uses_netloc else None,
                         u.port, path, query, u.fragment or None, href)
        except self._error:
            return FAILURE
        except Exception as exc:  # noqa: BLE001 - undocumented: the oracle crashed
            return crashed(exc)
        return rec


class HttptoolsOracle(Oracle):
    """``httptools.parse_url`` (the URL parser of the HTTP parser behind uvicorn, in C): a
    request target's parser, no base. It takes bytes (the input's UTF-8) and has no serializer
    (href None); an empty query or fragment reads as none."""

    name, family = "httptools", "other"
    supports_base = False

    def __init__(self, shared=None):
        try:
            import httptools
        except ImportError as exc:
            raise Unavailable(f"httptools not installed ({exc})") from None
        self._parse_url = httptools.parse_url
        self._error = httptools.HttpParserInvalidURLError
        self.version = _version("httptools")

    def parse(self, input, base=None):
        if base is not None:
            return NOT_APPLICABLE
        try:
            u = self._parse_url(input.encode("utf-8"))
        except self._error:
            return FAILURE
        except Exception as exc:  # noqa: BLE001 - undocumented: the oracle crashed
            return crashed(exc)
        if not u.schema:
            return FAILURE

        def text(b: bytes | None) -> str | None:
            return None if b is None else b.decode("utf-8", "replace")

        user, _, password = (text(u.userinfo) or "").partition(":")
        return Record(False, text(u.schema), user, password, _bracket(text(u.host)), u.port,
                      text(u.path) or "", text(u.query), text(u.fragment), None)
