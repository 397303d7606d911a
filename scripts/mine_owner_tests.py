#!/usr/bin/env python3
"""Mine the readings a parser's owner asserts in its own test suite, mechanically, into
``urlwb/verdicts/owner_tests/<parser>.json`` (issue 34, part 2).

    python scripts/mine_owner_tests.py urllib [--check]

How: the owner's test module, as it ships with the release (CPython's ``Lib/test``), is run
with unittest while the parser's API functions (``MINERS``) are wrapped: every call made
directly from the test file (not from inside the library) records the input, the base, the
call site (file:line) and the parser's answer read through its public attributes; calls made by
a test that did not pass are dropped. What is kept is behaviour a passing owner test exercised at
that release: the test compares the answer (``assertEqual`` of the result or its attributes,
``assertRaises``), which is why the call is in the test. A call whose answer the test does not
look at would be kept too; the verdict cites the line, where a reader sees the assertion.

``--check``: mine again and fail (exit 1) when the stored file differs (same release only).
"""

from __future__ import annotations

import argparse
import importlib
import json
import pathlib
import re
import sys
import unittest
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

OUT = ROOT / "urlwb" / "verdicts" / "owner_tests"


def _urllib_reading(s) -> dict:
    """A ``SplitResult`` through its public attributes, named as the oracle protocol's fields
    (``hostname`` is ``host``; nothing else renamed, nothing normalized)."""
    try:
        port = s.port
    except ValueError as exc:
        return {"failure": f"ValueError: {exc}"}
    return {"scheme": s.scheme, "username": s.username, "password": s.password, "host": s.hostname,
            "port": port, "path": s.path, "query": s.query, "fragment": s.fragment}


def _urllib_miner():
    """(module, the functions to wrap as (owner, name, how), the release, provenance)."""
    version = sys.version.split()[0]
    return {"module": "test.test_urlparse", "release": version,
            "provenance": {"repo": "python/cpython", "path": "Lib/test/test_urlparse.py", "tag": f"v{version}",
                           "shipped": "the interpreter's own Lib/test (import test.test_urlparse)"},
            "calls": [(urllib.parse, "urlsplit", "split"), (urllib.parse, "urljoin", "join")],
            "read": _urllib_reading, "split": urllib.parse.urlsplit}


MINERS = {"urllib": _urllib_miner}

# --- a package's own pytest suite, from its sdist ------------------------------------------------
#
# The sdist's tests run with pytest in this process while the parsing entry points are wrapped:
# every call made directly from a file of the tests folder (cited at its outermost line there:
# the test's own line, or a shared base class's) during a test that passed is kept, with the answer read through the
# package's public attributes. The release is the installed one, which must be the sdist's.

def _rfc3986_reading(ref) -> dict:
    """A URIReference through its public attributes (the userinfo as one string, as the owner's
    tests assert it; the port as the string it holds)."""
    return {"scheme": ref.scheme, "userinfo": ref.userinfo, "host": ref.host,
            "port": None if ref.port is None else (int(ref.port) if str(ref.port).isdigit() else ref.port),
            "path": ref.path, "query": ref.query, "fragment": ref.fragment, "is_valid": _is_valid(ref)}


def _is_valid(ref) -> bool:
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bool(ref.is_valid())


def _rfc3986_miner():
    import rfc3986
    from rfc3986 import uri as rfc_uri
    return {"release": rfc3986.__version__, "package": "rfc3986", "repo": "python-hyper/rfc3986",
            "tag": f"v{rfc3986.__version__}", "tests": "tests",
            "wrap": [(rfc_uri.URIReference, "from_string", "classmethod"), (rfc3986, "uri_reference", "function"),
                     (rfc3986.api, "uri_reference", "function")],
            "read": _rfc3986_reading}


def _hyperlink_reading(u) -> dict:
    """A hyperlink URL through its public attributes; the path as hyperlink writes it (its
    segments joined by '/', '/' first when ``rooted``). The query (pairs) is not read."""
    return {"scheme": u.scheme, "userinfo": u.userinfo, "host": u.host if u.uses_netloc else None, "port": u.port,
            "path": ("/" if u.rooted else "") + "/".join(u.path), "fragment": u.fragment}


def _hyperlink_miner():
    import hyperlink
    return {"release": _dist_version("hyperlink"), "package": "hyperlink", "repo": "python-hyper/hyperlink",
            "tag": f"v{_dist_version('hyperlink')}", "tests": "hyperlink/test", "at_prefix": "src/",
            "shipped": "hyperlink ships its tests in the package (site-packages/hyperlink/test): --source is site-packages",
            "wrap": [(hyperlink.URL, "from_text", "classmethod")], "read": _hyperlink_reading}


def _dist_version(name: str) -> str:
    import importlib.metadata
    return importlib.metadata.version(name)


def _urllib3_reading(u) -> dict:
    """A urllib3 Url through its fields (``auth`` is the userinfo, whole)."""
    return {"scheme": u.scheme, "userinfo": u.auth, "host": u.host, "port": u.port, "path": u.path,
            "query": u.query, "fragment": u.fragment}


def _urllib3_miner():
    import urllib3.util
    import urllib3.util.url
    version = _dist_version("urllib3")
    return {"release": version, "package": "urllib3", "repo": "urllib3/urllib3", "tag": version,
            "tests": "test", "run": "test/test_util.py",
            # test/conftest.py needs trustme and the dummy servers: test_util's parse_url cases use
            # none of its fixtures
            "pytest_args": ["--noconftest"],
            "wrap": [(urllib3.util.url, "parse_url", "function"), (urllib3.util, "parse_url", "function")],
            "read": _urllib3_reading}


def _yarl_reading(u) -> dict:
    """A yarl URL through its raw (encoded) attributes, None where it has none."""
    return {"scheme": u.scheme, "username": u.raw_user, "password": u.raw_password, "host": u.raw_host,
            "port": u.explicit_port, "path": u.raw_path, "query": u.raw_query_string, "fragment": u.raw_fragment}


def _yarl_miner():
    import yarl
    return {"release": yarl.__version__, "package": "yarl", "repo": "aio-libs/yarl", "tag": f"v{yarl.__version__}",
            "tests": "tests", "pytest_args": ["-m", "not hypothesis", "-k", "not benchmark and not pickle and not pydantic"],
            "wrap": [(yarl.URL, "__new__", "constructor")], "read": _yarl_reading}


PYTEST_MINERS = {"rfc3986": _rfc3986_miner, "hyperlink": _hyperlink_miner, "urllib3": _urllib3_miner,
                 "yarl": _yarl_miner}


def mine_pytest(parser: str, sdist_dir: pathlib.Path) -> dict:
    import pytest
    spec = PYTEST_MINERS[parser]()
    tests = (sdist_dir / spec["tests"]).resolve()
    read = spec["read"]
    cases: list[tuple[str, dict]] = []
    state = {"test": None, "passed": set()}

    def site(frame) -> str | None:
        line, found = None, None
        while frame is not None:
            path = pathlib.Path(frame.f_code.co_filename).resolve()
            if tests in path.parents:
                found, line = path, frame.f_lineno
            frame = frame.f_back
        return None if found is None else f"{spec.get('at_prefix', '')}{found.relative_to(sdist_dir.resolve())}:{line}"

    undo = []
    for owner, name, how in spec["wrap"]:
        original = owner.__dict__[name] if how in ("classmethod", "constructor") else getattr(owner, name)
        func = original.__func__ if how == "classmethod" else original

        def recorder(*args, _func=func, _how=how, **kwargs):
            out = _func(*args, **kwargs)
            text = args[1] if _how in ("classmethod", "constructor") and len(args) > 1 else \
                (args[0] if _how == "function" else None)
            if _how == "constructor" and (kwargs or not isinstance(text, str)):
                text = None   # URL(str) only: the adapter's call (encoded=True, URL(URL) are not)
            caller = sys._getframe(1)
            # the test's own call (not the package calling itself while a test runs)
            direct = tests in pathlib.Path(caller.f_code.co_filename).resolve().parents
            at = site(caller) if direct else None
            if at is not None and isinstance(text, str) and state["test"] is not None:
                cases.append((state["test"], {"input": text, "base": None, "at": at, "call": name, "reading": read(out)}))
            return out
        setattr(owner, name, classmethod(recorder) if how == "classmethod" else recorder)
        if how == "constructor":
            setattr(owner, name, staticmethod(recorder) if isinstance(original, staticmethod) else recorder)
        undo.append((owner, name, original))

    class Recorder:
        def pytest_runtest_setup(self, item):
            state["test"] = item.nodeid

        def pytest_runtest_logreport(self, report):
            if report.when == "call" and report.passed:
                state["passed"].add(report.nodeid)

    try:
        target = str((sdist_dir / spec["run"]).resolve()) if spec.get("run") else str(tests)
        code = pytest.main([target, *spec.get("pytest_args", []), "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--no-header",
                            "-o", "addopts=", "-n", "0"] if _has_xdist() else
                           [target, "-q", "-p", "no:cacheprovider", "--no-header", "-o", "addopts="],
                           plugins=[Recorder()])
    finally:
        for owner, name, original in undo:
            setattr(owner, name, original)
    kept, seen = [], set()
    for test, case in cases:
        key = (case["input"], case["at"])
        if any("\ud800" <= ch <= "\udfff" for ch in json.dumps(case, ensure_ascii=False)):
            continue   # a lone surrogate: the oracle protocol sends text (UTF-8)
        if test in state["passed"] and key not in seen:
            seen.add(key)
            kept.append(case)
    return {"parser": parser, "release": spec["release"],
            "provenance": {"repo": spec["repo"], "path": spec.get("at_prefix", "") + spec["tests"], "tag": spec["tag"],
                           "shipped": spec.get("shipped") or
                           f"the {spec['package']} {spec['release']} sdist's own tests (pip download --no-binary :all:)"},
            "mined_by": f"scripts/mine_owner_tests.py {parser} --source {spec['package']}-{spec['release']}",
            "tests": {"pytest exit": int(code), "passed": len(state["passed"])},
            "cases": kept}


def _has_xdist() -> bool:
    import importlib.util
    return importlib.util.find_spec("xdist") is not None


# --- libcurl: the tables of tests/libtest/lib1560.c at the release's tag --------------------------
#
# curl's URL API is tested by tables in C: get_parts_list (input, the parts curl_url_get gives as
# "scheme | user | password | options | host | port | path | query | fragment", "[N]" where the
# part is absent, CURLUcode N; url flags; get flags; the code curl_url_set returns) and
# get_url_list (input, the URL curl_url_get(CURLUPART_URL) gives, flags, code). Mined: the rows
# whose flags are the adapter's (urlwb/oracles/curl/adapter.c sets with CURLU_NON_SUPPORT_SCHEME
# or nothing else, gets with 0), on the branch of "#ifdef" a default build takes (#else of
# USE_IDN and the like is skipped: only rows outside any #if are kept).

CURL_PARTS = ("scheme", "username", "password", "options", "host", "port", "path", "query", "fragment")
#: the set flags under which a row reads as the adapter's (CURLU_NON_SUPPORT_SCHEME only widens
#: the schemes accepted: a row with 0 on a supported scheme reads the same)
CURL_SET_FLAGS = {"0", "CURLU_NON_SUPPORT_SCHEME"}


def _c_literals(text: str) -> list:
    """The initializer's items: adjacent string literals joined and unescaped (bytes as UTF-8),
    anything else as its source text."""
    items, cur, i = [], [], 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            j, buf = i + 1, bytearray()
            while text[j] != '"':
                if text[j] == "\\":
                    e = text[j + 1]
                    if e == "x":
                        k = j + 2
                        while k < len(text) and text[k] in "0123456789abcdefABCDEF":
                            k += 1
                        buf.append(int(text[j + 2:k], 16) & 0xFF)
                        j = k
                        continue
                    if e in "01234567":
                        k = j + 1
                        while k < j + 4 and text[k] in "01234567":
                            k += 1
                        buf.append(int(text[j + 1:k], 8))
                        j = k
                        continue
                    buf += {"n": b"\n", "t": b"\t", "r": b"\r", "\\": b"\\", '"': b'"', "'": b"'"}.get(e, e.encode())
                    j += 2
                    continue
                buf += text[j].encode("utf-8")
                j += 1
            cur.append(bytes(buf))
            i = j + 1
        elif ch == ",":
            items.append(b"".join(cur).decode("utf-8", "surrogateescape") if cur and all(isinstance(c, bytes) for c in cur)
                         else "".join(c if isinstance(c, str) else "" for c in cur).strip())
            cur, i = [], i + 1
        elif ch.isspace():
            i += 1
        else:
            j = i
            while j < len(text) and text[j] not in ',"':
                j += 1
            cur.append(text[i:j].strip())
            i = j
    if cur:
        items.append(b"".join(cur).decode("utf-8", "surrogateescape") if all(isinstance(c, bytes) for c in cur)
                     else "".join(c for c in cur if isinstance(c, str)).strip())
    return items


def _c_rows(source: str, table: str):
    """(line, items) of each row of the C array ``table`` outside any #if."""
    start = source.index(f" {table}[]")
    body_start = source.index("{", start) + 1
    depth_if, row, row_line, depth = 0, [], None, 0
    lines = source[body_start:].split("\n")
    first = source[:body_start].count("\n") + 1
    for n, line in enumerate(lines, first):
        stripped = line.strip()
        if stripped.startswith("#if"):
            depth_if += 1
            continue
        if stripped.startswith("#endif"):
            depth_if -= 1
            continue
        if stripped.startswith("#"):
            continue
        if depth == 0 and stripped.startswith("};"):
            return
        code = re.sub(r"/\*.*?\*/", "", line)
        for k, ch in enumerate(code):
            if ch == "{" and not _in_string(code, k):
                if depth == 0:
                    row, row_line = [], n
                depth += 1
                if depth == 1:
                    row.append(code[k + 1:])
                    break
        else:
            if depth:
                row.append(code)
        if depth and re.search(r"\}\s*,?\s*$", code) and not _in_string(code, code.rstrip().rstrip(",").rstrip().rfind("}")):
            depth = 0
            text = "\n".join(row)
            text = text[:text.rfind("}")]
            if depth_if == 0:
                yield row_line, _c_literals(text)


def _in_string(code: str, k: int) -> bool:
    quotes, i = 0, 0
    while i < k:
        if code[i] == "\\":
            i += 2
            continue
        if code[i] == '"':
            quotes += 1
        i += 1
    return quotes % 2 == 1


def _curl_reading(parts: str) -> dict:
    values = [p.strip() for p in parts.split(" | ")]
    if len(values) != len(CURL_PARTS):
        raise ValueError(parts)
    out = {}
    for name, value in zip(CURL_PARTS, values):
        out[name] = None if re.fullmatch(r"\[\d+\]", value) else value
    if out["port"] is not None:
        out["port"] = int(out["port"])
    return out


def mine_curl(source_path: pathlib.Path, tag: str) -> dict:
    source = source_path.read_text(encoding="utf-8", errors="surrogateescape")
    path = "tests/libtest/lib1560.c"
    cases = []
    for table in ("get_parts_list", "get_url_list"):
        for line, items in _c_rows(source, table):
            if len(items) < 5:
                continue
            input, out, setflags, getflags, code = items[:5]
            if input == "NULL" or setflags not in CURL_SET_FLAGS or getflags != "0":   # NULL: the terminator
                continue
            if setflags == "0" and code in ("CURLUE_UNSUPPORTED_SCHEME", "CURLUE_BAD_SCHEME"):
                continue   # the scheme check is the flag's: the adapter sets CURLU_NON_SUPPORT_SCHEME
            if any("\udc80" <= ch <= "\udcff" for ch in input + out):
                continue   # bytes that are not UTF-8: the oracle protocol sends text
            case = {"input": input, "base": None, "at": f"{path}:{line}", "call": table}
            if code != "CURLUE_OK":
                case["reading"] = {"failure": code}
            elif table == "get_parts_list":
                case["reading"] = _curl_reading(out)
            else:
                case["reading"] = {"href": out}
            cases.append(case)
    version = tag.removeprefix("curl-").replace("_", ".")
    return {"parser": "libcurl", "release": version,
            "provenance": {"repo": "curl/curl", "path": path, "tag": tag,
                           "shipped": "curl's own test tables (not shipped with the library): extracted at the tag"},
            "mined_by": f"scripts/mine_owner_tests.py libcurl --source lib1560.c --tag {tag}",
            "tests": {"tables": ["get_parts_list", "get_url_list"],
                      "kept": "rows with the adapter's flags (set: 0 or CURLU_NON_SUPPORT_SCHEME, but not a row set with 0 "
                              "that fails on its scheme; get: 0), outside #if, "
                              "in UTF-8 (the oracle protocol sends text)"},
            "cases": cases}


def mine(parser: str) -> dict:
    spec = MINERS[parser]()
    module = importlib.import_module(spec["module"])
    test_file = pathlib.Path(module.__file__).resolve()
    read, split = spec["read"], spec["split"]
    cases: list[tuple[str, dict]] = []   # (test id, case)
    current = {"test": None}

    def site(frame) -> str:
        """The outermost line of the test file on the stack: the test method's own line, not a
        helper's (``checkJoin``) that every case passes through."""
        line = frame.f_lineno
        while frame is not None and pathlib.Path(frame.f_code.co_filename).resolve() == test_file:
            line, frame = frame.f_lineno, frame.f_back
        return f"{spec['provenance']['path']}:{line}"

    def wrap(owner, name, how):
        original = getattr(owner, name)

        def recorder(*args, **kwargs):
            caller = sys._getframe(1)
            # the adapter's call only: urlsplit(url) (a second argument is a default scheme the
            # adapter never passes), urljoin(base, url); str, not bytes
            mine_it = (pathlib.Path(caller.f_code.co_filename).resolve() == test_file and not kwargs
                       and len(args) == (2 if how == "join" else 1) and all(isinstance(a, str) for a in args))
            try:
                out = original(*args, **kwargs)
            except ValueError as exc:
                if mine_it:
                    base, input = (args[0], args[1]) if how == "join" else (None, args[0])
                    cases.append((current["test"], {"input": input, "base": base,
                                                    "at": site(caller),
                                                    "call": name, "reading": {"failure": f"ValueError: {exc}"}}))
                raise
            if mine_it:
                base, input = (args[0], args[1]) if how == "join" else (None, args[0])
                reading = read(split(out) if how == "join" else out)
                cases.append((current["test"], {"input": input, "base": base,
                                                "at": site(caller),
                                                "call": name, "reading": reading}))
            return out
        setattr(owner, name, recorder)
        return owner, name, original

    class Result(unittest.TestResult):
        def startTest(self, test):
            current["test"] = test.id()
            super().startTest(test)

    undo = [wrap(*c) for c in spec["calls"]]
    try:
        suite = unittest.defaultTestLoader.loadTestsFromModule(module)
        result = Result()
        suite.run(result)
    finally:
        for owner, name, original in undo:
            setattr(owner, name, original)
    failed = {t.id() for t, _ in result.failures + result.errors + result.skipped}
    kept, seen = [], set()
    for test, case in cases:
        if test in failed:
            continue
        key = (case["input"], case["base"], case["at"])
        if key not in seen:
            seen.add(key)
            kept.append(case)
    return {"parser": parser, "release": spec["release"], "provenance": spec["provenance"],
            "mined_by": "scripts/mine_owner_tests.py " + parser,
            "tests": {"run": result.testsRun, "not passed": len(failed)},
            "cases": kept}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("parser", choices=sorted([*MINERS, *PYTEST_MINERS, "libcurl"]))
    p.add_argument("--check", action="store_true")
    p.add_argument("--source", type=pathlib.Path,
                   help="libcurl: tests/libtest/lib1560.c at --tag; a pytest miner: the unpacked sdist")
    p.add_argument("--tag", help="libcurl: the release's tag (curl-7_88_1)")
    args = p.parse_args()
    if args.parser == "libcurl":
        if not args.source or not args.tag:
            p.error("libcurl needs --source and --tag")
        data = mine_curl(args.source, args.tag)
    elif args.parser in PYTEST_MINERS:
        if not args.source:
            p.error(f"{args.parser} needs --source (its sdist, unpacked)")
        data = mine_pytest(args.parser, args.source)
    else:
        data = mine(args.parser)
    path = OUT / f"{args.parser}.json"
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    if args.check:
        stored = json.loads(path.read_text(encoding="utf-8"))
        if stored["release"] != data["release"]:
            print(f"{path}: mined at {stored['release']}, this is {data['release']}: not compared")
            return 0
        same = stored["cases"] == data["cases"]
        print(f"{path}: {len(data['cases'])} cases, {'as stored' if same else 'DIFFERENT from the stored file'}")
        return 0 if same else 1
    path.write_text(text, encoding="utf-8")
    print(f"{path}: {len(data['cases'])} cases ({json.dumps(data['tests'])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
