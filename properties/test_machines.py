"""The state machines (properties/machines.py) as tests: any sequence of steps, invariants after
every step."""

from properties.machines import HostMachine, SearchParamsMachine, URLSetterMachine

TestURLSetters = URLSetterMachine.TestCase
TestSearchParams = SearchParamsMachine.TestCase
TestHosts = HostMachine.TestCase


import pytest  # noqa: E402

import engine  # noqa: E402
from properties import machines  # noqa: E402

BIDI_DEVIATION = "https://0.\u0625\u062e\u062a\u0628\u0627\u0631/"  # 0.إختبار


@pytest.mark.skipif(machines.ada_url is None, reason="ada_url is not installed")
def test_ada_url_still_skips_check_bidi_the_one_deviation_the_setter_machine_allows():
    # When this fails, ada_url applies CheckBidi: drop the entry from ADA_KNOWN_DEVIATIONS.
    with pytest.raises(engine.Failure):
        engine.URL(BIDI_DEVIATION)
    base = engine.URL("https://a/")
    ada = machines.ada_url.URL(BIDI_DEVIATION)
    assert ada.hostname == "0.xn--kgbechtv"
    assert machines.known_ada_deviation(base, ada) is not None


def test_a_plain_ada_disagreement_is_not_excused():
    class Peer:  # an answer that differs from the engine's without a CheckBidi cause
        hostname = "example.org"
    assert machines.known_ada_deviation(engine.URL("https://a/"), Peer()) is None


@pytest.mark.skipif(machines.ada_url is None, reason="ada_url is not installed")
def test_ada_url_still_lets_a_second_joiner_through_the_deviation_the_setter_machine_allows():
    # When this fails, ada_url applies CheckJoiners here: drop the entry from ADA_KNOWN_DEVIATIONS.
    hostname = "\u0915\u094d\u200d\u200da"
    url = engine.URL("https://a/")
    url.hostname = hostname
    assert url.href == "https://a/"  # the engine, as the Standard, refuses the host
    ada = machines.ada_url.URL("https://a/")
    ada.hostname = hostname
    assert ada.hostname == "xn--a-tud2o090ga"
    assert machines.known_ada_deviation(url, ada) is not None
