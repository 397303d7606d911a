"""The RFC 3986 judge: validity, components, resolution and equivalence of URI references, by
the RFC's own text. It stands beside the WHATWG engine for the parsers that declare an RFC.

https://www.rfc-editor.org/rfc/rfc3986

- **Validity** (:func:`valid`): the input matches ``URI-reference`` (§4.1) of the RFC's
  Appendix A grammar, run by the ``abnf`` package, whose ``abnf.grammars.rfc3986`` is Appendix A
  rule by rule (only ``dec-octet``'s alternatives reordered, which changes no match). RFC 3987's
  ``IRI-reference`` (§2.2) comes from ``abnf.grammars.rfc3987``; RFC 2396's (with RFC 2732) from
  :mod:`urlwb.verdicts.rfc2396`. No hand-written regex decides validity.
- **Components** (:func:`components`): Appendix B's regular expression, which the RFC gives for
  exactly this ("a URI reference ... can be parsed into its five components"); RFC 2396's
  Appendix B gives the same one. The authority is split as §3.2 says (userinfo before the last
  ``@``... the grammar admits no ``@`` in the host, so the first and the last agree on a valid
  input); the kind of host (IP-literal, IPv4address, reg-name, §3.2.2) comes from the grammar's
  parse tree.
- **Resolution** (:func:`resolve`): §5.2.2's algorithm with §5.2.3 merge and §5.2.4
  remove_dot_segments, as written (strict: a scheme in the reference is taken as is).
- **Equivalence** (:func:`normalize`): §6.2.2 syntax-based normalization (case of scheme and
  host, case of percent-encoding hex digits, percent-decoding of unreserved characters, dot
  segments) and §6.2.3 scheme-based normalization for http/https/ws/wss/ftp (empty path is
  ``/``, the default port is no port).
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple


#: spec name (urlwb.findings.record.SPECS) -> (the module of its grammar, the RFC's name of its
#: start rule)
_START = {"rfc3986": ("abnf.grammars.rfc3986", "URI-reference"), "rfc3987": ("abnf.grammars.rfc3987", "IRI-reference"),
          "rfc2396": ("urlwb.verdicts.rfc2396", "URI-reference")}
RFCS = tuple(_START)


@functools.cache
def _grammar(spec: str):
    """(``spec``'s start rule, ``abnf``'s ParseError), the grammar built on first use: ``abnf``
    builds each grammar's rules when its module is imported (0.3 to 0.4 s each, 1.4 s for the
    three), and no ``--help`` or command that judges nothing should pay for them (issue 37)."""
    import importlib

    from abnf import ParseError
    module_name, start = _START[spec]
    return importlib.import_module(module_name).Rule(start), ParseError

#: RFC 3986 Appendix B, verbatim.
APPENDIX_B = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?")

_PCT = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
#: §6.2.3 (and the schemes' own RFCs): the default ports of the schemes normalized by scheme
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}


#: The longest input the grammar is run on. ``abnf``'s parser is not linear in a long repetition
#: (measured here, Python backend: a 2,000-code-point host 0.7 s, 4,000 3.4 s, 10,000 20 s; the
#: optional ``abnf-rust`` backend was slower still, 40 s at 10,000); a longer input is left
#: undecided (``valid`` None), and the judge then claims no bug from validity.
MAX_GRAMMAR_INPUT = 2000


class Check(NamedTuple):
    """Whether ``input`` is a URI reference of ``spec`` (None: undecided, longer than
    :data:`MAX_GRAMMAR_INPUT`); when not, the offset where the grammar stopped (``abnf``'s
    ParseError position) and the character there."""

    valid: bool | None
    spec: str
    at: int | None = None

    def where(self, input: str) -> str:
        if self.valid is None:
            return f"undecided: longer than {MAX_GRAMMAR_INPUT} code points"
        if self.valid or self.at is None:
            return ""
        ch = input[self.at] if self.at < len(input) else "the end"
        return f"offset {self.at} ({ch!r})" if ch != "the end" else f"offset {self.at} (the end)"


@functools.lru_cache(maxsize=4096)
def check(input: str, spec: str = "rfc3986") -> Check:
    """:class:`Check` of ``input`` against ``spec``'s URI-reference (IRI-reference for RFC 3987)."""
    if len(input) > MAX_GRAMMAR_INPUT:
        return Check(None, spec)
    rule, parse_error = _grammar(spec)
    try:
        rule.parse_all(input)
    except parse_error as exc:
        return Check(False, spec, getattr(exc, "start", None))
    return Check(True, spec)


def valid(input: str, spec: str = "rfc3986") -> bool:
    """True only when the grammar says so (an undecided input is not shown valid)."""
    return check(input, spec).valid is True


class Components(NamedTuple):
    """The five components of Appendix B, the authority split by §3.2; ``None`` is undefined
    (§5.3 keeps undefined and empty apart: ``http://h?`` has an empty query)."""

    scheme: str | None
    authority: str | None
    path: str
    query: str | None
    fragment: str | None

    @property
    def userinfo(self) -> str | None:
        if self.authority is None or "@" not in self.authority:
            return None
        return self.authority.rpartition("@")[0]

    @property
    def hostport(self) -> str | None:
        return None if self.authority is None else self.authority.rpartition("@")[2]

    @property
    def host(self) -> str | None:
        hp = self.hostport
        if hp is None:
            return None
        if hp.startswith("["):
            end = hp.find("]")
            return hp[: end + 1] if end >= 0 else hp
        return hp.rpartition(":")[0] if ":" in hp else hp

    @property
    def port(self) -> str | None:
        hp = self.hostport
        if hp is None:
            return None
        rest = hp[hp.find("]") + 1:] if hp.startswith("[") else hp
        return rest.rpartition(":")[2] if ":" in rest else None


def components(input: str) -> Components:
    """Appendix B's reading of ``input`` (it matches every string)."""
    m = APPENDIX_B.match(input)
    return Components(m.group(2), m.group(4), m.group(5), m.group(7), m.group(9))


def host_kind(input: str, spec: str = "rfc3986") -> str | None:
    """The grammar's reading of the host of a valid ``input`` (§3.2.2): ``IP-literal``,
    ``IPv4address``, ``reg-name``; for RFC 2396 ``hostname``, ``IPv4address``, ``IPv6reference``
    or ``reg-name`` (a registry-based authority, which has no host); None without an authority
    or for an invalid input."""
    if len(input) > MAX_GRAMMAR_INPUT:
        return None
    rule, parse_error = _grammar(spec)
    try:
        tree = rule.parse_all(input)
    except parse_error:
        return None
    wanted = {"rfc3986": ("host",), "rfc3987": ("ihost",), "rfc2396": ("host", "reg-name")}[spec]
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.name in wanted:
            if node.name == "reg-name":      # RFC 2396 authority = server | reg_name
                return "reg-name"
            return node.children[0].name if node.children else None
        stack.extend(reversed(node.children))
    return None


# --- §5.2: resolution ----------------------------------------------------------------------------

def remove_dot_segments(path: str) -> str:
    """§5.2.4, step by step (A to E)."""
    inp, out = path, ""
    while inp:
        if inp.startswith("../"):                       # A
            inp = inp[3:]
        elif inp.startswith("./"):
            inp = inp[2:]
        elif inp.startswith("/./"):                     # B
            inp = inp[2:]
        elif inp == "/.":
            inp = "/"
        elif inp.startswith("/../"):                    # C
            inp = inp[3:]
            out = out[: max(out.rfind("/"), 0)]
        elif inp == "/..":
            inp = "/"
            out = out[: max(out.rfind("/"), 0)]
        elif inp in (".", ".."):                        # D
            inp = ""
        else:                                           # E
            start = 1 if inp.startswith("/") else 0
            cut = inp.find("/", start)
            cut = len(inp) if cut < 0 else cut
            out += inp[:cut]
            inp = inp[cut:]
    return out


def _merge(base: Components, ref_path: str) -> str:
    """§5.2.3."""
    if base.authority is not None and base.path == "":
        return "/" + ref_path
    return base.path[: base.path.rfind("/") + 1] + ref_path


def resolve(base: str, reference: str) -> Components:
    """§5.2.2 (strict), ``base`` being a URI with a scheme (§5.2.1)."""
    b, r = components(base), components(reference)
    if r.scheme is not None:
        return Components(r.scheme, r.authority, remove_dot_segments(r.path), r.query, r.fragment)
    if r.authority is not None:
        return Components(b.scheme, r.authority, remove_dot_segments(r.path), r.query, r.fragment)
    if r.path == "":
        return Components(b.scheme, b.authority, b.path, r.query if r.query is not None else b.query,
                          r.fragment)
    path = remove_dot_segments(r.path if r.path.startswith("/") else _merge(b, r.path))
    return Components(b.scheme, b.authority, path, r.query, r.fragment)


def recompose(c: Components) -> str:
    """§5.3."""
    out = ""
    if c.scheme is not None:
        out += c.scheme + ":"
    if c.authority is not None:
        out += "//" + c.authority
    out += c.path
    if c.query is not None:
        out += "?" + c.query
    if c.fragment is not None:
        out += "#" + c.fragment
    return out


# --- §6.2: equivalence ---------------------------------------------------------------------------

def normalize_pct(s: str | None) -> str | None:
    """§6.2.2.1 and §6.2.2.2: percent-encoded unreserved characters decoded, the others' hex
    digits upper-cased."""
    if s is None:
        return None

    def one(m: re.Match) -> str:
        ch = chr(int(m.group(1), 16))
        return ch if ch in _UNRESERVED else "%" + m.group(1).upper()
    return _PCT.sub(one, s)


class Normal(NamedTuple):
    """A reading compared component by component after §6.2's normalizations."""

    scheme: str | None
    userinfo: str | None
    host: str | None
    port: int | None
    path: str
    query: str | None
    fragment: str | None


def normalize(c: Components) -> Normal:
    """§6.2.2 syntax-based, then §6.2.3 scheme-based normalization of ``c``."""
    scheme = c.scheme.lower() if c.scheme is not None else None
    host = c.host
    if host is not None:
        host = normalize_pct(host).lower()          # §6.2.2.1: the host is case-insensitive
    port_text = c.port
    # §3.2.3: an empty port is no port; one that is not digits only comes from an RFC 2396
    # registry-based authority (reg_name admits ':', e.g. a base "test:b"), which has no port
    port = int(port_text) if port_text and port_text.isascii() and port_text.isdigit() else None
    path = remove_dot_segments(normalize_pct(c.path) or "") if c.scheme is not None else normalize_pct(c.path)
    if scheme in DEFAULT_PORTS:                     # §6.2.3
        if port == DEFAULT_PORTS[scheme]:
            port = None
        if c.authority is not None and path == "":
            path = "/"
    return Normal(scheme, normalize_pct(c.userinfo), host, port, path or "", normalize_pct(c.query),
                  normalize_pct(c.fragment))


def equivalent(a: str, b: str) -> bool:
    """§6.2: whether two URI references are equivalent after syntax- and scheme-based
    normalization."""
    return normalize(components(a)) == normalize(components(b))


#: the clause that governs each component, for a verdict's ``spec.clause``
CLAUSES = {"scheme": "§3.1 scheme", "userinfo": "§3.2.1 user information", "host": "§3.2.2 host",
           "port": "§3.2.3 port", "path": "§3.3 path", "query": "§3.4 query",
           "fragment": "§3.5 fragment", "authority": "§3.2 authority"}
