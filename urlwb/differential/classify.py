"""Classes of parser differentials, most severe first, and the known deviations of peers.

https://url.spec.whatwg.org/#url-parsing

A disagreement between two parsers on one input gets one primary class: the first of
:data:`CLASSES` that applies. ``host-origin`` and ``accept-reject`` are decided by the two
records; the confusion classes below them by the differing fields together with the input's
*ingredients* (a backslash, an ``@``, ``%2F``...), so that, e.g., a path that differs on an input
with a backslash is slash confusion, not path normalization. For the two top classes the first
ingredient found is kept as the *cause* ("host-origin via backslash"). These are the confusion
classes of the 2022 Claroty/Snyk study of URL parsers (scheme, slash, backslash, URL-encoded data,
scheme mixup) refined with the Standard's own steps.

Pairs of WHATWG parsers are compared strictly (every field). A pair with a non-WHATWG parser is
compared leniently (:func:`lenient`): spellings that mean the same URL (scheme and host case, a
default port written out, ``""`` for ``"/"``, percent-encoding of characters the other side leaves
raw) are not counted, delimiters encoded or not still are.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from typing import NamedTuple

import engine
from urlwb.oracles import SPECIAL_SCHEMES, Record
from urlwb.oracles import deviations as known
from urlwb.oracles.deviations import FIELDS, strict

#: (id, title), most severe first.
CLASSES: list[tuple[str, str]] = [
    ("oracle-crashed", "oracle crashed (an undocumented exception, or its process died)"),
    ("oracle-hung", "oracle hung (no answer within its deadline)"),
    ("host-origin", "host or origin differs while both accept (SSRF-relevant)"),
    ("accept-reject", "one accepts, one rejects"),
    ("scheme", "scheme confusion"),
    ("slashes", "slashes confusion (too few or too many after the scheme)"),
    ("backslash", "backslash confusion"),
    ("userinfo", "userinfo / @ confusion"),
    ("pct-delimiter", "URL-encoded data confusion (%2F %5C %2E %40 %23 %3F)"),
    ("scheme-mixup", "scheme mixup (a scheme other than http(s) read as another)"),
    ("whitespace", "whitespace and control-character stripping"),
    ("ipv4", "IPv4 shorthand / radix"),
    ("idna", "IDNA mapping"),
    ("port", "port"),
    ("path", "path normalization"),
    ("query-fragment", "query / fragment encoding"),
    ("unstable", "serialization not stable on reparse"),
    ("public-suffix", "public suffix / registrable domain (host-level oracles)"),
]
CLASS_IDS = [c for c, _ in CLASSES]
TITLES = dict(CLASSES)
RANK = {c: i for i, c in enumerate(CLASS_IDS)}


class Verdict(NamedTuple):
    cls: str
    cause: str | None      # the ingredient behind a host-origin / accept-reject verdict
    fields: tuple[str, ...]  # the fields that differ


# --- ingredients -------------------------------------------------------------------------------

_PCT_DELIM = re.compile(r"%(2f|5c|2e|40|23|3f)", re.I)
_CONTROL = re.compile(r"[\x00-\x20\x7f]")
_SCHEME = re.compile(r"^[\x00-\x20]*([A-Za-z][A-Za-z0-9+\-.\t\n\r]*):")
_DOT_SEGMENT = re.compile(r"(^|[/\\])(\.|%2e){1,2}([/\\?#]|$)", re.I)
_IPV4ISH = re.compile(r"^[0-9a-fx.]*[0-9][0-9a-fx.]*$", re.I)


def raw_authority(input: str) -> str | None:
    """The authority as written (between the slashes after the scheme and the next delimiter),
    or None if the input has none; a heuristic for ingredients, not a parser."""
    s = re.sub(r"[\t\n\r]", "", input).strip("".join(map(chr, range(0x21))))
    m = re.match(r"([A-Za-z][A-Za-z0-9+\-.]*):", s)
    scheme = m.group(1).lower() if m else None
    rest = s[m.end():] if m else s
    special = scheme in SPECIAL_SCHEMES
    lead = re.match(r"[/\\]*" if special or scheme is None else "/*", rest).group(0)
    if special and scheme != "file":
        rest = rest[len(lead):]
    elif len(lead) >= 2:
        rest = rest[2:]
    else:
        return None
    return re.split(r"[/\\?#]" if special or scheme is None else "[/?#]", rest, maxsplit=1)[0]


def raw_host(input: str) -> str | None:
    auth = raw_authority(input)
    if auth is None:
        return None
    host = auth.rpartition("@")[2]
    if host.startswith("["):
        return host.split("]")[0] + "]"
    return host.rsplit(":", 1)[0] if ":" in host else host


def ingredients(input: str) -> list[str]:
    """The confusion ingredients present in ``input``, in class order."""
    found = []
    m = _SCHEME.match(input)
    scheme = m.group(1) if m else None
    if scheme is None or any(c in scheme for c in "\t\n\r"):  # missing, or split by tab/newline
        found.append("scheme")
    after = input[m.end():] if m else input
    slashes = re.match(r"[/\\\t\n\r]*", after).group(0).replace("\t", "").replace("\n", "").replace("\r", "")
    if (scheme and scheme.lower() in SPECIAL_SCHEMES and len(slashes) != 2) or len(slashes) > 2:
        found.append("slashes")
    if "\\" in input:
        found.append("backslash")
    if "@" in input or "%40" in input.lower():
        found.append("userinfo")
    if _PCT_DELIM.search(input):
        found.append("pct-delimiter")
    # Claroty/Snyk's scheme mixup: a parser that reads a scheme other than http(s) (file, ws,
    # ftp, data, javascript, a non-special one) the way it reads http, or another way again.
    if scheme and scheme.lower().strip("\t\n\r") not in ("http", "https"):
        found.append("scheme-mixup")
    if _CONTROL.search(input):
        found.append("whitespace")
    host = raw_host(input)
    if host is not None and _IPV4ISH.match(host) and not is_canonical_ipv4(host):
        found.append("ipv4")
    if host is not None and (not host.isascii() or "xn--" in host.lower() or "%" in host):
        found.append("idna")
    auth = raw_authority(input)
    if auth is not None and re.search(r"(^|[^\]]):|\]:", auth.rpartition("@")[2]):
        found.append("port")
    if _DOT_SEGMENT.search(input):
        found.append("path")
    return found


def is_canonical_ipv4(host: str) -> bool:
    """Four decimal numbers below 256 without leading zeros: the IPv4 serializer's form."""
    parts = host.split(".")
    return len(parts) == 4 and all(p.isdigit() and str(int(p)) == p and int(p) < 256 for p in parts)


# --- comparison --------------------------------------------------------------------------------

_UNRESERVED = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_RAW_OK = set(map(chr, range(0x21, 0x7f))) - set('"<>`{}|^\\ ')
_PCT = re.compile(r"%([0-9A-Fa-f]{2})")


_TO_ENCODE = "".join(sorted(set(map(chr, range(0x80))) - _RAW_OK))
_CANON = re.compile(r"%[0-9A-Fa-f]{2}|[" + re.escape(_TO_ENCODE) + r"\x80-\U0010ffff]")


def _canon_one(m: re.Match) -> str:
    t = m.group(0)
    if len(t) == 3 and t[0] == "%":
        ch = chr(int(t[1:], 16))
        return ch if ch in _UNRESERVED else t.upper()
    return "".join("%%%02X" % b for b in t.encode("utf-8", "surrogatepass"))


def canon_pct(s: str | None) -> str | None:
    """One spelling per meaning: characters a WHATWG serializer would encode are encoded (UTF-8),
    ``%xx`` of unreserved characters decoded, hex upper-cased. Encoded delimiters stay encoded;
    a ``%`` that starts no ``%xx`` stays as it is."""
    if not s:
        return s
    return _CANON.sub(_canon_one, s)


@functools.lru_cache(maxsize=65536)
def _canon_host(host: str | None) -> str | None:
    if host is None:
        return None
    h = host.lower()
    if h.startswith("[") and h.endswith("]"):
        h = h[1:-1]
    if ":" in h or (h and h[-1].isdigit()):
        try:
            return str(ipaddress.ip_address(h.split("%")[0]))
        except ValueError:
            pass
    return h


#: The schemes a client fetches over the network: where reading another host is SSRF.
FETCH_SCHEMES = frozenset(("http", "https", "ws", "wss", "ftp"))


def host_read(r: Record | None) -> str | None:
    """The host a parser read where it accepted the input as a URL a client fetches (scheme
    http, https, ws, wss or ftp): canonical (lowercase, brackets off, an IP address in one
    spelling, a Unicode domain in its ASCII form), or None when it rejected the input, read
    another scheme, or read no host or an empty one. Two parsers that both accept an input and
    give two different values here send a request to two different places: the SSRF class."""
    if r is None or not r.ok or not r.host or (r.scheme or "").lower() not in FETCH_SCHEMES:
        return None
    h = _canon_host(r.host)
    if h and not h.isascii():
        try:
            h = engine.domain_to_ascii(h, be_strict=False)
        except engine.Failure:
            pass
    return h


def lenient(r: Record) -> tuple:
    scheme = (r.scheme or "").lower()
    port = None if r.port == SPECIAL_SCHEMES.get(scheme, -1) else r.port
    path = canon_pct(r.path) or ""
    if scheme in SPECIAL_SCHEMES and r.host is not None and path == "":
        path = "/"
    return (scheme, canon_pct(r.username or ""), canon_pct(r.password or ""), _canon_host(r.host),
            port, path, canon_pct(r.query or None), canon_pct(r.fragment or None))


def key(r: Record | None, is_lenient: bool):
    """A comparable key: equal keys mean agreement (failure and crash compare as themselves)."""
    if r is None:
        return None
    if r.crash:
        return ("crash",)
    if r.failure:
        return ("failure",)
    return lenient(r) if is_lenient else strict(r) + (r.href,)


# --- classification ----------------------------------------------------------------------------

_CONFUSION_FIELDS = {
    "slashes": {"username", "password", "port", "path", "query", "fragment"},
    "backslash": {"username", "password", "port", "path", "query", "fragment"},
    "scheme-mixup": {"username", "password", "port", "path", "query", "fragment"},
    "userinfo": {"username", "password", "path"},
    "pct-delimiter": {"username", "password", "path", "query", "fragment"},
    "whitespace": set(FIELDS),
    "ipv4": set(FIELDS),
    "idna": set(FIELDS),
}


def classify(input: str, a: Record, b: Record, is_lenient: bool = False,
             found: list[str] | None = None, keys: tuple | None = None) -> Verdict | None:
    """The primary class of a disagreement between records ``a`` and ``b`` on ``input``, or None
    when they agree; ``found`` (``ingredients(input)``) and ``keys`` (``key`` of each) may be
    passed when already computed."""
    ka, kb = keys or (key(a, is_lenient), key(b, is_lenient))
    if ka == kb:
        return None
    found = ingredients(input) if found is None else found
    cause = found[0] if found else None
    if a.crash or b.crash:
        return Verdict("oracle-hung" if a.hung or b.hung else "oracle-crashed", cause, ())
    if a.failure != b.failure:
        return Verdict("accept-reject", cause, ())
    ka, kb = ka[:8], kb[:8]  # the component part of the keys
    diff = tuple(f for f, x, y in zip(FIELDS, ka, kb) if x != y)
    if not diff:  # same components, different serialization
        return Verdict("unstable", cause, ("href",))
    sa, sb = (a.scheme or "").lower(), (b.scheme or "").lower()
    if "host" in diff or ("scheme" in diff and sa in SPECIAL_SCHEMES and sb in SPECIAL_SCHEMES):
        return Verdict("host-origin", cause, diff)
    if "scheme" in diff:
        return Verdict("scheme", cause, diff)
    fields = set(diff)
    for cls in ("slashes", "backslash", "userinfo", "pct-delimiter", "scheme-mixup", "whitespace",
                "ipv4", "idna"):
        if cls in found and fields & _CONFUSION_FIELDS[cls]:
            return Verdict(cls, None, diff)
    if fields & {"username", "password"}:
        return Verdict("userinfo", None, diff)
    if "port" in fields:
        return Verdict("port", None, diff)
    if "path" in fields:
        return Verdict("path", None, diff)
    return Verdict("query-fragment", None, diff)


#: The columns of the Claroty-style matrix: the kind of confusion behind a disagreement.
CONFUSIONS = ["oracle-crashed", "oracle-hung", "scheme", "slashes", "backslash", "userinfo",
              "pct-delimiter", "scheme-mixup", "whitespace", "ipv4", "idna", "port", "path",
              "query-fragment", "other"]


def confusion(cls: str, cause: str | None) -> str:
    """The kind of confusion behind a verdict: for the two severities that say only what
    happened (``host-origin``, ``accept-reject``), the ingredient that caused it; else the class."""
    if cls in ("host-origin", "accept-reject"):
        return cause or "other"
    return cls if cls in CONFUSIONS else "other"


# --- known deviations --------------------------------------------------------------------------

def deviations() -> list[tuple]:
    """(parser, predicate(right, peer, input, base), reason) of every known deviation the
    parsers' cards list (:func:`urlwb.oracles.deviations.listed`)."""
    return known.listed()


def known_deviation(parser: str, right: Record, peer: Record, input: str = "",
                    base: str | None = None) -> str | None:
    """The documented reason ``parser`` (answer ``peer``) differs from ``right`` on ``input``
    (against ``base``), if its card lists one (:func:`urlwb.oracles.deviations.of`)."""
    if right is None or peer is None:
        return None
    for predicate, reason in known.of(parser):
        if predicate(right, peer, input, base):
            return reason
    return None
