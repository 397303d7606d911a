"""What every language's suite shares: how a parser's reading is compared with the expected one.

Each suite has a ``read`` function in its own language that turns the parser's answer into the
same normal form the expected values are written in here (:func:`normal`):

- every component is a string or null (absent); a port is its decimal digits;
- the scheme and the host are compared in lower case (RFC 3986 §3.1 and §3.2.2: both are
  case-insensitive; the URL Standard lower-cases them for special schemes), a host without the
  brackets of an IP literal (``Hostname()``, ``host()`` and ``hostname`` differ on them);
- where the parser's API cannot tell an absent component from an empty one (``folds``: a getter
  that returns ``""`` for both), the expected null is written ``""``;
- where the API gives the scheme's default port for an absent one (OkHttp's ``port()``), the
  expected null is written as that port (``default_port``).
"""

from __future__ import annotations

import dataclasses

from urlwb import oracles

#: the components a suite may assert, in the normal form
COMPONENTS = ("scheme", "username", "password", "host", "port", "path", "query", "fragment")
DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}


@dataclasses.dataclass(frozen=True)
class Api:
    """One parser's API in one language: what a suite needs to know to call it."""

    parser: str
    #: the package or module the suite imports (npm name, PyPI import, Maven group:artifact, Go path)
    package: str
    #: the components the API gives, in the normal form (module docstring)
    components: tuple[str, ...]
    #: how the API says an input is rejected (quoted in the suite's header)
    rejects: str
    #: components whose getter folds absent into ""
    folds: tuple[str, ...] = ()
    #: the API answers the scheme's default port for an absent one
    default_port: bool = False
    #: the API has no way to reject (it reads every string): reject cases are not written
    can_reject: bool = True
    #: the API resolves against a base URL: cases with a base are written only then
    takes_base: bool = True


def card(parser: str) -> dict | None:
    """``parser``'s card's ``[oracle.export]`` table (its suite's ``lang``, the ``template`` of that
    language's read code, what the suite must know of its API), or None: no suite for it."""
    entry = oracles.REGISTRY.get(parser)
    found = entry.card if entry is not None else None
    return found.export if found is not None else None


def api_of(parser: str) -> Api:
    """The :class:`Api` ``parser``'s card describes (KeyError when its card has no export table)."""
    e = card(parser)
    if e is None:
        raise KeyError(parser)
    return Api(parser, e["package"], tuple(e.get("components", COMPONENTS)), e["rejects"], tuple(e.get("folds", ())),
               e.get("default_port", False), e.get("can_reject", True), e.get("takes_base", True))


def normal(api: Api, component: str, value, scheme: str | None) -> str | None:
    """``value`` (the engine's or the RFC judge's) in the suite's normal form for ``api``."""
    if component == "port":
        if value is None and api.default_port:
            value = DEFAULT_PORTS.get((scheme or "").lower())
        value = None if value is None else str(value)
    elif value is not None:
        value = str(value)
        if component in ("scheme", "host"):
            value = value.lower()
        if component == "host" and value.startswith("[") and value.endswith("]"):
            value = value[1:-1]
    if value is None and component in api.folds:
        value = ""
    return value


def expected(api: Api, case) -> dict[str, str | None]:
    """The case's expected components that ``api`` gives, in the normal form."""
    want = case.expected
    scheme = want.get("scheme")
    if scheme is None and case.expect == "components":
        scheme = case.input.partition(":")[0] if ":" in case.input else None
    return {c: normal(api, c, v, scheme) for c, v in want.items() if c in api.components}


def header_lines(parser: str, cases, skipped_here: list[str], generator: str) -> list[str]:
    """The header every suite opens with: what it asserts and where each case comes from."""
    out = [f"Regression tests for {parser}, written by `{generator}` from the url-workbench findings below.",
           "Each case asserts what the parser's contract asks (the clause quoted with it); a case",
           "fails on a release with the finding and passes on one without.", ""]
    for c in cases:
        out.append(f"{c.name}: {c.input[:80]!r}{'...' if len(c.input) > 80 else ''}"
                   + (f" against {c.base!r}" if c.base else ""))
        out.append(f"  expects: {c.expect}" + (f", within {c.within:g} s" if c.within else ""))
        out.append(f"  asserts: {c.clause}")
        out.append(f"  finding: {c.finding} (seen in {c.release})")
    for line in skipped_here:
        out.append(f"not written: {line}")
    return out


#: a piece repeated at least this many times is written as a repetition, not spelled out
MIN_RUN = 64


def repetition(text: str) -> tuple[str, str, int, str] | None:
    """``(prefix, piece, n, suffix)`` with ``text == prefix + piece * n + suffix`` for the
    longest run of one piece (1 to 8 code points) repeated at least :data:`MIN_RUN` times, so
    that a suite writes a growth finding's input as the repetition it is; None when there is none."""
    best = None
    for size in range(1, 9):
        i = 0
        while i + size <= len(text):
            piece, j = text[i:i + size], i + size
            while text.startswith(piece, j):
                j += size
            n = (j - i) // size
            if n >= MIN_RUN and (best is None or n * size > best[2] * len(best[1])):
                best = (text[:i], piece, n, text[j:])
            i = j if n > 1 else i + 1
    return best


def spelled(text: str, quote, repeat) -> str:
    """``text`` as an expression of a suite's language: ``quote(s)`` its string literal,
    ``repeat(literal, n)`` a repetition; a long run (:func:`repetition`) is written as one."""
    run = repetition(text)
    if run is None:
        return quote(text)
    prefix, piece, n, suffix = run
    parts = ([quote(prefix)] if prefix else []) + [repeat(quote(piece), n)] + ([quote(suffix)] if suffix else [])
    return " + ".join(parts)
