"""The Mono adapter (``urlwb/oracles/mono``): ``System.Uri`` behind the oracle protocol, compiled
with mcs by ``make oracles``."""

from __future__ import annotations

import subprocess

import pytest

from . import adapter_checks as checks
from .adapter_checks import REJECTED

checks.require("mono", ["mono", "build/urlwb-mono.exe"])


@pytest.fixture(scope="module")
def mono():
    adapter = checks.start_command("mono", ["mono", "build/urlwb-mono.exe"])
    yield adapter
    adapter.close()


def test_hello_names_the_running_mono(mono):
    checks.check_hello(mono, "dotnet-system-uri", base=True)
    first_line = subprocess.run(["mono", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    # "Mono JIT compiler version 6.8.0.105 (Debian 6.8.0.105+dfsg-3.3+deb12u1 Sat Jun ...)"
    words = first_line.split("version ", 1)[1].split()
    debian = f" (Debian {words[2]})" if words[1:2] == ["(Debian"] else ""
    assert mono.hello["version"] == f"Mono {words[0]}{debian}"


def test_probe_hosts(mono):
    # Measured with Mono 6.8.0.105: ../shared/ORACLES.md's row.
    assert checks.probe_hosts(mono) == [
        REJECTED, "2.2.2.2", REJECTED, REJECTED, REJECTED, "[::ffff:127.0.0.1]", "127.0.0.1", REJECTED,
        "example.com"]


def test_components_and_what_uri_cannot_tell(mono):
    a = mono.parse("http://u:@[::1]:8080/a/./b/../c?#")
    assert (a["scheme"], a["username"], a["password"], a["host"], a["port"], a["path"], a["query"],
            a["fragment"], a["href"]) == ("http", "u", "", "[::1]", 8080, "/a/c", "", "", "http://u:@[::1]:8080/a/c?#")
    a = mono.parse("http://h")
    assert (a["username"], a["password"], a["port"], a["query"], a["fragment"]) == ("", None, None, None, None)
    assert mono.parse("http://h:80/")["port"] is None   # IsDefaultPort: a written default port too
    assert mono.parse("foo:bar")["port"] is None        # Port -1


def test_hostile_strings_survive(mono):
    answers = checks.hostile_answers(mono)
    lone, nul, controls, astral, long = answers.values()
    assert lone["path"] == "/%EF%BF%BDx"  # sent as a lone surrogate; Uri made it U+FFFD itself
    assert all("error" not in a for a in (nul, controls, astral))
    assert "too long" in long["error"]    # Uri takes at most 65,519 characters


def test_pipelining(mono):
    checks.check_pipelining(mono)


def test_base_resolution(mono):
    a = mono.parse("../c?q", "http://h/a/b")
    assert (a["host"], a["path"], a["query"], a["href"]) == ("h", "/c", "q", "http://h/c?q")
    assert mono.parse("//x/y", "http://h:8080/a")["href"] == "http://x/y"
    assert mono.parse("x", "relative")["error"].startswith("base: ")
