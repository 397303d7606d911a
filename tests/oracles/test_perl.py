"""The Perl adapter (``urlwb/oracles/perl``): Perl's ``URI`` (liburi-perl) behind the oracle
protocol."""

from __future__ import annotations

import subprocess

import pytest

from . import adapter_checks as checks

checks.require("perl", ["perl"], check=["perl", "-MURI", "-e1"])


@pytest.fixture(scope="module")
def perl():
    adapter = checks.start_command("perl", ["perl", "adapter.pl"])
    yield adapter
    adapter.close()


def test_hello_names_the_running_uri(perl):
    checks.check_hello(perl, "perl-uri", base=True)
    running = subprocess.run(["perl", "-MURI", "-e", r'printf "URI %s (Perl %vd)", $URI::VERSION, $^V'],
                             capture_output=True, text=True)
    assert perl.hello["version"] == running.stdout


def test_probe_hosts(perl):
    # Measured with URI 5.17: ../shared/ORACLES.md's row, with the IPv6 brackets the adapter puts
    # back. host() percent-decodes (probe 5); javascript: has no host in URI (probe 8).
    assert checks.probe_hosts(perl) == [
        "evil.com", "2.2.2.2", "google.com", None, "example.com", "[::ffff:127.0.0.1]", "0x7f.1",
        None, "EXAMPLE.COM"]


def test_default_port_only_when_written(perl):
    ports = [a["port"] for a in checks.ask_all(perl, ["http://h/", "http://h:/", "http://h:80/",
                                                      "http://h:0080/", "ftp://h/", "http://h:81/"])]
    assert ports == [None, None, 80, 80, None, 81]


def test_never_rejects(perl):
    answers = checks.ask_all(perl, ["", "::", "http://[", "%zz", "a b"])
    assert not any("error" in a for a in answers)


def test_schemes_without_a_query(perl):
    # URI::data and URI::urn have no query method: the path runs to the fragment.
    data, urn = checks.ask_all(perl, ["data:text/plain,a?b#c", "urn:x:y?z"])
    assert (data["path"], data["query"], data["fragment"]) == ("text/plain,a?b", None, "c")
    assert (urn["path"], urn["query"], urn["host"]) == ("x:y?z", None, None)


def test_hostile_strings_survive(perl):
    answers = checks.hostile_answers(perl)
    lone, nul, controls, astral, long = answers.values()
    assert lone["path"] == "/%EF%BF%BDx"       # U+FFFD, percent-encoded by URI
    assert nul["path"] == "/%00b"
    assert controls["path"] == "/%01%1F%7F"    # URI->new strips trailing \s, U+0085 (NEL) included
    assert (astral["path"], astral["query"], astral["fragment"]) == ("/%F0%9F%98%80", "%E2%80%A8", "")  # U+2029 too
    assert long["path"] == "/" + "x" * 1_000_000


def test_decoded_octets_that_are_not_utf8(perl):
    a = perl.parse("http://%ff%41:p@h/")
    assert (a["username"], a["password"]) == ("\ufffdA", "p")


def test_pipelining(perl):
    checks.check_pipelining(perl)


def test_base_resolution(perl):
    a = perl.parse("../c?q", "http://h/a/b")
    assert (a["host"], a["path"], a["query"], a["href"]) == ("h", "/c", "q", "http://h/c?q")
    assert perl.parse("//x/y", "http://h:8080/a")["href"] == "http://x/y"
