"""The verdicts (issue 25): contracts, the RFC 3986 judge, the judge's rules.

Each test names what it kills: a planted parser or validator that breaks its contract must come
out ``bug``, one that follows its spec and differs from the URL Standard ``hazard``; the RFC judge
must agree with the RFC's own examples (§1.1.2, §5.4) and refuse strings that are no URI.
"""

from __future__ import annotations

import pytest

from urlwb.findings.record import check as check_record
from urlwb.findings.record import make_finding
from urlwb.oracles import REGISTRY, Record, contracts
from urlwb.oracles.whatwg import EngineOracle
from urlwb.verdicts import rfc3986, upstream
from urlwb.verdicts.judge import judge, judge_validator

ENGINE = EngineOracle({})

# RFC 3986 §1.1.2's examples, and §5.4's base: valid URIs.
RFC_EXAMPLES = ["ftp://ftp.is.co.za/rfc/rfc1808.txt", "http://www.ietf.org/rfc/rfc2396.txt",
                "ldap://[2001:db8::7]/c=GB?objectClass?one", "mailto:John.Doe@example.com",
                "news:comp.infosystems.www.servers.unix", "tel:+1-816-555-1212",
                "telnet://192.0.2.16:80/", "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
                "http://a/b/c/d;p?q"]
# not URI references: a space, a newline, a backslash, a lone %, a bad IP-literal, a second @
NOT_URIS = ["http://a b/", "http://example.com/\n", "http://evil.com\\@good.com/", "http://h/%zz",
            "http://[1:1:1:1:1:1:1::1]/", "http://foo@evil.com:80@google.com/", " http://evil.com/",
            "http://[v1.x"]

# §5.4.1 and §5.4.2 against http://a/b/c/d;p?q
RESOLUTION = {"g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "/g": "http://a/g",
              "//g": "http://g", "?y": "http://a/b/c/d;p?y", "#s": "http://a/b/c/d;p?q#s",
              "": "http://a/b/c/d;p?q", "..": "http://a/b/", "../../g": "http://a/g",
              "../../../../g": "http://a/g", "/./g": "http://a/g", "g.": "http://a/b/c/g.",
              "./../g": "http://a/b/g", "g;x=1/../y": "http://a/b/c/y", "g?y/../x": "http://a/b/c/g?y/../x",
              "g#s/../x": "http://a/b/c/g#s/../x", "http:g": "http:g"}


def rfc_parser(spec="rfc3986"):
    return contracts.Contract("planted", "parser", spec, "https://planted.invalid/docs")


def record(input, **changes):
    """The RFC reading of a valid ``input`` as a Record (a correct RFC 3986 parser's answer)."""
    c = rfc3986.components(input)
    user, _, pw = (c.userinfo or "").partition(":")
    port = int(c.port) if c.port else None
    r = Record(False, c.scheme, user, pw or None, c.host, port, c.path, c.query, c.fragment, input)
    return r._replace(**changes)


# --- the RFC 3986 judge -----------------------------------------------------------------------

@pytest.mark.parametrize("uri", RFC_EXAMPLES)
def test_rfc_examples_are_valid(uri):
    assert rfc3986.valid(uri) and rfc3986.valid(uri, "rfc3987")


@pytest.mark.parametrize("text", NOT_URIS)
def test_not_uris_are_refused(text):
    """Kills a judge that calls everything valid (planted: check() returning valid=True makes
    these fail)."""
    assert not rfc3986.check(text).valid


def test_rfc2396_differs_where_appendix_d_says():
    # RFC 2396 §3.2: a registry-based authority admits '@' (java.net.URI's reading, no host)
    assert rfc3986.valid("http://foo@evil.com:80@google.com/", "rfc2396")
    assert rfc3986.host_kind("http://foo@evil.com:80@google.com/", "rfc2396") == "reg-name"
    # no IPvFuture before RFC 3986; a top label starts with a letter (1.2.3.4.5 is no hostname)
    assert rfc3986.valid("http://[v1.x]/") and not rfc3986.valid("http://[v1.x]/", "rfc2396")
    assert rfc3986.host_kind("http://1.2.3.4.5/", "rfc2396") == "reg-name"
    assert rfc3986.host_kind("http://1.2.3.4/") == "IPv4address"


@pytest.mark.parametrize("ref,target", RESOLUTION.items())
def test_resolution_section_5_4(ref, target):
    assert rfc3986.recompose(rfc3986.resolve("http://a/b/c/d;p?q", ref)) == target


def test_normalization_section_6_2():
    assert rfc3986.equivalent("HTTP://www.Example.COM:80/%7euser/a/./b/../c", "http://www.example.com/~user/a/c")
    assert not rfc3986.equivalent("http://example.com/a%2Fb", "http://example.com/a/b")  # §2.2: reserved
    assert rfc3986.equivalent("http://example.com", "http://example.com/")                 # §6.2.3


# --- the judge's rules ------------------------------------------------------------------------

def test_rfc_parser_misreading_a_valid_host_is_a_bug():
    """Kills a judge that excuses every non-WHATWG parser: a valid URI whose host is misread."""
    i = "http://example.com/a"
    v = judge("planted", i, None, record(i, host="evil.com"), ENGINE.parse(i), contract=rfc_parser())
    assert v["kind"] == "bug" and v["cause"] == "host" and "§3.2.2" in v["spec"]["clause"]
    assert judge("planted", i, None, record(i), ENGINE.parse(i), contract=rfc_parser()) is None


def test_rfc_parser_reading_https_slash_x_as_a_path_is_a_hazard():
    """``https:/x`` is a valid URI whose hier-part is path-absolute (RFC 3986 §3): reading it as a
    path follows the RFC; the URL Standard reads host ``x``. Kills a judge that calls every
    disagreement with the engine a bug."""
    i = "https:/x"
    v = judge("planted", i, None, record(i), ENGINE.parse(i), contract=rfc_parser())
    assert v["kind"] == "hazard" and v["spec"]["name"] == "rfc3986"
    # ... and a parser that declares the URL Standard, reading the same, has a bug
    w = judge("planted", i, None, record(i), ENGINE.parse(i),
              contract=contracts.Contract("planted", "parser", "whatwg-url", None))
    assert w["kind"] == "bug" and w["spec"]["clause"].startswith("URL Standard")


def test_an_input_that_is_no_uri_leaves_the_reading_unconstrained():
    i = "http://evil.com\\@good.com/"
    odd = Record(False, "http", "evil.com\\", None, "good.com", None, "/", None, None, i)
    v = judge("planted", i, None, odd, ENGINE.parse(i), contract=rfc_parser())
    assert v["kind"] == "hazard" and "not a URI reference" in v["spec"]["clause"]


def test_crash_hang_and_reparse_are_bugs_under_any_contract():
    i = "http://[1:1:1:1:1:1:1::1]/"
    for spec in ("own", "rfc3986", "whatwg-url"):
        c = contracts.Contract("planted", "parser", spec, None)
        crash = Record(False, crash="ArrayIndexOutOfBoundsException: 16")
        assert judge("planted", i, None, crash, ENGINE.parse(i), contract=c)["cause"] == "crash"
        hang = Record(False, crash="no answer in 5 s", hung=True)
        assert judge("planted", i, None, hang, None, contract=c)["kind"] == "bug"
        j = "http://example.com/"
        assert judge("planted", j, None, record(j), None, contract=c,
                     reparse_record=record(j, path="/x"))["cause"] == "unstable"


def test_validator_accepting_a_newline_is_a_bug():
    """Django 3.2's URLValidator accepted ``http://example.com/\\n`` (CVE-2021-32052); a
    validator that validates URL syntax and accepts what is no URI breaks its contract. Kills a
    judge that, as the engine does, strips the newline first."""
    django = contracts.Contract("django", "validator", "rfc3986",
                                "https://docs.djangoproject.com/en/3.2/ref/validators/#urlvalidator",
                                checks="url-syntax")
    v = judge_validator("django", "http://example.com/\n", True, contract=django)
    assert v["kind"] == "bug" and "offset 19" in v["spec"]["clause"]
    assert judge_validator("django", "http://example.com/\n", False, contract=django) is None
    assert judge_validator("django", "http://example.com/", True, contract=django) is None
    # a host-address validator is held to its own reading, not to URL syntax
    ip = contracts.Contract("ipcheck", "validator", "rfc3986", None, checks="host-address")
    assert judge_validator("ipcheck", "http://example.com/\n", True, contract=ip) is None
    pairs = [{"validator": "ipcheck", "client": "curl", "reached": "127.0.0.1"}]
    assert judge_validator("ipcheck", "http://0x7f.1/", True, contract=ip, pairs=pairs)["kind"] == "hazard"


def test_verdicts_fit_the_findings_record():
    i = "http://example.com/a"
    v = judge("planted", i, None, record(i, host="evil.com"), ENGINE.parse(i), contract=rfc_parser())
    check_record(make_finding(input=i, parser="planted", rule="differential/host",
                              signature="planted:host", verdict=v))


# --- contracts and the upstream table ---------------------------------------------------------

def test_every_shipped_parser_and_validator_has_a_contract_with_documentation():
    from urlwb import oracles
    names = [(n, "parser") for n in REGISTRY if REGISTRY[n].spec is None or REGISTRY[n].spec.source == "manifest"]
    names += [(n, "validator") for n in oracles.VALIDATOR_SPECS]
    for name, role in names:
        c = contracts.contract(name, role=role)
        assert c.origin == "shipped" and c.docs and c.docs.startswith("https://"), name


def test_a_users_adapter_declares_its_contract_in_its_config():
    class Declared:                      # a manifests.Spec with the user's keys
        spec, role, docs = "rfc3986", "parser", "https://mine.invalid/"
    c = contracts.contract("mine", "other", Declared())
    assert (c.spec, c.docs, c.origin) == ("rfc3986", "https://mine.invalid/", "config")
    assert contracts.contract("mine", "other", object()).spec == "own"
    assert contracts.contract("mine", "whatwg").spec == "whatwg-url"


def test_known_upstream_rows_match():
    row = upstream.find("dotnet-system-uri", "foo://1.2.3.09/x", "host")
    assert row["state"] == "fixed" and "121962" in row["url"] and row["source"]
    assert upstream.find("okhttp", "http://[1:1:1:1:1:1:1::1]/", "crash") is None
    assert upstream.find("node-legacy-url@18", "x", "host")["state"] == "documented"


def test_urlwb_verdict_judges_one_input_by_the_parsers_contract(capsys):
    """``urlwb verdict`` with an in-process RFC 3986 parser: ``https:/x`` is a hazard under
    RFC 3986 §3.3, documented by the contract's page; a misuse is one line, status 2."""
    import json

    from urlwb import cli

    assert cli.main(["verdict", "https:/x", "--parsers", "rfc3986"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["contract"]["spec"] == "rfc3986" and out["verdict"]["kind"] == "hazard"
    assert "§3.3" in out["verdict"]["spec"]["clause"] and out["verdict"]["documented"] == out["contract"]["docs"]
    for bad in ([], ["x"], ["--parsers", "nosuch", "x"]):
        assert cli.main(["verdict", *bad]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_whatwg_parsers_are_compared_strictly():
    """A WHATWG parser whose serialization differs only in spelling (``^`` where the Standard now
    writes ``%5E``) still parts from the engine: kills a lenient comparison for the family whose
    serializations are the Standard's."""
    i = "http://x/^"
    eng = ENGINE.parse(i)
    older = eng._replace(path=eng.path.replace("%5E", "^"), href=eng.href.replace("%5E", "^"))
    assert older != eng
    whatwg = contracts.Contract("planted", "parser", "whatwg-url", None)
    v = judge("planted", i, None, older, eng, contract=whatwg, known="predates ^ in the path set")
    assert v["kind"] == "bug" and v["cause"] == "path-encoding" and "known deviation" in v["reason"]


def test_an_exception_the_documentation_leads_to_is_no_bug():
    """Spring keeps URI template variables (``{}``) and throws IllegalStateException when an
    unexpanded one is read: its contract's documented exception, a hazard; any other exception of
    the same parser stays a bug."""
    spring = contracts.contract("spring-uricomponents")
    template = Record(False, crash="java.lang.IllegalStateException: The port contains a URI "
                                   "variable but has not been expanded yet: {}")
    v = judge("spring-uricomponents", "p://:{}", None, template, ENGINE.parse("p://:{}"), contract=spring)
    assert v["kind"] == "hazard" and v["documented"]
    other = Record(False, crash="java.lang.NullPointerException")
    assert judge("spring-uricomponents", "p://:{}", None, other, None, contract=spring)["kind"] == "bug"


def test_against_a_base_the_rfc_reading_is_section_5_2s():
    """A relative reference resolved against a base: §5.2's target is the reading the RFC gives
    (``../g`` against ``http://a/b/c/d;p?q`` is ``http://a/b/g``); a parser that loses the dot
    segments' effect has a bug at §3.3."""
    base, ref = "http://a/b/c/d;p?q", "../g"
    right = record("http://a/b/g")
    assert judge("planted", ref, base, right, ENGINE.parse(ref, base), contract=rfc_parser()) is None
    wrong = record("http://a/b/c/g")
    v = judge("planted", ref, base, wrong, ENGINE.parse(ref, base), contract=rfc_parser())
    assert v["kind"] == "bug" and v["cause"] == "path" and "§3.3" in v["spec"]["clause"]


def test_the_step_is_where_the_readings_part_not_an_ingredient_of_the_input():
    """``s:/^@`` has an '@' (the differential's ingredient: userinfo) but a parser that leaves
    '^' raw in the path parts from the engine at the path percent-encode set. Kills a judge that
    takes the ingredient for the step."""
    i = "s:/^@"
    eng = ENGINE.parse(i)
    older = eng._replace(path=eng.path.replace("%5E", "^"), href=eng.href.replace("%5E", "^"))
    whatwg = contracts.Contract("planted", "parser", "whatwg-url", None)
    v = judge("planted", i, None, older, eng, contract=whatwg, cause="userinfo")
    assert v["cause"] == "path-encoding" and "path percent-encode set" in v["spec"]["clause"]
    j = "http://a\\b@c/"   # a host difference behind a backslash: the ingredient is the step
    moved = ENGINE.parse(j)._replace(host="b")
    assert judge("planted", j, None, moved, ENGINE.parse(j), contract=whatwg, cause="backslash")["cause"] == "backslash"


def test_where_the_standard_fails_the_step_is_its_validation_error():
    """Rust url 2.5.8 accepts ``sc://h:1\\x``; the Standard fails it in the port state
    (port-invalid), which the verdict names, not the input's first ingredient."""
    i = "sc://h:1\\x"
    accepted = Record(False, "sc", "", None, "h", 1, "/\\x", None, None, "sc://h:1/\\x")
    whatwg = contracts.Contract("planted", "parser", "whatwg-url", None)
    v = judge("planted", i, None, accepted, ENGINE.parse(i), contract=whatwg, cause="backslash")
    assert v["kind"] == "bug" and v["cause"] == "port-invalid" and "port-invalid" in v["spec"]["clause"]


def test_a_long_input_is_undecided_never_a_bug_from_validity():
    """The grammar check is bounded (abnf is not linear on long repetitions): past
    MAX_GRAMMAR_INPUT it answers undecided, and neither a parser nor a validator gets a bug from
    validity alone."""
    long = "http://example.com/" + "a" * rfc3986.MAX_GRAMMAR_INPUT
    assert rfc3986.check(long).valid is None and not rfc3986.valid(long)
    misread = record("http://example.com/a", host="evil.com")._replace(path="/" + "a" * rfc3986.MAX_GRAMMAR_INPUT)
    v = judge("planted", long, None, misread, ENGINE.parse(long), contract=rfc_parser())
    assert v["kind"] == "hazard" and "not judged" in v["spec"]["clause"]
    django = contracts.Contract("django", "validator", "rfc3986", None, checks="url-syntax")
    assert judge_validator("django", long + "\n", True, contract=django) is None
