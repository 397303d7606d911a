"""Long inputs, each one piece of the generator's repeated: ``prefix + piece * count + suffix``.

Every piece comes from :mod:`urlwb.differential.generate` (the list, its entry named in ``source``), where the
generator puts it once; here it is put ``count`` times, in the component where the generator
puts it, so that each parser's loop over that component (and each regex over it) meets a long
run. A shape is built, never stored: a finding keeps its shape's name and count, and the shape
rebuilds the input (:func:`Shape.make`).
"""

from __future__ import annotations

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
)

BY_NAME = {s.name: s for s in SHAPES}
