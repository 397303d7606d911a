"""The Java oracles (``urlwb/oracles/java``) through the oracle protocol (``docs/oracle-protocol.md``),
each started with its manifest's command: the hello line, ORACLES.md's nine probes, the protocol's
hostile strings, pipelining, a base per oracle, Guava's public suffixes and the network guard.

Skipped, with one line, where the jar is not built (``mvn -q -B package`` in that folder, which
``make oracles`` runs) or ``java`` is missing."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

import engine
from tests.oracles.adapter_driver import HOSTILE, PROBES, Adapter

JAVA_DIR = Path(__file__).resolve().parents[2] / "urlwb" / "oracles" / "java"
JAR = JAVA_DIR / "build" / "urlwb-java-oracles.jar"
MANIFEST = tomllib.loads((JAVA_DIR / "oracles.toml").read_text(encoding="utf-8"))
COMMANDS = {o["name"]: o["command"] for o in MANIFEST["oracle"]}
URL_ORACLES = [o["name"] for o in MANIFEST["oracle"] if o["kind"] == "url"]

if shutil.which("java") is None or not JAR.exists():
    pytest.skip("Java oracles not built (java missing, or no urlwb/oracles/java/build: run make oracles)",
                allow_module_level=True)

ERR, NONE = "✗", "∅"

#: Host read in each of the nine probes (adapter_driver.PROBES), ✗ rejected, ∅ no host.
PROBE_HOSTS = {
    # As ORACLES.md reports them for Java 17, re-measured here with 17.0.15 and found the same.
    # (java.net.URL's third: its handler finds no host in an authority with two '@' and getHost()
    # says "", which the adapter sends as null, see JavaUrl.java.)
    "java-uri": [ERR, ERR, NONE, ERR, ERR, "[::ffff:127.0.0.1]", NONE, NONE, "EXAMPLE.COM"],
    "java-url": ["evil.com", "2.2.2.2", NONE, NONE, "ex%61mple.com", "[::ffff:127.0.0.1]", "0x7f.1", ERR,
                 "EXAMPLE.COM"],
    # Measured. OkHttp parses the authority the way the URL Standard does for http(s) (a '\' is a
    # '/', the last '@' ends the userinfo, leading spaces trimmed, the host percent-decoded and
    # lowercased), so it agrees with the engine on the first five; it turns an IPv4-mapped IPv6
    # address into dotted IPv4, does not read IPv4 number shorthands (0x7f.1 stays), and takes only
    # http and https (javascript: rejected).
    "okhttp": ["a", "2.2.2.2", "google.com", "evil.com", "example.com", "127.0.0.1", "0x7f.1", ERR,
               "example.com"],
    # Measured. URIBuilder parses with java.net.URI, so java-uri's rejections carry over (1, 2, 4,
    # 5); where URI found only a registry-based authority (3, 7, 8) the builder reads the host
    # itself, percent-decoded: 0x7f.1, and a raw newline in 8; 3 then fails its own check that an
    # http URI has a host.
    "apache-httpclient5": [ERR, ERR, ERR, ERR, ERR, "[::ffff:127.0.0.1]", "0x7f.1", "example.com\nalert(1)",
                           "EXAMPLE.COM"],
    # Measured. Spring's RFC parser refuses '\', ' ' and a second '@' in an authority ("Bad
    # authority"), and the IPv4-embedded IPv6 literal too; it keeps the leading spaces as part of
    # the scheme in 5 ("  http") and reads 4 as a path ("/\evil.com"), hosts left as written.
    "spring-uricomponents": [ERR, ERR, ERR, NONE, "ex%61mple.com", ERR, "0x7f.1", "example.com%0aalert(1)",
                             "EXAMPLE.COM"],
    # Measured. Spring's port of the Standard's parser reads every host as the WHATWG row of
    # ORACLES.md (Chromium, Rust url, Node URL) and the engine do.
    "spring-uricomponents-whatwg": ["a", "2.2.2.2", "google.com", "evil.com", "example.com", "[::ffff:7f00:1]",
                                    "127.0.0.1", "example.com%0aalert(1)", "example.com"],
}


@pytest.fixture(scope="module")
def adapters():
    """One running adapter per oracle, started on first use, closed at the module's end."""
    running: dict[str, Adapter] = {}

    def get(name: str) -> Adapter:
        if name not in running:
            running[name] = Adapter(COMMANDS[name], cwd=JAVA_DIR)
        return running[name]

    yield get
    for a in running.values():
        a.close()


def _host(answer: dict) -> str:
    if "error" in answer:
        return ERR
    assert "scheme" in answer, answer
    return NONE if answer["host"] is None else answer["host"]


def test_manifest_names_every_oracle_the_jar_serves():
    assert set(COMMANDS) == set(PROBE_HOSTS) | {"guava-idn"}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_hello_names_the_oracle_and_the_version_read_from_its_jar(adapters, name):
    hello = adapters(name).hello
    assert hello["hello"] == "urlwb-oracle/1"
    assert hello["name"] == name and hello["language"] == "Java" and hello["family"] == "other"
    if name in ("java-uri", "java-url"):
        assert re.fullmatch(r"Java \d+(\.\d+)*\+\S+", hello["version"]), hello["version"]
        return
    # Every library version in the hello line names a jar that the build put in build/lib.
    versions = re.findall(r"([a-z0-9-]+) (\d[^\s,]*)", hello["version"])
    assert versions, hello["version"]
    for artifact, version in versions:
        assert (JAVA_DIR / "build" / "lib" / f"{artifact}-{version}.jar").exists(), (artifact, version)


@pytest.mark.parametrize("name", URL_ORACLES)
def test_probe_hosts(adapters, name):
    answers = adapters(name).ask([{"id": i, "input": p, "base": None} for i, p in enumerate(PROBES)])
    assert [_host(answers[i]) for i in range(len(PROBES))] == PROBE_HOSTS[name]


def test_the_whatwg_row_is_the_engines():
    """The expectation above for Spring's WHATWG parser is the engine's own reading."""
    def host(p):
        try:
            u = engine.URL(p)
        except engine.Failure:
            return ERR
        return NONE if u.host is None else u.hostname
    assert [host(p) for p in PROBES] == PROBE_HOSTS["spring-uricomponents-whatwg"]


@pytest.mark.parametrize("name", URL_ORACLES)
def test_hostile_strings_come_back_as_answers(adapters, name):
    answers = adapters(name).ask([{"id": i, "input": s, "base": None} for i, s in enumerate(HOSTILE)])
    assert sorted(answers) == list(range(len(HOSTILE)))
    for a in answers.values():
        assert {"scheme", "error", "crash", "not_applicable"} & set(a), a
    surrogate, nul, big = answers[0], answers[1], answers[4]
    # A Java string holds the lone surrogate: the parser gets it as it is, and it comes back
    # intact (escaped) where the parser keeps it; OkHttp's UTF-8 encoder makes it '?' (%3F).
    assert surrogate["path"] == ("/%3Fx" if name == "okhttp" else "/\udc80x")
    if name in ("java-url", "spring-uricomponents", "spring-uricomponents-whatwg"):
        assert nul["path"] == "/\x00b"  # these keep a NUL as it is
    assert big["path"] == "/" + "x" * 1_000_000


@pytest.mark.parametrize("name", URL_ORACLES)
def test_pipelined_requests_are_all_answered_by_id(adapters, name):
    n = 3000
    answers = adapters(name).ask(
        [{"id": 10_000 + i, "input": f"http://h{i}.example/p?{i}", "base": None} for i in range(n)])
    assert sorted(answers) == [10_000 + i for i in range(n)]
    assert all(answers[10_000 + i]["host"] == f"h{i}.example" for i in range(n))
    assert all(answers[10_000 + i]["query"] == str(i) for i in range(n))


#: A base per oracle: the same relative reference, and what each resolver makes of the RFC's
#: corner the JDK gets wrong (an empty reference, JDK bug 4708535, which Apache works around).
BASE = "http://h/a/b?q#f"
BASE_CASES = {
    "java-uri": {"../x?y#z": "http://h/x?y#z", "//evil.com/x": "http://evil.com/x", "": "http://h/a/"},
    "java-url": {"../x?y#z": "http://h/x?y#z", "//evil.com/x": "http://evil.com/x", "": "http://h/a/b?q#f"},
    "okhttp": {"../x?y#z": "http://h/x?y#z", "//evil.com/x": "http://evil.com/x", "": "http://h/a/b?q"},
    "apache-httpclient5": {"../x?y#z": "http://h/x?y#z", "//evil.com/x": "http://evil.com/x", "": "http://h/a/b?q"},
}


@pytest.mark.parametrize("name", URL_ORACLES)
def test_base_resolution(adapters, name):
    adapter = adapters(name)
    if not adapter.hello["base"]:
        assert name.startswith("spring-")  # UriComponentsBuilder resolves no base
        assert "not_applicable" in adapter.parse("../x", BASE)
        return
    for ref, href in BASE_CASES[name].items():
        assert adapter.parse(ref, BASE)["href"] == href, ref
        if ref != "":  # the engine agrees on the two ordinary ones
            assert engine.URL(ref, BASE).href == href


def test_guava_public_suffix_and_registrable_domain(adapters):
    guava = adapters("guava-idn")
    assert guava.hello["kind"] == "host"
    assert guava.hello["questions"] == ["public-suffix", "registrable-domain"]
    cases = {
        # (question, domain): Guava's answer
        ("public-suffix", "www.example.co.uk"): "co.uk",
        ("registrable-domain", "www.example.co.uk"): "example.co.uk",
        # blogspot.com is in the list's PRIVATE section: a public suffix for Guava as for the
        # Standard's algorithm (registrySuffix() would say com)
        ("public-suffix", "foo.blogspot.com"): "blogspot.com",
        ("registrable-domain", "foo.blogspot.com"): "foo.blogspot.com",
        ("registrable-domain", "co.uk"): None,  # a public suffix has no registrable domain
        # Guava drops the trailing dot (the Standard keeps it: "com.")
        ("public-suffix", "example.com."): "com",
        # no implicit "*" rule: a suffix the list does not have is no public suffix for Guava
        ("public-suffix", "example.notatld"): None,
    }
    questions = list(cases)
    answers = guava.ask([{"id": i, "question": q, "input": d} for i, (q, d) in enumerate(questions)])
    assert {k: answers[i].get("value", answers[i]) for i, k in enumerate(questions)} == cases
    # The engine (the PSL algorithm of https://url.spec.whatwg.org/#host-public-suffix) agrees on
    # the first five; on the last two it keeps the dot and applies the "*" rule.
    for q, d in questions[:5]:
        mine = engine.public_suffix(d) if q == "public-suffix" else engine.registrable_domain(d)
        assert mine == cases[q, d], (q, d)
    assert engine.public_suffix("example.com.") == "com."
    assert engine.public_suffix("example.notatld") == "notatld"
    rejected = guava.ask([{"id": 0, "question": "public-suffix", "input": "a..b"}])[0]
    assert "error" in rejected


def test_network_guard_catches_url_hashcode():
    """java.net.URL.hashCode() resolves its host; the adapters' guard must see that lookup."""
    java_opts = [a for a in COMMANDS["java-url"][1:] if a.startswith("-D")]
    out = subprocess.run(["java", *java_opts, "-cp", str(JAR), "urlwb.oracles.NetworkGuard"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("blocked: urlwb-guard-check.invalid")
