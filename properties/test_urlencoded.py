"""Properties of application/x-www-form-urlencoded.

https://url.spec.whatwg.org/#concept-urlencoded
"""

from hypothesis import given

from properties import invariants, strategies as s


@given(s.form_bytes)
def test_parsing_any_bytes_gives_the_standards_pairs_and_survives_a_round_trip(data):
    invariants.check_urlencoded_parse(data)


@given(s.form_pairs)
def test_serializing_any_pairs_and_parsing_the_result_gives_the_same_pairs(pairs):
    invariants.check_urlencoded_roundtrip(pairs)
