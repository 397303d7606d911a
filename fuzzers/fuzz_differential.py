#!/usr/bin/env python3
"""Fuzz target ``differential``: the engine against every WHATWG oracle.

Invariant: on any input (with or without a base), the engine and each parser that claims the URL
Standard (ada_url, upa_url, pywhatwgurl, and the user's own ``py:`` oracles) give the same answer:
both failure, or the same scheme, username, password, host, port, path, query, fragment and href.
Known, documented deviations of a peer (urlwb.differential.classify.deviations) do not count.

Per execution only the oracles in this process are asked (a round trip to another process per
input would cost most of the throughput); those outside it (Node's URL, whatwg-url, browsers, the
user's programs) get this target's corpus in batches in the campaign's differential round
(``urlwb.differential.command.campaign_round``). ``check`` (the replay) also asks the ones outside the process
that a regress entry of this target names as its ``parser``: a finding filed against Node replays
against Node.

Under atheris a disagreement does not stop the campaign: it is minimized (characters removed while
the same class and pair persist) and filed by urlwb.corpus_store with signature
``<class>[/<cause>]:engine~<parser>``; ``check`` (the replay) raises AssertionError on it. Non-WHATWG parsers
join with ``--parsers=LIST`` (e.g. ``--parsers=whatwg,urllib,yarl``); their differences are
findings about them, not engine bugs, so they go to ``.urlwb/differential/other.jsonl``, not to
the regression corpus.

Input (as fuzz_url): a trailing choice, with or without a base; with one, a length-prefixed base
text; the rest of the text is the input. ``--write-seeds`` writes ``corpus/differential/seed/``
from the vendored WPT cases.
"""
import contextlib
import json
import sys

import atheris

# engine.punycode, RFC 3492's codec, is not instrumented here: fuzz_idna fuzzes it with coverage.
with atheris.instrument_imports(include=["engine"], exclude=["engine.punycode"]) \
        if __name__ == "__main__" else contextlib.nullcontext():
    import engine  # noqa: F401  (instrumented for coverage; the oracle adapter calls it)

from urlwb import corpus_store, oracles
from urlwb.differential import classify
from urlwb.fuzzing import signatures as signing
from urlwb.differential.run import decode_case, encode_case
from urlwb.fuzzing.shrink import first_index, shrink

try:  # the user's own oracles of [tool.urlwb.oracles] (urlwb.toml or pyproject.toml here)
    oracles.configure(config=True)
except oracles.manifests.ManifestError as exc:
    print(f"fuzz_differential: {exc}", file=sys.stderr)
    sys.exit(2)
#: Every WHATWG oracle in this process, and the user's ``py:`` oracles.
PARSERS = [n for n, e in oracles.REGISTRY.items() if n != "engine" and e.in_process and
           (e.family == "whatwg" or (e.spec is not None and e.spec.source != "manifest"))]
_state: dict = {}


def _oracles():
    if "loaded" not in _state:
        loaded, skipped = oracles.load(["engine"] + [p for p in PARSERS if p != "engine"])
        for name, why in skipped.items():
            print(f"fuzz_differential: {name} skipped: {why}", file=sys.stderr)
        if "engine" not in loaded:
            raise RuntimeError(f"the engine cannot run: {skipped.get('engine')}")
        _state["loaded"] = loaded
    return _state["loaded"]


def _filed_parser(data: bytes) -> str | None:
    """The parser the regress entry holding ``data`` was filed against, if it is one."""
    if "filed" not in _state:
        _state["filed"] = {e.path.name: e.sidecar.get("parser")
                           for e in corpus_store.iter_regress("differential") if e.sidecar}
    return _state["filed"].get(corpus_store.sha1(data))


def _oracle_apart(name: str):
    """An oracle outside the process, started once (None, with its reason kept, if it cannot).
    A ``PARSER@VERSION`` (an entry filed against another version) is built in the versions
    cache first (urlwb.oracles.versions); one that cannot be built here is skipped with the reason."""
    started = _state.setdefault("apart", {})
    if name not in started:
        if "@" in name and name not in oracles.REGISTRY:
            from urlwb.errors import UsageError
            from urlwb.oracles.versions import names as versioned
            try:
                versioned.register(name)
            except UsageError as exc:
                started[name] = (None, str(exc))
                return started[name]
        loaded, skipped = oracles.load([name])
        started[name] = (loaded.get(name), skipped.get(name))
    return started[name]


def cannot_replay(data: bytes) -> str | None:
    """Why ``data`` cannot be judged here: its entry was filed against an oracle outside the
    process that this machine does not run (``make oracles`` builds it); None when it can."""
    name = _filed_parser(data)
    if name is None or name in _oracles() or (name not in oracles.REGISTRY and "@" not in name):
        return None
    oracle, why = _oracle_apart(name)
    return None if oracle is not None else f"{name} is not available: {why}"


def _replay_oracles(data: bytes):
    """The fuzzing oracles, and the one outside the process that this input's regress entry was
    filed against (an entry about Go's net/url is judged against Go's net/url, not every input
    against every parser)."""
    loaded = dict(_oracles())
    name = _filed_parser(data)
    if name is not None and name not in loaded and (name in oracles.REGISTRY or "@" in name):
        oracle, _ = _oracle_apart(name)
        if oracle is not None:
            loaded[name] = oracle
    return loaded


def disagreements(input: str, base: str | None, loaded=None) -> list[tuple[str, str, str]]:
    """(signature, peer, detail) for each oracle of ``loaded`` (the fuzzing ones by default) that
    differs from the engine, known deviations left out."""
    loaded = loaded or _oracles()
    input, base = oracles.to_usv(input), None if base is None else oracles.to_usv(base)
    mine = loaded["engine"].parse(input, base)
    out = []
    for name, oracle in loaded.items():
        if name == "engine" or (base is not None and not oracle.supports_base):
            continue
        theirs = oracle.parse_many([(input, base)])[0]
        if theirs is None:  # not applicable (an input longer than the oracle takes)
            continue
        is_lenient = oracles.family(name) != "whatwg"
        verdict = classify.classify(input, mine, theirs, is_lenient)
        if verdict is None or classify.known_deviation(name, mine, theirs, input, base):
            continue
        detail = (f"{classify.TITLES[verdict.cls]}: input {input!r} base {base!r}: engine "
                  f"{_answer(mine)} / {name} {_answer(theirs)}")
        out.append((signing.of_differential(verdict.cls, verdict.cause, name), name, detail))
    return sorted(out, key=lambda found: classify.RANK[found[0].split(":")[0].split("/")[0]])


def _answer(r) -> str:
    return "failure" if r.failure else (f"crash {r.crash}" if r.crash else repr(r.href))


def check(data: bytes) -> None:
    input, base = decode_case(data)
    found = disagreements(input, base, _replay_oracles(data))
    if found:
        raise AssertionError("; ".join(detail for _, _, detail in found))


def signatures(data: bytes) -> list[tuple[str, str, str]]:
    """The findings ``data`` shows now, as this target files them (urlwb.fuzzing.signatures)."""
    input, base = decode_case(data)
    return [("invariant", sig, detail) for sig, _, detail in disagreements(input, base, _replay_oracles(data))]


def minimize(input: str, base: str | None, signature: str, budget: int = 400) -> str:
    """The shortest input the workbench's shrinker (urlwb.fuzzing.shrink) finds within ``budget``
    candidates while the disagreement with the same signature persists."""
    def same(s: str) -> bool:
        return any(sig == signature for sig, _, _ in disagreements(s, base))

    return shrink(input, lambda batch: first_index(batch, same), budget=budget)


def TestOneInput(data: bytes) -> None:
    input, base = decode_case(data)
    for signature, peer, detail in disagreements(input, base):
        if oracles.family(peer) != "whatwg":
            _log_other(signature, input, base, detail)
            continue
        if signature in _state.setdefault("reported", set()):
            continue
        _state["reported"].add(signature)
        small = minimize(input, base, signature)
        try:
            path = corpus_store.record_finding(
                "differential", encode_case(small, base), signature, "invariant", detail,
                extra={"input": small, "base": base, "parser": peer,
                       "version": _oracles()[peer].version if peer in _oracles() else "?"})
        except corpus_store.WriteError as exc:   # a full disk: the target's own exit, not a crash
            corpus_store.cannot_file(exc)
        if path is not None:
            print(f"\nfuzz_differential: new finding {signature}: {path}", file=sys.stderr)


def _log_other(signature: str, input: str, base, detail: str) -> None:
    seen = _state.setdefault("other", set())
    if signature in seen:
        return
    seen.add(signature)
    folder = corpus_store.work_root() / "differential"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "other.jsonl", "a", encoding="utf-8") as fh:
        peer = signature.rsplit("~", 1)[-1]
        fh.write(json.dumps({"signature": signature, "input": input, "base": base, "detail": detail,
                             "parser": peer, "version": getattr(_oracles().get(peer), "version", "?")}) + "\n")


def write_seeds(limit: int = 300) -> int:
    """``corpus/differential/seed/``: the first ``limit`` WPT (input, base) cases."""
    from urlwb.differential import generate
    folder = corpus_store.seed_dir("differential")
    folder.mkdir(parents=True, exist_ok=True)
    cases = generate.wpt_cases()[:limit]
    for input, base in cases:
        data = encode_case(input, base)
        corpus_store.atomic_write(folder / corpus_store.sha1(data), data)
    return len(cases)


def main() -> None:
    global PARSERS
    argv = []
    for arg in sys.argv:
        if arg.startswith("--parsers="):
            PARSERS = oracles.resolve_names(arg.split("=", 1)[1])
        elif arg == "--write-seeds":
            print(f"fuzz_differential: wrote {write_seeds()} seeds")
            return
        else:
            argv.append(arg)
    atheris.Setup(argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
