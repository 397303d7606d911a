"""Where Chromium, Firefox and the Standard (the engine) disagree: every WPT case and N generated
inputs through both browser adapters, each difference put in the first cluster that explains it.

https://url.spec.whatwg.org/#url-parsing

    .venv/bin/python scripts/browser_survey.py [--generate 10000] [--seed 1]

Clusters are the documented deviations (the browsers' cards, ``urlwb/oracles/browsers/oracles.toml``)
first, then the findings below: a browser's difference from the Standard without a documented cause, named after what it does,
with the WPT test it resembles. A finding's predicate is a description, not a proof: it groups
the differences so that each group can be read; ``unexplained`` is what no cluster took. This
script is how the counts in the deviations' and findings' notes were measured; it is a tool for
whoever updates them, not part of the differential (the supervisor runs the adapters there).
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import re
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: the browsers' adapters
HERE = ROOT / "urlwb" / "oracles" / "browsers"
sys.path[:0] = [str(ROOT)]

from tests.oracles.adapter_driver import Adapter  # noqa: E402
from urlwb.differential import classify  # noqa: E402
from urlwb.differential.generate import generate, wpt_cases  # noqa: E402
from urlwb.oracles import FAILURE, Record, deviations, from_api, to_usv  # noqa: E402
from urlwb.oracles.whatwg import EngineOracle  # noqa: E402

_C0_SPACE = "".join(map(chr, range(0x21)))


def _file(right, peer, input, base):
    return right.scheme == "file" or (right.failure and re.match(r"[\s]*file:", input, re.I)) or \
        (base or "").startswith("file:") and not re.match(r"[\s]*[a-eg-z][a-z0-9+.-]+:", input, re.I)


def _drive_letter(right, peer, input, base):
    # Windows drive letters ("C:", "C|"): Chromium recognizes them only in its Windows build
    # (url/url_canon_fileurl.cc, #ifdef WIN32); Firefox keeps "C|" apart too.
    return _file(right, peer, input, base) and any(_DRIVE.search(s) for s in (input, base or ""))


#: https://url.spec.whatwg.org/#windows-drive-letter, as the start of a path segment.
_DRIVE = re.compile(r"(?:^|[/\\:\s])[A-Za-z][:|](?:[/\\?#\s]|$)")


def _file_host(right, peer, input, base):
    # Firefox drops a file URL's host (and accepts a host the Standard rejects, as empty);
    # Chromium reads a file host up to "/" or "\" only, so "file://h?q" fails.
    return _file(right, peer, input, base) and (
        (right.ok and peer.ok and right.host != peer.host) or right.failure != peer.failure)


def _file_slashes(right, peer, input, base):
    return (right.ok and peer.ok and right.scheme == "file" and
            re.sub("^/+", "/", right.path or "") == peer.path)


def _simple_uri(right, peer, input, base):
    # Firefox parses data:, javascript:, blob:, about: and mailto: URLs without the Standard's
    # path, host and percent-encoding steps (its "simple URI" for these schemes).
    simple = ("data", "javascript", "blob", "about", "mailto")
    return (right.scheme or peer.scheme or "").lower() in simple


def _quote_encoded(right, peer, input, base):
    # Chromium percent-encodes "'" in every query (the special-query set) and in userinfo.
    def undo(s):
        return None if s is None else s.replace("%27", "'")
    return (right.ok and peer.ok and "%27" in (peer.href or "") and
            classify.strict(right) == classify.strict(peer._replace(
                query=undo(peer.query), username=undo(peer.username), password=undo(peer.password))))


def _embedder_scheme(right, peer, input, base):
    # Schemes Chromium's embedder registers with its own syntax (WPT keeps tests for them).
    return (peer.scheme or right.scheme or "") in (
        "android", "drivefs", "chromeos-steam", "steam", "materialized-view", "chrome-distiller",
        "chrome-extension", "chrome-native", "chrome-search", "isolated-app", "chrome",
        "chrome-untrusted", "devtools")


def _std3(right, peer, input, base):
    # U+226E, U+226F (and "<", ">" with U+0338): UTS46 "disallowed_STD3_valid"; the Standard
    # does not use STD3 rules (whatwg/url#733), Chromium fails them.
    return right.ok and peer.failure and re.search("[\u2260\u226e\u226f]|[<>=]\u00ad*\u0338", input)


def _host_percent_decoding(right, peer, input, base):
    # Chromium percent-decodes a host before the IPv6 and IDNA steps ("[::%31]", "％４１").
    return right.failure and peer.ok and re.search(r"%[0-9A-Fa-f]{2}|％", input)


def _non_special_backslash(right, peer, input, base):
    # "\" in a relative reference against a non-special base, or after a dot segment of a
    # non-special path: both browsers read it as "/" in places.
    scheme = (right.scheme or "").lower()
    return "\\" in input and scheme not in classify.SPECIAL_SCHEMES and (
        right.failure or peer.failure or right.path != peer.path or right.host != peer.host)


def _whitespace_kept(right, peer, input, base):
    # Chromium keeps (percent-encoded) tab, LF and CR in data: URLs, which the Standard strips.
    return (right.ok and peer.ok and re.search("[\t\n\r]", input) and
            re.search("%0[9AD]", peer.href or "", re.I) and not re.search("%0[9AD]", right.href or "", re.I))


def _ipv4(right, peer, input, base):
    return right.ok and peer.failure and re.search(r"0x\.|\.0x(\.|$|[:/])", input, re.I)


def _forbidden_host_cp(right, peer, input, base):
    # Firefox rejects '"', '*', '{', '}', '`' ... in a special URL's host, which the Standard allows.
    return right.ok and peer.failure and re.search(r"[\"*{}`]", classify.raw_host(input) or "")


def _non_special_host(right, peer, input, base):
    # An opaque host with a non-ASCII code point (U+200D, U+1680...) or an empty host.
    scheme = (right.scheme or "").lower()
    return scheme not in classify.SPECIAL_SCHEMES and right.host != peer.host or (
        right.ok and peer.failure and scheme not in classify.SPECIAL_SCHEMES)


#: (oracle, cluster, the WPT test it resembles, predicate), after the deviations.
FINDINGS = [
    ("chromium", "embedder schemes (android:, chrome-extension:, isolated-app: ...) parsed their own way",
     "android://x:0/a; chrome-extension://x:0", _embedder_scheme),
    ("chromium", "Windows drive letters not recognized in file URLs (non-Windows build)",
     "C|/foo/bar against file:///tmp/mock/path; file:///w|/m", _drive_letter),
    ("chromium", "several leading slashes of a file path collapsed into one",
     "file:////foo; ////one/two against file:///", _file_slashes),
    ("chromium", "\"'\" percent-encoded in a non-special query and in userinfo",
     "notspecial://host/?'; wss://joe: !\"$%&'()...@host/", _quote_encoded),
    ("chromium", "tab, LF, CR kept (percent-encoded) in data: URLs",
     "data:text/plain,test#\\x00\\x01\\t\\n\\r...", _whitespace_kept),
    ("chromium", "STD3 rules applied to IDNA (U+226E, U+226F rejected)",
     "https://≮/x (toascii.json)", _std3),
    ("chromium", "host percent-decoded before the IPv6 and IDNA steps",
     "http://[::%31]; http://％４１.com", _host_percent_decoding),
    ("chromium", "file URL host ends only at / or \\ (file://h?q, file://h#f rejected)",
     "none", _file_host),
    ("chromium", "backslash read as a slash in non-special relative references and dot segments",
     "\\a against foo://foo/a; non-spec:/.//path", _non_special_backslash),
    ("chromium", "opaque (non-special) host: non-ASCII or empty host rejected or read differently",
     "sc://ñ (passes); data://\\u200d.com (none)", _non_special_host),
    ("firefox", "file URL host dropped, and invalid file hosts accepted as empty",
     "//server/file against file:///tmp/mock/path; file://example:1/", _file_host),
    ("firefox", "data:, javascript:, blob:, about:, mailto: parsed as opaque strings (no host, "
     "no dot segments, no percent-encoding)", "data://test/a/../b; javascript:/../", _simple_uri),
    ("firefox", "Windows drive letters in non-special or relative file paths",
     "C| against file://host/dir/file; .. against abc://x/y/z/C:/", _drive_letter),
    ("firefox", "code points the Standard allows in a host rejected ('\"', '*', '{', '}', '`')",
     "http://!\"$&'()*+,-.;=_`{}~/", _forbidden_host_cp),
    ("firefox", "IPv4 parts \"0x\" not read as 0", "https://0x.0x.0x.0x", _ipv4),
    ("firefox", "backslash read as a slash in relative references against a non-special base",
     "\\/a against foo://foo/a", _non_special_backslash),
    ("firefox", "opaque (non-special) host read differently", "none", _non_special_host),
]


def _record(answer: dict) -> Record:
    if "api" in answer:
        a = answer["api"]
        return from_api(a["href"], a["protocol"], a["username"], a["password"], a["hostname"],
                        a["port"], a["pathname"], a["search"], a["hash"])
    if "error" in answer:
        return FAILURE
    return Record(False, crash=str(answer.get("crash") or answer)[:300])


def run_browser(name: str, pairs: list[tuple[str, str | None]]) -> tuple[list[Record], str, float]:
    started = time.monotonic()
    adapter = Adapter([sys.executable, f"{name}.py"], cwd=HERE, start_timeout=120)
    try:
        answers = adapter.ask([{"id": i, "input": s, "base": b} for i, (s, b) in enumerate(pairs)],
                              timeout=600)
    finally:
        adapter.close()
    return ([_record(answers[i]) for i in range(len(pairs))], adapter.hello["version"],
            time.monotonic() - started)


def cluster_of(name: str, right: Record, peer: Record, input: str, base: str | None) -> str:
    for predicate, reason in deviations.of(name):
        if predicate(right, peer, input, base):
            return "deviation: " + reason
    for oracle, title, _, predicate in FINDINGS:
        if oracle == name and predicate(right, peer, input, base):
            return "finding: " + title
    return "unexplained"


def _show(r: Record) -> str:
    return "crash" if r.crash else "failure" if r.failure else r.href


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generate", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--examples", type=int, default=2)
    parser.add_argument("--all", metavar="TEXT", help="every example of the clusters whose title has TEXT")
    args = parser.parse_args(argv)
    wpt = wpt_cases()
    pairs = wpt + list(generate(args.generate, seed=args.seed))
    engine = EngineOracle()
    right = [engine.parse(to_usv(s), None if b is None else to_usv(b)) for s, b in pairs]
    readings = {}
    for name in ("chromium", "firefox"):
        peers, version, seconds = run_browser(name, pairs)
        readings[name] = peers
        clusters: dict[str, list[int]] = collections.defaultdict(list)
        for i, ((s, b), r, p) in enumerate(zip(pairs, right, peers)):
            if classify.classify(s, r, p) is not None:
                clusters[cluster_of(name, r, p, s, b)].append(i)
        total = sum(map(len, clusters.values()))
        print(f"\n== {name} {version}: {len(pairs)} inputs ({len(wpt)} WPT) in {seconds:.1f} s, "
              f"{total} differ from the engine")
        for title, idx in sorted(clusters.items(), key=lambda kv: -len(kv[1])):
            n_wpt = sum(i < len(wpt) for i in idx)
            print(f"{len(idx):5} ({n_wpt} WPT)  {title}")
            shown = len(idx) if args.all and args.all in title else args.examples
            for i in sorted(idx, key=lambda i: (i >= len(wpt), len(pairs[i][0])))[:shown]:
                s, b = pairs[i]
                print(f"         {s!r}" + (f" against {b!r}" if b else "") +
                      f": engine {_show(right[i])!r}, {name} {_show(peers[i])!r}")

    print_three_way(pairs, right, readings["chromium"], readings["firefox"], args.examples)


def print_three_way(pairs, right, chromium, firefox, examples: int) -> None:
    """Each input by who agrees with whom: the Standard (engine), Chromium, Firefox."""
    groups: dict[str, list[int]] = collections.defaultdict(list)
    for i, (s, _) in enumerate(pairs):
        ec = classify.classify(s, right[i], chromium[i]) is None
        ef = classify.classify(s, right[i], firefox[i]) is None
        cf = classify.classify(s, chromium[i], firefox[i]) is None
        groups["all three agree" if ec and ef else
               "Chromium alone differs" if ef else
               "Firefox alone differs" if ec else
               "both browsers agree, the Standard differs" if cf else
               "all three differ"].append(i)
    print("\n== the Standard, Chromium, Firefox")
    for title, idx in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"{len(idx):6}  {title}")
        if title in ("all three agree",):
            continue
        for i in sorted(idx, key=lambda i: len(pairs[i][0]))[:examples]:
            s, b = pairs[i]
            print(f"         {s!r}" + (f" against {b!r}" if b else "") +
                  f": Standard {_show(right[i])!r}, Chromium {_show(chromium[i])!r}, "
                  f"Firefox {_show(firefox[i])!r}")


if __name__ == "__main__":
    main()
