"""The libcurl adapter (``urlwb/oracles/curl``): libcurl's URL API behind the oracle protocol,
through the small C program ``make oracles`` builds."""

from __future__ import annotations

import ctypes
import ctypes.util

import pytest

from . import adapter_checks as checks
from .adapter_checks import REJECTED

checks.require("curl", ["build/urlwb-curl"])


@pytest.fixture(scope="module")
def curl():
    adapter = checks.start_command("curl", ["build/urlwb-curl"])
    yield adapter
    adapter.close()


def test_hello_names_the_linked_libcurl(curl):
    checks.check_hello(curl, "libcurl", base=True)
    lib = ctypes.util.find_library("curl")
    if lib is None:
        pytest.skip("no libcurl shared library found to compare the version with")
    version = ctypes.CDLL(lib).curl_version
    version.restype = ctypes.c_char_p
    assert curl.hello["version"] == version().decode().split()[0].replace("/", " ")


def test_probe_hosts(curl):
    # Measured with libcurl 7.88.1: ../shared/ORACLES.md's row. curl normalizes 0x7f.1 as an IPv4
    # address (probe 7) and reads "a\b" as the username (probe 1).
    assert checks.probe_hosts(curl) == [
        "evil.com", REJECTED, REJECTED, REJECTED, REJECTED, "[::ffff:127.0.0.1]", "127.0.0.1",
        REJECTED, "EXAMPLE.COM"]


def test_components(curl):
    a = curl.parse("http://u:p@[::1]:0080/a/./b/../c?q#f")
    assert (a["scheme"], a["username"], a["password"], a["host"], a["port"], a["path"], a["query"],
            a["fragment"], a["href"]) == ("http", "u", "p", "[::1]", 80, "/a/c", "q", "f",
                                          "http://u:p@[::1]:80/a/c?q#f")
    a = curl.parse("http://h")
    assert (a["username"], a["password"], a["port"], a["path"], a["query"], a["fragment"]) == (
        None, None, None, "/", None, None)
    assert curl.parse("foo://h/")["scheme"] == "foo"   # CURLU_NON_SUPPORT_SCHEME
    assert "error" in curl.parse("h/no-scheme")         # no CURLU_GUESS_SCHEME


def test_hostile_strings_survive(curl):
    answers = checks.hostile_answers(curl)
    lone, nul, controls, astral, long = answers.values()
    assert lone["path"] == "/\ufffdx"
    assert "not_applicable" in nul                      # a C string cannot hold the NUL
    assert "error" in controls
    assert astral["path"] == "/\U0001F600"
    assert long["path"] == "/" + "x" * 1_000_000


def test_pipelining(curl):
    checks.check_pipelining(curl)


def test_base_resolution(curl):
    a = curl.parse("../c?q", "http://h/a/b")
    assert (a["host"], a["path"], a["query"], a["href"]) == ("h", "/c", "q", "http://h/c?q")
    assert curl.parse("//x/y", "http://h:8080/a")["href"] == "http://x/y"
    assert "not_applicable" in curl.parse("x", "http://h/\x00")
