"""Host-level oracles: ``idna`` (domain to ASCII), ``ipaddress`` (IP address forms) and the public
suffix libraries ``publicsuffix2``, ``publicsuffixlist`` and ``tldextract`` (offline snapshot).

https://url.spec.whatwg.org/#hosts-(domains-and-ip-addresses)

Each takes one host question and answers a :class:`HostAnswer` (or None when the question is not
for it); :func:`urlwb.differential.command.host_round` asks them about the hosts the reference parser produced and
compares with the engine. Documented rejections caught: ``idna.IDNAError``; ``ValueError`` from
``ipaddress.ip_address``; the PSL libraries document none (they return None or the input).
These are not WHATWG: ``idna`` is IDNA2008 (stricter than UTS46 as the Standard uses it),
``ipaddress`` takes only the canonical dotted-decimal IPv4 form, and the PSL libraries drop the
trailing dot the Standard keeps (https://url.spec.whatwg.org/#host-public-suffix), so answers
are compared without it.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import ipaddress
import sys

from urlwb.oracles import HOST_SPECS, Unavailable, supervisor
from urlwb.oracles.host_answer import HostAnswer, HostOracle


def _crash(exc: BaseException) -> HostAnswer:
    return HostAnswer(False, None, f"{type(exc).__name__}: {exc}"[:300])


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


class IdnaOracle(HostOracle):
    """``idna.encode(domain, uts46=True)``: IDNA2008 with the UTS46 mapping."""
    name, questions = "idna", ("to-ascii",)

    def __init__(self):
        import idna
        self._idna = idna
        self.version = _version("idna")

    def answer(self, question, text):
        try:
            return HostAnswer(False, self._idna.encode(text, uts46=True).decode("ascii"))
        except self._idna.IDNAError:
            return HostAnswer(True)
        except Exception as exc:  # noqa: BLE001 - undocumented: the oracle crashed
            return _crash(exc)


class IpaddressOracle(HostOracle):
    """``ipaddress.ip_address`` on the host as written (brackets removed), serialized."""
    name, questions = "ipaddress", ("ip",)

    def __init__(self):
        self._ip = ipaddress.ip_address
        self.version = f"Python {sys.version.split()[0]}"

    def answer(self, question, text):
        bracketed = text.startswith("[") and text.endswith("]")
        try:
            addr = self._ip(text[1:-1] if bracketed else text)
        except ValueError:
            return HostAnswer(True)
        except Exception as exc:  # noqa: BLE001 - undocumented: the oracle crashed
            return _crash(exc)
        return HostAnswer(False, f"[{addr.compressed}]" if addr.version == 6 else addr.compressed)


class PublicSuffix2Oracle(HostOracle):
    name, questions = "publicsuffix2", ("public-suffix", "registrable-domain")

    def __init__(self):
        try:
            import publicsuffix2
        except ImportError as exc:
            raise Unavailable(f"publicsuffix2 not installed ({exc})") from None
        self._m = publicsuffix2
        self.version = f"{_version('publicsuffix2')} (bundled list)"

    def answer(self, question, text):
        try:
            if question == "public-suffix":
                return HostAnswer(False, self._m.get_tld(text, strict=True))
            return HostAnswer(False, self._m.get_sld(text, strict=True))
        except Exception as exc:  # noqa: BLE001 - documents no exception: the oracle crashed
            return _crash(exc)


class PublicSuffixListOracle(HostOracle):
    name, questions = "publicsuffixlist", ("public-suffix", "registrable-domain")

    def __init__(self):
        try:
            import publicsuffixlist
        except ImportError as exc:
            raise Unavailable(f"publicsuffixlist not installed ({exc})") from None
        self._psl = publicsuffixlist.PublicSuffixList()
        self.version = _version("publicsuffixlist")

    def answer(self, question, text):
        try:
            if question == "public-suffix":
                return HostAnswer(False, self._psl.publicsuffix(text))
            return HostAnswer(False, self._psl.privatesuffix(text))
        except Exception as exc:  # noqa: BLE001 - documents no exception: the oracle crashed
            return _crash(exc)


class TldextractOracle(HostOracle):
    """``tldextract`` offline (its bundled snapshot, private domains included, no fetch)."""
    name, questions = "tldextract", ("public-suffix", "registrable-domain")

    def __init__(self):
        try:
            import tldextract
        except ImportError as exc:
            raise Unavailable(f"tldextract not installed ({exc})") from None
        self._x = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None,
                                        include_psl_private_domains=True)
        self.version = f"{_version('tldextract')} (bundled snapshot, offline)"

    def answer(self, question, text):
        try:
            r = self._x(text)
        except Exception as exc:  # noqa: BLE001 - documents no exception: the oracle crashed
            return _crash(exc)
        if question == "public-suffix":
            return HostAnswer(False, r.suffix or None)
        return HostAnswer(False, r.top_domain_under_public_suffix or None)


HOST_ORACLES = {
    "idna": IdnaOracle,
    "ipaddress": IpaddressOracle,
    "publicsuffix2": PublicSuffix2Oracle,
    "publicsuffixlist": PublicSuffixListOracle,
    "tldextract": TldextractOracle,
}


def load_hosts(names=None) -> tuple[dict[str, HostOracle], dict[str, str]]:
    """The host-level oracles: the in-process ones above and those of the manifests (kind
    ``host``, run by :mod:`urlwb.oracles.supervisor`): (name -> oracle, name -> reason skipped)."""
    oracles, skipped = {}, {}
    for name in names or [*HOST_ORACLES, *HOST_SPECS]:
        try:
            if name in HOST_SPECS:
                if HOST_SPECS[name].skip:
                    raise Unavailable(HOST_SPECS[name].skip)
                oracles[name] = supervisor.SubprocessHostOracle(HOST_SPECS[name])
            else:
                oracles[name] = HOST_ORACLES[name]()
        except Unavailable as exc:
            skipped[name] = str(exc)
        except ImportError as exc:
            skipped[name] = f"not installed ({exc})"
    return oracles, skipped


def close_hosts(oracles: dict[str, HostOracle]) -> None:
    for oracle in oracles.values():
        close = getattr(oracle, "close", None)
        if close is not None:
            close()
