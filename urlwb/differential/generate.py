"""Confusion-aware inputs for differentials: WPT URL inputs, mutated with the ingredients of URL
confusion (backslashes, extra or missing slashes, ``@``, percent-encoded delimiters, tabs and
newlines, IPv4 shorthands, IDNA dots, forbidden code points, lone surrogates), or assembled from
a small URL grammar whose hosts and paths reach every spelling the Standard treats specially
(``properties/spellings.py``: IPv4 in every radix and part count at its limits, IPv6 with '::'
anywhere, joiners and Bidi classes, dot segments), and relative references against file bases.
Deterministic: the same seed gives the same inputs. ``tests/workbench/test_spellings.py`` checks that
``generate`` reaches every spelling.

https://url.spec.whatwg.org/#url-parsing
"""

from __future__ import annotations

import json
import pathlib
import random
import string
from collections.abc import Iterator

from properties import spellings

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "wpt"

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
    """A URL from the grammar's parts, each chosen at random (the userinfo one of ``USERINFO``
    or, a third of the time, built by :func:`userinfo_text`)."""
    scheme = rng.choice(SCHEMES)
    userinfo = rng.choice(USERINFO) if rng.random() < 2 / 3 else userinfo_text(rng)
    return "".join([scheme + ":" if scheme else "", rng.choice(SLASHES), userinfo,
                    host_text(rng), rng.choice(PORTS), path_text(rng), rng.choice(QUERIES),
                    rng.choice(FRAGMENTS)])


# -- the authority's own spellings ---------------------------------------------------------------
#
# https://url.spec.whatwg.org/#authority-state: the userinfo ends at the LAST '@' before the
# authority's end ('/', '?', '#', and '\' in a special URL); every earlier '@' is percent-encoded
# into the userinfo, whose username ends at its first ':'. So the Standard reads several '@' (with
# an empty userinfo, or an empty password, between them), '[' and ']' (which elsewhere open and
# close an IPv6 host) and '\' (which ends a special URL's authority, and only there) inside the
# userinfo, each as one more code point of it. A parser that ends the userinfo at the first '@',
# or looks for an IPv6 host from the first '[', or ends the authority at '/' only, reads another
# host. These pieces are the generator's own small alphabet: a userinfo is words of one or two
# letters, never a host name, so that a host read from inside the userinfo is always a
# confusion and never a copy of a published witness (tests/workbench/test_generate_reach.py).

#: the words a userinfo is made of: none, a username, a username and a password, colons alone
USERINFO_WORDS = ("", "", "u", "u:p", ":", "a:", ":b", "u:p:q")
#: code points another part of the authority ends or begins at, put inside the userinfo
USERINFO_DELIMITERS = ("[", "]", "\\", "[]", "][", "/", "?", "#", ":")


def userinfo_text(rng: random.Random) -> str:
    """A userinfo ending in '@', of one to three segments, each a word of ``USERINFO_WORDS``
    then, half the time, a delimiter of ``USERINFO_DELIMITERS`` before or after the word, then
    one '@' or two (an empty userinfo between them)."""
    out = []
    for _ in range(rng.choice((1, 1, 2, 3))):
        word = rng.choice(USERINFO_WORDS)
        if rng.random() < 0.5:
            d = rng.choice(USERINFO_DELIMITERS)
            word = d + word if rng.random() < 0.3 else word + d
        out.append(word + rng.choice(("@", "@", "@@")))
    return "".join(out)


def _authority_spelling(rng, s):
    """The authority of ``s`` (after its '//' or the scheme's ':') given a userinfo of
    :func:`userinfo_text`, or a backslash where the authority begins, inside it, or where its
    host ends, or an empty userinfo and host before a path that spells a host name."""
    i = s.find("//")
    start = i + 2 if i >= 0 else (s.find(":") + 1 if 0 < s.find(":") < 12 else 0)
    j = start
    while j < len(s) and s[j] not in "/\\?#":
        j += 1
    kind = rng.randrange(4)
    if kind < 2:
        host = s[start:j].rpartition("@")[2]
        return s[:start] + userinfo_text(rng) + host + s[j:]
    if kind == 2:
        at = rng.choice((start, j, rng.randint(start, j)))
        return s[:at] + "\\" + s[at:]
    return s[:start] + rng.choice(("@", ":@", "@@")) + rng.choice(("/", "\\", "//")) + rng.choice(HOSTS[:6]) + s[j:]


# -- hosts and paths that reach the Standard's special spellings ------------------------------

def host_text(rng: random.Random) -> str:
    """A host: one of ``HOSTS``, an IPv4 or an IPv6 address in any spelling, a domain with
    joiners or Bidi classes, a host with a forbidden code point, or a Windows drive letter
    (which a file URL's host state reads as the path's)."""
    kind = rng.randrange(7)
    if kind < 2:
        return rng.choice(HOSTS)
    return (ipv4_host, ipv6_host, idna_host, forbidden_host, drive_letter)[kind - 2](rng)


def drive_letter(rng: random.Random) -> str:
    """https://url.spec.whatwg.org/#windows-drive-letter"""
    return rng.choice(string.ascii_letters) + rng.choice(":|")


def ipv4_number(rng: random.Random, n: int) -> str:
    """``n`` as an IPv4 part: decimal, octal (a leading 0), or hex after '0x' or '0X'."""
    return rng.choice((str(n), str(n), f"0{n:o}", f"0x{n:x}", f"0X{n:X}"))


def ipv4_host(rng: random.Random) -> str:
    """https://url.spec.whatwg.org/#concept-ipv4-parser: one to five parts, each 255 or 256
    sometimes, the last at its limit for the part count or one past it sometimes; an empty or
    non-numeric part, a trailing dot, '0x' alone."""
    count = rng.choice((1, 2, 3, 4, 4, 5))
    limit = 256 ** (5 - min(count, 4))
    numbers = [rng.choice((rng.randrange(256), 255, 256)) for _ in range(count - 1)]
    numbers.append(rng.choice((rng.randrange(limit), limit - 1, limit)))
    parts = [ipv4_number(rng, n) for n in numbers]
    odd = rng.randrange(8)
    if odd < 3:
        parts[rng.randrange(len(parts))] = ("", "a", "09", "0x", "0X")[rng.randrange(5)]
    return ".".join(parts) + ("." if odd == 3 else "")


IPV6_PIECES = ("0", "1", "ffff", "FFFF", "abcd", "01", "0000")


def ipv6_host(rng: random.Random) -> str:
    """https://url.spec.whatwg.org/#concept-ipv6-parser, between brackets: eight pieces (six
    before an embedded IPv4), one more or one fewer, or '::' after any number of pieces (0 to 7)
    with any number after (too many, sometimes); the IPv4 out of range, with a leading zero or
    a part short, sometimes; a five-digit piece, a stray ':' first or last, two '::', no ']'."""
    pieces = [rng.choice(IPV6_PIECES) for _ in range(9)]
    embed = rng.random() < 0.4
    k = rng.randrange(9)  # the pieces before '::'; 8: no '::'
    if k == 8:
        text = ":".join(pieces[:(6 if embed else 8) + rng.choice((0, 0, 0, -1, 1))])
    else:
        after = rng.choice((0, rng.randrange(9 - k)))
        text = ":".join(pieces[:k]) + "::" + ":".join(pieces[k:k + after])
    if embed:
        octets = [rng.choice(("1", "255", "0", "256", "02")) for _ in range(rng.choice((3, 4, 4)))]
        text += ("" if text.endswith(":") else ":") + ".".join(octets)
    odd = rng.randrange(12)
    if odd < 3:
        text = ("12345:", ":", "1::2::")[odd] + text
    elif odd == 3:
        text += ":"
    return "[" + text + ("" if odd == 4 else "]")


def idna_host(rng: random.Random) -> str:
    """A label with ZWJ or ZWNJ in one of the contexts CheckJoiners tells apart, or a
    right-to-left label with code points of the Bidi classes RFC 5893's rules name; then a
    plain label or none."""
    if rng.random() < 0.5:
        before, after = rng.choice(spellings.JOINER_CONTEXTS)
        label = before + rng.choice((spellings.ZWJ, spellings.ZWNJ)) + after
    else:
        examples = spellings.BIDI_CLASS_EXAMPLES
        rtl = rng.choice(examples["R"] + examples["AL"] + examples["AN"])
        rest = [rng.choice(rng.choice(list(examples.values()))) for _ in range(rng.randint(0, 4))]
        i = rng.choice((0, rng.randint(0, len(rest))))
        label = "".join(rest[:i]) + rtl + "".join(rest[i:])
    return label + rng.choice(("", ".example", ".com", "." + label))


def forbidden_host(rng: random.Random) -> str:
    return _insert_forbidden(rng, rng.choice(HOSTS[:6]))


def _insert_forbidden(rng: random.Random, text: str) -> str:
    """``text`` with a forbidden host or domain code point, raw or percent-encoded, anywhere
    (https://url.spec.whatwg.org/#forbidden-domain-code-point)."""
    c = rng.choice(spellings.FORBIDDEN_DOMAIN_CODE_POINTS)
    piece = c if rng.random() < 0.5 else spellings.percent_encoded(c)
    i = rng.randint(0, len(text))
    return text[:i] + piece + text[i:]


def path_text(rng: random.Random) -> str:
    """One of ``PATHS``, or one to three segments among which dot segments in every spelling
    (https://url.spec.whatwg.org/#double-dot-path-segment) and an astral code point."""
    if rng.random() < 0.5:
        return rng.choice(PATHS)
    segments = spellings.DOT_SEGMENT_SPELLINGS + ("a", "b", "C:", "c|", "\U0001f600")
    return "".join(rng.choice("//\\") + rng.choice(segments) for _ in range(rng.randint(1, 3)))


def file_url(rng: random.Random) -> str:
    """A file URL without a host, with one, or with a drive letter as the host
    (https://url.spec.whatwg.org/#file-host-state), then a drive letter or not."""
    authority = rng.choice(("", "/", "///", "//localhost/", "//host/", "\\\\h\\",
                            "//" + drive_letter(rng), "//" + drive_letter(rng) + "/"))
    return (rng.choice(("file:", "FILE:")) + authority
            + rng.choice((drive_letter(rng), drive_letter(rng) + "/", "", "a:b")) + path_text(rng))


FILE_BASES = ["file:///C:/dir/file", "file://host/dir/file", "file:///", "file:///c:/",
              "file://h/D:/a/b"]


def file_reference(rng: random.Random) -> tuple[str, str]:
    """A relative reference the file state reads against a file base
    (https://url.spec.whatwg.org/#file-state): a drive letter first ('X:' is a scheme), after
    one slash or two, or a path-absolute, '..' or path-relative reference; and the base."""
    if rng.random() < 0.6:
        prefix = rng.choice(("", "/", "\\", "//", "\\\\", "/\\"))
        ref = (prefix + drive_letter(rng)
               + rng.choice(("", "/", "/x", "\\x", "?q", "#f", "x")))
    else:
        ref = rng.choice(("/x", "\\x", "/", "..", "../..", "%2e%2E/x", "x", ""))
    return ref, rng.choice(FILE_BASES)


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
    return s[:i + 2] + user + at + host_text(rng) + rng.choice(PORTS) + s[j:]


def _forbidden_in_host(rng, s):
    i = s.find("//")
    if i < 0:
        return _insert_forbidden(rng, s)
    j = i + 2
    while j < len(s) and s[j] not in "/\\?#":
        j += 1
    k = s.rfind("@", i, j) + 1 or i + 2
    return s[:k] + _insert_forbidden(rng, s[k:j]) + s[j:]


def _lone_surrogate(rng, s):
    """A lone surrogate, high or low (or a low then a high), first, last, inside, or as the
    whole input (https://infra.spec.whatwg.org/#javascript-string-convert)."""
    lone = rng.choice(spellings.HIGH_SURROGATES + spellings.LOW_SURROGATES
                      + (spellings.LOW_SURROGATES[0] + spellings.HIGH_SURROGATES[0],))
    i = rng.choice((0, len(s), rng.randint(1, max(1, len(s) - 1)), -1))
    return lone if i < 0 else s[:i] + lone + s[i:]


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
    return s + path_text(rng) + rng.choice(QUERIES) + rng.choice(FRAGMENTS)


MUTATIONS = [_swap_slash, _slash_count, _userinfo, _encode_delimiter, _insert, _host, _idna_dot,
             _scheme, _tail, _forbidden_in_host, _lone_surrogate, _authority_spelling]


def generate(n: int, seed: int = 0) -> Iterator[tuple[str, str | None]]:
    """``n`` (input, base) pairs: two thirds mutated WPT inputs (one to three mutations, keeping
    the case's base), a quarter assembled from the grammar, a twelfth file URLs and relative
    references against file bases; deterministic in ``seed``."""
    rng = random.Random(seed)
    cases = wpt_cases()
    for _ in range(n):
        r = rng.random()
        if r < 1 / 4:
            yield assemble(rng), None
            continue
        if r < 1 / 3:
            yield file_reference(rng) if rng.random() < 0.5 else (file_url(rng), None)
            continue
        s, base = rng.choice(cases)
        for _ in range(rng.choice((1, 1, 2, 3))):
            s = rng.choice(MUTATIONS)(rng, s)
        yield s, base if rng.random() < 0.5 else None


#: characters no URI holds (RFC 3986 Appendix A): what a validator of URIs must refuse, wherever
NO_URI = ("\t", "\n", "\r", " ", "\x00", "\x01", "\x1f", "\x7f")


def no_uri_inputs(n: int, seed: int = 0) -> Iterator[str]:
    """``n`` well-formed http(s) URLs, each with one character no URI holds (:data:`NO_URI`)
    first, last, or inside the host, the path, the query or the fragment: what every validator
    is asked, as the Standard strips or removes most of them and a differential alone does not
    see one accepted (Django's CVE-2021-32052: a newline)."""
    rng = random.Random(seed)
    for _ in range(n):
        parts = [rng.choice(("http://", "https://")), rng.choice(HOSTS[:4]), rng.choice(("", "/", "/a/b")),
                 rng.choice(("", "?a=b")), rng.choice(("", "#x"))]
        where = rng.randrange(len(parts) + 1)
        c = rng.choice(NO_URI)
        if where == len(parts):
            yield "".join(parts) + c
        else:
            part = parts[where] or ("/" if where == 2 else "")
            i = rng.randint(0 if where else 0, len(part))
            parts[where] = part[:i] + c + part[i:]
            yield "".join(parts)
