"""``urlwb ssrf``'s observation (urlwb/ssrf/observe/): real HTTP clients fetch inside a network
namespace the run makes, and the listeners say where they connected.

Each check with what it kills:

- every listener and client is inside the sealed namespace (its netns inode differs from this
  process's, and none of the listener's listening sockets is in this namespace's tables); the
  same check run on a listener on the host's network (what a run that forgot the namespace
  would do) fails;
- a planted client that connects where its parser's host does not say: observation catches
  it (a finding naming the client and what it reached), the model does not; its honest twin
  gives no finding;
- the resolver model is held to the observations of real clients on fixed spellings: every
  place they part is listed with its reason (:data:`EXPECTED`), and the test fails on a new
  disagreement or on a listed one that starts agreeing; a planted model that claims a connection
  no client made fails it;
- a client that dies or hangs on an input is a finding about it, and the run goes on;
- ``urlwb ssrf --inputs FILE`` writes observed.jsonl, findings.jsonl and the report.
"""

from __future__ import annotations

import json
import os
import pathlib
import socket
import sys

import pytest

from urlwb import cli, oracles
from urlwb.oracles import manifests
from urlwb.ssrf import fetchers, policy, resolvers
from urlwb.ssrf.observe import clients, findings, model, network, observe

HERE = pathlib.Path(__file__).resolve().parent
WHY = network.available()
pytestmark = pytest.mark.skipif(WHY is not None, reason=f"no network namespace here: {WHY}")


def _planted(mode: str) -> manifests.Spec:
    return manifests.Spec(name=f"planted-{mode}", command=[sys.executable, str(HERE / "planted_client.py"), mode],
                          cwd=HERE, kind="client")


def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_every_listener_and_client_is_inside_the_sealed_namespace():
    net = network.Network([80, 8080])
    try:
        assert net.sealed and net.note is None
        assert os.stat("/proc/self/ns/net").st_ino != net.inode
        assert os.stat(f"/proc/{net.proc.pid}/ns/net").st_ino == net.inode
        assert net.listeners_outside() == []
        c = clients.Client(_planted("honest"), net.netns)
        try:
            assert os.stat(f"/proc/{c.proc.pid}/ns/net").st_ino == net.inode
            assert c.fetch("http://10.0.0.1:8080/")["status"] == 200
            assert [(x["local"], x["port"]) for x in net.mark()] == [("10.0.0.1", 8080)]
            assert c.fetch("http://169.254.169.254/")["ok"]
            assert [x["local"] for x in net.mark()] == ["169.254.169.254"]
            assert not c.fetch("http://example.com/")["ok"]  # no DNS
            assert net.mark() == []
        finally:
            c.close()
    finally:
        net.close()
    # the check, on a listener of the host's network: it must fail
    leaky = network.Network([_free_port()], sealed=False)
    try:
        assert leaky.listeners_outside(), "the namespace check passed a listener on the host's network"
    finally:
        leaky.close()


def test_without_a_namespace_only_what_the_model_reads_as_loopback_is_fetched(monkeypatch):
    """The fallback where no namespace can be made: the clients run on the host's network, so an
    input is fetched only when the model says the client stays on loopback (a user's
    169.254.169.254 is real there); the run says so in one line. Planted: namespaces refused."""
    from urlwb.ssrf.observe import run
    port = _free_port()
    inputs = [f"http://127.0.0.1:{port}/", f"http://10.0.0.1:{port}/", f"http://0x7f.1:{port}/",
              f"http://evil.example:{port}/"]
    loaded, _ = oracles.load(["urllib"])
    try:
        records = loaded["urllib"].parse_many([(s, None) for s in inputs])
    finally:
        oracles.close_all(loaded)
    gate = run.loopback_gate({"urllib": {s: fetchers.destination("urllib", r) for s, r in zip(inputs, records)}})
    assert gate("python-urllib", inputs[0]) is None
    assert "reads it as 10.0.0.1" in gate("python-urllib", inputs[1])
    assert gate("python-urllib", inputs[2]) is None      # getaddrinfo reads 0x7f.1 as 127.0.0.1
    assert "no address" in gate("python-urllib", inputs[3])   # a name: DNS is not cut off there
    assert "no model" in gate("httpx", inputs[0])
    # planted: namespaces refused, to the observer and to the sandbox its clients start in (which
    # then runs them on the host's network, as where the kernel refuses CLONE_NEWNET)
    from urlwb import sandbox
    monkeypatch.setattr(network, "available", lambda: "planted: namespaces refused")
    monkeypatch.setitem(sandbox._machine(), "namespace", "planted: namespaces refused")
    honest = {"planted-honest": _planted("honest")}   # dials what urlsplit reads, as python-urllib
    as_urllib = lambda client, input: gate("python-urllib", input)   # noqa: E731
    lines: list[str] = []
    obs = observe.observe(inputs[:2], specs=honest, gate=as_urllib, progress=lines.append)
    seen = {s.input: s for s in obs.seen}
    assert not obs.sealed and lines == [network.unavailable_line("planted: namespaces refused")]
    assert seen[inputs[0]].direct.reached == f"127.0.0.1:{port}"
    assert seen[inputs[1]].direct.reached is None and seen[inputs[1]].direct.note.startswith("not fetched")
    assert seen[inputs[1]].redirect is None
    # without a gate nothing is fetched on the host's network
    obs = observe.observe(inputs[:1], specs=honest, progress=lines.append)
    assert obs.seen[0].direct.reached is None and obs.seen[0].direct.note == observe.UNGATED


def test_only_observation_catches_a_client_that_connects_elsewhere():
    inputs = ["http://safe.example/", "http://10.0.0.1/"]
    obs = observe.observe(inputs, specs={"planted-lying": _planted("lying"), "planted-honest": _planted("honest")})
    seen = {(s.client, s.input): s for s in obs.seen}
    assert seen[("planted-lying", inputs[0])].direct.reached == "10.0.0.1:80"
    assert seen[("planted-lying", inputs[0])].redirect.reached == "10.0.0.1:80"
    assert seen[("planted-honest", inputs[0])].direct.reached is None
    assert seen[("planted-honest", inputs[1])].direct.reached == "10.0.0.1:80"
    # the model (its parser's host through getaddrinfo) sees no connection for safe.example
    loaded, skipped = oracles.load(["urllib"])
    try:
        dest = fetchers.destination("urllib", loaded["urllib"].parse_many([(inputs[0], None)])[0])
    finally:
        oracles.close_all(loaded)
    pol = policy.Policy()
    assert model.predicted(dest) is None and pol.denied(dest) is None
    allowed = {"allow-safe": {inputs[0]: True, inputs[1]: False}}
    found = findings.ssrf_findings(obs, allowed, pol, {})
    assert len(found) == 1
    f = found[0]
    assert (f["rule"], f["validator"], f["client"], f["input"]) == ("ssrf", "allow-safe", "planted-lying", inputs[0])
    assert f["verdict"]["kind"] == "hazard"
    assert {(p["client"], p["reached"], p["via"]) for p in f["verdict"]["pairs"]} == {
        ("planted-lying", "10.0.0.1:80", "direct"), ("planted-lying", "10.0.0.1:80", "redirect")}


def test_a_client_that_dies_or_hangs_is_a_finding_and_the_run_goes_on(monkeypatch):
    monkeypatch.setattr(clients, "DEADLINE", 1.5)
    inputs = ["http://127.0.0.1/die", "http://127.0.0.1/hang", "http://127.0.0.1/ok"]
    obs = observe.observe(inputs, specs={"planted-crashy": _planted("crashy")}, redirects=False)
    got = {s.input: s.direct for s in obs.seen}
    assert got[inputs[0]].trouble.what == "crashed" and "exit status 3" in got[inputs[0]].trouble.detail
    assert got[inputs[1]].trouble.what == "hung"
    assert got[inputs[2]].reached == "127.0.0.1:80" and got[inputs[2]].answer["status"] == 200
    found = findings.client_findings(obs)
    assert sorted(f["rule"] for f in found) == ["crash", "hang"]
    assert all(f["client"] == "planted-crashy" and f["verdict"]["kind"] == "bug" for f in found)


def test_an_undocumented_exception_after_a_redirect_is_a_finding():
    inputs = ["http://127.0.0.1/throw", "http://127.0.0.1/fine"]
    obs = observe.observe(inputs, specs={"planted-crashy": _planted("crashy")})
    found = findings.client_findings(obs)
    # the direct fetch and the redirect both answer unchecked; only the redirect is a finding
    # (there the client was handed a valid URL, and the server's Location is what it could not take)
    assert [(f["rule"], f["verdict"]["cause"], f["input"]) for f in found] == [
        ("crash", "undocumented-exception", inputs[0])]


@pytest.mark.slow
def test_okhttp_crashes_through_a_redirect():
    """The README's OkHttp bug (AIOOBE on an IPv6 literal with nine groups), reached as a
    server's Location."""
    if clients.declared()["okhttp-call"].skip:
        pytest.skip(f"okhttp-call: {clients.declared()['okhttp-call'].skip}")
    obs = observe.observe(["http://[1:1:1:1:1:1:1::1]/"], ["okhttp-call"])
    found = findings.client_findings(obs)
    assert [f["verdict"]["cause"] for f in found] == ["undocumented-exception"]
    assert "ArrayIndexOutOfBoundsException" in found[0]["summary"]


# --- the model held to the observations ------------------------------------------------------

SPELLINGS = ["127.1", "0x7f.1", "2130706433", "017700000001", "0177.0.0.1", "0", "[::1]",
             "[::ffff:127.0.0.1]", "localhost", "1㉗.0.0.1", "ｌｏｃａｌｈｏｓｔ", "127%2e0%2e0%2e1", "10.1",
             "0xa9fea9fe", "example.com"]
INPUTS = [f"http://{s}/" for s in SPELLINGS] + ["http://example.com@127.0.0.1/"]
#: clients that start in a second or two (no JVM)
CLIENTS = ["curl", "go-net-http", "node-fetch", "python-urllib", "requests", "php-streams", "ruby-net-http",
           "dotnet-httpwebrequest"]
#: the JVM's (a test marked slow: two JVMs for the clients, two for their models' parsers)
JVM_CLIENTS = ["java-httpclient", "okhttp-call"]

_HOSTS = ("the model reads a name as a DNS lookup, which the sealed network fails; the client reads "
          "/etc/hosts first (localhost is 127.0.0.1 there)")
#: (client, input) -> why the model and the observation part (measured; module docstring)
EXPECTED = {
    **{(c, "http://localhost/"): _HOSTS for c in CLIENTS + JVM_CLIENTS},
    ("okhttp-call", "http://ｌｏｃａｌｈｏｓｔ/"): "OkHttp's HttpUrl maps it to localhost (the model has that host) "
                                                 "and /etc/hosts gives 127.0.0.1",
    ("curl", "http://1㉗.0.0.1/"): "libidn2 (curl's IDNA) maps U+3257 to 27: the host becomes 127.0.0.1; "
                                   "the model reads libcurl's URL API host, before IDNA",
    ("go-net-http", "http://1㉗.0.0.1/"): "net/http converts the host with idna.Lookup before dialing: "
                                          "127.0.0.1; the model reads url.Parse's host",
    ("curl", "http://ｌｏｃａｌｈｏｓｔ/"): "libidn2 maps the full-width letters to localhost, then /etc/hosts",
    ("go-net-http", "http://ｌｏｃａｌｈｏｓｔ/"): "net/http's IDNA maps the full-width letters to localhost, then /etc/hosts",
    ("node-fetch", "http://ｌｏｃａｌｈｏｓｔ/"): "the WHATWG host parser maps it to localhost (the model has "
                                                "that host) and /etc/hosts gives 127.0.0.1",
    ("node-fetch", "http://example.com@127.0.0.1/"): "fetch refuses a URL that includes credentials "
                                                      "(Fetch Standard, new Request() step 7.3: TypeError)",
    ("python-urllib", "http://127%2e0%2e0%2e1/"): "urllib.request.Request percent-decodes the host "
                                                  "(full_url setter: unquote(self.host)) after urlsplit",
    ("python-urllib", "http://example.com@127.0.0.1/"): "urllib.request looks up the whole authority "
                                                        "'example.com@127.0.0.1' (Request.host keeps the userinfo); "
                                                        "urlsplit's hostname is 127.0.0.1",
    ("dotnet-httpwebrequest", "http://0/"): "Mono's socket refuses to connect to the unspecified address "
                                            "('The requested address is not valid in this context'); "
                                            "the model reads 0.0.0.0 as Linux's connect does (the local host)",
    ("ruby-net-http", "http://[::ffff:127.0.0.1]/"): "Socket.tcp (Net::HTTP's connect) fails with ENETUNREACH "
                                                     "on an IPv4-mapped address, on the host's loopback too; the "
                                                     "model reads it as its IPv4",
}


def parted(pairs: list[model.Pair], expected: dict, present: set[str]) -> list[str]:
    """What breaks the list: a new disagreement, or a listed one that agrees now."""
    problems = []
    got = {(p.client, p.input): p for p in pairs if not p.agree}
    for key, why in expected.items():
        if key[0] in present and key not in got:
            problems.append(f"now agrees: {key}: remove it from EXPECTED ({why[:60]})")
    for key, p in got.items():
        if key not in expected:
            problems.append(f"parts: {key}: model {p.model_shown} -> {p.model}, observed {p.observed}")
    return problems


def _observe_and_read(wanted: list[str]):
    """The observations of the clients of ``wanted`` that can start, and their models' records."""
    declared = clients.declared()
    names = [c for c in wanted if not declared[c].skip]
    obs = observe.observe(INPUTS, names, redirects=False)
    parsers = [model.MODEL_OF[c] for c in obs.clients]
    loaded, _ = oracles.load(parsers)
    try:
        records = {p: dict(zip(INPUTS, o.parse_many([(s, None) for s in INPUTS]))) for p, o in loaded.items()}
    finally:
        oracles.close_all(loaded)
    return obs, records


@pytest.fixture(scope="module")
def observed_and_records():
    if clients.declared()["python-urllib"].skip:
        pytest.fail("python-urllib cannot start: " + str(clients.declared()["python-urllib"].skip))
    return _observe_and_read(CLIENTS)


def _pairs(obs, records):
    dests = {p: {s: fetchers.destination(p, r) for s, r in rs.items()} for p, rs in records.items()}
    by = {c: {s.input: s.direct.address for s in obs.seen if s.client == c} for c in obs.clients}
    return model.compare(by, dests)


def test_the_model_is_held_to_the_observations(observed_and_records):
    obs, records = observed_and_records
    present = {c for c in obs.clients if model.MODEL_OF[c] in records}
    pairs = _pairs(obs, records)
    assert len(pairs) == len(INPUTS) * len(present)
    problems = parted(pairs, EXPECTED, present)
    agree, total = model.agreement(pairs)
    assert not problems, f"{agree} of {total} agree; " + "; ".join(problems)


@pytest.mark.slow
def test_the_model_is_held_to_the_jvm_clients():
    obs, records = _observe_and_read(JVM_CLIENTS)
    present = {c for c in obs.clients if model.MODEL_OF[c] in records}
    if not present:
        pytest.skip("no JVM client can start here: " + "; ".join(f"{n}: {r}" for n, r in obs.skipped.items()))
    problems = parted(_pairs(obs, records), EXPECTED, present)
    assert not problems, "; ".join(problems)


def test_a_planted_model_that_claims_a_connection_no_client_made_is_caught(observed_and_records, monkeypatch):
    obs, records = observed_and_records
    real = resolvers.READERS["getaddrinfo"]
    claims = lambda host: resolvers.inet_aton_exact("127.0.0.1") if host == "example.com" else real(host)  # noqa: E731
    monkeypatch.setitem(resolvers.READERS, "getaddrinfo", claims)
    present = {c for c in obs.clients if model.MODEL_OF[c] in records}
    problems = parted(_pairs(obs, records), EXPECTED, present)
    assert any("'http://example.com/'" in p and "observed None" in p for p in problems), problems


def test_urlwb_ssrf_inputs_writes_observations_findings_and_report(tmp_path, capsys):
    listing = tmp_path / "inputs.txt"
    listing.write_text("# a comment\nhttp://0x7f.1/\nhttp://localhost:8080/\nhttp://example.com/\n", encoding="utf-8")
    out = tmp_path / "out"
    code = cli.main(["ssrf", "--inputs", str(listing), "--oracle", "ipaddress",
                     "--clients", "python-urllib,requests", "--out", str(out)])
    assert code == 0, capsys.readouterr().out[-2000:]
    lines = [json.loads(x) for x in (out / "observed.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 6 and all({"input", "client", "reached"} <= set(x) for x in lines)
    reached = {(x["input"], x["client"]): x["reached"] for x in lines}
    assert reached[("http://0x7f.1/", "python-urllib")] == "127.0.0.1:80"
    assert reached[("http://localhost:8080/", "requests")] == "127.0.0.1:8080"
    assert reached[("http://example.com/", "requests")] is None
    recs = [json.loads(x) for x in (out / "findings.jsonl").read_text(encoding="utf-8").splitlines()]
    ssrf = {r["input"]: r for r in recs if r["rule"] == "ssrf"}
    assert set(ssrf) == {"http://0x7f.1/", "http://localhost:8080/"}  # ipaddress allows both (names)
    assert all(r["validator"] == "ipaddress" and r["client"] in ("python-urllib", "requests") for r in ssrf.values())
    assert ssrf["http://0x7f.1/"]["command"] == ("printf '%s\\n' http://0x7f.1/ > input.txt && urlwb ssrf --inputs "
                                                 "input.txt --oracle ipaddress --clients python-urllib")
    assert {p["reached"] for p in ssrf["http://localhost:8080/"]["verdict"]["pairs"]} == {"127.0.0.1:8080"}
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "## Observed: where real clients connected" in md and "127.0.0.1:8080" in md
