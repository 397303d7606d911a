"""The Go adapters (``urlwb/oracles/go``): ``go-net-url`` (net/url) and ``go-idna``
(golang.org/x/net/idna) over the oracle protocol (``docs/oracle-protocol.md``).

Skipped, with the reason, when the binary is not built (``make oracles``)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from . import adapter_checks
from .adapter_driver import HOSTILE, PROBES

REJECT = object()

#: ORACLES.md's row for Go net/url (measured there with Go 1.19), re-measured with Go 1.26.8:
#: the same hosts, and the IPv6 brackets Hostname() strips are put back by the adapter.
PROBE_HOSTS = [REJECT, REJECT, "google.com", None, REJECT, "[::ffff:127.0.0.1]", "0x7f.1", REJECT,
               "EXAMPLE.COM"]


net_url = adapter_checks.oracle_fixture("go", "go-net-url", "net_url")
go_idna = adapter_checks.oracle_fixture("go", "go-idna", "go_idna")


def test_hello_states_the_go_release(net_url):
    version = adapter_checks.assert_hello(net_url, "go-net-url", "other", "url", True)
    if shutil.which("go"):
        goversion = subprocess.run(["go", "env", "GOVERSION"], capture_output=True, text=True).stdout
        assert version == goversion.strip()


@pytest.mark.parametrize("input, host", list(zip(PROBES, PROBE_HOSTS)), ids=PROBES)
def test_probe_hosts_as_oracles_md_reports(net_url, input, host):
    answer = net_url.parse(input)
    if host is REJECT:
        assert "error" in answer, answer
    else:
        assert answer.get("host", "no host field") == host, answer


def test_hostile_strings_come_back_as_answers(net_url):
    surrogate, nul, controls, emoji, megabyte = adapter_checks.assert_hostile_answered(net_url)
    # encoding/json reads the lone surrogate escape as U+FFFD: the USV conversion
    assert surrogate["path"] == "/%EF%BF%BDx"
    assert "invalid control character" in nul["error"]
    assert "invalid control character" in controls["error"]
    assert emoji["path"] == "/%F0%9F%98%80"
    assert megabyte["path"] == HOSTILE[-1][len("http://a"):]


def test_pipelined_requests_matched_by_id(net_url):
    adapter_checks.assert_pipelined(net_url)


def test_base_resolution(net_url):
    bad_base = adapter_checks.assert_base_resolution(net_url)
    assert "missing ']'" in bad_base["not_applicable"]


def test_quirks_are_normalized_once(net_url):
    """What net/url cannot say is decided in ``components`` (neturl.go); each case here is one
    rule there."""
    answers = dict(zip(
        ["file", "no-authority", "ipv6", "force-query", "no-query", "user", "user-empty-password",
         "escaped", "opaque", "empty-fragment", "huge-port"],
        adapter_checks.ask_urls(net_url, [(s, None) for s in [
            "file:///etc/x", "http:/x", "http://[::1]:8080/", "http://h/?", "http://h/",
            "http://u%40v@h/", "http://u:@h/", "http://h/a%2Fb%ff", "mailto:a@b", "http://h/#",
            "http://h:99999999999999999999/"]])))
    assert answers["file"]["host"] == ""                # an authority with an empty host
    assert answers["no-authority"]["host"] is None      # Parse sets OmitHost
    assert (answers["ipv6"]["host"], answers["ipv6"]["port"]) == ("[::1]", 8080)
    assert answers["force-query"]["query"] == "" and answers["no-query"]["query"] is None
    assert (answers["user"]["username"], answers["user"]["password"]) == ("u@v", None)  # decoded
    assert answers["user-empty-password"]["password"] == ""
    assert answers["escaped"]["path"] == "/a%2Fb%ff"    # EscapedPath keeps %2F apart from /
    assert answers["escaped"]["raw"]["Path"] == "/a/b\ufffd"
    assert (answers["opaque"]["path"], answers["opaque"]["host"]) == ("a@b", None)
    assert answers["empty-fragment"]["fragment"] is None  # Go stores no empty fragment
    assert answers["huge-port"]["port"] == "99999999999999999999"


@pytest.mark.parametrize("domain, ascii_form", [
    ("bücher.example", "xn--bcher-kva.example"),
    ("☕.example", "xn--53h.example"),
    ("BÜCHER.example", "xn--bcher-kva.example"),
    ("xn--a.example", None),         # not valid Punycode
    ("a-.example", None),            # Lookup checks hyphens (the Standard's domain to ASCII does not)
    ("a\u200db.example", None),      # CheckJoiners: a ZWJ outside a joining context
])
def test_idna_lookup_to_ascii(go_idna, domain, ascii_form):
    adapter_checks.assert_to_ascii(go_idna, domain, ascii_form)


def test_idna_hello_and_other_questions(go_idna):
    assert go_idna.hello["questions"] == ["to-ascii"]
    assert go_idna.hello["version"].startswith("golang.org/x/net v0.62.0 (Unicode ")
    answer = go_idna.ask([{"id": 5, "question": "public-suffix", "input": "example.com"}])[5]
    assert "not_applicable" in answer
