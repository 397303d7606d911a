"""State machines for the URL Standard's stateful APIs.

https://url.spec.whatwg.org/#api

- ``URLSetterMachine``: a URL, then any sequence of setter calls, coherent after every step
  (invariants.check_url_object); where ``ada_url`` imports, every step is also applied to an
  ``ada_url.URL`` and both must give the same href, unless a documented ada deviation
  (ADA_KNOWN_DEVIATIONS) explains the difference.
- ``SearchParamsMachine``: ``URLSearchParams`` against a plain list of pairs, every method, both
  free-standing and attached to a URL (whose query it must write back after each change).
- ``HostMachine``: hosts parsed, serialized, taken to Unicode and back to ASCII, and compared.

Each is exposed as ``Machine.TestCase`` for pytest (properties/test_machines.py). The machines
only raise: a failing run, once shrunk, is remembered by the machine's teardown during
Hypothesis's final replay (FINAL_RUN), and ``urlwb export-hypothesis`` files it in the
regression corpus (target ``properties``) as a property record named after the machine and
replayed by a check of properties/invariants/ (MACHINE_REPLAYERS); a disagreement with ada
carries both hrefs in the sidecar.
"""

from __future__ import annotations

import hypothesis.strategies as st
from hypothesis import assume, event
from hypothesis.control import current_build_context
from hypothesis.stateful import (Bundle, RuleBasedStateMachine, initialize, invariant,
                                 precondition, rule)

import engine
from engine import Failure
from properties import invariants, strategies as s
from properties.invariants import to_usv

try:
    import ada_url
except ImportError:  # the oracle extra is not installed: no differential
    ada_url = None

#: the name under which ada disagreements are filed (the sidecar's "property")
ADA_PROPERTY = "setters-vs-ada"


def _ada_url(href: str):
    """``ada_url.URL(href)``, or None where ada rejects it (ada raises ValueError)."""
    try:
        return ada_url.URL(to_usv(href))
    except ValueError:
        return None


def _ada_set(url, name: str, value: str) -> None:
    """Apply one setter to an ada URL; ada raises ValueError where the Standard ignores the
    value (or where the href setter fails), leaving the URL as it was."""
    try:
        setattr(url, name, to_usv(value))
    except ValueError:
        pass


def ada_replay(href: str, steps) -> tuple[str | None, str | None]:
    """The hrefs the engine and ada reach from ``href`` through ``steps`` (None: no URL)."""
    try:
        url = engine.URL(href)
    except Failure:
        url = None
    ada = _ada_url(href) if ada_url is not None else None
    for name, value in steps:
        if url is not None:
            try:
                setattr(url, name, value)
            except Failure:
                pass
        if ada is not None:
            _ada_set(ada, name, value)
    return (None if url is None else url.href), (None if ada is None else ada.href)


def check_setters_against_ada(href: str, steps) -> None:
    """https://url.spec.whatwg.org/#urlutils-members

    Differential by model: the engine and ada_url (both claiming the current Standard) reach
    the same href from the same URL through the same setter calls. Skipped without ada_url.
    """
    if ada_url is None:
        return
    ours, theirs = ada_replay(href, steps)
    if ours != theirs:
        raise AssertionError(f"URL({href!r}) then {list(map(tuple, steps))!r}: the engine's href "
                             f"is {ours!r}, ada_url's {theirs!r}")


#: The last run a machine's final (shrunk) replay made, as (machine name, arguments of its
#: replayer in MACHINE_REPLAYERS, extra sidecar fields): the machines only raise; ``urlwb
#: export-hypothesis`` replays their failures from the example database and files this record.
FINAL_RUN: tuple[str, dict, dict] | None = None


def _remember_final_run(machine: str, args: dict, extra: dict | None = None) -> None:
    global FINAL_RUN
    if current_build_context().is_final:
        FINAL_RUN = (machine, args, extra or {})


def _ada_skips_check_bidi(engine_url, ada) -> bool:
    """ada's host is a domain whose labels each pass domain to Unicode but which as a whole
    does not: an error across labels, which in UTS46 only CheckBidi (a Bidi domain name's
    labels must all meet RFC 5893) can record."""
    hostname = ada.hostname
    labels = [label for label in hostname.split(".") if label]
    if not labels or engine.domain_to_unicode(hostname) != hostname:
        return False
    converted = [engine.domain_to_unicode(label) for label in labels]
    each_ok = all(not (label.startswith("xn--") and out == label)
                  for label, out in zip(labels, converted))
    return each_ok and converted != labels and engine_url.hostname != hostname


def _ada_skips_check_joiners(engine_url, ada) -> bool:
    """ada's host, taken to Unicode, holds a ZWJ or ZWNJ, and the engine's host is another: the
    joiner broke CheckJoiners in the engine (ada 4 lets through a joiner that follows a joiner
    after a virama, "\u0915\u094d\u200d\u200da")."""
    hostname = ada.hostname
    return (engine_url.hostname != hostname and hostname.isascii()
            and any(j in ada_url.idna.decode(hostname) for j in ("\u200c", "\u200d")))


#: (predicate(engine URL, ada URL), reason): disagreements explained by a known ada_url
#: deviation; the machine stops comparing that run. test_machines.py pins each one, failing
#: when ada_url no longer deviates.
ADA_KNOWN_DEVIATIONS = [
    (_ada_skips_check_bidi,
     "ada_url 4.0 does not apply CheckBidi (domain parser ToASCII sets CheckBidi to true, "
     "https://url.spec.whatwg.org/#concept-domain-to-ascii): it accepts a Bidi domain name "
     "with a label starting with a digit or a hyphen, e.g. 0.إختبار"),
    (_ada_skips_check_joiners,
     "ada_url 4.0 applies CheckJoiners (https://www.unicode.org/reports/tr46/#Validity_Criteria, "
     "ContextJ) only in part: it accepts a ZWJ or ZWNJ that follows another joiner after a "
     "virama, e.g. \u0915\u094d\u200d\u200da, which the Standard's domain to ASCII fails"),
]


def known_ada_deviation(engine_url, ada) -> str | None:
    for predicate, reason in ADA_KNOWN_DEVIATIONS:
        if predicate(engine_url, ada):
            return reason
    return None


class URLSetterMachine(RuleBasedStateMachine):
    """A URL, then setters in any order; after every step the URL is coherent and, where
    ada_url is installed, has ada's href."""

    @initialize(href=st.one_of(st.sampled_from(s.BASES), s.urls))
    def start(self, href):
        try:
            self.url = engine.URL(href)
        except Failure:
            assume(False)
        self.href = href
        self.steps: list[tuple[str, str]] = []  # every setter call made, in order
        self.ada = _ada_url(href) if ada_url is not None else None
        if ada_url is not None and self.ada is None:
            self._disagree(self.url.href, None)

    @rule(step=s.setter_steps)
    def set_attribute(self, step):
        name, value = step
        self.steps.append(step)
        before = self.url.href
        try:
            setattr(self.url, name, value)
        except Failure:
            assert name == "href", f"the {name} setter raised Failure"
            assert self.url.href == before, "a failed href setter changed the URL"
        if self.ada is not None:
            _ada_set(self.ada, name, value)

    @rule(name=st.sampled_from(invariants.SETTERS))
    def set_attribute_to_itself(self, name):
        own = getattr(self.url, name)
        # A getter's "" stands for null or empty (host, query, fragment), which the setter given
        # "" need not restore: A:/ has a null host, and .host = "" gives it an empty one.
        assume(own)
        before = self.url.href
        self.set_attribute((name, own))
        assert self.url.href == before, f".{name} = {own!r} (its own value) changed {before!r}"

    @invariant()
    def coherent(self):
        if hasattr(self, "url"):
            invariants.check_url_object(self.url, f"URL({self.href!r}) then {self.steps!r}")

    @invariant()
    def same_href_as_ada(self):
        if getattr(self, "ada", None) is not None and self.ada.href != self.url.href:
            reason = known_ada_deviation(self.url, self.ada)
            if reason is not None:
                event(f"known ada_url deviation: {reason[:60]}")
                self.ada = None  # the two have parted for a known reason: compare no further
                return
            self._disagree(self.url.href, self.ada.href)

    def teardown(self):
        # Only the shrunk failing run is replayed as final: remember it, with ada's answer.
        if current_build_context().is_final and hasattr(self, "url"):
            extra = None
            if ada_url is not None:
                ours, theirs = ada_replay(self.href, self.steps)
                extra = {"engine": ours, "ada_url": theirs} if ours != theirs else None
            _remember_final_run("URLSetterMachine", {"href": self.href, "steps": self.steps},
                                extra)

    def _disagree(self, ours, theirs):
        raise AssertionError(f"URL({self.href!r}) then {self.steps!r}: engine href {ours!r}, "
                             f"ada_url href {theirs!r}")


class SearchParamsMachine(RuleBasedStateMachine):
    """URLSearchParams against a list of pairs; when attached to a URL, every change writes the
    serialized list back as the URL's query (null when empty)."""

    @initialize(init=s.search_params_inits, attached=st.booleans(), taken_first=st.booleans(),
                base=st.sampled_from(("http://h/p", "sc://h/p", "sc:opaque  ?x", "file:///x")))
    def start(self, init, attached, taken_first, base):
        self.args = {"init": init, "attached": attached, "taken_first": taken_first,
                     "base": base, "ops": []}
        self.where = f"URLSearchParams({init!r})"
        if attached:
            self.url = engine.URL(base)
            # The Standard makes the query object with the URL, the engine on first use: both
            # orders must give the same list (once they did not, for url.search = '\r').
            if taken_first:
                self.url.search_params  # noqa: B018
            self.url.search = init
            self.where = f"URL({base!r}) with search {init!r}: searchParams"
            self.params = self.url.search_params
        else:
            self.url = None
            self.params = engine.URLSearchParams(init)
        # Both the constructor and the search setter parse the given value (one leading '?'
        # removed), not the URL's query: the setter's query has tabs and newlines stripped by
        # the URL parser, the list keeps them (https://url.spec.whatwg.org/#dom-url-search).
        text = to_usv(init)
        query = text[1:] if text.startswith("?") else text
        self.model = invariants.urlencoded_parse_model(query.encode("utf-8"))
        self.written = False

    @rule(op=s.search_params_ops)
    def call(self, op):
        self.args["ops"].append(op)
        self.where += f".{op[0]}({', '.join(map(repr, op[1:]))})"
        got, expected = invariants.apply_search_params_op(self.params, self.model, op)
        assert got == expected, f"{self.where} returned {got!r}, expected {expected!r}"
        self.written = self.written or op[0] in ("append", "delete", "set", "sort")

    @invariant()
    def same_as_model(self):
        if hasattr(self, "params"):
            invariants.check_search_params_state(self.params, self.model, self.where)

    @precondition(lambda self: getattr(self, "url", None) is not None and self.written)
    @invariant()
    def url_query_is_the_serialized_list(self):
        serialized = invariants.urlencoded_serialize_model(self.model)
        expected = "?" + serialized if serialized else ""
        assert self.url.search == expected, (
            f"{self.where}: url.search is {self.url.search!r}, expected {expected!r}")
        assert self.url.href.split("#", 1)[0].endswith(expected), self.url.href
        invariants.check_url_object(self.url, self.where)


    def teardown(self):
        if hasattr(self, "args"):
            _remember_final_run("SearchParamsMachine", self.args)


class HostMachine(RuleBasedStateMachine):
    """Hosts parsed from any text; serialization, Unicode and ASCII forms, and equality."""

    hosts = Bundle("hosts")

    def __init__(self):
        super().__init__()
        self.texts: list[str] = []

    @rule(target=hosts, text=s.hosts)
    def parse(self, text):
        self.texts.append(text)
        invariants.check_host_idempotence(text)
        try:
            return engine.parse_host(text)
        except Failure:
            return engine.parse_host("example.org")

    @rule(host=hosts)
    def serialize_and_reparse(self, host):
        text = engine.serialize_host(host)
        again = engine.parse_host(text)
        assert type(again) is type(host) and again == host, f"{host!r} -> {text!r} -> {again!r}"

    @rule(host=hosts)
    def to_unicode_and_back(self, host):
        if isinstance(host, engine.Domain):
            invariants.check_domain_roundtrip(str(host))

    @rule(a=hosts, b=hosts)
    def compare(self, a, b):
        same = engine.hosts_equal(a, b)
        assert same == (engine.serialize_host(a) == engine.serialize_host(b)), (
            f"hosts_equal({a!r}, {b!r}) = {same!r} but their serializations "
            f"{engine.serialize_host(a)!r}, {engine.serialize_host(b)!r}")
        assert engine.hosts_equal(b, a) == same, f"hosts_equal is not symmetric on {a!r}, {b!r}"

    def teardown(self):
        _remember_final_run("HostMachine", {"texts": self.texts})


def _replay_search_params_machine(init, attached, taken_first, base, ops):
    if attached:
        invariants.check_search_params_on_url(base, init, taken_first, ops)
    else:
        invariants.check_search_params(init, ops)


def _replay_setter_machine(href, steps):
    invariants.check_setters(href, steps)
    check_setters_against_ada(href, steps)


#: machine name -> the check that replays a filed run of it (properties/replay.py)
MACHINE_REPLAYERS = {
    "URLSetterMachine": _replay_setter_machine,
    "SearchParamsMachine": _replay_search_params_machine,
    "HostMachine": invariants.check_hosts_together,
}
