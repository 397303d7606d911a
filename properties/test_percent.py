"""Properties of percent-encoding: https://url.spec.whatwg.org/#percent-encoded-bytes"""

import engine
from hypothesis import given, strategies as st

from properties import invariants, strategies as s


@given(s.percent_texts, s.percent_encode_set_names)
def test_percent_encoding_escapes_exactly_its_set_and_decodes_back(text, set_name):
    invariants.check_percent_roundtrip(text, set_name)


@given(s.percent_bytes)
def test_percent_decoding_turns_each_valid_escape_into_its_byte_and_keeps_the_rest(data):
    invariants.check_percent_decode(data)


@given(s.encoding_labels, s.encoding_texts,
       st.sampled_from(("special-query", "application/x-www-form-urlencoded")))
def test_percent_encoding_after_any_legacy_encoding_stays_ascii_and_outside_the_set(
        label, text, set_name):
    invariants.check_percent_encode_after_encoding(label, text, set_name)


@given(st.characters(codec="utf-8"))
def test_the_form_set_holds_all_but_ascii_alphanumerics_and_star_dash_dot_low_line(c):
    # The note under https://url.spec.whatwg.org/#application-x-www-form-urlencoded-percent-encode-set
    kept = c.isascii() and (c.isalnum() or c in "*-._")
    assert (c in engine.FORM_URLENCODED_PERCENT_ENCODE_SET) is not kept
