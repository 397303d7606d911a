"""Public suffix and registrable domain: the Public Suffix List's official tests, and the URL
Standard's example table (trailing dot kept).

https://url.spec.whatwg.org/#host-public-suffix
"""

from __future__ import annotations

import re

import pytest

import engine
from wpt_data import DATA

_LINE = re.compile(r"checkPublicSuffix\((null|'[^']*'), (null|'[^']*')\);")


def _cases():
    for line in (DATA / "psl" / "test_psl.txt").read_text(encoding="utf-8").splitlines():
        m = _LINE.fullmatch(line.strip())
        if m:
            yield tuple(None if x == "null" else x[1:-1] for x in m.groups())


CASES = list(_cases())


def test_count():
    assert len(CASES) == 78  # 77 cases and the null input


@pytest.mark.parametrize("domain,expected", CASES, ids=[repr(d) for d, _ in CASES])
def test_psl(domain, expected):
    # Hosts reach the algorithm as the host parser leaves them: ASCII, lowercase.
    try:
        host = None if domain is None else engine.parse_host(domain)
    except engine.Failure:
        host = None
    got = engine.registrable_domain(host)
    assert got == (None if expected is None else engine.domain_to_ascii(expected))


@pytest.mark.parametrize(
    "host,suffix,registrable",
    [
        ("com", "com", None), ("example.com", "com", "example.com"),
        ("www.example.com", "com", "example.com"), ("sub.www.example.com", "com", "example.com"),
        ("EXAMPLE.COM", "com", "example.com"), ("example.com.", "com.", "example.com."),
        ("github.io", "github.io", None), ("whatwg.github.io", "github.io", "whatwg.github.io"),
        ("إختبار", "xn--kgbechtv", None), ("example.إختبار", "xn--kgbechtv", "example.xn--kgbechtv"),
        ("sub.example.إختبار", "xn--kgbechtv", "example.xn--kgbechtv"),
        ("[2001:0db8:85a3:0000:0000:8a2e:0370:7334]", None, None),
    ],
)
def test_spec_examples(host, suffix, registrable):
    parsed = engine.parse_host(host)
    assert engine.public_suffix(parsed) == suffix
    assert engine.registrable_domain(parsed) == registrable
