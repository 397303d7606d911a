"""Signatures of failures (urlwb.fuzzing.signatures, the one scheme triage, replay and the sidecars use)
and libFuzzer's status lines, as urlwb reads them."""

from __future__ import annotations

import signal

from urlwb.fuzzing.fuzz import parse_status
from urlwb.fuzzing.signatures import of_failure as classify
from urlwb.fuzzing.signatures import of_property, parse_traceback

INVARIANT = '''Traceback (most recent call last):
  File "/x/fuzzers/fuzz_idna.py", line 21, in check
    invariants.check_domain_roundtrip(Reader(data).rest())
  File "{root}/properties/invariants/hosts.py", line 470, in check_domain_roundtrip
    fail(f"{{where}}; domain_to_unicode gives {{u!r}}")
  File "{root}/properties/invariants/common.py", line 60, in fail
    raise AssertionError(message)
AssertionError: domain_to_ascii('xn---59d') = 'xn---59d'
'''

EXCEPTION = '''Traceback (most recent call last):
  File "{root}/fuzzers/fuzz_url.py", line 30, in check
    invariants.check_url_idempotence(url, base)
  File "{root}/engine/url.py", line 300, in basic_url_parse
    return _state(x)
           ^^^^^^^^^
  File "{root}/engine/host.py", line 120, in parse_ipv4
    n = parts[4]
        ~~~~~^^^
IndexError: list index out of range
'''

TIMEOUT_DUMP = '''Current thread 0x00007f00 (most recent call first):
  File "{root}/engine/idna.py", line 88 in punycode_decode
  File "{root}/engine/idna.py", line 40 in domain_to_ascii
  File "{root}/fuzzers/fuzz_idna.py", line 21 in check
'''


#: what faulthandler.register(SIGUSR1, all_threads=False) prints (urlwb.fuzzing.replay's timeouts)
STACK_DUMP = '''Stack (most recent call first):
  File "{root}/engine/public_suffix.py", line 61 in public_suffix
  File "{root}/fuzzers/fuzz_public_suffix.py", line 30 in check
  File "{root}/urlwb/fuzzing/replay.py", line 150 in _child
'''


def _fill(text):
    from urlwb.corpus_store import ROOT
    return text.format(root=ROOT)


def test_invariant_signature_names_the_check_and_its_failing_line():
    kind, sig, detail = classify(_fill(INVARIANT), 1)
    assert kind == "invariant"
    assert sig.startswith("invariant:check_domain_roundtrip:") and len(sig.rsplit(":", 1)[1]) == 8
    assert detail.startswith("AssertionError: domain_to_ascii")
    moved = _fill(INVARIANT).replace("line 470", "line 512")      # other lines of the file moved
    assert classify(moved, 1)[1] == sig
    other_site = _fill(INVARIANT).replace("domain_to_unicode gives", "domain_to_ascii gives")
    assert classify(other_site, 1)[1] != sig


def test_exception_signature_is_type_and_innermost_engine_frame():
    kind, sig, detail = classify(_fill(EXCEPTION), 1)
    assert (kind, sig) == ("exception", "exception:IndexError@engine/host.py:parse_ipv4")
    frames, exc = parse_traceback(_fill(EXCEPTION))
    assert [f.func for f in frames] == ["check", "basic_url_parse", "parse_ipv4"]
    assert frames[-1].source == "n = parts[4]"


def test_timeout_and_signal_signatures():
    assert classify(_fill(TIMEOUT_DUMP), None, timed_out=True)[:2] == (
        "timeout", "timeout@engine/idna.py:punycode_decode")
    assert classify("", -signal.SIGSEGV)[1] == "crash:SIGSEGV"


def test_two_different_timeouts_get_two_signatures():
    # faulthandler's one-thread header is "Stack (most recent call first):"; both headers are read
    a = classify(_fill(TIMEOUT_DUMP), None, timed_out=True)[1]
    b = classify(_fill(STACK_DUMP), None, timed_out=True)[1]
    assert b == "timeout@engine/public_suffix.py:public_suffix"
    assert a != b and "?" not in a + b


def test_out_of_memory_gets_the_frame_where_it_happened():
    text = "==1== ERROR: libFuzzer: out-of-memory (used: 2100Mb; exceeds: 2048Mb)\n" + _fill(STACK_DUMP)
    assert classify(text, 1)[:2] == ("oom", "oom@engine/public_suffix.py:public_suffix")


def test_property_signatures_elide_values_and_numbers():
    a = of_property("test_x", "AssertionError", "AssertionError: f('a') = 1, expected 2")
    b = of_property("test_x", "AssertionError", "AssertionError: f('bcd') = 10, expected 20")
    assert a == b and a.startswith("test_x:AssertionError:")


def test_libfuzzer_status_lines():
    s = parse_status("#16410\tREDUCE cov: 72 ft: 283 corp: 41/609b lim: 76 exec/s: 2051 rss: 47Mb L: 6/50")
    assert (s.execs, s.cov, s.ft, s.corp, s.exec_s) == (16410, 72, 283, 41, 2051)
    s = parse_status("#2884: cov: 235 ft: 236 corp: 34 exec/s 1442 oom/timeout/crash: 0/1/2 time: 6s job: 1")
    assert (s.execs, s.cov, s.ft, s.corp, s.exec_s, s.crashes) == (2884, 235, 236, 34, 1442, 2)
    assert parse_status("INFO: Seed: 1") is None


def test_the_one_shrinker_keeps_what_fails_and_respects_its_budget():
    from urlwb.fuzzing.shrink import first_index, shrink

    def fails(s):
        return "w" in s and "x" in s

    assert shrink("hello world xyz", lambda batch: first_index(batch, fails)) == "wx"
    assert shrink(b"abc" * 30, lambda batch: first_index(batch, lambda s: s.count(b"c") >= 2)) == b"cc"
    asked = []
    shrink("".join(map(chr, range(0x4E00, 0x4E00 + 1000))),
           lambda batch: asked.extend(batch) or None, budget=50)
    assert len(asked) == 50
