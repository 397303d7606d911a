"""Confusion-aware inputs for differentials: WPT URL inputs, mutated with the ingredients of URL
confusion (backslashes, extra or missing slashes, ``@``, percent-encoded delimiters, tabs and
newlines, IPv4 shorthands, IDNA dots), or assembled from a small URL grammar. Deterministic: the
same seed gives the same inputs.

https://url.spec.whatwg.org/#url-parsing
"""

from __future__ import annotations

import json
import pathlib
import random
from collections.abc import Iterator

DATA = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "wpt"

SCHEMES = ["http", "https", "HTTP", "hTtPs", "ws", "wss", "ftp", "file", "FILE", "sc", "foo",
           "javascript", "data", "blob", "mailto", "http+unix", "h\ttp", "ht\ntp", ""]
SLASHES = ["", "/", "//", "///", "////", "\\", "\\\\", "/\\", "\\/", "\\\\\\", "//\t", "/\n/"]
HOSTS = ["example.com", "EXAMPLE.com", "example.com.", "evil.com", "a.b.c", "localhost",
         "127.0.0.1", "0x7f.1", "127.1", "0177.0.0.1", "2130706433", "0x7f000001", "017700000001",
         "0x7F.0.0.0x1", "1.2.3.08", "1.2.3.09", "0x.0x.0", "4294967295", "4294967296",
         "256.256.256.256", "1.2.3.4.", "1.2.3.4.5", "09", "0xffffffff", "10.0.0.xn--pokxncvks",
         "[::1]", "[::ffff:127.0.0.1]", "[0:0:0:0:0:0:0:1]", "[::127.0.0.1]", "[1::2::3]", "[::1",
         "bücher.example", "ＥＸＡＭＰＬＥ.com", "example。com", "example．com", "example｡com",
         "ex\u00adample.com", "xn--bcher-kva.example", "xn--", "xn--a.com", "ex%61mple.com",
         "%65xample.com", "example%2ecom", "exa mple.com", "a_b.com", "☕.example", "ß.de",
         "faß.de", "\u200d.com", "%zz", "", "[", "a<b", "co.uk", "www.example.co.uk", "github.io"]
USERINFO = ["", "user@", "user:pass@", ":@", "@", "@@", "trusted.com@", "user@evil.com@",
            "a:b:c@", "%40@", "u%3Ap@", "evil.com\\@", "evil.com%2F@", "evil.com#@", "evil.com?@"]
PORTS = ["", ":", ":80", ":443", ":8080", ":0", ":65535", ":65536", ":99999", ":0x50", ": 80",
         ":080", ":-1", ":1.2", ":80x"]
PATHS = ["", "/", "/a/b", "/a/../b", "/./a", "/a/%2e%2e/b", "/%2E%2e/x", "/.%2E/x", "/a/..%2F",
         "\\a\\b", "/a%2Fb", "/a%5Cb", "/C:/x", "/C|/x", "/%2e/", "/a b", "/a\tb", "/é",
         "/../../../etc/passwd", "/..;/x", "//evil.com", "/\\evil.com", "/%00", "/a?b"]
QUERIES = ["", "?", "?a=b", "?a=b&c=d", "?%23x", "?a b", "?'\"<>", "?é", "?a#b", "?%3F"]
FRAGMENTS = ["", "#", "#x", "#a b", "#%23", "#\u0060", "#é", "#@evil.com"]
INSERTS = ["\t", "\n", "\r", " ", "\x00", "\x1f", "\x7f", "\u00a0", "\ufeff", "\\", "/", "@", ":",
           "#", "?", "%", ".", "%2e", "%2F", "%5C", "%40", "%23", "%3F", "%00", "。"]
DELIMITER_ENCODINGS = {"/": ["%2F", "%2f"], "\\": ["%5C", "%5c"], ".": ["%2E", "%2e"],
                       "@": ["%40"], "#": ["%23"], "?": ["%3F", "%3f"], ":": ["%3A"]}
IDNA_DOTS = ["。", "．", "｡"]


def wpt_cases() -> list[tuple[str, str | None]]:
    """Every (input, base) of the vendored urltestdata.json, plus toascii.json's hosts as the WPT
    harness runs them (``https://`` + input + ``/x``)."""
    cases = [(c["input"], c.get("base")) for c in load_wpt("urltestdata.json") if isinstance(c, dict)]
    cases += [("https://" + c["input"] + "/x", None)
              for c in load_wpt("toascii.json") if isinstance(c, dict)]
    return cases


def load_wpt(name: str) -> list:
    """A vendored WPT JSON file, whole."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def assemble(rng: random.Random) -> str:
    """A URL from the grammar's parts, each chosen at random."""
    scheme = rng.choice(SCHEMES)
    return "".join([scheme + ":" if scheme else "", rng.choice(SLASHES), rng.choice(USERINFO),
                    rng.choice(HOSTS), rng.choice(PORTS), rng.choice(PATHS), rng.choice(QUERIES),
                    rng.choice(FRAGMENTS)])


def _swap_slash(rng, s):
    idx = [i for i, c in enumerate(s) if c in "/\\"]
    if not idx:
        return s + "\\"
    i = rng.choice(idx)
    return s[:i] + ("\\" if s[i] == "/" else "/") + s[i + 1:]


def _slash_count(rng, s):
    i = s.find(":")
    if i < 0:
        return rng.choice(SLASHES) + s
    j = i + 1
    while j < len(s) and s[j] in "/\\":
        j += 1
    return s[:i + 1] + rng.choice(SLASHES) + s[j:]


def _userinfo(rng, s):
    i = s.find("//")
    if i < 0:
        return rng.choice(USERINFO) + s
    return s[:i + 2] + rng.choice(USERINFO) + s[i + 2:]


def _encode_delimiter(rng, s):
    idx = [i for i, c in enumerate(s) if c in DELIMITER_ENCODINGS]
    if not idx:
        return s + rng.choice(["%2F", "%2e%2E", "%40", "%5C"])
    i = rng.choice(idx)
    return s[:i] + rng.choice(DELIMITER_ENCODINGS[s[i]]) + s[i + 1:]


def _insert(rng, s):
    i = rng.choice([0, len(s), rng.randint(0, len(s))])
    return s[:i] + rng.choice(INSERTS) + s[i:]


def _host(rng, s):
    i = s.find("//")
    if i < 0:
        return s
    j = i + 2
    while j < len(s) and s[j] not in "/\\?#":
        j += 1
    auth = s[i + 2:j]
    user, at, _ = auth.rpartition("@")
    return s[:i + 2] + user + at + rng.choice(HOSTS) + rng.choice(PORTS) + s[j:]


def _idna_dot(rng, s):
    idx = [i for i, c in enumerate(s) if c == "."]
    if not idx:
        return s + rng.choice(IDNA_DOTS)
    i = rng.choice(idx)
    return s[:i] + rng.choice(IDNA_DOTS) + s[i + 1:]


def _scheme(rng, s):
    i = s.find(":")
    return rng.choice(SCHEMES) + ":" + (s[i + 1:] if 0 < i < 12 else s)


def _tail(rng, s):
    return s + rng.choice(PATHS) + rng.choice(QUERIES) + rng.choice(FRAGMENTS)


MUTATIONS = [_swap_slash, _slash_count, _userinfo, _encode_delimiter, _insert, _host, _idna_dot,
             _scheme, _tail]


def generate(n: int, seed: int = 0) -> Iterator[tuple[str, str | None]]:
    """``n`` (input, base) pairs: two thirds mutated WPT inputs (one to three mutations, keeping
    the case's base), one third assembled from the grammar; deterministic in ``seed``."""
    rng = random.Random(seed)
    cases = wpt_cases()
    for _ in range(n):
        if rng.random() < 1 / 3:
            yield assemble(rng), None
            continue
        s, base = rng.choice(cases)
        for _ in range(rng.choice((1, 1, 2, 3))):
            s = rng.choice(MUTATIONS)(rng, s)
        yield s, base if rng.random() < 0.5 else None
