"""The PHP adapter (``urlwb/oracles/php``): PHP's ``parse_url`` behind the oracle protocol."""

from __future__ import annotations

import subprocess

import pytest

from . import adapter_checks as checks

checks.require("php", ["php"])


@pytest.fixture(scope="module")
def php():
    adapter = checks.start_command("php", ["php", "adapter.php"])
    yield adapter
    adapter.close()


def test_hello_names_the_running_php(php):
    checks.check_hello(php, "php-parse-url", base=False)
    running = subprocess.run(["php", "-r", "echo PHP_VERSION;"], capture_output=True, text=True).stdout
    assert php.hello["version"] == f"PHP {running}"


def test_probe_hosts(php):
    # Measured with PHP 8.2.36; the same as ../shared/ORACLES.md. Probe 5's leading spaces make
    # parse_url read the whole string as a path.
    assert checks.probe_hosts(php) == [
        "evil.com", "2.2.2.2", "google.com", None, None, "[::ffff:127.0.0.1]", "0x7f.1",
        "example.com%0aalert(1)", "EXAMPLE.COM"]


def test_components_and_absent_parts(php):
    a = php.parse("http://u:@[::1]:0080/a?#")
    assert (a["scheme"], a["username"], a["password"], a["host"], a["port"], a["path"], a["query"],
            a["fragment"], a["href"]) == ("http", "u", "", "[::1]", 80, "/a", "", "", None)
    a = php.parse("http://h")
    assert (a["username"], a["port"], a["path"], a["query"], a["fragment"]) == (None,) * 5
    assert "error" in php.parse("http://h:99999/")


def test_hostile_strings_survive(php):
    answers = checks.hostile_answers(php)
    lone, nul, controls, astral, long = answers.values()
    assert lone["path"] == "/\ufffdx"          # the lone surrogate became U+FFFD, once
    assert nul["path"] == "/_b"                # parse_url's own control-character replacement
    assert controls["path"] == "/___\u0085"
    assert (astral["path"], astral["query"], astral["fragment"]) == ("/\U0001F600", "\u2028", "\u2029")
    assert long["path"] == "/" + "x" * 1_000_000


def test_pipelining(php):
    checks.check_pipelining(php)


def test_a_base_is_not_applicable(php):
    assert "not_applicable" in php.ask([{"id": 7, "input": "../c", "base": "http://h/a/b"}])[7]
