"""A pytest file: one ``pytest.mark.parametrize`` test over the cases (``test_<parser>_findings.py``).

Run it where the parser is installed: ``python -m pytest -q test_urllib3_findings.py``.
"""

from __future__ import annotations

from urlwb.export.api import api_of, card, expected, header_lines, spelled

#: the read code of a Python suite, by the name a card's ``[oracle.export]`` gives (``template``)
READ = {
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



def _py_adapter(export: dict) -> str:
    """A user's ``py:`` adapter as its own suite's reader: ``package`` is its ``module:function``,
    which answers the protocol's fields and raises ValueError for a rejection
    (docs/oracle-protocol.md)."""
    module, _, function = export["package"].partition(":")
    return f'''\
from {module} import {function} as parse

REJECTED = ValueError   # a py: adapter's rejection (docs/oracle-protocol.md)


def read(text, base):
    """The adapter's answer in the normal form (strings or None; scheme and host lower-cased)."""
    a = parse(text, base)
    host = a.get("host")
    if host is not None:
        host = host.lower()
        host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    port = a.get("port")
    return {{"scheme": (a.get("scheme") or "").lower() or None, "username": a.get("username"),
            "password": a.get("password"), "host": host, "port": None if port is None else str(port),
            "path": a.get("path"), "query": a.get("query"), "fragment": a.get("fragment")}}
'''


READ["py-adapter"] = _py_adapter


def read_code(parser: str) -> str:
    """The read code ``parser``'s card names: a template as it is, or one filled from the card."""
    export = card(parser)
    code = READ[export["template"]]
    return code(export) if callable(code) else code


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
    api = api_of(parser)
    header = "\n".join(header_lines(parser, cases, skipped, generator))
    rows = []
    for c in cases:
        text = spelled(c.input, repr, lambda lit, n: f"{lit} * {n}")
        rows.append(f"    pytest.param({text}, {c.base!r}, {c.expect!r}, {expected(api, c)!r}, "
                    f"{c.within!r}, id={c.name!r}),")
    text = (f'"""{_doc(header)}\n\nRun: python -m pytest -q {file_name(parser)}\n"""\n\n'
            "import time\n\nimport pytest\n\n" + read_code(parser) + "\n\nCASES = [\n" + "\n".join(rows) + "\n]\n" + _TEST)
    return {file_name(parser): text}


def _doc(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
