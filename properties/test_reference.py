"""The fast parser and the reference parser agree: https://url.spec.whatwg.org/#concept-basic-url-parser"""

from hypothesis import given, strategies as st

from properties import reference, strategies as s


@given(s.urls, st.one_of(st.none(), s.bases))
def test_the_fast_parser_and_the_reference_give_the_same_record_and_the_same_errors(url, base):
    reference.check_parsers_agree(url, base)


@given(st.one_of(st.sampled_from(s.BASES), s.urls), s.setter_steps)
def test_any_setter_leaves_the_same_url_on_both_parsers(href, step):
    reference.check_setter_agrees(href, *step)
