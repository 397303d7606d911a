"""A pytest file: one ``pytest.mark.parametrize`` test over the cases (``test_<parser>_findings.py``).

Run it where the parser is installed: ``python -m pytest -q test_urllib3_findings.py``.
"""

from __future__ import annotations

from urlwb.export.api import Api, expected, header_lines, spelled

APIS = {
    "urllib3": Api("urllib3", "urllib3", ("scheme", "username", "password", "host", "port", "path", "query", "fragment"),
                   "parse_url raises urllib3.exceptions.LocationParseError", folds=("path",), takes_base=False),
    "yarl": Api("yarl", "yarl", ("scheme", "username", "password", "host", "port", "path", "query", "fragment"),
                "URL() raises ValueError", folds=("query", "fragment")),
}

_READ = {
    "urllib3": '''\
from urllib3.exceptions import LocationParseError as REJECTED
from urllib3.util import parse_url


def read(text, base):
    """parse_url's reading in the normal form (strings or None; scheme and host lower-cased)."""
    assert base is None, "parse_url takes no base URL"
    u = parse_url(text)
    user, password = (None, None)
    if u.auth is not None:
        user, _, password = u.auth.partition(":")
        password = password if ":" in u.auth else None
    host = u.host.lower() if u.host is not None else None
    if host is not None and host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return {"scheme": u.scheme.lower() if u.scheme else u.scheme, "username": user, "password": password,
            "host": host, "port": None if u.port is None else str(u.port), "path": u.path or "",
            "query": u.query, "fragment": u.fragment}
''',
    "yarl": '''\
from yarl import URL

REJECTED = ValueError


def read(text, base):
    """yarl.URL's reading in the normal form (strings or None; scheme and host lower-cased)."""
    u = URL(base).join(URL(text)) if base is not None else URL(text)
    host = u.raw_host.lower() if u.raw_host is not None else None
    return {"scheme": u.scheme.lower() or None, "username": u.raw_user, "password": u.raw_password,
            "host": host, "port": None if u.explicit_port is None else str(u.explicit_port),
            "path": u.raw_path, "query": u.raw_query_string, "fragment": u.raw_fragment}
''',
}

_TEST = '''

@pytest.mark.parametrize("text, base, expect, expected, within", CASES)
def test_finding(text, base, expect, expected, within):
    start = time.perf_counter()
    try:
        got = read(text, base)
    except REJECTED:   # the parser's documented way to say no
        got = None
    elapsed = time.perf_counter() - start
    if within is not None:
        assert elapsed <= within, f"answered in {elapsed:.2f} s: more than {within} s"
    if expect == "reject":
        assert got is None, f"accepted {text!r}, read as {got}"
    elif expect == "components":
        assert got is not None, f"rejected {text!r}"
        assert {k: got[k] for k in expected} == expected
    # expect == "no-exception": getting here is the assertion (any other exception fails the test)
'''


def file_name(parser: str) -> str:
    return f"test_{parser.replace('-', '_')}_findings.py"


def render(parser: str, cases, skipped: list[str], generator: str) -> dict[str, str]:
    api = APIS[parser]
    header = "\n".join(header_lines(parser, cases, skipped, generator))
    rows = []
    for c in cases:
        text = spelled(c.input, repr, lambda lit, n: f"{lit} * {n}")
        rows.append(f"    pytest.param({text}, {c.base!r}, {c.expect!r}, {expected(api, c)!r}, "
                    f"{c.within!r}, id={c.name!r}),")
    text = (f'"""{_doc(header)}\n\nRun: python -m pytest -q {file_name(parser)}\n"""\n\n'
            "import time\n\nimport pytest\n\n" + _READ[parser] + "\n\nCASES = [\n" + "\n".join(rows) + "\n]\n" + _TEST)
    return {file_name(parser): text}


def _doc(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
