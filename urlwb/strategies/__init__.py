"""Hypothesis strategies that know the WHATWG URL Standard's grammar, for testing any URL parser.

https://url.spec.whatwg.org/

The public import of the workbench's strategies (they live in ``properties.strategies``, where
the workbench's own properties use them; this module re-exports them under the project's
name). ``urls`` reaches what ``hypothesis.provisional.urls()`` does not: any scheme, special and
not, IPv4 hosts in every radix and part count, IPv6 with compression anywhere and an embedded
IPv4, IDNA labels (mapped and ignored code points, ``xn--``), userinfo with several ``@`` and
``:``, ports at the limits, dot segments in every spelling, backslashes, Windows drive letters,
tabs, newlines, C0 controls and lone surrogates. The invariants that take the parser under test
as an argument are in :mod:`urlwb.strategies.invariants`. docs/properties-suite.md, "Testing
your own parser"::

    from hypothesis import given
    from urlwb.strategies import urls
    from urlwb.strategies.invariants import reparse_idempotent

    @given(urls)
    def test_my_parser(url):
        reparse_idempotent(my_parse)(url)
"""

from __future__ import annotations

from hypothesis.strategies import SearchStrategy

from properties import strategies as _s
from properties.strategies import IPv4Case, IPv6Case

__all__ = [
    "urls", "bases", "urls_and_bases", "urls_against_bases", "BASES",
    "hosts", "domains", "opaque_hosts",
    "ipv4_texts", "ipv4_cases", "ipv4_addresses", "IPv4Case",
    "ipv6_texts", "ipv6_cases", "ipv6_addresses", "IPv6Case",
    "percent_texts", "percent_bytes", "form_pairs", "form_bytes",
    "setter_steps", "search_params_inits", "search_params_ops",
]

#: URL strings: structured (special and non-special schemes, slashes and backslashes, userinfo,
#: ports at the limits, dot segments, drive letters, query, fragment), file URLs, relative
#: references and random text; decorated with tabs, newlines, C0 controls and lone surrogates
urls: SearchStrategy[str] = _s.urls
#: base URLs: a fixed set covering every kind of base (``BASES``), and generated ones
bases: SearchStrategy[str] = _s.bases
BASES: tuple[str, ...] = _s.BASES
#: (URL string, base or None)
urls_and_bases: SearchStrategy[tuple[str, str | None]] = _s.urls_and_bases
#: (URL string, base)
urls_against_bases: SearchStrategy[tuple[str, str]] = _s.urls_against_bases
#: host strings: domains, IPv4 and IPv6 (bracketed), opaque hosts, forbidden code points
hosts: SearchStrategy[str] = _s.hosts
domains: SearchStrategy[str] = _s.domains
opaque_hosts: SearchStrategy[str] = _s.opaque_hosts
#: IPv4 spellings (decimal, octal, hex, one to five parts) as text, and as cases that carry the
#: address their construction fixes (or None where the IPv4 parser must fail)
ipv4_texts: SearchStrategy[str] = _s.ipv4_texts
ipv4_cases: SearchStrategy[IPv4Case] = _s.ipv4_cases
ipv4_addresses: SearchStrategy[int] = _s.ipv4_addresses
ipv6_texts: SearchStrategy[str] = _s.ipv6_texts
ipv6_cases: SearchStrategy[IPv6Case] = _s.ipv6_cases
ipv6_addresses = _s.ipv6_addresses
#: text and bytes with percent-escapes, valid and not
percent_texts: SearchStrategy[str] = _s.percent_texts
percent_bytes: SearchStrategy[bytes] = _s.percent_bytes
#: application/x-www-form-urlencoded: name-value pairs, and bytes
form_pairs: SearchStrategy[list[tuple[str, str]]] = _s.form_pairs
form_bytes: SearchStrategy[bytes] = _s.form_bytes
#: (setter name, value): URL setters with their edge values
setter_steps: SearchStrategy[tuple[str, str]] = _s.setter_steps
search_params_inits = _s.search_params_inits
search_params_ops = _s.search_params_ops
