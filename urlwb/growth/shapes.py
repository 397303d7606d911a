"""Long inputs, each one piece of the generator's repeated: ``prefix + piece * count + suffix``;
and the user's own shapes (:func:`template`: ``data:,{x:a}``).

Every piece comes from :mod:`urlwb.differential.generate` (the list, its entry named in ``source``), where the
generator puts it once; here it is put ``count`` times, in the component where the generator
puts it, so that each parser's loop over that component (and each regex over it) meets a long
run. A shape is built, never stored: a finding keeps its shape's name and count, and the shape
rebuilds the input (:func:`Shape.make`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from urlwb.differential import generate


@dataclass(frozen=True)
class Shape:
    name: str
    piece: str
    prefix: str
    suffix: str
    #: where in urlwb.differential.generate the piece comes from
    source: str
    #: a shape built from a package's regex (urlwb.growth.regexes): (file:line, source, flags,
    #: checker, complexity)
    regex: tuple | None = None

    def make(self, count: int) -> str:
        return self.prefix + self.piece * count + self.suffix

    def tiny(self) -> str:
        """The shape with its piece once: what a round trip costs, beside the parse."""
        return self.make(1)


def _from(names: list[str], piece: str) -> str:
    """``piece``'s source: the first of ``names`` (``generate.X``) whose list holds it, or that
    holds an entry containing it."""
    for name in names:
        values = getattr(generate, name)
        values = values.values() if isinstance(values, dict) else values
        flat = [v for vs in values for v in (vs if isinstance(vs, list) else [vs])]
        if piece in flat:
            return f"generate.{name} ({piece!r})"
        for v in flat:
            if isinstance(v, str) and piece in v and v:
                return f"generate.{name} ({v!r})"
    raise ValueError(f"{piece!r} is in none of {names}")


def _shape(name: str, piece: str, prefix: str, suffix: str, *lists: str, source: str | None = None) -> Shape:
    return Shape(name, piece, prefix, suffix, source or _from(list(lists), piece))


#: every shape, in the component where the generator puts its piece
SHAPES: tuple[Shape, ...] = (
    _shape("userinfo @", "@", "http://", "h/", "USERINFO", "INSERTS"),
    _shape("userinfo a:b@", "a:b@", "http://", "h/", source="generate.USERINFO ('a:b:c@', 'user:pass@')"),
    _shape("host [", "[", "http://", "/", "HOSTS"),
    _shape("path %aa", "%aa", "http://h/", "", source="generate.INSERTS ('%') and PATHS ('/a%2Fb')"),
    _shape("host labels a.", "a.", "http://", "com/", source="generate.HOSTS ('a.b.c')"),
    _shape("host dots", ".", "http://", "a/", "INSERTS", "HOSTS"),
    _shape("path slashes", "/", "http://h", "", "SLASHES", "INSERTS"),
    _shape("backslashes", "\\", "http:", "h/", "SLASHES", "INSERTS"),
    _shape("path ../", "../", "http://h/", "x", "PATHS"),
    _shape("path ./", "./", "http://h/", "x", source="properties.spellings.DOT_SEGMENT_SPELLINGS ('.') via generate.path_text, and PATHS ('/./a')"),
    _shape("host joiners", "\u200d", "http://a", ".com/", "HOSTS"),
    _shape("host digits", "1", "http://", "/", source="generate.HOSTS ('2130706433')"),
    _shape("port :", ":", "http://h", "/", "PORTS", "INSERTS"),
    _shape("IPv6 ::", "::", "http://[", "]/", source="generate.ipv6_host ('::' anywhere)"),
    _shape("IPv6 pieces 1:", "1:", "http://[", "1]/", source="generate.IPV6_PIECES ('1') joined by ':' in generate.ipv6_host"),
    _shape("IPv4 parts 0.", "0.", "http://", "1/", source="generate.ipv4_host (parts joined by '.')"),
    _shape("path %2e", "%2e", "http://h/", "/x", "INSERTS", "DELIMITER_ENCODINGS"),
    _shape("query ?", "?", "http://h/", "", "QUERIES", "INSERTS"),
    _shape("query a=b&", "a=b&", "http://h/?", "", "QUERIES"),
    _shape("fragment #", "#", "http://h/#", "", "FRAGMENTS", "INSERTS"),
    _shape("host xn--", "xn--", "http://", ".com/", "HOSTS"),
    _shape("leading spaces", " ", "", "http://h/", "INSERTS"),
    _shape("tabs in the path", "\t", "http://h/a", "b", "INSERTS", "PATHS"),
    _shape("scheme letters", "h", "", "ttp://h/", source="generate.SCHEMES ('http')"),
    _shape("percent %25", "%25", "http://h/", "", source="generate.INSERTS ('%') percent-encoded by itself"),
    # -- the same pieces before an authority that does not parse: a regex that backtracks does so
    # when its match fails at the end (every split of the run is tried), not when it succeeds
    _shape("userinfo @, then a port :80x", "@", "http://", "h:80x/", source="generate.USERINFO ('@') and PORTS (':80x')"),
    _shape("userinfo @, then a host %zz", "@", "http://", "%zz/", source="generate.USERINFO ('@') and HOSTS ('%zz')"),
    _shape("host labels a., then a port :80x", "a.", "http://", "b:80x/", source="generate.HOSTS ('a.b.c') and PORTS (':80x')"),
    # -- the other kinds of scheme (https://url.spec.whatwg.org/#scheme-state): file, whose host
    # and path states are its own; opaque paths (data:, javascript:, mailto:), which a parser
    # often hands to a regex of its own (a data: URL's media type, a mailto: list of addresses);
    # and no scheme at all (a relative reference, parsed without a base: rejected, after a scan)
    _shape("file: path segments", "a/", "file:///", "x", source="generate.file_url (path_text's segments)"),
    _shape("file: backslashes", "\\", "file:", "h/x", source="generate.file_url ('\\\\h\\')"),
    _shape("file: drive letters", "C:/", "file:///", "x", source="generate.drive_letter"),
    _shape("data: payload ,a", ",a", "data:", "", source="generate.SCHEMES ('data') with an opaque path"),
    _shape("data: parameters ;a=b", ";a=b", "data:text/plain", ",x", source="generate.SCHEMES ('data'): a media type's parameters"),
    _shape("data: base64 A", "A", "data:;base64,", "", source="generate.SCHEMES ('data'): a base64 payload"),
    _shape("javascript: path %20", "%20", "javascript:", "x", source="generate.SCHEMES ('javascript') and INSERTS ('%')"),
    _shape("mailto: addresses a@b,", "a@b,", "mailto:", "c@d", source="generate.SCHEMES ('mailto') and USERINFO ('@')"),
    _shape("no scheme: path ../", "../", "", "x", source="generate.SCHEMES ('') and PATHS ('/a/../b')"),
    _shape("no scheme: //@", "@", "//", "h/", source="generate.SCHEMES ('') and SLASHES ('//') and USERINFO ('@')"),
)

#: what a shape's input may end in that no URL grammar takes after its run (and a regex over the
#: run then fails to match at the end, trying every split of the run: a classic ReDoS attack is
#: a prefix, a pump and such a failing suffix), each followed by 'x' so that a parser that trims
#: the input first (normalize-url: ``urlString.trim()``) still meets it: a newline (``.`` does
#: not match it), NUL, a space (``\S`` and ``[^\s]`` do not), and '<', which no URI's grammar
#: takes (RFC 3986 Appendix A)
FAILING_SUFFIXES = (("a newline", "\n"), ("NUL", "\x00"), ("a space", " "), ("'<'", "<"))


def failing(shape: Shape) -> tuple[Shape, ...]:
    """``shape`` ended by each of :data:`FAILING_SUFFIXES` (then 'x')."""
    return tuple(Shape(f"{shape.name}, then {label}", shape.piece, shape.prefix, shape.suffix + c + "x",
                       shape.source) for label, c in FAILING_SUFFIXES)


#: the shapes above, then each ended by a failing suffix (normalize-url 4.5.0's data: URL ReDoS,
#: 'data:' + ',' * n + '\nx', is of this kind: the data: shapes ending in a valid suffix miss it)
SHAPES = SHAPES + tuple(f for s in SHAPES for f in failing(s))

#: a piece repeated in a shape of the user's (``urlwb growth --shape``): ``{x}`` (the piece is
#: ``--piece``'s) or ``{x:PIECE}`` (the piece written in place; it holds no '}')
PLACE = re.compile(r"\{x(?::([^}]*))?\}")


def template(text: str, piece: str | None = None) -> Shape:
    """The user's shape ``text``: one ``{x}`` or ``{x:PIECE}``, which the piece fills ``count``
    times; ValueError (one line) for none, two, or an empty piece."""
    found = list(PLACE.finditer(text))
    if len(found) != 1:
        raise ValueError(f"{text!r}: a shape holds one {{x}} or {{x:PIECE}}, where the piece is "
                         f"repeated (found {len(found)})")
    m = found[0]
    chosen = m[1] if m[1] is not None else piece
    if not chosen:
        raise ValueError(f"{text!r}: no piece to repeat (write {{x:PIECE}}, or give --piece)")
    return Shape(f"yours: {text}" + ("" if m[1] is not None else f" ({chosen!r})"), chosen,
                 text[:m.start()], text[m.end():], "--shape (the user's)")

BY_NAME = {s.name: s for s in SHAPES}
