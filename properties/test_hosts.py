"""Properties of hosts: https://url.spec.whatwg.org/#hosts-(domains-and-ip-addresses)"""

import engine
from hypothesis import given, strategies as st

from properties import invariants, strategies as s


@given(s.hosts, st.booleans())
def test_serializing_and_reparsing_any_host_gives_the_same_host(host, is_opaque):
    invariants.check_host_idempotence(host, is_opaque)


def _parse_or_none(parse, text):
    try:
        return parse(text)
    except engine.Failure:
        return None


@given(s.ipv4_cases)
def test_an_ipv4_host_in_any_form_parses_to_the_address_it_spells(case):
    host = _parse_or_none(engine.parse_host, case.text)
    if case.value is None:
        assert host is None, f"parse_host({case.text!r}) = {host!r}, expected failure"
    else:
        assert isinstance(host, engine.IPv4Address) and int(host) == case.value, (
            f"parse_host({case.text!r}) = {host!r}, expected IPv4Address({case.value})")
    invariants.check_ipv4(case.text)


@given(s.ipv4_cases_ascii)
def test_the_ipv4_parser_reads_every_ascii_form_as_the_host_parser_does(case):
    address = _parse_or_none(engine.parse_ipv4, case.text)
    got = None if address is None else int(address)
    assert got == case.value, f"parse_ipv4({case.text!r}) = {got!r}, expected {case.value!r}"


@given(s.ipv4_texts)
def test_ipv4_like_text_is_an_address_or_failure_exactly_when_it_ends_in_a_number(text):
    invariants.check_ipv4(text)


@given(s.ipv4_addresses)
def test_any_ipv4_address_serializes_and_reparses_to_itself(n):
    invariants.check_ipv4_address(n)


@given(s.ipv6_cases)
def test_an_ipv6_text_parses_to_the_pieces_it_spells_or_fails_when_broken(case):
    address = _parse_or_none(engine.parse_ipv6, case.text)
    got = None if address is None else tuple(address)
    assert got == case.pieces, f"parse_ipv6({case.text!r}) = {got!r}, expected {case.pieces!r}"
    invariants.check_ipv6(case.text)


@given(s.ipv6_texts)
def test_ipv6_parser_agrees_with_the_host_parser_and_with_ipaddress(text):
    invariants.check_ipv6(text)


@given(s.ipv6_addresses)
def test_ipv6_serialization_compresses_the_first_longest_zero_run_and_reparses(pieces):
    invariants.check_ipv6_address(pieces)


@given(s.domains)
def test_domain_to_unicode_and_back_to_ascii_gives_the_same_domain(domain):
    invariants.check_domain_roundtrip(domain)


@given(st.one_of(s.domains, s.ipv4_texts, s.sampled_psl_hosts))
def test_registrable_domain_is_one_label_before_the_public_suffix_and_ends_the_host(host):
    invariants.check_public_suffix(host)
