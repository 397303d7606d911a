"""The Rust adapters (``urlwb/oracles/rust``): ``rust-url`` (the url crate) and ``rust-idna``
(the idna crate) over the oracle protocol (``docs/oracle-protocol.md``), and the known
deviations of ``rust-url`` (its card in ``urlwb/oracles/rust/oracles.toml``) held to the running crate.

Skipped, with the reason, when the binary is not built (``make oracles``)."""

from __future__ import annotations

import re

import pytest

from urlwb.oracles import deviations, to_usv
from urlwb.oracles.whatwg import EngineOracle

from . import adapter_checks
from .adapter_driver import HOSTILE, PROBES

#: ORACLES.md's row for Rust url (measured there with 2.3.1), re-measured with url 2.5.8: the same.
PROBE_HOSTS = ["a", "2.2.2.2", "google.com", "evil.com", "example.com", "[::ffff:7f00:1]",
               "127.0.0.1", "example.com%0aalert(1)", "example.com"]


rust_url = adapter_checks.oracle_fixture("rust", "rust-url", "rust_url")
rust_idna = adapter_checks.oracle_fixture("rust", "rust-idna", "rust_idna")


def test_hello_states_the_locked_crate(rust_url):
    version = adapter_checks.assert_hello(rust_url, "rust-url", "whatwg", "url", True)
    lock = (adapter_checks.ORACLES / "rust" / "Cargo.lock").read_text(encoding="utf-8")
    locked = re.search(r'name = "url"\nversion = "([^"]+)"', lock).group(1)
    assert version.startswith(f"url {locked} (idna ")


@pytest.mark.parametrize("input, host", list(zip(PROBES, PROBE_HOSTS)), ids=PROBES)
def test_probe_hosts_as_oracles_md_reports(rust_url, input, host):
    assert rust_url.parse(input).get("host", "no host field") == host


def test_hostile_strings_come_back_as_answers(rust_url):
    surrogate, nul, controls, emoji, megabyte = adapter_checks.assert_hostile_answered(rust_url)
    # the lone surrogate escape, rewritten to U+FFFD before serde_json reads the line
    assert surrogate["path"] == "/%EF%BF%BDx"
    assert nul["path"] == "/%00b"
    assert controls["path"] == "/%01%1F%7F%C2%85"
    assert (emoji["path"], emoji["query"], emoji["fragment"]) == \
        ("/%F0%9F%98%80", "%E2%80%A8", "%E2%80%A9")
    assert megabyte["path"] == HOSTILE[-1][len("http://a"):]


def test_only_lone_surrogate_escapes_are_rewritten(rust_url):
    """A pair is one code point; ``\\\\udc80`` (an escaped backslash, then "udc80") is no escape;
    a lone high surrogate at the end of a string is lone too."""
    pair, escaped_backslash, high_at_end = adapter_checks.ask_urls(rust_url, [
        ("sc://a/\U0001F600", None), ("sc://a/\\udc80", None), ("sc://a/x\ud83d", None)])
    assert pair["path"] == "/%F0%9F%98%80"
    assert escaped_backslash["path"] == "/\\udc80"
    assert high_at_end["path"] == "/x%EF%BF%BD"


def test_pipelined_requests_matched_by_id(rust_url):
    adapter_checks.assert_pipelined(rust_url)


def test_base_resolution(rust_url):
    bad_base = adapter_checks.assert_base_resolution(rust_url)
    assert bad_base["not_applicable"] == "the base does not parse: invalid IPv6 address"


def test_quirks_are_normalized_once(rust_url):
    """The two places where the crate's getters differ from the Standard's URL record, normalized
    in ``components`` (src/main.rs), and the engine agreeing on each."""
    inputs = ["http://u@h/", "http://u:@h/", "file:///x", "sc:///x", "sc:/x", "http://h/?#"]
    answers = adapter_checks.ask_urls(rust_url, [(s, None) for s in inputs])
    assert [(a["username"], a["password"]) for a in answers[:2]] == [("u", ""), ("u", "")]
    assert [a["host"] for a in answers[2:5]] == ["", "", None]
    assert (answers[5]["query"], answers[5]["fragment"]) == ("", "")
    engine = EngineOracle()
    for s, a in zip(inputs, answers):
        assert adapter_checks.record(a) == engine.parse(s), s


@pytest.mark.parametrize("domain, ascii_form", [
    ("bücher.example", "xn--bcher-kva.example"),
    ("☕.example", "xn--53h.example"),
    ("BÜCHER.example", "xn--bcher-kva.example"),
    ("a-.example", "a-.example"),    # CheckHyphens=false, as the Standard's domain to ASCII
    ("xn--a.example", None),         # not valid Punycode
    ("a\u200db.example", None),      # CheckJoiners: a ZWJ outside a joining context
])
def test_idna_domain_to_ascii(rust_idna, domain, ascii_form):
    adapter_checks.assert_to_ascii(rust_idna, domain, ascii_form)


# --- known deviations ----------------------------------------------------------------------------

#: (parser, predicate, reason) of each deviation rust-url's card lists, in its order
DEVIATIONS = [("rust-url", predicate, reason) for predicate, reason in deviations.of("rust-url")]

#: One witness per deviation, each a WPT case (the first seen in the side-by-side run), in the
#: order of DEVIATIONS.
WITNESSES = [
    ("https://xn--/", None),
    ("///test", "http://example.org/"),
    ("file://example.net/C:/", None),
    ("file:////foo", None),
    ("file:///w|/m", None),
    ("\\\\a", "foo://foo/a"),
    ("..", "abc://x/y/z/C:/"),
]

#: Differences the crate shows that have no documented cause: findings, which no deviation may
#: swallow. A non-special URL's port ended by "\" (the port state ends on "\" only in a special
#: URL; the Standard fails, the crate starts the path).
FINDINGS = [("sc://h:1\\x", None), ("stun://example.com:8080\\pathname?search#hash", None)]


def _matching(pairs, answers):
    engine = EngineOracle()
    for (s, base), answer in zip(pairs, answers):
        right = engine.parse(to_usv(s), base)
        peer = adapter_checks.record(answer)
        assert right != peer, f"{s!r} against {base!r}: the crate now agrees with the engine"
        yield [reason for _, predicate, reason in DEVIATIONS if predicate(right, peer, s, base)]


def test_each_deviation_still_happens_and_matches_only_its_witness(rust_url):
    assert len(WITNESSES) == len(DEVIATIONS)
    answers = adapter_checks.ask_urls(rust_url, WITNESSES)
    for (_, _, reason), matched in zip(DEVIATIONS, _matching(WITNESSES, answers)):
        assert matched == [reason]


def test_findings_are_not_taken_for_deviations(rust_url):
    answers = adapter_checks.ask_urls(rust_url, FINDINGS)
    assert all(matched == [] for matched in _matching(FINDINGS, answers))
