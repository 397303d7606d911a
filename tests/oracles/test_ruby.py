"""The Ruby adapter (``urlwb/oracles/ruby``): ``URI::RFC3986_Parser`` and ``URI::RFC2396_Parser``
behind the oracle protocol, one process each."""

from __future__ import annotations

import subprocess

import pytest

from . import adapter_checks as checks
from .adapter_checks import REJECTED

checks.require("ruby", ["ruby"])


@pytest.fixture(scope="module", params=["rfc3986", "rfc2396"])
def ruby(request):
    adapter = checks.start_command("ruby", ["ruby", "adapter.rb", request.param])
    adapter.which = request.param
    yield adapter
    adapter.close()


def test_hello_names_the_running_uri(ruby):
    checks.check_hello(ruby, f"ruby-uri-{ruby.which}", base=True)
    running = subprocess.run(["ruby", "-ruri", "-e", "print URI::VERSION, ' ', RUBY_VERSION"],
                             capture_output=True, text=True).stdout.split()
    assert ruby.hello["version"] == f"uri {running[0]} (Ruby {running[1]})"


#: Measured with uri 0.11.0 on Ruby 3.1.2. The RFC 3986 row is ../shared/ORACLES.md's; the
#: RFC 2396 parser strips the leading spaces of probe 5 and rejects probes 3 and 8 ("does not
#: accept registry part").
PROBE_HOSTS = {
    "rfc3986": [REJECTED] * 5 + ["[::ffff:127.0.0.1]", "0x7f.1", "example.com%0aalert(1)", "EXAMPLE.COM"],
    "rfc2396": [REJECTED, REJECTED, REJECTED, REJECTED, "ex%61mple.com", "[::ffff:127.0.0.1]", "0x7f.1",
                REJECTED, "EXAMPLE.COM"],
}


def test_probe_hosts(ruby):
    assert checks.probe_hosts(ruby) == PROBE_HOSTS[ruby.which]


def test_default_port_only_when_written(ruby):
    ports = [a["port"] for a in checks.ask_all(ruby, ["http://h/", "http://h:/", "http://h:80/",
                                                      "http://h:0080/", "ldap://h/", "http://h:81/"])]
    assert ports == [None, None, 80, 80, None, 81]


def test_components(ruby):
    a = ruby.parse("http://u:@[::1]/a?#")
    assert (a["scheme"], a["username"], a["password"], a["host"], a["port"], a["path"], a["query"],
            a["fragment"], a["href"]) == ("http", "u", "", "[::1]", None, "/a", "", "", "http://u:@[::1]/a?#")
    assert ruby.parse("mailto:x@y")["path"] == "x@y"  # the opaque part
    # URI::MailTo's parts are tagged US-ASCII; the adapter once crashed scrubbing them.
    [a] = checks.ask_all(ruby, ["mailto:/a?#@evil.com"])
    assert (a["path"], a["query"], a["fragment"]) == ("/a", "", "@evil.com")


def test_hostile_strings_survive(ruby):
    answers = checks.hostile_answers(ruby)
    lone, nul, controls, astral, long = answers.values()
    # Both parsers take ASCII only: the lone surrogate arrived as U+FFFD (in the message).
    assert "error" in lone and ("\ufffd" in lone["error"] or "\\uFFFD" in lone["error"])
    assert all("error" in a for a in (nul, controls, astral))
    assert long["path"] == "/" + "x" * 1_000_000


def test_pipelining(ruby):
    checks.check_pipelining(ruby)


def test_base_resolution(ruby):
    a = ruby.parse("../c?q", "http://h/a/b")
    assert (a["host"], a["path"], a["query"], a["href"]) == ("h", "/c", "q", "http://h/c?q")
    # Generic#merge keeps the base's port when the input names only a new host.
    assert ruby.parse("//x/y", "http://h:8080/a")["href"] == "http://x:8080/y"
    assert ruby.parse("//x/y", "http://h:8080/a")["port"] == 8080
    assert ruby.parse("//x/y", "http://h/a")["port"] is None
    assert "error" in ruby.parse("x", "relative")  # "both URI are relative"
