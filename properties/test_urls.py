"""Properties of URLs and their API: https://url.spec.whatwg.org/#urls"""

from hypothesis import given, strategies as st

from properties import invariants, strategies as s


@given(s.urls_and_bases)
def test_serializing_and_reparsing_any_url_gives_the_same_url(url_and_base):
    invariants.check_url_idempotence(*url_and_base)


@given(s.urls_and_bases)
def test_can_parse_is_true_exactly_when_parse_returns_a_url(url_and_base):
    invariants.check_can_parse(*url_and_base)


@given(s.urls_against_bases)
def test_a_url_resolved_against_a_base_needs_no_base_any_more(url_and_base):
    invariants.check_base_resolution(*url_and_base)


@given(st.one_of(st.sampled_from(s.BASES), s.urls), st.lists(s.setter_steps, max_size=6))
def test_after_any_setters_the_href_reparses_to_itself_and_every_getter_agrees(href, steps):
    invariants.check_setters(href, steps)


@given(st.one_of(s.search_params_inits, s.form_pairs), st.lists(s.search_params_ops, max_size=8))
def test_url_search_params_behaves_as_a_list_of_pairs(init, ops):
    invariants.check_search_params(init, ops)


@given(st.sampled_from(s.BASES), s.search_params_inits)
def test_the_search_setter_gives_search_params_the_pairs_of_the_value_it_was_given(href, value):
    invariants.check_search_setter(href, value)


@given(st.one_of(s.fast_path_urls, s.urls))
def test_the_engines_fast_path_gives_the_record_the_state_machine_gives(url):
    invariants.check_fast_path(url)
