"""The forbidden host and domain code points, defined once (engine.infra), and every regular
expression character class the engine derives from them, checked on every code point.

https://url.spec.whatwg.org/#forbidden-host-code-point
https://url.spec.whatwg.org/#forbidden-domain-code-point
"""

import random
import re

import pytest

from engine import fast_path, host, idna, infra
from engine.percent_encoding import C0_CONTROL_PERCENT_ENCODE_SET

# Every code point, surrogates included (a Python str may hold them), in order.
EVERY_CODE_POINT = "".join(map(chr, range(0x110000)))


def matched(pattern: str | re.Pattern) -> str:
    """The code points that ``pattern``, a one-code-point class, matches, in order."""
    return "".join(re.findall(pattern, EVERY_CODE_POINT))


def members(predicate) -> str:
    return "".join(c for c in EVERY_CODE_POINT if predicate(c))


def test_forbidden_host_code_points_are_the_standards():
    # "U+0000 NULL, U+0009 TAB, U+000A LF, U+000D CR, U+0020 SPACE, U+0023 (#), U+002F (/),
    # U+003A (:), U+003C (<), U+003E (>), U+003F (?), U+0040 (@), U+005B ([), U+005C (\),
    # U+005D (]), U+005E (^), or U+007C (|)."
    listed = [0x00, 0x09, 0x0A, 0x0D, 0x20, 0x23, 0x2F, 0x3A, 0x3C, 0x3E, 0x3F, 0x40, 0x5B, 0x5C,
              0x5D, 0x5E, 0x7C]
    assert infra.FORBIDDEN_HOST_CODE_POINTS == frozenset(map(chr, listed))


def test_forbidden_domain_code_points_are_the_standards():
    # "a forbidden host code point, a C0 control, U+0025 (%), or U+007F DELETE."
    c0_controls = {chr(cp) for cp in range(0x20)}
    expected = set(infra.FORBIDDEN_HOST_CODE_POINTS) | c0_controls | {"%", "\x7f"}
    assert infra.FORBIDDEN_DOMAIN_CODE_POINTS == expected


def test_one_definition():
    # engine.host offers the sets; they are engine.infra's, not copies.
    assert host.FORBIDDEN_HOST_CODE_POINTS is infra.FORBIDDEN_HOST_CODE_POINTS
    assert host.FORBIDDEN_DOMAIN_CODE_POINTS is infra.FORBIDDEN_DOMAIN_CODE_POINTS


# Each derived character class, and the code points it must match: name -> (pattern, predicate).
DERIVED = {
    # The opaque-host parser's step 1 (engine.host).
    "opaque-host parser: forbidden host code point": (
        host._forbidden_host.__self__, lambda c: c in infra.FORBIDDEN_HOST_CODE_POINTS),
    # The domain parser's last step, and its ASCII shortcut (engine.idna).
    "domain to ASCII: forbidden domain code point": (
        idna._forbidden_domain.__self__, lambda c: c in infra.FORBIDDEN_DOMAIN_CODE_POINTS),
    "domain to ASCII, ASCII shortcut: empty or forbidden domain code point": (
        idna._empty_or_forbidden_domain.__self__,
        lambda c: c in infra.FORBIDDEN_DOMAIN_CODE_POINTS),
    # The URL parser's fast path (engine.fast_path): an opaque host it takes as it is (no
    # forbidden host code point, nothing the opaque-host parser would percent-encode).
    "fast path: opaque host code point": (
        fast_path._OPAQUE_HOST,
        lambda c: (c not in infra.FORBIDDEN_HOST_CODE_POINTS
                   and c not in C0_CONTROL_PERCENT_ENCODE_SET)),
}


@pytest.mark.parametrize("name", DERIVED)
def test_derived_class_agrees_on_every_code_point(name):
    pattern, predicate = DERIVED[name]
    if isinstance(pattern, re.Pattern) and "\\A\\Z|" in pattern.pattern:
        # (The alternative for the empty string matches once, at the end; a code point, never.)
        assert pattern.search("") is not None
        pattern = pattern.pattern.replace("\\A\\Z|", "")
    assert matched(pattern) == members(predicate)


def test_derived_classes_are_not_trivial():
    # Each class concerns a few code points, not none or nearly all.
    for name, (pattern, predicate) in DERIVED.items():
        assert 10 < len(members(predicate)) < 200, name


@pytest.mark.parametrize("seed", range(8))
def test_character_class(seed):
    rng = random.Random(seed)
    chosen = {chr(rng.choice([rng.randrange(0x80), rng.randrange(0x110000)]))
              for _ in range(rng.randrange(1, 40))}
    chosen |= {chr(cp) for cp in range(0x5A, 0x5F)}  # "Z[\\]^", a run and the class's own syntax
    assert matched(infra.character_class(chosen)) == "".join(sorted(chosen))
    others = EVERY_CODE_POINT.translate(dict.fromkeys(map(ord, chosen)))
    assert matched(infra.character_class(chosen, negated=True)) == others
