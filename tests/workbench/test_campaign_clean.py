"""A correct engine gives a clean campaign: every fuzz target's check passes on mutations of its
committed corpora, drawn from several seeds, the way a campaign's libFuzzer round would make them
(byte edits, the target's dictionary tokens inserted, two inputs spliced).

A false finding on the unmodified engine (a peer's deviation read as an engine bug) costs users
their trust in every other finding, and which one a campaign meets depends on its luck: so this
draws from three seeds, not one. It is what caught the independent checks calling ``idna``'s
per-label Bidi rule an engine bug (``a.0s3-x2\u03cc\u03c04x3s.xn--epb``; ``bidi_domain`` read only
U-labels): with that check restored, the ``idna`` row fails within its first seed.
"""

from __future__ import annotations

import pathlib
import random

import pytest

from test_spellings import dictionary_tokens
from urlwb import corpus_store

ROOT = pathlib.Path(__file__).resolve().parents[2]
SEEDS = (1, 2, 3)
#: mutants of each target's corpus per seed
PER_SEED = 1500


def dictionary(target: str) -> list[bytes]:
    """The tokens of ``fuzzers/fuzz_<target>.dict`` as libFuzzer reads them (none without one)."""
    if not (ROOT / "fuzzers" / f"fuzz_{target}.dict").is_file():
        return []
    return dictionary_tokens(target)


def mutate(rng: random.Random, data: bytes, corpus: list[bytes], tokens: list[bytes]) -> bytes:
    """One to four of libFuzzer's kinds of edit."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(6)
        at = rng.randint(0, len(out))
        if kind == 0 and tokens:
            out[at:at] = rng.choice(tokens)
        elif kind == 1 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif kind == 2 and out:
            del out[at:at + rng.randint(1, 4)]
        elif kind == 3:
            out[at:at] = bytes([rng.randrange(256)])
        elif kind == 4 and corpus:
            other = rng.choice(corpus)
            cut = rng.randint(0, len(other))
            out = out[:at] + other[cut:]
        elif out:
            piece = out[at:at + rng.randint(1, 8)]
            out[at:at] = piece
    return bytes(out)


@pytest.mark.parametrize("target", sorted(corpus_store.TARGETS))
def test_no_check_fails_on_mutations_of_the_committed_corpora(target):
    module = corpus_store.load_target(target)
    corpus = [p.read_bytes() for p in corpus_store.iter_seeds(target)] or [b""]
    tokens = dictionary(target)
    for seed in SEEDS:
        rng = random.Random(f"{target}:{seed}")
        for _ in range(PER_SEED):
            data = mutate(rng, rng.choice(corpus), corpus, tokens)
            try:
                module.check(data)
            except AssertionError as exc:
                pytest.fail(f"seed {seed}: {target}'s check fails on {data!r} with the unmodified engine: "
                            f"{str(exc).splitlines()[0][:300]}")
