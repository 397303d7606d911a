"""In-process WHATWG parsers: the engine, ``ada_url``, ``upa_url`` and ``pywhatwgurl``.

https://url.spec.whatwg.org/#url-parsing

Each one claims the current Standard, so any disagreement with the engine is a bug on one side.
Rejection: the engine raises ``engine.Failure``; ``ada_url.URL`` raises ``ValueError`` ("raises
ValueError if the input is not a valid URL"); ``upa_url.URL.parse`` returns None; ``pywhatwgurl.URL``
raises ``ValueError``. Anything else is returned as a crash record.
"""

from __future__ import annotations

import importlib.metadata
import pathlib
import subprocess

from urlwb.oracles import FAILURE, Oracle, Record, Unavailable, crashed, from_api


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _from_url_object(u) -> Record:
    return from_api(u.href, u.protocol, u.username, u.password, u.hostname, u.port, u.pathname,
                    u.search, u.hash)


class EngineOracle(Oracle):
    """The engine, read from its URL record (no getter folding): ``basic_url_parse``."""
    name, family = "engine", "whatwg"

    def __init__(self, shared=None):
        try:
            import engine
            self._engine = engine
            self._parse = engine.basic_url_parse
            self._serialize = engine.serialize_url
            self._serialize_host = engine.serialize_host
        except (ImportError, AttributeError) as exc:
            raise Unavailable(f"engine URL parser not available yet ({exc})") from None
        self.version = "git:" + _git_head()

    def record(self, url) -> Record:
        path = url.path if isinstance(url.path, str) else "".join("/" + s for s in url.path)
        host = None if url.host is None else self._serialize_host(url.host)
        return Record(False, url.scheme, url.username, url.password, host, url.port, path,
                      url.query, url.fragment, self._serialize(url))

    def parse(self, input: str, base: str | None = None) -> Record:
        Failure = self._engine.Failure
        try:
            base_url = None if base is None else self._parse(base)
            return self.record(self._parse(input, base_url))
        except Failure:
            return FAILURE
        except Exception as exc:  # noqa: BLE001 - the engine must only raise Failure: a finding
            return crashed(exc, where=True)


def _git_head() -> str:

    root = pathlib.Path(__file__).resolve().parents[2]
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=5)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


class AdaOracle(Oracle):
    """``ada_url`` (Python bindings of the C++ ada parser)."""
    name, family = "ada_url", "whatwg"

    def __init__(self, shared=None):
        try:
            import ada_url
        except ImportError as exc:
            raise Unavailable(f"ada_url not installed ({exc})") from None
        self._URL = ada_url.URL
        self._parse_url = ada_url.parse_url
        # get_version is newer than the bindings' first releases (urlwb bisect ada_url reaches them)
        ada = getattr(ada_url, "get_version", None)
        self.version = f"{_version('ada-url')} (ada {ada() if ada else '?'})"

    def parse(self, input: str, base: str | None = None) -> Record:
        try:
            if base is None:
                # One C call for every getter: parse_url is ada's fast path.
                d = self._parse_url(input, _ADA_ATTRS)
                return from_api(d["href"], d["protocol"], d["username"], d["password"],
                                d["hostname"], d["port"], d["pathname"], d["search"], d["hash"])
            return _from_url_object(self._URL(input, base))
        except ValueError:
            return FAILURE
        except Exception as exc:  # noqa: BLE001 - an undocumented exception: the oracle crashed
            return crashed(exc)


_ADA_ATTRS = ("href", "protocol", "username", "password", "hostname", "port", "pathname",
              "search", "hash")


class UpaOracle(Oracle):
    """``upa_url`` (Python bindings of the C++ upa parser); ``URL.parse`` returns None on failure."""
    name, family = "upa_url", "whatwg"

    def __init__(self, shared=None):
        try:
            import upa_url
        except ImportError as exc:
            raise Unavailable(f"upa_url not installed ({exc})") from None
        self._parse_url = upa_url.URL.parse
        self.version = _version("upa-url")

    def parse(self, input: str, base: str | None = None) -> Record:
        try:
            u = self._parse_url(input) if base is None else self._parse_url(input, base)
        except Exception as exc:  # noqa: BLE001 - upa documents no exception from parse
            return crashed(exc)
        return FAILURE if u is None else _from_url_object(u)


class PyWhatwgUrlOracle(Oracle):
    """``pywhatwgurl`` (pure Python); ``URL(...)`` raises ValueError on failure."""
    name, family = "pywhatwgurl", "whatwg"
    #: pywhatwgurl is quadratic in the input's length (4.1 s at 400,000 code points, measured):
    #: at 100,000 a parse takes about a quarter of a second.
    max_input = 100_000

    def __init__(self, shared=None):
        try:
            import pywhatwgurl
        except ImportError as exc:
            raise Unavailable(f"pywhatwgurl not installed ({exc})") from None
        self._URL = pywhatwgurl.URL
        self.version = _version("pywhatwgurl")

    def parse(self, input: str, base: str | None = None) -> Record:
        try:
            return _from_url_object(self._URL(input, base))
        except ValueError:
            return FAILURE
        except Exception as exc:  # noqa: BLE001 - an undocumented exception: the oracle crashed
            return crashed(exc)
