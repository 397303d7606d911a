"""The differential itself: every input to every parser, every disagreement classified.

https://url.spec.whatwg.org/#url-parsing

:func:`diff` asks every available parser about every (input, base): the in-process ones in
this thread, the ones outside the process (each a child of :mod:`urlwb.oracles.supervisor`) at
the same time, each from a thread of its own. :func:`_compare` then compares every pair of
parsers and classifies each disagreement with the reference (:mod:`urlwb.differential.classify`), known
deviations of peers tagged rather than re-reported; :func:`host_round` asks the host-level
oracles about the reference's hosts. The result is a :class:`DiffResult`, which
:mod:`urlwb.differential.report` turns into the terminal table and the reports, and :mod:`urlwb.differential.command`
(the ``urlwb diff`` subcommand) runs.
"""

from __future__ import annotations

import json
import operator
import pathlib
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import engine
from urlwb import corpus_store, oracles
from urlwb import progress as saying
from urlwb.differential import classify
from urlwb.differential import generate
from urlwb.cliutil import load_json, short
from urlwb.errors import Incomplete, UsageError
from urlwb.fuzzdata import Reader, Writer, decode_text, encode_text
from urlwb.oracles.hosts import close_hosts, load_hosts



# --- inputs ------------------------------------------------------------------------------------

def read_file(path: pathlib.Path) -> list[tuple[str, str | None]]:
    """Inputs of ``--file``: a urltestdata-format JSON list (its strings are comments), or a text
    file, one input a line (a line in double quotes is a JSON string). Anything else is one
    line, exit 2: an unreadable file, JSON that is not such a list, an entry whose input or base
    is not a string."""
    if path.suffix == ".json":
        data = load_json(path, "--file")
        if not isinstance(data, list):
            raise UsageError(f"--file {path}: expected a urltestdata-format list")
        cases = []
        for n, c in enumerate(data):
            if isinstance(c, str):
                continue   # a comment
            if (not isinstance(c, dict) or not isinstance(c.get("input"), str)
                    or not isinstance(c.get("base"), (str, type(None)))):
                raise UsageError(f"--file {path}: entry {n} is not {{\"input\": string, "
                                 f"\"base\": string or null}}")
            cases.append((c["input"], c.get("base")))
        return cases
    try:
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError as exc:
        raise UsageError(f"--file {path}: {exc.strerror or exc}") from None
    items = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith('"'):
            try:
                line = json.loads(line)
            except json.JSONDecodeError as exc:
                raise UsageError(f"--file {path}:{n}: bad JSON string ({exc.msg})") from None
            except RecursionError:
                raise UsageError(f"--file {path}:{n}: JSON nested too deep") from None
            if not isinstance(line, str):
                raise UsageError(f"--file {path}:{n}: a quoted line must be one JSON string")
        items.append((line, None))
    return items


#: the most answers one diff holds (inputs × parsers; 10,000 inputs for 30 parsers, the campaign's
#: cap): what --generate draws is cut to fit, so
#: that memory is bounded whatever the count asked (100,000 inputs of the engine alone held
#: 170 MB, measured)
MOST_ANSWERS = 300_000
#: inputs asked of a parser at once: between two slices the deadline is looked at
SLICE = 500


def collect_inputs(args, most_generated: int | None = None,
                   deadline: float | None = None) -> list[tuple[str, str | None, str]]:
    """(input, base, source) triples from every input option, in order, duplicates dropped.
    ``--generate N`` is drawn lazily: at most ``most_generated`` of them, and none after
    ``deadline`` (``time.monotonic()``); a cut is said in one line on stderr."""
    out: list[tuple[str, str | None, str]] = [(i, args.base, "argv") for i in args.inputs]
    for f in args.file:
        out += [(i, b, "file") for i, b in read_file(pathlib.Path(f))]
    for target in args.corpus:
        out += [(i, b, f"corpus:{target}") for i, b in corpus_cases(target)]
    if args.wpt:
        out += [(i, b, "wpt") for i, b in generate.wpt_cases()]
    if args.generate < 0:
        raise UsageError("--generate must be 0 or more")
    if args.generate:
        most = args.generate if most_generated is None else min(args.generate, most_generated)
        drawn = 0
        for i, b in generate.generate(most, args.seed):
            out.append((i, b, "generated"))
            drawn += 1
            if deadline is not None and drawn % 1000 == 0 and time.monotonic() > deadline:
                break
        if drawn < args.generate:
            why = "its budget (--minutes) ran out" if drawn < most else \
                f"the most one diff holds: {MOST_ANSWERS:,} answers, inputs × parsers; another --seed draws others"
            print(f"urlwb diff: --generate {args.generate:,}: {drawn:,} drawn ({why})", file=sys.stderr)
    seen, unique = set(), []
    for i, b, s in out:
        if (i, b) not in seen:
            seen.add((i, b))
            unique.append((i, b, s))
    return unique


def corpus_cases(target: str) -> list[tuple[str, str | None]]:
    if target == "hunt":
        return hunt_cases()
    if target not in ("url", "differential"):
        raise UsageError(f"--corpus {target}: diff reads URL targets only (url, differential, hunt)")
    if target not in corpus_store.TARGETS:
        raise UsageError(f"--corpus {target}: no fuzz target fuzzers/fuzz_{target}.py")
    cases = []
    paths = list(corpus_store.iter_seeds(target)) + [e.path for e in corpus_store.iter_regress(target)]
    for path in paths:
        data = corpus_store.read_input(path)
        if data is not None:
            cases.append(decode_case(data))
    return cases


def hunt_cases() -> list[tuple[str, str | None]]:
    """Every input ``urlwb hunt`` distilled into ``corpus/hunt/<parser>/`` (what coverage-guided
    fuzzing inside each parser kept): one input's UTF-8 text per file, no base."""
    root = corpus_store.corpus_root() / "hunt"
    cases = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
        for path in sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")):
            data = corpus_store.read_input(path)
            if data is not None:
                cases.append((decode_text(data), None))
    return cases


def decode_case(data: bytes) -> tuple[str, str | None]:
    """A URL target's input as (input, base): a trailing choice, with or without a base; with
    one, a length-prefixed base text; the rest is the input (``fuzzers/fuzz_url.py``'s format)."""
    r = Reader(data)
    base = r.text(r.length()) if r.choice((False, True)) else None
    return r.rest(), base


def encode_case(input: str, base: str | None) -> bytes:
    """The inverse of :func:`decode_case`."""
    w = Writer().choice(1 if base is not None else 0, 2)
    if base is not None:
        b = encode_text(base)
        w.integer(0, 0xFFFF, len(b)).raw(b)
    return w.rest(input).data()


def working_cases(target: str, limit: int = 5000) -> list[tuple[str, str | None]]:
    """The newest ``limit`` inputs of ``target``'s working corpus (``.urlwb/corpus/<target>/``)."""
    folder = corpus_store.work_path(target)
    if not folder.is_dir():
        return []
    paths = sorted((p for p in folder.iterdir() if p.is_file()), key=lambda p: p.stat().st_mtime)[-limit:]
    cases = []
    for path in paths:
        data = corpus_store.read_input(path)
        if data is not None:
            cases.append(decode_case(data))
    return cases


# --- the differential --------------------------------------------------------------------------

@dataclass
class Finding:
    index: int                 # into DiffResult.items
    a: str
    b: str
    cls: str
    cause: str | None
    fields: tuple[str, ...]
    known: str | None = None   # the documented deviation, if any


@dataclass
class DiffResult:
    items: list[tuple[str, str | None, str]]
    parsers: list[str]
    reference: str | None
    versions: dict[str, str]
    skipped: dict[str, str]
    records: dict[str, list]
    reparsed: dict[str, list] = field(default_factory=dict)
    cost: dict[str, float] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    compared: Counter = field(default_factory=Counter)      # (a, b) -> inputs compared
    disagree: Counter = field(default_factory=Counter)      # (a, b) -> inputs that differ
    host_findings: list[dict] = field(default_factory=list)
    host_compared: Counter = field(default_factory=Counter)
    #: parser -> one line per restart, bad line or give-up of an oracle outside the process
    incidents: dict[str, list[str]] = field(default_factory=dict)
    #: parser -> the longest input it is asked (its max_input): a longer one is n/a, and says so
    limits: dict[str, int] = field(default_factory=dict)
    #: (a, b) -> [inputs on which both accept and read different hosts, the shortest of them]
    host_splits: dict[tuple[str, str], list] = field(default_factory=dict)
    seconds: float = 0.0
    summary: dict | None = None
    #: inputs dropped unasked when the deadline came (diff's --minutes)
    cut: int = 0
    #: the release differential's findings (urlwb.differential.releases), written with the others
    changes: list[dict] = field(default_factory=list)


def diff(items, names, reference=None, reparse=True, hosts=True, progress=False, required=(),
         deadline: float | None = None, started: tuple[dict, dict] | None = None) -> DiffResult:
    """Parse every (input, base, source) with every named parser and classify each disagreement.

    Oracles outside the process (``runs_apart``) are asked at the same time, each from a thread
    of its own; the in-process ones run in this thread meanwhile. ``required``: names that must
    start (the user's own), else Incomplete (exit status 3). ``deadline`` (``time.monotonic()``): no slice of
    :data:`SLICE` inputs is asked after it; the inputs every parser was asked are compared, the
    rest dropped (``res.cut``: how many). ``started``: ``oracles.load(names)``'s answer, when
    the caller started the parsers (and closes them): a second diff on them starts none again."""
    start = time.perf_counter()
    loaded, skipped = oracles.load(names) if started is None else (dict(started[0]), dict(started[1]))
    for error in oracles.MANIFEST_ERRORS:
        skipped[error.split(":")[0]] = error.split(": ", 1)[-1]
    for name, reason in skipped.items():
        print(f"urlwb diff: {name} skipped: {reason}", file=sys.stderr)
    missing = [n for n in required if n not in loaded]
    if missing:
        oracles.close_all(loaded)
        raise Incomplete(f"oracle {missing[0]} cannot start: {skipped[missing[0]]}")
    reference = reference or next((n for n in ("engine", "ada_url") if n in loaded), None)
    if reference and reference not in loaded:
        reference = next(iter(loaded), None)
    res = DiffResult(items, list(loaded), reference, {n: o.version for n, o in loaded.items()},
                     skipped, {})
    pairs = [(oracles.to_usv(i), None if b is None else oracles.to_usv(b)) for i, b, _ in items]

    def one(name: str, oracle):
        t0 = time.perf_counter()
        # What an oracle does not take is not applicable (None), never asked: a base for a
        # parser without resolution; an input longer than an in-process parser can take in
        # reasonable time (its max_input; the supervisor applies its own to the others).
        limit = getattr(oracle, "max_input", None)
        spec = getattr(getattr(oracle, "sup", None), "spec", None)
        if limit or spec is not None:
            res.limits[name] = limit or spec.max_input
        asked = [k for k, (i, b) in enumerate(pairs)
                 if (b is None or oracle.supports_base) and (limit is None or len(i) <= limit)]
        recs = [None] * len(pairs)
        covered = len(pairs)
        sup = getattr(oracle, "sup", None)
        if sup is not None:
            sup.stop_at = deadline   # a slice asked when the deadline comes ends there too
        for start in range(0, len(asked), SLICE):
            if deadline is not None and time.monotonic() > deadline:
                covered = asked[start]   # the first input not asked
                break
            part = asked[start:start + SLICE]
            answers = oracle.parse_many([pairs[k] if oracle.supports_base else (pairs[k][0], None)
                                         for k in part])
            if deadline is not None and time.monotonic() > deadline:
                covered = part[0]   # the deadline came during the slice: it is dropped whole
                break
            for k, r in zip(part, answers):
                recs[k] = r
        again = None
        if reparse and oracles.family(name) == "whatwg":
            hrefs = [(r.href, None) for r in recs if r is not None and r.ok]
            answers = iter(oracle.parse_many(hrefs))
            again = [next(answers) if r is not None and r.ok else None for r in recs]
        return recs, again, time.perf_counter() - t0, covered

    def done(name: str, outcome) -> None:
        recs, again, cost, covered[name] = outcome
        said.advance(note=f"{name} {cost:.1f} s")
        res.records[name], res.cost[name] = recs, cost
        if again is not None:
            res.reparsed[name] = again
        sup = getattr(loaded[name], "sup", None)
        if sup is not None and sup.incidents:
            res.incidents[name] = list(sup.incidents)
        if progress:
            print(f"  {name:<16} {len(recs):>7} inputs  {cost:7.2f} s  {len(recs) / max(cost, 1e-9):>9,.0f} inputs/s",
                  file=sys.stderr)

    covered: dict[str, int] = {}
    apart = [n for n, o in loaded.items() if getattr(o, "runs_apart", False)]
    # k of N parsers, and a line every few seconds while a slow one works (quiet for a quick diff)
    what = f"urlwb diff: {len(items):,} input{'s' if len(items) != 1 else ''}, each parser in turn"
    with saying.task(what, total=len(loaded), beat=True, after=0 if progress else saying.EVERY) as said:
        _ask_all(res, loaded, apart, one, done, pairs, hosts and reference, said, covered, deadline,
                 close=started is None)
    res.seconds = time.perf_counter() - start
    if progress:
        print(f"  wall time {res.seconds:.2f} s for {len(items)} inputs and {len(loaded)} parsers", file=sys.stderr)
    return res


def _ask_all(res, loaded, apart, one, done, pairs, hosts, said, covered, deadline, close=True) -> None:
    """Every parser asked (the ones apart from their own threads), then compared (the inputs
    every parser was asked before the deadline: ``covered``); the host round."""
    try:
        with ThreadPoolExecutor(max_workers=max(1, len(apart)), thread_name_prefix="urlwb-diff") as pool:
            futures = {n: pool.submit(one, n, loaded[n]) for n in apart}
            try:
                for name, oracle in loaded.items():
                    if name not in futures:
                        done(name, one(name, oracle))
                for name, future in futures.items():
                    done(name, future.result())
            except BaseException:  # Ctrl-C: end the children, so that their threads end now
                oracles.close_all(loaded)
                raise
    finally:
        if close:
            oracles.close_all(loaded)
    res.records = {n: res.records[n] for n in loaded}
    n = min(covered.values(), default=len(pairs))
    if n < len(pairs):   # the budget ran out: what every parser answered is compared
        res.cut = len(pairs) - n
        res.items, pairs = res.items[:n], pairs[:n]
        res.records = {k: v[:n] for k, v in res.records.items()}
        res.reparsed = {k: v[:n] for k, v in res.reparsed.items()}
    _compare(res, pairs)
    if hosts and (deadline is None or time.monotonic() < deadline):
        t0 = time.perf_counter()
        said.note = "the host oracles"
        host_round(res, pairs)
        res.cost["host oracles"] = time.perf_counter() - t0


def trouble_lines(res: DiffResult) -> list[str]:
    """One line per oracle that crashed or hung on some input, or was restarted or given up:
    what, how often, the first input."""
    out = []
    for name in res.parsers:
        recs = res.records[name]
        crashed = [i for i, r in enumerate(recs) if r is not None and r.crash and not r.hung]
        hung = [i for i, r in enumerate(recs) if r is not None and r.hung]
        parts = []
        for what, idx in (("crashed", crashed), ("hung", hung)):
            if idx:
                inp, base, _ = res.items[idx[0]]
                parts.append(f"{what} on {len(idx)} input{'s' if len(idx) > 1 else ''} (first "
                             f"{short(inp, 80)!r}{f' base {short(base, 40)!r}' if base is not None else ''}: "
                             f"{short(recs[idx[0]].crash, 100)})")
        incidents = res.incidents.get(name, [])
        given_up = [x for x in incidents if x.startswith("given up")]
        if incidents:
            parts.append(f"restarted {sum(x.startswith('restarted') for x in incidents)} times"
                         + (f"; {given_up[-1]}" if given_up else ""))
        if parts:
            out.append(f"oracle {name} " + "; ".join(parts))
    return out


def _numbered(values: list, known: list[dict]) -> list[int]:
    """Each value as a number that stands for it on its input, shared through ``known`` (one
    dict per input) by every parser numbered with the same list; None (not applicable, no host)
    is 0."""
    return [0 if v is None else seen.setdefault(v, len(seen) + 1) for seen, v in zip(known, values)]


def _compare(res: DiffResult, pairs) -> None:
    """Three passes, each as cheap as what it needs (30 parsers are 435 pairs):

    - agreement of every pair, by key equality only (strict between two WHATWG parsers, lenient
      otherwise: urlwb.differential.classify): the agreement matrix;
    - the host each parser reads where it accepts, for every pair: the inputs on which both
      accept and read different hosts (the SSRF class), with the shortest;
    - each parser against the reference, every disagreement classified (and known deviations
      tagged): the findings, the class matrix, the witnesses. A classification depends only on
      the input and the two keys, so it is computed once per distinct answer.
    """
    names, ref = res.parsers, res.reference
    lenient_of = {n: oracles.family(n) != "whatwg" for n in names}
    keys = {n: {False: [classify.key(r, False) for r in res.records[n]],
                True: [classify.key(r, True) for r in res.records[n]]} for n in names}
    # Each answer as a small int (per input, equal keys get equal numbers; 0: not applicable),
    # and each host read likewise (0: none), so that a pair's comparison is C-speed int work.
    seen_keys = {False: [{} for _ in pairs], True: [{} for _ in pairs]}
    codes = {(n, lenient): _numbered(keys[n][lenient], seen_keys[lenient])
             for n in names for lenient in (False, True)}
    seen_hosts = [{} for _ in pairs]
    host_codes = {n: _numbered([classify.host_read(r) for r in res.records[n]], seen_hosts)
                  for n in names}
    length = [len(i) + len(b or "") for i, b in pairs]
    for ai, a in enumerate(names):
        for b in names[ai + 1:]:
            is_lenient = lenient_of[a] or lenient_of[b]
            ca, cb = codes[a, is_lenient], codes[b, is_lenient]
            res.compared[a, b] = n = sum(map(bool, map(operator.mul, ca, cb)))
            res.disagree[a, b] = n - sum(x == y != 0 for x, y in zip(ca, cb))
            ha, hb = host_codes[a], host_codes[b]
            split = [k for k, (x, y) in enumerate(zip(ha, hb)) if x != y and x and y]
            if split:
                res.host_splits[a, b] = [len(split), min(split, key=length.__getitem__)]
    if ref is None:
        return
    found: dict[int, list[str]] = {}
    verdicts: dict[tuple, classify.Verdict] = {}
    for name in names:
        if name == ref:
            continue
        is_lenient = lenient_of[name]
        ka, kb = keys[ref][is_lenient], keys[name][is_lenient]
        ra, rb = res.records[ref], res.records[name]
        for idx, (x, y) in enumerate(zip(ka, kb)):
            if x is None or y is None or x == y:
                continue
            inp, base = pairs[idx]
            if idx not in found:
                found[idx] = classify.ingredients(inp)
            v = verdicts.get((idx, x, y, is_lenient))
            if v is None:
                v = verdicts[idx, x, y, is_lenient] = classify.classify(
                    inp, ra[idx], rb[idx], is_lenient, found[idx], (x, y))
            known = classify.known_deviation(name, ra[idx], rb[idx], inp, base)
            res.findings.append(Finding(idx, ref, name, v.cls, v.cause, v.fields, known))
    for name, again in res.reparsed.items():
        for idx, (r, r2) in enumerate(zip(res.records[name], again)):
            if r2 is None:
                continue
            res.compared[name, name] += 1
            if classify.key(r2, False) != classify.key(r, False):
                res.disagree[name, name] += 1
                res.findings.append(Finding(idx, name, name, "unstable", None, ("href",)))


def host_round(res: DiffResult, pairs) -> None:
    """Ask the host-level oracles about the reference parser's hosts and compare with the engine:
    domain to ASCII (from the domain's Unicode form), IP address forms (from the host as written),
    public suffix and registrable domain (from the ASCII domain)."""
    to_unicode, suffix, registrable = (engine.domain_to_unicode, engine.public_suffix,
                                       engine.registrable_domain)
    oracles_, skipped = load_hosts()
    res.skipped.update(skipped)
    for name, o in oracles_.items():
        res.versions[name] = o.version
    ref = res.records[res.reference]
    seen = set()
    for idx, r in enumerate(ref):
        if r is None or not r.ok or not r.host or r.scheme not in classify.SPECIAL_SCHEMES:
            continue
        host = r.host
        if host in seen:
            continue
        seen.add(host)
        is_ip = host.startswith("[") or classify.is_canonical_ipv4(host)
        questions = []
        if is_ip:
            written = classify.raw_host(pairs[idx][0])
            if written is not None:
                questions.append(("ip", written, host, "ipv4"))
        else:
            try:
                uni = to_unicode(host)
                questions.append(("to-ascii", uni, host, "idna"))
                questions.append(("public-suffix", host, suffix(host), "public-suffix"))
                questions.append(("registrable-domain", host, registrable(host), "public-suffix"))
            except engine.Failure:
                continue
        for name, o in oracles_.items():
            for q, text, expected, cls in questions:
                if q not in o.questions:
                    continue
                ans = o.answer(q, text)
                res.host_compared[name] += 1
                exp = expected.rstrip(".") if expected and cls == "public-suffix" else expected
                got = ans.value.rstrip(".") if ans.value and cls == "public-suffix" else ans.value
                if ans.crash:
                    verdict = "oracle-crashed"
                elif ans.failure:
                    verdict = "accept-reject"
                elif got != exp:
                    verdict = cls
                else:
                    continue
                res.host_findings.append({"oracle": name, "question": q, "text": text,
                                          "index": idx, "engine": expected,
                                          "oracle_answer": ans.crash or ("failure" if ans.failure else ans.value),
                                          "cls": verdict})
    close_hosts(oracles_)
