"""Differentials: oracle adapters, the classifier, the generator, ``urlwb diff`` and the
``differential`` fuzz target."""

import importlib.util
import json
import pathlib

import pytest

from urlwb import cli, oracles
from urlwb.differential import classify
from urlwb.differential import generate
from urlwb.differential.run import decode_case, encode_case
from urlwb.oracles import FAILURE, Record, from_api

ROOT = pathlib.Path(__file__).resolve().parents[2]
IN_PROCESS = ["ada_url", "upa_url", "pywhatwgurl"]


def load_one(name):
    loaded, skipped = oracles.load([name])
    if name not in loaded:
        pytest.skip(f"{name}: {skipped[name]}")
    return loaded[name]


def rec(href="http://a/", scheme="http", host="a", path="/", query=None, fragment=None,
        username="", password="", port=None):
    return Record(False, scheme, username, password, host, port, path, query, fragment, href)


# --- adapters ----------------------------------------------------------------------------------

@pytest.mark.parametrize("href, search, hash_, query, fragment", [
    ("http://a/", "", "", None, None),
    ("http://a/?", "", "", "", None),
    ("http://a/#", "", "", None, ""),
    ("http://a/?#", "", "", "", ""),
    ("http://a/?q#f", "?q", "#f", "q", "f"),
    ("http://a/?#?", "", "#?", "", "?"),
])
def test_from_api_recovers_null_and_empty_query_and_fragment(href, search, hash_, query, fragment):
    r = from_api(href, "http:", "", "", "a", "", "/", search, hash_)
    assert (r.query, r.fragment) == (query, fragment)


def test_from_api_tells_a_null_host_from_an_empty_one():
    assert from_api("sc:/.//p", "sc:", "", "", "", "", "//p", "", "").host is None
    assert from_api("file:///p", "file:", "", "", "", "", "/p", "", "").host == ""


def test_usv_conversion_replaces_lone_surrogates_only():
    assert oracles.to_usv("a\ud800b\U0001F600") == "a\ufffdb\U0001F600"


@pytest.mark.parametrize("name", ["engine"] + IN_PROCESS)
def test_whatwg_oracle_answers_failure_and_components(name):
    o = load_one(name)
    assert o.parse("foo") == FAILURE
    r = o.parse("HTTP://user:pw@EXAMPLE.com:8080/a/../b?q#f")
    assert r == Record(False, "http", "user", "pw", "example.com", 8080, "/b", "q", "f",
                       "http://user:pw@example.com:8080/b?q#f")
    assert o.parse("b", "http://a/c/d").href == "http://a/c/b"


@pytest.mark.parametrize("name", IN_PROCESS + ["node", "whatwg-url"])
def test_the_engine_and_each_whatwg_oracle_agree_on_wpt_except_known_deviations(name):
    engine_oracle, peer = load_one("engine"), load_one(name)
    try:
        items = [(oracles.to_usv(i), b) for i, b in generate.wpt_cases()]
        mine, theirs = engine_oracle.parse_many(items), peer.parse_many(items)
    finally:
        peer.close()
    unexplained = [(i, b, m.href, t.href) for (i, b), m, t in zip(items, mine, theirs)
                   if classify.classify(i, m, t) and not classify.known_deviation(name, m, t, i, b)]
    assert unexplained == []


def test_an_undocumented_exception_is_reported_as_a_crash_not_a_failure():
    o = load_one("hyperlink")
    r = o.parse("http:foo.com", "http://example.org/")  # .click raises NotImplementedError
    assert r.crash and "NotImplementedError" in r.crash and not r.failure


@pytest.mark.parametrize("name", ["node", "whatwg-url", "node-legacy-url", "url-parse"])
def test_each_node_oracle_is_a_process_of_its_own_answering_pipelined_batches(name):
    o = load_one(name)
    try:
        out = o.parse_many([("foo", None), ("http://EX%41MPLE.com/./x", None), ("y", "sc://h/x")] * 1500)
        assert len(out) == 4500 and out[0] == FAILURE and o.sup.counts["answered"] >= 3000
        assert out[1].scheme == "http" and out[2].href == "sc://h/y"
        if o.family == "whatwg":
            assert out[1].host == "example.com"
        assert o.sup.child.proc.poll() is None and not o.sup.incidents
        if name == "node":
            assert "bundled ada" in o.version
    finally:
        o.close()
    assert o.sup.child.proc.poll() is not None


def test_an_unknown_parser_name_is_a_one_line_error():
    with pytest.raises(ValueError, match="unknown parser 'nope'"):
        oracles.resolve_names("engine,nope")
    assert oracles.resolve_names("whatwg,urllib")[-1] == "urllib"


# --- classification ----------------------------------------------------------------------------

def test_agreement_is_no_verdict():
    assert classify.classify("http://a/", rec(), rec()) is None


def test_host_difference_outranks_everything_and_keeps_its_cause():
    v = classify.classify("http://a\\b@evil.com/", rec(host="a", path="/b@evil.com/"),
                          rec(host="evil.com", username="a\\b", path="/"), True)
    assert (v.cls, v.cause) == ("host-origin", "backslash")
    assert classify.confusion(v.cls, v.cause) == "backslash"


def test_one_failure_is_accept_reject():
    v = classify.classify("http://0x7f.1/", rec(host="127.0.0.1"), FAILURE)
    assert (v.cls, v.cause) == ("accept-reject", "ipv4")


@pytest.mark.parametrize("input, a, b, cls", [
    ("http://a/x\\y", rec(path="/x/y"), rec(path="/x%5Cy"), "backslash"),
    ("http:///a/x", rec(path="/x"), rec(host="", path="/a/x"), "host-origin"),
    ("http:a/x", rec(path="/x"), rec(path="/a/x"), "slashes"),
    ("foo://a/b/../c", rec(scheme="foo", path="/c"), rec(scheme="foo", path="/b/../c"), "scheme-mixup"),
    ("http://a/%2e%2e/y", rec(path="/y"), rec(path="/%2e%2e/y"), "pct-delimiter"),
    ("http://a/x/../y", rec(path="/y"), rec(path="/x/../y"), "path"),
    ("http://a/?q'", rec(query="q%27"), rec(query="q'"), "query-fragment"),
    ("http://a:8/", rec(port=8), rec(port=80), "port"),
    ("http://a/ x", rec(path="/%20x"), rec(path="/x"), "whitespace"),
])
def test_confusion_classes_follow_the_differing_field_and_the_ingredient(input, a, b, cls):
    assert classify.classify(input, a, b).cls == cls


def test_lenient_comparison_ignores_spelling_but_not_encoded_delimiters():
    a = rec(href="http://a/b%20c", path="/b%20c")
    assert classify.classify("http://A:80/b c", a, rec(host="A", port=80, path="/b c"), True) is None
    assert classify.classify("http://a/b%2Fc", rec(path="/b%2Fc"), rec(path="/b/c"), True).cls == "pct-delimiter"


def test_known_deviations_are_tagged_for_their_parser_only():
    right, peer = rec(href="https://xn--/", host="xn--"), FAILURE
    assert "ASCII domain" in classify.known_deviation("node", right, peer, "https://xn--/")
    assert classify.known_deviation("ada_url", right, peer, "https://xn--/") is None


def test_a_peer_with_older_unicode_data_is_a_known_deviation_written_out_or_as_punycode():
    # fuzz_idna's ClusterFuzzLite finding: U+3DE4C ("xn--x30s") is valid in the engine's UTS46
    # table (Unicode 18) and unassigned in ada 4.0's and Chromium's
    right = rec(href="http://xn--1xa.xn--x30s/", host="xn--1xa.xn--x30s")
    for spelling in ("http://\u03c0.xn--x30s/", "http://\u03c0.\U0003de4c/"):
        assert "older than the engine's" in classify.known_deviation("ada_url", right, FAILURE, spelling)
    # a code point every Unicode version here has, and an xn-- label that does not decode: none
    assert classify.known_deviation("ada_url", right, FAILURE, "http://\u03c0.xn--wgv/") is None
    assert classify.known_deviation("ada_url", right, FAILURE, "http://\u03c0.xn--a-/") is None


def test_every_class_has_a_title_and_the_order_starts_with_the_severe_ones():
    assert classify.CLASS_IDS[:4] == ["oracle-crashed", "oracle-hung", "host-origin", "accept-reject"]
    assert len(set(classify.CLASS_IDS)) == len(classify.CLASSES)


# --- generator ---------------------------------------------------------------------------------

def test_generation_is_deterministic_and_reaches_every_ingredient():
    a, b = list(generate.generate(2000, seed=7)), list(generate.generate(2000, seed=7))
    assert a == b and a != list(generate.generate(2000, seed=8))
    found = set()
    for i, _ in a:
        found.update(classify.ingredients(i))
    assert {"scheme", "slashes", "backslash", "userinfo", "pct-delimiter", "scheme-mixup",
            "whitespace", "ipv4", "idna", "port", "path"} <= found
    assert any(b is not None for _, b in a)


def test_case_encoding_round_trips_through_the_fuzz_input_format():
    for case in [("http://a/", None), ("x\x00y", "sc://h/\ud800"), ("", "")]:
        assert decode_case(encode_case(*case)) == case


# --- urlwb diff --------------------------------------------------------------------------------

def test_diff_prints_a_table_for_a_few_inputs(capsys):
    assert cli.main(["diff", "http://a\\b@evil.com/", "--parsers", "engine,urllib"]) == 0
    out = capsys.readouterr().out
    assert "http://a/b@evil.com/" in out and "host or origin differs" in out and "versions:" in out


@pytest.mark.parametrize("argv, message", [
    (["diff", "x", "--parsers", "nope"], "unknown parser"),
    (["diff", "--generate", "-1"], "--generate"),
    (["diff"], "no inputs"),
    (["diff", "--file", "/nonexistent/file"], "--file"),
    (["diff", "x", "--parsers", "urllib", "--reference", "engine"], "--reference"),
])
def test_diff_usage_errors_are_one_line_and_exit_2(argv, message, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_diff_writes_a_report_for_many_inputs(tmp_path, capsys):
    f = tmp_path / "inputs.txt"
    f.write_text('http://0x7f.1/\n"http:\\\\\\\\evil.com\\t/"\nhttps://xn--/\n', encoding="utf-8")
    assert cli.main(["diff", "--file", str(f), "--generate", "150", "--parsers",
                     "engine,ada_url,urllib,yarl", "--out", str(tmp_path / "r")]) == 0
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    html = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    summary = json.loads((tmp_path / "r" / "summary.json").read_text(encoding="utf-8"))
    assert summary["inputs"] == 153 and summary["sources"] == {"file": 3, "generated": 150}
    assert "## Agreement matrix" in md and "Shortest witnesses" in md and "ada 4" in md or "ada_url" in md
    assert summary["parsers"]["ada_url"]["disagreements"] == 0
    assert summary["parsers"]["urllib"]["by_class"].get("host-origin", 0) > 0
    assert "<script" not in html and "<link" not in html and "<table>" in html
    # the Claroty-style matrix leads, a cell linked to its witness's full row
    assert md.index("## Confusion matrix") < md.index("## Parsers")
    assert "](#witness-1)" in md and "### Witness 1" in md and 'id="witness-1"' in html
    assert "## Both accept, different hosts" in md
    # the WHATWG family's findings for export-wpt; each other parser's in a file of its own
    findings = json.loads((tmp_path / "r" / "findings.json").read_text(encoding="utf-8"))
    assert all(x["family"] == "whatwg" for x in findings) and not any(x["parser"] == "urllib" for x in findings)
    urllib = json.loads((tmp_path / "r" / "parsers" / "urllib.json").read_text(encoding="utf-8"))
    assert urllib["parser"] == "urllib" and urllib["language"] == "Python"
    case = next(c for c in urllib["cases"] if c["input"] == "http://0x7f.1/")
    assert case["standard"]["host"] == "127.0.0.1" and case["parser"]["host"] == "0x7f.1"


def test_campaign_round_returns_markdown_and_summary(tmp_path):
    from urlwb.differential.command import campaign_round
    # the in-process parsers (every parser's round is the campaign's own, in test_campaign*)
    names = ["engine", "ada_url", "urllib", "yarl"]
    out = campaign_round(tmp_path / "a", seconds=60, seed=7, floor=60, names=names)
    assert out["summary"]["sources"]["wpt"] > 800
    # the generated inputs, from the seed it was given, every one asked within the minute
    generated = out["summary"]["generated"]
    assert generated["seed"] == 7 and generated["sent"] == out["summary"]["sources"]["generated"] > 40
    assert "generated from seed 7 (`urlwb campaign --seed 7` repeats them)" in out["markdown"]
    assert out["markdown"].startswith("# Differential round")
    assert "<table>" in (tmp_path / "a" / "diff" / "report.html").read_text(encoding="utf-8")
    assert all("version" in p for p in out["summary"]["parsers"].values())
    # a budget that leaves nothing: the floor is drawn, but nothing is asked past the round's end
    # (issue 38: the round is a deadline), and the report says so
    out = campaign_round(tmp_path / "b", seconds=0, seed=7, floor=60, names=names)
    assert out["summary"]["generated"]["asked"] == 60
    assert "ran out: the last" in out["markdown"]


# --- fuzz target -------------------------------------------------------------------------------

def _load_target():
    spec = importlib.util.spec_from_file_location("fuzz_differential_t", ROOT / "fuzzers" / "fuzz_differential.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class _Liar(oracles.Oracle):
    """A WHATWG oracle that reads every backslash as a host terminator the wrong way."""

    name, family, version = "ada_url", "whatwg", "test"

    def parse(self, input, base=None):
        r = _REAL.parse(input, base)
        return r._replace(host="evil.com", href="x") if r.ok and "\\" in input else r


_REAL = None


def test_fuzz_target_files_a_minimized_finding_and_replay_fails_on_it(tmp_path, monkeypatch):
    global _REAL
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path))
    fd = _load_target()
    _REAL = load_one("engine")
    fd._state["loaded"] = {"engine": _REAL, "ada_url": _Liar()}
    data = encode_case("http://example.com/a\\b?query#frag", None)
    with pytest.raises(AssertionError, match="host or origin differs"):
        fd.check(data)
    fd.TestOneInput(data)
    fd.TestOneInput(data)  # the same signature is filed once
    entries = sorted((tmp_path / "differential" / "regress").glob("*.json"))
    assert len(entries) == 1
    meta = json.loads(entries[0].read_text(encoding="utf-8"))
    assert meta["signature"] == "host-origin/backslash:engine~ada_url" and meta["status"] == "open"
    assert len(meta["input"]) < len("http://example.com/a\\b?query#frag") and "\\" in meta["input"]
    fd.check(encode_case("http://example.com/", None))  # no disagreement: passes
