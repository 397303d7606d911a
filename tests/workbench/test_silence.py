"""No long command is silent for more than ten seconds (issue 30), held at run time.

Each long command is run in this process (``urlwb.cli.main``, or the campaign's round functions)
on a planted slow part: a parser or validator that sleeps a planted time a call
(``tests/workbench/planted_slow.py``), or a stage (a build, a distillation, a history, a client's
observation) planted :data:`STEP` seconds long. Time is scaled down: ``progress.EVERY`` is
:data:`EVERY` (0.1 s, not 8 s), and stderr notes the time of each line. The longest gap between
two lines on stderr, from the command's first line to its return, must stay under :data:`BOUND`.

The margins hold on a loaded machine (issue 39: 1.29 s of silence against a bound of 1.2 s failed
``test_reach`` in a full run on a quiet machine), each a few times the next:

- progress far more often than the bound: EVERY is a twentieth of BOUND;
- the bound a few times the worst silence seen with two CPU-bound processes beside the test
  (0.62 s, ``test_ssrf_inputs_observed_through_a_client``): BOUND is 2 s;
- a planted slow part several times the bound: each command is made to take more than
  :data:`LONG` (three times BOUND), so that a command that fell silent would be silent for far
  longer than the bound.

The garbage collector is run and its heap frozen before each command (``gc.freeze``): late in a
full run the test process holds thousands of tests' objects, and a full collection of them is a
pause no command can speak through. The start-up before a command's first line (imports,
loading parsers) is not scaled: it is held to the issue's ten seconds.
``test_a_silent_command_fails_the_check`` plants a silence (the command's progress a no-op,
``planted_mute``) and shows the check catches it; ``pytest -p planted_mute`` does it to every
command here (each check then fails).
"""

from __future__ import annotations

import dataclasses
import gc
import io
import pathlib
import sys
import time

import pytest

from built import built
from urlwb import cli, oracles, progress
from urlwb.verdicts import judge  # noqa: F401  (its grammar takes seconds to import: not a command's start-up)

#: progress.EVERY while a test runs, seconds (8 s in use)
EVERY = 0.1
#: the longest silence allowed: twenty times EVERY, three times the worst silence measured under a
#: two-process CPU burn (0.62 s)
BOUND = 2.0
#: every command here is planted to take longer than this: three times BOUND
LONG = 3 * BOUND
#: seconds each call of the planted slow parser / validator sleeps
SLEEP = "0.1"
#: seconds of one planted stretch (a build, a history, a distillation): alone longer than LONG; a
#: command with two stretches gives each half of it
STEP = LONG + 0.5


class _Timed(io.StringIO):
    """stderr that notes when each write came."""

    def __init__(self):
        super().__init__()
        self.times: list[float] = []

    def write(self, s):
        if s.strip():
            self.times.append(time.monotonic())
        return super().write(s)

    def isatty(self):
        return False


@dataclasses.dataclass
class Heard:
    silence: float   # the longest gap between two lines on stderr, seconds
    took: float      # from the first line to the return, seconds
    said: str        # what stderr got
    result: object   # what the work returned
    startup: float   # from the call to the first line, seconds


def _heard(monkeypatch, work, sleep: str = SLEEP) -> Heard:
    """Run ``work()`` with progress.EVERY scaled down and stderr timed (``sleep``: seconds a call
    of the planted slow parser takes)."""
    monkeypatch.setattr(progress, "EVERY", EVERY)
    monkeypatch.setenv("PLANTED_SLOW_SECONDS", sleep)
    err = _Timed()
    monkeypatch.setattr(sys, "stderr", err)
    gc.collect()
    gc.freeze()   # the suite's heap so far: no full collection of it pauses the command
    try:
        t0 = time.monotonic()
        result = work()
        t1 = time.monotonic()
    finally:
        gc.unfreeze()
    # from the first line to the return: the work and what follows it (a report written after
    # the last line is a silence too); the start-up before the first line (loading the parsers)
    # is not scaled down and is held to the issue's own ten seconds
    times = [*(err.times[:1] or [t0]), *err.times[1:], t1]
    gaps = [b - a for a, b in zip(times, times[1:])]
    return Heard(max(gaps), t1 - times[0], err.getvalue(), result, times[0] - t0)


def _main(*argv):
    return lambda: cli.main([str(a) for a in argv])


@pytest.fixture
def registered():
    """Oracles the test registers (``--oracle``) are taken out again."""
    before = set(oracles.REGISTRY)
    yield
    for name in set(oracles.REGISTRY) - before:
        oracles.REGISTRY.pop(name, None)


def _held(h: Heard, longer_than: float = LONG) -> None:
    print(f"the longest silence {h.silence:.2f} s in {h.took:.2f} s (start-up {h.startup:.2f} s)")
    assert h.startup < 10.0, (h.startup, h.said[:2000])   # unscaled: the bound
    assert h.took > longer_than, (h.took, h.said[-2000:])   # the planted part made it long
    assert h.silence < BOUND, (h.silence, h.said[-3000:])


# -- the commands -----------------------------------------------------------------------------------

def _growth(tmp_path):
    return _main("growth", "--parsers", "slow", "--oracle", "slow=py:planted_slow:parse",
                 "--shapes", "path slashes", "--lengths", "100,200", "--no-file", "--out", tmp_path / "out")


def test_growth(tmp_path, monkeypatch, registered):
    h = _heard(monkeypatch, _growth(tmp_path), sleep="1.1")   # 6 calls: 6.6 s, longer than LONG
    assert h.result in (0, 1), h.said
    _held(h)


def _ssrf_hunt(tmp_path):
    return _main("ssrf", "--oracle", "mine=py:planted_slow:permissive", "--parsers", "engine",
                 "--clients", "none", "--minutes", "0.02", "--batch", "5", "--guided-seconds", "0",
                 "--no-file", "--out", tmp_path / "out")


def test_ssrf_hunt(tmp_path, monkeypatch, registered):
    """The generated hunt, its minimization, and the history of a pair of releases (planted: the
    validator against itself, STEP longer)."""
    from urlwb.ssrf import command
    monkeypatch.setattr(command, "MINIMIZE_SECONDS", 0.4)
    monkeypatch.setattr(command, "_history_pairs", lambda declared, started: [("mine", "mine")])
    history = command.hunt.history
    monkeypatch.setattr(command.hunt, "history", lambda *a, **k: (time.sleep(STEP), history(*a, **k))[1])
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    h = _heard(monkeypatch, _ssrf_hunt(tmp_path))
    assert h.result in (0, 1), h.said
    _held(h)


def test_ssrf_inputs(tmp_path, monkeypatch, registered):
    """``--inputs``: the validators' start planted STEP long (it says when it begins, so that
    the start is measured, not taken for the start-up), then the slow validator on 6 inputs."""
    from urlwb.ssrf import catalog
    start = catalog.start

    def slow_start(declared):
        print("(planted) the validators' start begins", file=sys.stderr)
        time.sleep(STEP)
        return start(declared)
    monkeypatch.setattr(catalog, "start", slow_start)
    listing = tmp_path / "inputs.txt"
    listing.write_text("".join(f"http://h{i}.example/\n" for i in range(5)) + "http://127.0.0.1/\n", "utf-8")
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    h = _heard(monkeypatch, _main("ssrf", "--inputs", listing, "--oracle", "mine=py:planted_slow:permissive",
                                  "--parsers", "engine", "--clients", "none", "--out", tmp_path / "out"))
    assert h.result in (0, 1), h.said
    _held(h)


def test_ssrf_inputs_observed_through_a_client(tmp_path, monkeypatch):
    """``--inputs`` through a real client (python-urllib in the sealed network), the observation
    planted STEP longer."""
    from urlwb.ssrf.observe import network
    from urlwb.ssrf.observe import run as observing
    why = network.available()
    if why is not None:
        pytest.skip(f"no network namespace here: {why}")
    built("ipaddress", "python-urllib")
    observe = observing.observe.observe
    monkeypatch.setattr(observing.observe, "observe", lambda *a, **k: (time.sleep(STEP), observe(*a, **k))[1])
    listing = tmp_path / "inputs.txt"
    listing.write_text("http://0x7f.1/\nhttp://example.com/\n", "utf-8")
    h = _heard(monkeypatch, _main("ssrf", "--inputs", listing, "--oracle", "ipaddress",
                                  "--clients", "python-urllib", "--out", tmp_path / "out"))
    assert h.result in (0, 1), h.said
    assert (tmp_path / "out" / "observed.jsonl").exists()
    _held(h)


def _bisect(tmp_path, monkeypatch):
    """bisect with its registry and builds planted (planted_bisect): two releases, each build half
    of STEP long."""
    from planted_bisect import plant_bisect
    plant_bisect(monkeypatch, delay=STEP / 2)
    return _main("bisect", "whatwg-url", "http://a~q.example/", "--out", tmp_path)


def test_bisect(tmp_path, monkeypatch, registered):
    h = _heard(monkeypatch, _bisect(tmp_path, monkeypatch))
    assert h.result == 0, h.said
    _held(h)


def _hunt(tmp_path, monkeypatch):
    """A short hunt whose fuzzing loop is planted 0.5 s longer (a real fuzzer's run of a few
    seconds ends early on a loaded machine), then its distillation and its reach measurement,
    each planted half of STEP long."""
    from urlwb.hunt import command
    monkeypatch.setenv("URLWB_WORKDIR", str(tmp_path / "work"))
    monkeypatch.setenv("URLWB_CORPUS", str(tmp_path / "corpus"))
    loop = command.runners.hunt_loop
    monkeypatch.setattr(command.runners, "hunt_loop", lambda *a, **k: (time.sleep(0.5), loop(*a, **k))[1])
    monkeypatch.setattr(command.distill, "distill", lambda runner: (time.sleep(STEP / 2), [])[1])
    monkeypatch.setattr(command, "_reach", lambda *a: (time.sleep(STEP / 2), (None, None))[1])
    return _main("hunt", "planted", "--oracle", "planted=py:planted_parser:parse", "--minutes", "0.02",
                 "--generate", "10", "--no-judge", "--out", tmp_path / "out")


def test_hunt(tmp_path, monkeypatch, registered):
    h = _heard(monkeypatch, _hunt(tmp_path, monkeypatch))
    assert h.result in (0, 1), h.said
    _held(h)


def test_reach(tmp_path, monkeypatch, registered):
    h = _heard(monkeypatch, _main("reach", "--parsers", "slow", "--oracle", "slow=py:planted_slow:parse", "--generate", "10",
                                  "--out", tmp_path / "out"), sleep="0.7")
    assert h.result == 0, h.said
    _held(h)


# -- the campaign's rounds ----------------------------------------------------------------------------
# Under --schedule gain the differential and long-input rounds run on a thread beside the fuzzing,
# outside guarded()'s heartbeat: each must speak on its own. Each round keeps within its budget,
# a little under it (the report's share: 6.5 s of 7.5), so each is given two seconds more than STEP.

def test_campaign_differential_round(tmp_path, monkeypatch, registered):
    from urlwb.differential import command, generate
    oracles.configure(["slow=py:planted_slow:parse"], config=False)
    monkeypatch.setattr(command, "_all_names", lambda: ["engine", "slow"])
    monkeypatch.setattr(generate, "wpt_cases", lambda: [(f"http://w{i}.example/", None) for i in range(8)])
    monkeypatch.setattr(command, "corpus_cases", lambda target: [])
    monkeypatch.setattr(command, "working_cases", lambda target: [])
    h = _heard(monkeypatch, lambda: command.campaign_round(tmp_path, STEP + 2.0, seed=0, floor=1),
               sleep="0.3")
    assert h.result["summary"], h.said
    _held(h)


def test_campaign_growth_round(tmp_path, monkeypatch, registered):
    from urlwb.growth import command
    oracles.configure(["slow=py:planted_slow:parse"], config=False)
    monkeypatch.setattr(command, "CAMPAIGN_SHARE", 0.5)
    h = _heard(monkeypatch, lambda: command.growth_round(tmp_path, STEP + 2.0, names=["slow"], seed=0,
                                                         lengths=(100, 200)))
    assert h.result["summary"], h.said
    _held(h)


def test_a_round_under_guarded_speaks(monkeypatch):
    """The other rounds (triage, coverage, findings.jsonl) speak through guarded()'s heartbeat."""
    from urlwb.campaign.run import guarded
    errors: list[dict] = []
    h = _heard(monkeypatch, lambda: (print("round begins", file=sys.stderr),
                                     guarded(errors, "coverage before", lambda: time.sleep(STEP) or 1, 0),
                                     print("round ends", file=sys.stderr))[1])
    assert h.result == 1 and errors == []
    _held(h)


def test_oracle_check_all(monkeypatch):
    """``urlwb oracle check --all``, three of its adapters, each check planted a third of STEP long."""
    from urlwb.differential import oracle_check
    selected = oracle_check.selected
    monkeypatch.setattr(oracle_check, "selected", lambda args: [s for s in selected(args) if not s.skip][:3])
    monkeypatch.setattr(oracle_check, "check", lambda spec, log=print: (time.sleep(STEP / 3), [])[1])
    h = _heard(monkeypatch, _main("oracle", "check", "--all"))
    assert h.result == 0, h.said
    _held(h)


def test_export_tests_run(tmp_path, monkeypatch):
    """``urlwb export tests --run``: two releases, each install and test run planted half of STEP long."""
    from urlwb.export import runner

    def run(lang, parser, version, folder, files, log=None):
        time.sleep(STEP / 2)
        return runner.Result(f"{parser}@{version}", True, "planted", "")
    monkeypatch.setattr(runner, "run", run)
    finding = (pathlib.Path(__file__).resolve().parents[2] / "corpus" / "history" / "url-parse"
               / "7d5fbf374c521c131a6b7ef21f5b384811cf19e6.json")
    h = _heard(monkeypatch, _main("export", "tests", "--lang", "js", "url-parse", "--no-corpus",
                                  "--findings", finding, "--run", "1.5.7", "--run", "1.5.8",
                                  "--out", tmp_path / "out"))
    assert h.result == 0, h.said
    _held(h)


def _cache_clean(tmp_path, monkeypatch):
    """``urlwb cache clean`` of two planted caches, each sized in half of STEP."""
    from urlwb.versions import cache
    roots = [tmp_path / "a", tmp_path / "b"]
    for r in roots:
        (r / "x" / "1.0.0").mkdir(parents=True)
        (r / "x" / "1.0.0" / "f").write_text("x")
    monkeypatch.setattr(cache, "roots", lambda: roots)
    size_of = cache.size_of
    monkeypatch.setattr(cache, "size_of", lambda p: (time.sleep(STEP / 2), size_of(p))[1])
    return _main("cache", "clean")


def test_cache_clean(tmp_path, monkeypatch):
    h = _heard(monkeypatch, _cache_clean(tmp_path, monkeypatch))
    assert h.result == 0, h.said
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
    _held(h)


# -- the check itself ---------------------------------------------------------------------------------

def test_a_silent_command_fails_the_check(tmp_path, monkeypatch):
    """The same cache clean as test_cache_clean, its progress planted silent: the check finds
    the silence (``-p planted_mute`` does this to every command above)."""
    from planted_mute import mute
    from urlwb.versions import cache
    monkeypatch.setattr(cache.progress, "task", mute)
    h = _heard(monkeypatch, _cache_clean(tmp_path, monkeypatch))
    assert h.result == 0, h.said
    assert h.took > LONG and h.silence >= BOUND, (h.took, h.silence, h.said)
