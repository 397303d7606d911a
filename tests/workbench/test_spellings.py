"""Every generator reaches every special spelling that concerns it (properties/spellings.py).

The generators: the Hypothesis strategies (each drawn in N short runs seeded 0 to N-1), each
fuzz target's libFuzzer dictionary (every token, read as the target reads its text), and the
differential's generator (``urlwb.differential.generate.generate(10_000, seed=1)``). A dictionary's tokens
cannot give the url target's input its base: the references against file bases come from the
url target's seeds (``also_for``). ``GENERATORS`` says, for each generator and each group of
spellings, whether the group concerns it or why not, and which single spellings of a concerned
group it is excused from, with the reason.
``test_every_generator_reaches_every_spelling_that_concerns_it`` lists everything missing at
once, by generator and spelling name; the tests after it show that the recognizers reject near
misses and that a generator without a spelling's production fails.

Run ``python tests/workbench/test_spellings.py`` for the table (generator x group: reached of concerned).
"""

from __future__ import annotations

import dataclasses
import functools
import pathlib
import re
import sys
from collections.abc import Callable, Iterable, Iterator

import pytest
from hypothesis import strategies as st

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from properties import spellings as sp  # noqa: E402
from properties import strategies as s  # noqa: E402
from properties.spellings import Sample  # noqa: E402
from urlwb import corpus_store
from urlwb.differential import generate  # noqa: E402
from urlwb.fuzzdata import decode_text  # noqa: E402

# -- the generators --------------------------------------------------------------------------


draw = s.independent_examples


#: libFuzzer drops dictionary entries longer than this (fuzzer::Word::kMaxSize)
LIBFUZZER_MAX_WORD = 64
_DICT_ESCAPE = re.compile(r'\\x([0-9A-Fa-f]{2})|\\([\\"])|(.)', re.S)


def dictionary_tokens(target: str) -> list[bytes]:
    """The entries of ``fuzzers/fuzz_<target>.dict`` as libFuzzer reads them: one quoted entry
    per line, with '\\\\', '\\"' and '\\xNN' escapes; entries over 64 bytes dropped."""
    tokens = []
    for line in (ROOT / "fuzzers" / f"fuzz_{target}.dict").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        body = line[line.index('"') + 1:line.rindex('"')]
        data = b"".join(bytes([int(m[1], 16)]) if m[1] else (m[2] or m[3]).encode("utf-8")
                        for m in _DICT_ESCAPE.finditer(body))
        if len(data) <= LIBFUZZER_MAX_WORD:
            tokens.append(data)
    return tokens


def seed_calls(target: str) -> list[tuple]:
    """The arguments each committed seed of ``target`` gives the invariant its ``check`` calls:
    the target is run on every seed with a recorder in place of ``properties.invariants``."""
    module = corpus_store.load_target(target)
    calls: list[tuple] = []

    class Recorder:
        def __getattr__(self, name):
            return lambda *args, **kwargs: calls.append(args)

    real, module.invariants = module.invariants, Recorder()
    try:
        for path in sorted(corpus_store.seed_dir(target).iterdir()):
            module.check(path.read_bytes())
    finally:
        module.invariants = real
    return calls


def _search_params_names(example) -> Iterator[str]:
    init, ops = example
    if isinstance(init, str):
        for pair in init.lstrip("?").split("&"):
            yield pair.partition("=")[0]
    else:
        yield from (name for name, _ in init)
    yield from (op[1] for op in ops if len(op) > 1)


@dataclasses.dataclass(frozen=True)
class Generator:
    """A generator, the samples it gives, and which groups of spellings concern it.

    ``exempt`` maps each group that does not concern it to the reason; ``excused`` maps single
    spellings of a concerned group to the reason. ``also`` gives more samples (a dictionary's
    target's seeds) and names the spellings they are for."""
    name: str
    samples: Callable[[], Iterable[Sample]]
    exempt: dict[str, str]
    excused: dict[str, str] = dataclasses.field(default_factory=dict)
    also: Callable[[], Iterable[Sample]] | None = None
    also_for: tuple[str, ...] = ()

    def concerns(self) -> list[sp.Spelling]:
        return [x for x in sp.SPELLINGS if x.group not in self.exempt and x.name not in self.excused]


DOT, IPV4, WDL, IPV6 = "dot segments", "IPv4", "Windows drive letters", "IPv6"
FHOST, FDOMAIN, JOIN, BIDI = ("forbidden host code points", "forbidden domain code points",
                              "joiners", "Bidi classes")
ASTRAL, SURR = "astral code points", "lone surrogates"


def _only(*concerned: str, **reasons: str) -> dict[str, str]:
    """The exemptions of a generator concerned with ``concerned`` groups only: every other
    group needs a reason, given by keyword (group name with spaces as '_') or as ``rest``."""
    out = {}
    for group in sp.GROUPS:
        if group.name in concerned:
            continue
        key = group.name.replace(" ", "_")
        reason = reasons.get(key) or reasons.get("rest")
        if not reason:
            raise ValueError(f"no reason why {group.name!r} does not concern this generator")
        out[group.name] = reason
    return out


_NO_HOST = "its input holds no host"
_NO_PATH = "its input holds no URL path"
_NO_NAMES = "it builds no URLSearchParams"
_SURROGATE_POSITIONS = {
    f"lone {kind} surrogate {where}": "libFuzzer inserts a token at any offset of an input; "
    "the token's own position means nothing" for kind in ("high", "low")
    for where in ("alone", "at the start", "at the end", "inside")}
_SURROGATE_POSITIONS["low surrogate then high surrogate (a reversed pair)"] = (
    "two tokens, each inserted anywhere")
#: forbidden code points a URL string cannot put raw into the host parser's input
_RAW_UNREACHABLE_IN_URLS = {
    f"{sp.code_point_name(c)} raw in a host": "the URL parser removes it or ends the host there "
    "before the host parser runs" for c in sp.RAW_UNREACHABLE_IN_URL_HOST}
#: raw forbidden code points are one byte each: libFuzzer's byte mutators write every byte
_RAW_ONE_BYTE = {f"{sp.code_point_name(c)} raw in a host": "one byte, which libFuzzer's "
                 "InsertByte and ChangeByte mutators produce without a dictionary"
                 for c in sp.FORBIDDEN_DOMAIN_CODE_POINTS}
_BASE_SPELLINGS = tuple(x.name for x in sp.DRIVE_LETTERS.spellings if "base" in x.name)

#: how many seeds each strategy is drawn with (by how many spellings it must reach), and how
#: many inputs the differential's generator gives
MANY, SOME, FEW, DIFFERENTIAL_N = 250, 200, 100, 10_000


#: the strategies the rows draw from, by number of seeds; those with the same number are
#: drawn together (one Hypothesis run per seed for all of them)
_DRAWN: dict[int, list] = {}


def _strategy(strategy, seeds: int, to_samples: Callable) -> Callable[[], list[Sample]]:
    column = len(_DRAWN.setdefault(seeds, []))
    _DRAWN[seeds].append(strategy)
    return lambda: [x for ex in strategy_examples(seeds)[column] for x in to_samples(ex)]


@functools.cache
def strategy_examples(seeds: int) -> list[list]:
    """The examples of each strategy drawn with ``seeds`` seeds, by column."""
    return [list(column) for column in zip(*draw(st.tuples(*_DRAWN[seeds]), seeds))]


def _dictionary(target: str, kind: str) -> Callable[[], list[Sample]]:
    return lambda: [Sample(kind, decode_text(t)) for t in dictionary_tokens(target)]


def _url_seeds() -> list[Sample]:
    return [Sample("url", url, base) for url, base, *_ in seed_calls("url")]


GENERATORS = (
    # -- the strategies --
    Generator("strategies.urls_and_bases",
              _strategy(s.urls_and_bases, MANY, lambda ub: [Sample("url", ub[0], ub[1])]),
              _only(DOT, WDL, ASTRAL, SURR, rest="each host spelling is held against the strategy "
                    "that builds that kind of host (the hosts, ipv4_cases, ipv6_cases and "
                    "domains rows); urls draws its hosts from those"),
              excused={"astral code point in a host": "the hosts row",
                       "astral code point in a search-params name": _NO_NAMES}),
    Generator("strategies.hosts", _strategy(s.hosts, SOME, lambda h: [Sample("host", h)]),
              _only(FHOST, FDOMAIN, ASTRAL, SURR, IPV6, dot_segments=_NO_PATH,
                    Windows_drive_letters=_NO_PATH, IPv4="the ipv4_cases row (hosts draws "
                    "ipv4_texts, built on ipv4_cases)", joiners="the domains row",
                    Bidi_classes="the domains row"),
              excused={**{x.name: "the ipv6_cases row (hosts draws ipv6_texts, built on "
                          "ipv6_cases, between brackets)" for x in sp.IPV6.spellings
                          if "unclosed" not in x.name},
                       "astral code point in a path": _NO_PATH,
                       "astral code point in a search-params name": _NO_NAMES}),
    Generator("strategies.ipv4_cases",
              _strategy(s.ipv4_cases, MANY, lambda c: [Sample("host", c.text)]),
              _only(IPV4, rest="it builds IPv4 hosts only (ASCII, full-width digits, "
                    "ideographic dots, percent-encoding)")),
    Generator("strategies.ipv6_cases",
              _strategy(s.ipv6_cases, MANY, lambda c: [Sample("ipv6", c.text)]),
              _only(IPV6, rest="it builds the text between IPv6 brackets only"),
              excused={"'[' without ']' (IPv6-unclosed)": "brackets are the host parser's "
                       "(the hosts row)"}),
    Generator("strategies.domains", _strategy(s.domains, SOME, lambda d: [Sample("host", d)]),
              _only(JOIN, BIDI, rest="the hosts row (hosts draws from domains)")),
    Generator("strategies.fast_path_urls",
              _strategy(s.fast_path_urls, SOME, lambda u: [Sample("url", u)]),
              _only(DOT, rest="the fast path takes printable-ASCII special URLs without file: "
                    "(the urls row holds the rest of the fast-path property's input)")),
    Generator("strategies.search_params_inits x search_params_ops", _strategy(
        st.tuples(st.one_of(s.search_params_inits, s.form_pairs),
                  st.lists(s.search_params_ops, max_size=8)), FEW,
        lambda example: [Sample("name", n) for n in _search_params_names(example)]),
              _only(ASTRAL, SURR, rest="URLSearchParams names and values are not parsed as URLs"),
              excused={"astral code point in a host": _NO_HOST,
                       "astral code point in a path": _NO_PATH}),
    Generator("strategies.percent_texts",
              _strategy(s.percent_texts, FEW, lambda t: [Sample("text", t)]),
              _only(SURR, rest="percent-encoding reads no URL syntax")),
    Generator("strategies.form_pairs", _strategy(
        s.form_pairs, FEW, lambda pairs: [Sample("text", x) for pair in pairs for x in pair]),
              _only(SURR, rest="application/x-www-form-urlencoded reads no URL syntax")),
    # -- the dictionaries --
    Generator("fuzz_url.dict + url seeds", _dictionary("url", "url"),
              _only(DOT, WDL, ASTRAL, SURR, rest="fuzz_host.dict, fuzz_ipv4.dict, "
                    "fuzz_ipv6.dict and fuzz_idna.dict hold the host parser's spellings"),
              excused={**_SURROGATE_POSITIONS,
                       "astral code point in a host": "fuzz_host.dict",
                       "astral code point in a search-params name": _NO_NAMES},
              also=_url_seeds, also_for=_BASE_SPELLINGS),
    Generator("fuzz_setters.dict", _dictionary("setters", "url"),
              _only(DOT, SURR, rest="fuzz_url.dict and fuzz_host.dict (the setters reach the "
                    "same parser states with a state override)"),
              excused=_SURROGATE_POSITIONS),
    Generator("fuzz_reference.dict", _dictionary("reference", "url"),
              _only(DOT, SURR, rest="fuzz_url.dict (the reference target reads the same URLs: "
                    "the fast parser and the reference are compared on them)"),
              excused=_SURROGATE_POSITIONS),
    Generator("fuzz_fast_path.dict", _dictionary("fast_path", "url"),
              _only(DOT, rest="the fast path takes printable-ASCII special URLs without file:; "
                    "its input is decoded with surrogateescape, so any byte that is not UTF-8 "
                    "is already a lone surrogate")),
    Generator("fuzz_host.dict", _dictionary("host", "host"),
              _only(IPV6, FHOST, FDOMAIN, JOIN, BIDI, ASTRAL, SURR, rest=_NO_PATH,
                    IPv4="fuzz_ipv4.dict (check_ipv4 runs the host parser too)"),
              excused={**_SURROGATE_POSITIONS, **_RAW_ONE_BYTE,
                       **{x.name: "fuzz_ipv6.dict" for x in sp.IPV6.spellings
                          if "unclosed" not in x.name},
                       "astral code point in a path": _NO_PATH,
                       "astral code point in a search-params name": _NO_NAMES}),
    Generator("fuzz_ipv4.dict", _dictionary("ipv4", "host"),
              _only(IPV4, rest="the IPv4 parser reads ASCII hosts that end in a number; "
                    "fuzz_host.dict holds the rest of the host parser")),
    Generator("fuzz_ipv6.dict", _dictionary("ipv6", "ipv6"),
              _only(IPV6, rest="the IPv6 parser reads ASCII hex digits, ':' and '.' only"),
              excused={"'[' without ']' (IPv6-unclosed)": "fuzz_host.dict (the target's "
                       "input is the text between the brackets)"}),
    Generator("fuzz_idna.dict", _dictionary("idna", "host"),
              _only(JOIN, BIDI, ASTRAL, SURR, rest="fuzz_host.dict (domain to ASCII neither "
                    "percent-decodes nor parses IP addresses; a raw forbidden code point is "
                    "one byte)"),
              excused={**_SURROGATE_POSITIONS, "astral code point in a path": _NO_PATH,
                       "astral code point in a search-params name": _NO_NAMES}),
    Generator("fuzz_public_suffix.dict", _dictionary("public_suffix", "host"),
              _only(SURR, rest="the public suffix is taken of a parsed host; fuzz_host.dict "
                    "holds the host parser's spellings"),
              excused=_SURROGATE_POSITIONS),
    Generator("fuzz_search_params.dict", _dictionary("search_params", "name"),
              _only(ASTRAL, SURR, rest="URLSearchParams names and values are not parsed as "
                    "URLs"),
              excused={**_SURROGATE_POSITIONS, "astral code point in a host": _NO_HOST,
                       "astral code point in a path": _NO_PATH}),
    *(Generator(f"fuzz_{target}.dict", _dictionary(target, "text"),
                _only(SURR, rest=f"{what} reads no URL syntax"), excused=_SURROGATE_POSITIONS)
      for target, what in (("percent", "percent-encoding"),
                           ("encodings", "percent-encoding after encoding"),
                           ("urlencoded", "application/x-www-form-urlencoded"))),
    # -- the differential's generator --
    Generator(f"urlwb.differential.generate.generate({DIFFERENTIAL_N}, seed=1)",
              lambda: [Sample("url", i, b) for i, b in generate.generate(DIFFERENTIAL_N, seed=1)],
              _only(*(g.name for g in sp.GROUPS)),
              excused={**_RAW_UNREACHABLE_IN_URLS,
                       "astral code point in a search-params name": "the differential parses "
                       "URLs, not URLSearchParams"}),
)
BY_NAME = {g.name: g for g in GENERATORS}


# -- reaching ---------------------------------------------------------------------------------

@functools.cache
def samples_of(name: str) -> tuple[list[Sample], list[Sample]]:
    g = BY_NAME[name]
    return list(g.samples()), list(g.also()) if g.also else []


def reached(samples: Iterable[Sample], spellings: list[sp.Spelling]) -> set[str]:
    """The names of ``spellings`` some sample has (each spelling tested until found)."""
    left = {x.name: x for x in spellings}
    found: set[str] = set()
    for sample in samples:
        for name, spelling in list(left.items()):
            if spelling.found_in(sample):
                found.add(name)
                del left[name]
        if not left:
            break
    return found


def missing(g: Generator) -> list[str]:
    own, also = samples_of(g.name)
    concerned = g.concerns()
    found = reached(own, concerned)
    if also:
        found |= reached(also, [x for x in concerned if x.name in g.also_for])
    return [x.name for x in concerned if x.name not in found]


def test_every_generator_reaches_every_spelling_that_concerns_it():
    report = {g.name: missing(g) for g in GENERATORS}
    report = {name: names for name, names in report.items() if names}
    assert not report, "spellings not reached:\n" + "\n".join(
        f"  {name} ({len(names)}): " + "; ".join(names) for name, names in report.items())


# -- the table itself ----------------------------------------------------------------------------

def test_the_table_states_every_cell_with_a_reason():
    groups = {g.name for g in sp.GROUPS}
    for g in GENERATORS:
        assert set(g.exempt) <= groups, f"{g.name}: unknown groups {set(g.exempt) - groups}"
        assert set(g.excused) <= set(sp.BY_NAME), (
            f"{g.name}: unknown spellings {set(g.excused) - set(sp.BY_NAME)}")
        assert all(r.strip() for r in (*g.exempt.values(), *g.excused.values()))
        assert set(g.also_for) <= {x.name for x in g.concerns()}, g.name
    for group in sp.GROUPS:
        assert any(group.name not in g.exempt for g in GENERATORS), (
            f"no generator is held to {group.name}")
    assert all(any(x in g.concerns() for g in GENERATORS) for x in sp.SPELLINGS), (
        "a spelling no generator is held to")


def test_every_dictionary_and_seed_folder_in_the_table_exists():
    dicts = {p.stem[len("fuzz_"):] for p in (ROOT / "fuzzers").glob("fuzz_*.dict")}
    named = {re.match(r"fuzz_(\w+)\.dict", g.name).group(1) for g in GENERATORS
             if g.name.startswith("fuzz_")}
    assert named == dicts, f"dictionaries without a row: {dicts - named}"


# -- the recognizers are precise ----------------------------------------------------------------

def test_each_example_has_its_own_spelling():
    for x in sp.SPELLINGS:
        if x.example is not None:
            assert x.found_in(x.example), f"{x.name}: its example {x.example} is not recognized"


#: inputs close to a spelling that do not have it: a generator that only made these would fail
NEAR_MISSES = [
    ("double-dot segment '%2e%2e'", Sample("url", "http://h/%2e%2E/")),
    ("double-dot segment '%2E%2E'", Sample("url", "http://h/%2E%2E%2E/")),
    ("single-dot segment '.'", Sample("url", "http://h/.../")),
    ("double-dot segment '..'", Sample("url", "http://../x")),   # the host, not a segment
    ("double-dot segment '..'", Sample("url", "http://h/x?/../")),  # the query
    ("single-dot segment '%2e'", Sample("url", "http://h/%2e%2")),
    ("a part with the 0X prefix", Sample("host", "0x7F.1")),
    ("a part with the 0x prefix", Sample("host", "0x7f.com")),  # does not end in a number
    ("an octal part (a leading 0)", Sample("host", "09.1")),
    ("4 parts, each a number", Sample("host", "1.2.3.4.5")),
    ("5 parts, each a number", Sample("host", "1.2.3.4")),
    ("4 parts, the last 256 (one too many: failure)", Sample("host", "1.2.256.1")),
    ("1 part, the last 4294967296 (one too many: failure)", Sample("host", "1.4294967296")),
    ("a trailing dot", Sample("host", "1.2.3.4..")),
    ("256 in a part before the last (failure)", Sample("url", "http://1.2.3.4:256/")),
    ("file URL without a host, drive letter 'X:'", Sample("url", "file:///C:a/")),
    ("file URL without a host, drive letter 'X:'", Sample("url", "http:///C:/")),
    ("file URL with a host, drive letter 'X|'", Sample("url", "file:///C|/")),
    ("file URL whose host is a drive letter 'X:'", Sample("url", "file:///C:/")),
    ("'X|' starting a relative reference, against a file base",
     Sample("url", "C|/x", "http://h/")),
    ("'/X:' starting a relative reference, against a file base",
     Sample("url", "C:/x", "file:///")),   # 'C:' is a scheme
    ("path-absolute reference against a file base with a drive letter",
     Sample("url", "/x", "file:///dir/")),
    ("'::' at the start", Sample("ipv6", "1::")),
    ("'::' after 2 pieces, with more after it", Sample("ipv6", "1:2:3::4")),
    ("'::' after 2 pieces, with more after it", Sample("ipv6", "1:2::")),
    ("IPv4 after six pieces", Sample("ipv6", "1:2:3:4:5:1.2.3.4")),
    ("rejected: IPv6-too-few-pieces", Sample("ipv6", "1:2:3:4:5:6:7:8")),
    ("rejected: IPv4-in-IPv6-too-few-parts", Sample("ipv6", "::1.2.3.4")),
    ("'[' without ']' (IPv6-unclosed)", Sample("url", "http://[::1]/")),
    ("U+0025 (%) raw in a host", Sample("host", "a%41b")),
    ("U+0025 (%) percent-encoded in a host", Sample("host", "a%2b")),
    ("U+002F (/) raw in a host", Sample("url", "http://a/b")),
    ("U+0040 (@) raw in a host", Sample("url", "http://a@b/")),
    ("U+005E (^) raw in a host", Sample("url", "http://a/^")),
    ("ZWJ after a virama", Sample("host", "a\u200d")),
    ("ZWJ after a code point that is not a virama", Sample("host", "\u0915\u094d\u200d")),
    ("ZWNJ between joining types L or D and R or D", Sample("host", "a\u200cb")),
    ("ZWNJ after a code point that is neither a virama nor in a joining context",
     Sample("host", "\u0628\u200c\u0628")),
    ("ZWJ starting a label", Sample("host", "a.b\u200d")),
    ("L in a label of a Bidi domain name", Sample("host", "abc.example")),  # not a Bidi name
    ("NSM in a label of a Bidi domain name", Sample("host", "a\u0301b")),
    ("astral code point in a path", Sample("url", "http://h/?\U0001f600")),
    ("astral code point in a host", Sample("url", "http://h/\U0001f600")),
    ("lone high surrogate anywhere", Sample("text", "\ud83d\ude00")),  # a pair
    ("lone low surrogate anywhere", Sample("text", "\ud83d\ude00")),
    ("lone high surrogate at the end", Sample("text", "\ud800a")),
    ("lone low surrogate inside", Sample("text", "a\udc00")),
]


@pytest.mark.parametrize("name, sample", NEAR_MISSES, ids=[f"{n}: {s.text!r}"[:80]
                                                              for n, s in NEAR_MISSES])
def test_a_near_miss_is_not_taken_for_the_spelling(name, sample):
    assert not sp.BY_NAME[name].found_in(sample)


def test_the_restated_ipv6_parser_fails_exactly_where_the_engine_does_and_for_its_reason():
    import engine
    texts = [c.text for c in draw(s.ipv6_cases, FEW)] + list(sp.IPV6_FAILURES.values())
    texts += [x.example.text for x in sp.IPV6.spellings if x.example.kind == "ipv6"]
    for text in texts:
        try:
            engine.parse_ipv6(text)
            expected = None
        except engine.Failure as failure:
            expected = failure.validation_error
        assert sp.ipv6_failure(text) == expected, text


# -- the test can fail ---------------------------------------------------------------------------

def test_a_dictionary_without_a_spellings_token_misses_it():
    spelling = sp.BY_NAME["double-dot segment '%2E%2E'"]
    tokens = dictionary_tokens("url")
    without = [t for t in tokens if b"%2E%2E" not in t]
    assert reached([Sample("url", decode_text(t)) for t in tokens], [spelling])
    assert not reached([Sample("url", decode_text(t)) for t in without], [spelling])


@pytest.mark.parametrize("production, remove, lost", [
    ("the lone-surrogate mutation", lambda mp: mp.setattr(generate, "MUTATIONS", [
        m for m in generate.MUTATIONS if m is not generate._lone_surrogate]),
     [x.name for x in sp.LONE_SURROGATES.spellings]),
    # and the port ':-1', whose '-' (ES) joins a file URL's host, which has no port: with
    # generate._authority_spelling, seed 1 spells 'FILE:\\/user@١中.١中:-1' once
    ("the ES code points of BIDI_CLASS_EXAMPLES", lambda mp: (mp.delitem(
        sp.BIDI_CLASS_EXAMPLES, "ES"), mp.setattr(generate, "PORTS", [p for p in generate.PORTS if "-" not in p])),
     ["ES in a label of a Bidi domain name"]),
])
def test_the_generator_without_a_spellings_production_misses_it(monkeypatch, production, remove,
                                                                 lost):
    remove(monkeypatch)  # urlwb.differential.generate reads both as it generates
    samples = [Sample("url", i, b) for i, b in generate.generate(DIFFERENTIAL_N, seed=1)]
    assert reached(samples, [sp.BY_NAME[name] for name in lost]) == set(), production


# -- the table, printed -----------------------------------------------------------------------

def table() -> str:
    width = max(len(g.name) for g in GENERATORS)
    lines = [f"{'generator':{width}}  " + "  ".join(f"{g.name[:12]:>12}" for g in sp.GROUPS)]
    for g in GENERATORS:
        miss = set(missing(g))
        cells = []
        for group in sp.GROUPS:
            if group.name in g.exempt:
                cells.append(f"{'-':>12}")
                continue
            concerned = [x for x in g.concerns() if x.group == group.name]
            got = sum(x.name not in miss for x in concerned)
            cells.append(f"{f'{got}/{len(concerned)}':>12}")
        lines.append(f"{g.name:{width}}  " + "  ".join(cells))
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
    for g in GENERATORS:
        if missing(g):
            print(f"\n{g.name} misses:", *missing(g), sep="\n  ")
