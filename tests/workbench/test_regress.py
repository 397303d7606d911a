"""Every seed and every regress input replays through its target's ``check`` (no atheris).

Seeds and ``fixed`` findings must pass; ``open`` findings are strict expected failures: an open
finding that starts passing fails the run until its sidecar says ``fixed``
(``urlwb replay --mark-fixed``). A sidecar that is corrupt or an input without one fails too.
"""

from __future__ import annotations

import pytest

from urlwb import corpus_store
from urlwb.fuzzing import signatures


def _regress_cases():
    for target in corpus_store.TARGETS:
        folder = corpus_store.regress_dir(target)
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.is_file() and path.suffix != ".json" and not path.name.startswith("."):
                yield pytest.param(target, path, id=f"{target}/regress/{path.name[:12]}")


@pytest.mark.parametrize("target", list(corpus_store.TARGETS))
def test_seeds(target):
    """One test per target (a test per seed costs more in pytest than the checks themselves):
    every failing seed is named, with its invariant's message."""
    check = corpus_store.load_target(target).check
    failures = []
    for path in corpus_store.iter_seeds(target):
        data = corpus_store.read_input(path)   # None for a FIFO or an unreadable file: skipped
        if data is None:
            continue
        try:
            check(data)
        except AssertionError as exc:
            failures.append(f"{path.name}: {str(exc)[:300]}")
    assert not failures, f"{len(failures)} seeds of {target} fail:\n" + "\n".join(failures)


@pytest.mark.parametrize("target,path", list(_regress_cases()))
def test_regress(target, path):
    side = corpus_store.sidecar_path(path)
    assert side.exists(), f"{path}: input without sidecar (an interrupted filing; re-file it)"
    meta = corpus_store.load_sidecar(side)
    assert meta["target"] == target, f"{side}: says target {meta['target']!r}, lives under {target!r}"
    module = corpus_store.load_target(target)
    check = module.check
    data = path.read_bytes()
    # An entry about a parser outside the process (filed against Go's net/url, say) cannot be
    # judged where that parser is not built: skipped with the reason, never passed.
    reason = getattr(module, "cannot_replay", lambda data: None)(data)
    if reason:
        pytest.skip(reason)
    if meta["status"] == "fixed":
        check(data)
        return
    found = [sig for _, sig, _ in signatures.of_entry(corpus_store.load_target(target), data)]
    if found:
        # One signature scheme (urlwb.fuzzing.signatures): what triage and replay would file this input
        # under now is what its sidecar says, so it cannot be filed twice.
        assert meta["signature"] in found, (
            f"{side}: stored signature {meta['signature']!r}, computed now {found!r} "
            f"(urlwb replay --migrate-signatures {target})")
        pytest.xfail(f"open: {meta['signature']}: {meta.get('note', '')[:200]}")
    pytest.fail(f"{path}: open finding {meta['signature']} now passes: set its status to fixed "
                f"(urlwb replay --mark-fixed {target})")


def test_every_core_target_has_seeds():
    for target in corpus_store.CORE_TARGETS:
        assert target in corpus_store.TARGETS, f"fuzzers/fuzz_{target}.py is missing"
        assert sum(1 for _ in corpus_store.iter_seeds(target)) > 0, f"corpus/{target}/seed/ is empty"
