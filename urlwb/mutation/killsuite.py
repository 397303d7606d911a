"""The kill suite of ``urlwb mutants``: every check the workbench has, in one process, stopping at
the first one that notices the engine is wrong.

A mutant of the engine is *killed* when one of these checks fails on it (an assertion, or any
exception other than ``engine.Failure`` escaping the engine), in this order, cheapest and
sharpest first so that most mutants die within a second or two:

1. ``wpt:<suite>``: the vendored conformance data (WPT's urltestdata, setters, toascii,
   IdnaTestV2 and percent-encoding files, the PSL's test file), case by case
   (``urlwb.measure.conformance``), ``wpt-reference:<suite>`` the same on the engine's spec-literal
   reference parser; then ``wpt:invariants``, the invariants on every one of its inputs
   (with the parser listening for validation errors, which the expected results do not);
2. ``unit:<file>``: the engine's unit tests named in UNIT_TESTS, by pytest in this process (the
   only checks of validation-error names, the API's own methods and TypeError for wrong types);
3. ``corpus:<target>``: every committed input of each fuzz target (``corpus/<target>/seed/``, any
   other committed folder such as a distilled corpus, and ``regress/``) replayed through the
   target's ``check``, as ``make test`` replays them: ``fixed`` findings and seeds must pass,
   ``open`` findings must still fail. Differential findings against a parser that does not run
   in this process (Node) are left out;
4. ``differential:<target>``: the URLs each target's committed inputs give the engine (the
   target's ``differential_cases``), parsed by the in-process WHATWG oracles (``ada_url``,
   ``upa_url``, ``pywhatwgurl``) and compared with the engine, known deviations left out, and
   the disagreements the unmutated engine has too (``--differences``, recorded by the run on the
   unmutated engine with ``--record-differences``): the question is whether a mutant changes
   the engine's agreement with its peers, not whether the peers are right;
5. ``exhaustive:encoders``: every legacy encoder on every BMP scalar value (and a sample of the
   others) against the reference encoder written from the Encoding Standard, and
   ``exhaustive:punycode``, a label for every BMP code point against Python's codec, and
   ``exhaustive:ipv4``, every short string of the legacy IPv4 forms' code points against
   ``inet_aton`` and ``ipaddress``, ``exhaustive:ipv6``, every short IPv6 text against
   ``ipaddress``, ``exhaustive:setters``, every pair of setter calls from a
   small pool on URLs of every kind against ada, ``exhaustive:idna``, every BMP code point in a
   domain against ada's ToASCII, and ``exhaustive:public_suffix``, every rule of the list against
   ``publicsuffixlist`` (about a second each: random input rarely meets the one table cell,
   delta, spelling, sequence or rule a mutant changes);
6. ``property:<name>``: the Hypothesis properties and state machines under the profile
   ``mutants`` (deterministic, 100 examples, no shrinking: the kill is the point, not the
   smallest example).

``python -m urlwb.mutation.killsuite`` runs it against whatever ``engine`` package comes first on
``sys.path`` (``urlwb mutants`` puts a mutated copy there) and reports on a line protocol on
stdout (anything the checks print goes to stderr): ``READY <engine path>``, then per check
``CHECK <name>`` and ``PASS <name> <seconds>``, and at the first kill ``KILL <name> <seconds>
<json>`` (the exception's type and message); ``DONE <seconds>`` when every check passed. An
engine that fails to import is killed by the check ``import``. Hangs are the parent's to judge
(it knows how long each check took on the unmutated engine).
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import sys
import tempfile
import time
import traceback
from collections.abc import Callable

#: the oracles the differential checks run: the WHATWG parsers that live in this process
IN_PROCESS_ORACLES = ["ada_url", "upa_url", "pywhatwgurl"]
#: the Hypothesis profile of the property checks (properties/profiles.py)
PROFILE = "mutants"


@dataclasses.dataclass
class Check:
    name: str
    run: Callable[[], None]   # raises on a kill


def _wpt_checks() -> list[Check]:
    import engine
    from urlwb.measure.conformance import SUITES

    def suite(cases, check, parser):
        def run():
            for case in cases():
                if not check(case, *parser):
                    raise AssertionError(f"fails the case {case!r}"[:600])
        return run

    fast = (engine.URL, engine.basic_url_parse)
    checks = [Check(f"wpt:{key}", suite(cases, check, fast)) for key, _, cases, check in SUITES]
    try:  # the spec-literal reference parser, where the engine has one
        import engine.reference as reference
    except ImportError:
        reference = None
    if reference is not None:
        parser = (reference.ReferenceURL, reference.basic_url_parse)
        checks += [Check(f"wpt-reference:{key}", suite(cases, check, parser))
                   for key, _, cases, check in SUITES if key != "test_psl"]
    return checks + [Check("wpt:invariants", _wpt_invariants)]


#: the engine's unit tests the kill suite runs, each file by pytest in this process: the only
#: checks of the validation errors' names, the API's own methods (equality, ``in``, ``str`` of a
#: failure), TypeError for arguments of a wrong type, and the expected-failure lists
UNIT_TESTS = ("tests/engine/test_validation_errors.py", "tests/engine/test_api.py", "tests/engine/test_engine_types.py",
              "tests/engine/test_punycode.py", "tests/engine/test_percent_encoding.py", "tests/engine/test_hosts.py")


class _FirstFailure:
    """A pytest plugin that keeps the first failing test's id and message."""

    def __init__(self) -> None:
        self.failure = ""

    def pytest_runtest_logreport(self, report) -> None:
        if report.failed and not self.failure:
            self.failure = f"{report.nodeid}: {str(report.longrepr)[-1200:]}"


def _unit_checks() -> list[Check]:
    from urlwb import corpus_store

    def run_file(path: pathlib.Path):
        def run():
            import pytest

            plugin = _FirstFailure()
            # No configuration file (-c /dev/null): the snapshot's own folder is the root, and
            # the addopts of the project's pyproject.toml are not wanted here.
            code = pytest.main([str(path), "-x", "-q", "--no-header", "-p", "no:cacheprovider",
                                "-c", os.devnull, "--rootdir", str(path.parent.parent)],
                               plugins=[plugin])
            if code != 0:
                raise AssertionError(plugin.failure or f"pytest exited {code} on {path.name}")
        return run

    return [Check(f"unit:{pathlib.Path(name).stem}", run_file(corpus_store.ROOT / name))
            for name in UNIT_TESTS]


def _wpt_invariants() -> None:
    """The invariants (properties/invariants.py) on every input of the conformance data: each
    URL input with its base (reparse, getters, the parser listening for validation errors), each
    setter case's step, each host input."""
    from properties import invariants
    from urlwb.measure.conformance import SUITES

    suites = {key: cases for key, _, cases, _ in SUITES}
    for key in ("urltestdata", "urltestdata-javascript-only"):
        for case in suites[key]():
            invariants.check_url_idempotence(case["input"], case.get("base"))
    for setter, case in suites["setters"]():
        invariants.check_setters(case["href"], [(setter, case["new_value"])])
    for key in ("toascii", "IdnaTestV2"):
        for case in suites[key]():
            invariants.check_host_idempotence(case["input"])
            invariants.check_domain_roundtrip(case["input"])


def committed_inputs(target: str) -> list[pathlib.Path]:
    """The inputs of ``target`` that must pass: its seeds and every other committed folder but
    ``regress/`` (a distilled corpus, when there is one)."""
    from urlwb import corpus_store

    folder = corpus_store.corpus_root() / target
    paths = list(corpus_store.iter_seeds(target))
    for sub in sorted(folder.iterdir()) if folder.is_dir() else []:
        if sub.is_dir() and sub.name not in ("seed", "regress") and not sub.name.startswith("."):
            paths += sorted(p for p in sub.iterdir() if p.is_file() and not p.name.startswith("."))
    return paths


def _regress_entries(target: str) -> list:
    """The regress entries this process can judge: all of them, but differential findings
    against a parser that is not in process."""
    from urlwb import corpus_store

    return [e for e in corpus_store.iter_regress(target) if e.sidecar and not (
        target == "differential" and e.sidecar.get("parser") not in IN_PROCESS_ORACLES)]


def _corpus_checks() -> list[Check]:
    from urlwb import corpus_store

    def replay(target, inputs, entries):
        def run():
            check = corpus_store.load_target(target).check
            for path in inputs:
                try:
                    check(path.read_bytes())
                except AssertionError as exc:
                    raise AssertionError(f"{path.relative_to(corpus_store.ROOT)}: {exc}") from None
            for entry in entries:
                data = entry.path.read_bytes()
                if entry.status == "fixed":
                    check(data)
                    continue
                try:
                    check(data)
                except AssertionError:
                    continue
                raise AssertionError(f"{entry.path.relative_to(corpus_store.ROOT)}: the open finding "
                                     f"{entry.signature} now passes")
        return run

    # Paths are listed now, while URLWB_CORPUS (which the property checks point elsewhere) is
    # the committed corpus.
    return [Check(f"corpus:{t}", replay(t, committed_inputs(t), _regress_entries(t)))
            for t in corpus_store.TARGETS]


def _differential_checks(known: set | None, record: list | None) -> list[Check]:
    """Each target's URLs against the in-process oracles. A disagreement in ``known`` (the
    unmutated engine has it: an open finding about a peer or the engine, such as ada 4 skipping
    CheckBidi and CheckJoiners) does not count; with ``record`` every disagreement is appended to
    it instead (the unmutated engine's run makes ``known``)."""
    from urlwb import corpus_store

    differential = corpus_store.load_target("differential")

    def compare(target, cases, inputs):
        def run():
            for path in inputs:
                for url, base in cases(path.read_bytes()):
                    for _, peer, detail in differential.disagreements(url, base):
                        key = (target, url, base, peer)
                        if record is not None:
                            record.append(key)
                        elif key not in (known or set()):
                            raise AssertionError(detail)
        return run

    return [Check(f"differential:{t}", compare(t, module.differential_cases, committed_inputs(t)))
            for t in corpus_store.TARGETS if t != "differential"
            for module in [corpus_store.load_target(t)] if hasattr(module, "differential_cases")]


def _property_checks(max_examples: int | None) -> list[Check]:
    from hypothesis import settings

    from properties import machines, profiles, replay

    profiles.register_profiles()
    profile = PROFILE
    if max_examples is not None:
        profile = f"{PROFILE}-{max_examples}"
        settings.register_profile(profile, settings(settings.get_profile(PROFILE),
                                                    max_examples=max_examples))

    def prop(test):
        def run():
            # Loaded here, not once: loading a fuzz target (fuzz_properties) loads another.
            settings.load_profile(profile)
            test()
        return run

    found = [Check(f"property:{name}", prop(test)) for name, test in replay.given_properties().items()]
    for machine in (machines.SearchParamsMachine, machines.HostMachine, machines.URLSetterMachine):
        found.append(Check(f"property:{machine.__name__}", prop(lambda m=machine: m.TestCase().runTest())))
    return found


def _exhaustive_checks() -> list[Check]:
    from properties import independent

    return [Check("exhaustive:encoders", independent.check_every_encoder_against_reference),
            Check("exhaustive:punycode", independent.check_punycode_on_every_code_point),
            Check("exhaustive:ipv4", independent.check_ipv4_on_every_short_string),
            Check("exhaustive:ipv6", independent.check_ipv6_on_every_short_string),
            Check("exhaustive:setters", independent.check_setter_pairs_against_ada),
            Check("exhaustive:idna", independent.check_every_code_point_in_a_domain_against_ada),
            Check("exhaustive:public_suffix", independent.check_every_rule_against_publicsuffixlist)]


def checks(max_examples: int | None = None, known: set | None = None,
           record: list | None = None) -> list[Check]:
    """Every check, in the order they run (``known`` and ``record``: see _differential_checks)."""
    from urlwb import corpus_store

    # The differential target's check, and the differential checks, ask the in-process oracles.
    corpus_store.load_target("differential").PARSERS = IN_PROCESS_ORACLES
    return (_wpt_checks() + _unit_checks() + _corpus_checks() + _differential_checks(known, record)
            + _exhaustive_checks()
            + _property_checks(max_examples))


def _describe(exc: BaseException) -> dict:
    frames = traceback.extract_tb(exc.__traceback__)
    inner = next((f for f in reversed(frames) if "/engine/" in f.filename), None)
    return {"type": type(exc).__name__, "message": str(exc)[:1500],
            "where": f"{pathlib.Path(inner.filename).name}:{inner.lineno} {inner.name}" if inner else ""}


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m urlwb.mutation.killsuite")
    parser.add_argument("--max-examples", type=int, default=None,
                        help="examples per property (default: the profile's)")
    parser.add_argument("--only", default="", help="comma-separated check-name prefixes to run")
    parser.add_argument("--differences", type=pathlib.Path, metavar="FILE",
                        help="the differential disagreements the unmutated engine has (JSON), "
                             "which do not count")
    parser.add_argument("--record-differences", type=pathlib.Path, metavar="FILE",
                        help="write every differential disagreement to FILE instead of failing")
    parser.add_argument("--keep-going", action="store_true",
                        help="run every check, reporting every kill (default: stop at the first)")
    args = parser.parse_args(argv)
    # The protocol keeps the real stdout; whatever the checks print goes to stderr.
    out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8", errors="replace")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    start = time.perf_counter()

    def say(*words) -> None:
        out.write(" ".join(str(w) for w in words) + "\n")

    try:
        import engine
        known = ({tuple(k) for k in json.loads(args.differences.read_text(encoding="utf-8"))}
                 if args.differences else None)
        record = [] if args.record_differences else None
        suite = checks(args.max_examples, known, record)
    except BaseException as exc:  # noqa: BLE001 - a mutant that breaks the import is killed
        say("KILL", "import", f"{time.perf_counter() - start:.3f}", json.dumps(_describe(exc)))
        return 0
    say("READY", pathlib.Path(engine.__file__).parent)
    # The state machines file their failures in the regression corpus: not a mutant's.
    os.environ["URLWB_CORPUS"] = tempfile.mkdtemp(prefix="urlwb-killsuite-corpus-")
    prefixes = [p for p in args.only.split(",") if p]
    killed = False
    for check in suite:
        if prefixes and not any(check.name.startswith(p) for p in prefixes):
            continue
        say("CHECK", check.name)
        t = time.perf_counter()
        try:
            check.run()
        except BaseException as exc:  # noqa: BLE001 - any exception is the engine noticed wrong
            if isinstance(exc, KeyboardInterrupt):
                raise
            say("KILL", check.name, f"{time.perf_counter() - t:.3f}", json.dumps(_describe(exc)))
            killed = True
            if not args.keep_going:
                return 0
            continue
        say("PASS", check.name, f"{time.perf_counter() - t:.3f}")
    if record is not None:
        args.record_differences.write_text(json.dumps(sorted(set(record), key=repr)), encoding="utf-8")
    if not killed:
        say("DONE", f"{time.perf_counter() - start:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
