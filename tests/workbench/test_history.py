"""``urlwb hunt PARSER@OLD``'s comparison with a newer release (``urlwb.hunt.history``), and the
replay of what it filed in ``corpus/history/``.

The comparison's power is shown on the planted parser (``planted_parser.py``: another host on
inputs holding ``~q``) and its fixed release (``parse_fixed``): the old release's signature must
come out as fixed with a minimized witness, swapped releases as a regression, one release against
itself as still. The replay asks, for every committed entry, the shipped (newer) release: it must
still agree with the Standard on the witness; with ``--run-slow`` the old release is built (the
versions cache) and must still show the entry's signature.
"""

from __future__ import annotations

import functools
import json
import pathlib
import sys

import pytest

from urlwb import corpus_store, oracles
from urlwb.hunt import history

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

SEEDS = ["http://example.com/", "http://a/~x", "https://b/c?d"]
HUNTED = ["http://host.example/path~q/more?and=more", "http://c/~r"]


@pytest.fixture
def planted_releases(monkeypatch):
    before = dict(oracles.REGISTRY)
    oracles.configure(["planted-old=py:planted_parser:parse", "planted-new=py:planted_parser:parse_fixed"],
                      config=False)
    yield
    oracles.REGISTRY.clear()
    oracles.REGISTRY.update(before)


def _kinds(h):
    return {c["kind"] for c in h["changes"]}


def test_a_fixed_bug_is_found_minimized_and_filed(planted_releases, tmp_path, monkeypatch):
    h = history.compare("planted-old", "planted-new", "planted", SEEDS, HUNTED, log=lambda line: None)
    assert _kinds(h) == {"fixed"}, h["changes"]
    (fixed,) = h["changes"]
    assert fixed["signature"].startswith("host-origin") and fixed["signature"].endswith("engine~planted")
    assert fixed["seen_in"] == "hunted" and fixed["count"] == 1
    assert "~q" in fixed["minimized"] and len(fixed["minimized"]) < len(HUNTED[0])
    assert fixed["answers"]["planted-old"] != fixed["answers"]["planted-new"] == fixed["answers"]["engine"]
    assert "evil.example" in fixed["answers"]["planted-old"]
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path))
    path = history.file_entry("planted", h, fixed, "test")
    entry = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    assert entry["input"] == fixed["minimized"] and entry["old"] == "planted-old"
    assert entry["signature"] == fixed["signature"] and entry["confirmed_by"] is None
    assert history.file_entry("planted", h, fixed, "test") is None   # one per (release, signature)


def test_swapped_releases_are_a_regression_and_one_release_is_still(planted_releases):
    h = history.compare("planted-new", "planted-old", "planted", SEEDS, HUNTED, log=lambda line: None)
    assert _kinds(h) == {"regressed"}
    (regressed,) = h["changes"]
    assert "~q" in regressed["minimized"] and len(regressed["minimized"]) < len(HUNTED[0])
    assert "evil.example" in regressed["answers"]["planted-old"]   # the new release, here
    h = history.compare("planted-old", "planted-old", "planted", SEEDS, HUNTED, minimize=False,
                        log=lambda line: None)
    assert _kinds(h) == {"still"}


def test_a_release_that_cannot_start_is_said_not_raised(planted_releases):
    from urlwb.hunt import report
    oracles.configure(["planted-gone=py:no_such_module_of_urlwb:parse"], config=False)
    h = history.compare("planted-old", "planted-gone", "planted", SEEDS, HUNTED, log=lambda line: None)
    assert h["changes"] == [] and "planted-gone did not start" in h["skipped"]
    assert "Not compared: planted-gone did not start" in "\n".join(report._history(h))


def test_a_seed_input_showing_it_is_said(planted_releases):
    h = history.compare("planted-old", "planted-new", "planted", SEEDS + [HUNTED[0]], [],
                        minimize=False, log=lambda line: None)
    assert [c["seen_in"] for c in h["changes"]] == ["seeds"]


def _entries():
    folder = ROOT / "corpus" / "history"
    return sorted(folder.glob("*/*.json")) if folder.is_dir() else []


def _loaded(name, cache={}):
    """The engine and ``name`` (a ``PARSER@VERSION`` built and registered first), started once;
    (None, the reason) when it cannot be had here."""
    if name not in cache:
        from urlwb.errors import UsageError
        from urlwb.oracles.versions import names
        try:
            names.resolve_names([name])
        except UsageError as exc:
            cache[name] = (None, str(exc))
            return cache[name]
        loaded, skipped = oracles.load(["engine", name])
        cache[name] = (loaded if name in loaded else None, skipped.get(name))
    return cache[name]


def _replayed(path, which: str) -> tuple[dict, dict]:
    """The entry at ``path`` and, for its ``which`` release ("old" or "new"), every peer's
    signature on its witness (skipped, with the reason, where that release is not available)."""
    entry = json.loads(path.read_text(encoding="utf-8"))
    loaded, why = _loaded(entry[which])
    if loaded is None:
        pytest.skip(f"{entry[which]} is not available: {why}")
    return entry, history.disagreements(entry["input"], loaded, entry["parser_base"])


def test_the_history_corpus_is_committed():
    assert len(_entries()) >= 4, "corpus/history/ holds the fixed findings of urlwb hunt PARSER@OLD"


@pytest.mark.parametrize("path", _entries(), ids=lambda p: f"{p.parent.name}/{p.name[:12]}")
def test_an_entry_names_its_releases_and_no_published_witness(path):
    """What ``file_entry`` writes, and what a history must not be: a WPT input (published test
    data) as its witness. ``confirmed_by`` is the changelog or advisory line a person read."""
    entry = json.loads(path.read_text(encoding="utf-8"))
    from urlwb.differential.generate import wpt_cases
    assert entry["input"] not in {t for t, _ in wpt_cases()} and entry["in_wpt"] is False
    # the findings record's parser is the release that behaves so; parser_base the shipped name
    assert entry["parser"] == entry["old"] and entry["verdict"]["kind"] in ("bug", "hazard")
    assert entry["old"].startswith(entry["parser_base"] + "@") and entry["old_version"] != "?"
    assert entry["new"].partition("@")[0] == entry["parser_base"] and entry["new_version"] != "?"
    assert set(entry["answers"]) == {"engine", entry["old"], entry["new"]}
    old, std = entry["old"], "engine"
    assert (entry["answers"][old], entry.get("records", {}).get(old)) != (entry["answers"][std], entry.get("records", {}).get(std))
    assert path.name == f"{corpus_store.sha1(entry['input'].encode('utf-8', 'surrogatepass'))}.json"
    assert entry["confirmed_by"] is None or len(entry["confirmed_by"]) > 20
    # nor a seed of the hunt that found it, nor a dictionary token: minimized from what was hunted
    assert entry["input"] not in _hunt_seeds(entry["found_by"])
    assert entry["input"].encode("utf-8", "surrogatepass") not in _dictionary()


@functools.lru_cache(maxsize=None)
def _hunt_seeds(command: str) -> frozenset:
    from urlwb.hunt import seeds
    words = command.split()
    value = lambda flag, default: words[words.index(flag) + 1] if flag in words else default
    return frozenset(seeds.seed_inputs(int(value("--generate", "2000")), int(value("--seed", "0")),
                                       value("--seeds", "wpt")))


@functools.lru_cache(maxsize=None)
def _dictionary() -> frozenset:
    from test_spellings import dictionary_tokens
    return frozenset(dictionary_tokens("url"))   # the hunts' dictionary: fuzzers/fuzz_url.dict


@pytest.mark.parametrize("path", _entries(), ids=lambda p: f"{p.parent.name}/{p.name[:12]}")
def test_the_newer_release_still_agrees_with_the_standard(path):
    entry, got = _replayed(path, "new")
    assert entry["new"] not in got, f"{entry['new']} disagrees again on {entry['input']!r}: {got}"


@pytest.mark.slow
@pytest.mark.parametrize("path", _entries(), ids=lambda p: f"{p.parent.name}/{p.name[:12]}")
def test_the_old_release_still_shows_its_signature(path):
    entry, got = _replayed(path, "old")
    assert got.get(entry["old"]) == entry["signature"], got


@pytest.mark.slow
def test_hunting_an_old_release_files_what_the_new_one_fixed(tmp_path):
    """End to end, on a real old release (yarl 1.8.1, built in the versions cache: a pip
    install): atheris inside that release, the comparison with the shipped yarl, the fixed
    signatures filed in the (temporary) corpus/history/yarl/, the report's history section."""
    import os
    import subprocess
    env = dict(os.environ, URLWB_WORKDIR=str(tmp_path / "work"), URLWB_CORPUS=str(tmp_path / "corpus"))
    out = tmp_path / "report"
    proc = subprocess.run([sys.executable, "-m", "urlwb.cli", "hunt", "yarl@1.8.1", "--minutes", "2",
                           "--executions", "20000", "--seed", "1", "--seeds", "grammar", "--generate", "300",
                           "--no-reach", "--out", str(out)], env=env, capture_output=True, text=True,
                          timeout=900, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    s = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    h = s["history"]
    assert h["old"] == "yarl@1.8.1" and h["old_version"] == "1.8.1" and h["new"] == "yarl"
    fixed = [c for c in h["changes"] if c["kind"] == "fixed"]
    assert fixed and all(c["filed"] for c in fixed)
    assert s["findings"] and not (tmp_path / "corpus" / "differential" / "regress").exists()
    filed = sorted((tmp_path / "corpus" / "history" / "yarl").glob("*.json"))
    assert len(filed) == len(fixed)
    assert "against yarl" in (out / "report.md").read_text(encoding="utf-8")
