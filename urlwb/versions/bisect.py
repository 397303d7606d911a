"""``urlwb bisect PARSER INPUT``: which released versions of a parser give which answer on one input.

    urlwb bisect PARSER INPUT [--base B] [--oldest V] [--newest V] [--pre] [--step N]
                 [--question Q] [--out DIR] [--rebuild]

The versions are the registry's own list (:mod:`urlwb.oracles.versions.registries`), oldest first,
pre-releases left out unless ``--pre``. Each version asked is built in the cache
(:mod:`urlwb.oracles.versions.builds`) and asked through the oracle protocol, like any oracle.
PARSER may be a user's adapter that names its package (``package = "npm:parse-url"`` in its
``[tool.urlwb.oracles]`` table, ``registry = ...`` for a registry of its own): the releases are
that registry's, and each is installed in the cache (:mod:`urlwb.oracles.versions.installs`).

How every change is found: the oldest and the newest version are asked, and the oldest and newest
release of every maintenance line (the same first two numbers: 5.3.x, 6.0.x), where a fix backported to an
older line shows (``--no-lines`` leaves them out); an interval whose two ends answer differently is split at its middle version, and each half whose ends differ is split
again (recursive bisection) until the change lies between two neighbouring releases. An interval
whose two ends agree is sampled every ``--step`` releases (default 8; 0: not sampled): a sampled
version that answers otherwise splits it in turn. So every change between two versions that
answer differently is found; a change and its reversal that both fall between two sampled
versions (fewer than STEP releases apart, ends agreeing) can be missed, and the report says that
the versions inside a range were not all asked. A version that does not build (or whose oracle
does not start) is skipped, never silently: its reason is in the output, and the search takes
the nearest version that builds.

Output: the ranges of versions with each answer (for an advisory's "affected versions" line),
each marked against the Standard's answer (the engine), in the terminal and as
``DIR/<parser>/report.md`` and ``report.html`` (default ``reports/bisect``), and beside them
``findings.jsonl``: each range that reads otherwise than the Standard, judged by the parser's
contract (:mod:`urlwb.versions.findings`).
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
import sys
import time

from urlwb import oracles, progress
from urlwb.cliutil import add_out, add_seed, count_flag, short
from urlwb.errors import Incomplete, UsageError
from urlwb.htmlpage import code_cell
from urlwb.oracles.versions import builds, installs, names, registries
from urlwb.differential import generate, releases
from urlwb.differential.run import diff
from urlwb.versions import findings

DEFAULT_OUT = pathlib.Path("reports") / "bisect"
DEFAULT_STEP = 8
QUESTIONS = ("to-ascii", "ip", "public-suffix", "registrable-domain")


def add_arguments(p) -> None:
    p.add_argument("parser", metavar="PARSER", help="a shipped parser with registry versions "
                   "(url-parse, whatwg-url, yarl, rfc3986, urllib3, hyperlink, ada_url, idna, okhttp, "
                   "spring-uricomponents, apache-httpclient5, guava-idn, rust-url, rust-idna, go-idna, ...), "
                   "or a user's adapter that names its package (package = \"npm:NAME\", pypi:, maven:)")
    p.add_argument("input", metavar="INPUT", nargs="?", default=None,
                   help="the input (a URL; a domain for host oracles); none with --generate")
    p.add_argument("--generate", type=int, default=0, metavar="N",
                   help="no input typed: N generated inputs asked of the oldest and newest releases, what "
                        "changed between them grown and shrunk (urlwb diff's release differential), and "
                        "the shortest witness of each cause bisected (the causes where both read two hosts first)")
    p.add_argument("--witnesses", type=int, default=3, metavar="K",
                   help="with --generate: bisect the witnesses of K causes at most (default 3)")
    add_seed(p, "--generate")
    p.add_argument("--base", default=None, help="base URL of INPUT")
    p.add_argument("--oldest", metavar="V", help="the oldest version to ask (a released version)")
    p.add_argument("--newest", metavar="V", help="the newest version to ask (a released version)")
    p.add_argument("--pre", action="store_true", help="include pre-releases")
    p.add_argument("--step", type=int, default=DEFAULT_STEP, metavar="N",
                   help=f"sample intervals whose ends agree every N releases (default {DEFAULT_STEP}; "
                        "0: bisect only where the ends differ)")
    p.add_argument("--no-lines", action="store_true",
                   help="do not ask the oldest and newest release of every maintenance line first (5.3.x, 6.0.x: "
                        "where a fix was backported)")
    p.add_argument("--question", choices=QUESTIONS, default=None,
                   help="host oracles: the question (default to-ascii, else the oracle's first)")
    add_out(p, f"the report folder (default {DEFAULT_OUT})", None)
    p.add_argument("--rebuild", action="store_true", help="build again even where the cache has a build")
    installs.add_flag(p)   # a user's package's releases: installs run no package code without it
    p.epilog = ("How every change is found: the oldest and newest versions are asked, and the oldest and "
                "newest release of every maintenance line (5.3.x, 6.0.x, ...: a fix backported to an older line "
                "shows there; --no-lines leaves them out); an interval whose "
                "ends answer differently is split at its middle, recursively, down to two neighbouring "
                "releases; an interval whose ends agree is sampled every --step releases, and a sampled "
                "version that differs splits it too. A change and its reversal inside one sampling step "
                "can be missed. A version that does not build is skipped with its reason. Builds are "
                "cached in ${XDG_CACHE_HOME:-~/.cache}/urlwb/versions (URLWB_VERSIONS_CACHE). "
                "Exit status: 0 when done; 1 when no version could be asked (each skipped, with its "
                "reason); 2 for a usage error (unknown parser, one with no registry "
                "versions, a bound that is not a released version, a registry that says no).")


@dataclasses.dataclass
class Asked:
    """One version's answer: ``key`` compares answers, ``text`` shows one; or ``skipped``."""

    version: str
    key: tuple | None = None
    text: str = ""
    standard: str = ""   # "=" when it agrees with the Standard, else what differs
    shown: str = ""      # the hello line's version
    skipped: str | None = None
    #: the oracle's answer itself (a Record; for host oracles its Answer), for the findings' judge
    answer: object = None


def _record_text(r) -> str:
    return oracles.answer_text(r, missing="not applicable", with_host=True)


def _record_key(r) -> tuple:
    if r is None:
        return ("n/a",)
    if r.crash:
        return ("crash", r.crash.split(":")[0])
    return tuple(r)


class Asker:
    """Builds a version, starts its oracle, asks it the one question, closes it."""

    def __init__(self, pkg, input: str, base: str | None, question: str | None, rebuild: bool, log,
                 user: bool = False):
        self.pkg, self.input, self.base, self.rebuild, self.log = pkg, input, base, rebuild, log
        self.user = user   # a user's adapter: each release installed (names.register), not built
        self.question = question
        self.standard = self._standard()

    def _standard(self):
        if self.pkg.kind == "url":
            loaded, skipped = oracles.load(["engine"])
            if "engine" not in loaded:
                raise UsageError(f"the engine cannot run: {skipped.get('engine')}")
            rec = loaded["engine"].parse(oracles.to_usv(self.input),
                                         None if self.base is None else oracles.to_usv(self.base))
            return rec
        return None   # host: computed per question once known

    def standard_host(self, question: str):
        import engine
        try:
            if question == "to-ascii":
                return engine.domain_to_ascii(self.input)
            if question == "public-suffix":
                return engine.public_suffix(self.input)
            if question == "registrable-domain":
                return engine.registrable_domain(self.input)
            return engine.serialize_host(engine.parse_host(self.input))
        except engine.Failure:
            return None

    def ask(self, version: str) -> Asked:
        if self.user:
            try:
                name = names.register(f"{self.pkg.parser}@{version}", log=self.log)
            except UsageError as exc:
                return Asked(version, skipped=str(exc).split(": ", 1)[-1])
            return self._ask_url(version, name)
        try:
            spec = builds.build(self.pkg, version, rebuild=self.rebuild, log=self.log)
        except builds.BuildError as exc:
            return Asked(version, skipped=str(exc).split(": ", 1)[-1] if "does not build" in str(exc) else str(exc))
        names.add(spec)
        if self.pkg.kind == "url":
            return self._ask_url(version, spec.name)
        return self._ask_host(version, spec.name)

    def _ask_url(self, version, name) -> Asked:
        from urlwb.differential import classify
        loaded, skipped = oracles.load([name])
        if name not in loaded:
            return Asked(version, skipped=f"its oracle did not start: {skipped.get(name)}")
        o = loaded[name]
        try:
            base = None if self.base is None else oracles.to_usv(self.base)
            if base is not None and not o.supports_base:
                return Asked(version, skipped="resolves no base")
            rec = o.parse_many([(oracles.to_usv(self.input), base)])[0]
        finally:
            oracles.close_all(loaded)
        std = ""
        if self.standard is not None and rec is not None:
            verdict = classify.classify(self.input, self.standard, rec,
                                        oracles.REGISTRY[name].family != "whatwg")
            std = "=" if verdict is None else classify.TITLES[verdict.cls]
        return Asked(version, _record_key(rec), _record_text(rec), std, o.version, answer=rec)

    def _ask_host(self, version, name) -> Asked:
        from urlwb.oracles.hosts import close_hosts, load_hosts
        loaded, skipped = load_hosts([name])
        if name not in loaded:
            return Asked(version, skipped=f"its oracle did not start: {skipped.get(name)}")
        o = loaded[name]
        try:
            q = self.question or ("to-ascii" if "to-ascii" in o.questions else o.questions[0])
            self.question = q
            ans = o.answer(q, self.input)
        finally:
            close_hosts(loaded)
        if ans.crash:
            key, text = ("crash", ans.crash.split(":")[0]), f"crash: {ans.crash[:120]}"
        elif ans.failure:
            key, text = ("failure",), "failure"
        else:
            key, text = ("value", ans.value), repr(ans.value)
        exp = self.standard_host(q)
        std = "=" if (not ans.failure and not ans.crash and ans.value == exp) or (ans.failure and exp is None) else (
            f"the Standard: {exp!r}" if exp is not None else "the Standard: failure")
        return Asked(version, key, text, std, o.version, answer=ans)


def line_bounds(versions: list[str]) -> list[int]:
    """The indexes of the oldest and the newest release of each maintenance line (the same first
    two numbers: 5.3.x, 6.0.x), where versions have two numbers and there is more than one line,
    with three releases or more a line on average; [] otherwise (golang.org/x/net's every release
    is a new v0.N.0: lines there would mean asking every release)."""
    import re
    bounds: dict[tuple, list[int]] = {}
    for i, v in enumerate(versions):
        nums = re.findall(r"\d+", v)
        if len(nums) < 2:
            return []
        line = bounds.setdefault((int(nums[0]), int(nums[1])), [i, i])
        line[1] = i
    if len(bounds) < 2 or 3 * len(bounds) > len(versions):
        return []
    return sorted({i for b in bounds.values() for i in b})


def search(versions: list[str], ask, step: int, lines: bool = True) -> dict[int, Asked]:
    """Ask versions by recursive bisection (plus sampling every ``step`` releases of intervals
    whose ends agree, and with ``lines`` the oldest and newest release of every maintenance line
    first, so that a fix backported to an older line splits the interval there); returns index -> Asked for
    every version asked."""
    got: dict[int, Asked] = {}

    def get(i: int) -> Asked:
        if i not in got:
            got[i] = ask(versions[i])
        return got[i]

    def ok(i: int) -> bool:
        return get(i).skipped is None

    def nearest(lo: int, hi: int) -> int | None:
        """A version strictly between lo and hi that answers, as near the middle as there is."""
        mid = (lo + hi) // 2
        for d in range(0, hi - lo):
            for j in (mid + d, mid - d) if d else (mid,):
                if lo < j < hi and ok(j):
                    return j
        return None

    def split(lo: int, hi: int) -> None:
        if hi - lo <= 1:
            return
        if get(lo).key != get(hi).key:
            m = nearest(lo, hi)
            if m is not None:
                split(lo, m)
                split(m, hi)
            return
        if step > 0:
            for j in range(lo + step, hi, step):
                if ok(j) and get(j).key != get(lo).key:
                    split(lo, j)
                    split(j, hi)
                    return

    first = next((i for i in range(len(versions)) if ok(i)), None)
    if first is None:
        return got
    last = next((i for i in range(len(versions) - 1, first - 1, -1) if ok(i)), first)
    points = [first, *[i for i in (line_bounds(versions) if lines else []) if first < i < last and ok(i)], last]
    for lo, hi in zip(points, points[1:]):
        split(lo, hi)
    return got


@dataclasses.dataclass
class Range:
    first: str
    last: str
    text: str
    standard: str
    releases: int
    asked: int
    #: the next release that answers otherwise (or None: the newest asked)
    next_other: str | None = None


def ranges(versions: list[str], got: dict[int, Asked]) -> list[Range]:
    """Consecutive asked versions with one answer merged into a range (the releases between two
    of them, not asked, are taken to answer the same: what bisection assumes)."""
    idx = sorted(i for i, a in got.items() if a.skipped is None)
    out: list[Range] = []
    start = None
    for n, i in enumerate(idx):
        if start is None:
            start, count = i, 0
        count += 1
        nxt = idx[n + 1] if n + 1 < len(idx) else None
        if nxt is None or got[nxt].key != got[i].key:
            a = got[i]
            out.append(Range(versions[start], versions[i], a.text, a.standard, i - start + 1, count,
                             versions[nxt] if nxt is not None else None))
            start = None
    return out


def run(args) -> int:
    t0 = time.monotonic()
    installs.from_args(args)
    parser, version = names.split(args.parser)
    if version is not None:
        raise UsageError(f"{args.parser}: bisect takes a parser without a version (--oldest/--newest bound it)")
    mine = names.user_spec(parser)
    pkg, source = (user_package(mine), mine.registry) if mine is not None else (names.package(parser), None)
    count_flag("--step", args.step, least=0)
    if args.input is None:
        if not args.generate:
            raise UsageError("no INPUT: give one, or --generate N to find what changed between the oldest "
                             "and the newest release")
        count_flag("--witnesses", args.witnesses)
        if pkg.kind != "url":
            raise UsageError("--generate: URL parsers only (a host oracle is asked one host: give it)")
    if pkg.kind == "url" and args.question:
        raise UsageError("--question is for host oracles")
    listed = _listing_package(pkg)
    print(f"urlwb bisect: listing {pkg.registry} versions of {listed}"
          + (f" from {source}" if source else ""), file=sys.stderr, flush=True)
    every = registries.released(pkg.registry, listed, pre=True, source=source)
    versions = registries.ordered(pkg.registry, every, pre=args.pre)
    versions = _bounded(pkg, versions, every, args.oldest, args.newest)
    if not versions:
        raise UsageError(f"{parser}: no released version between the bounds")
    print(f"urlwb bisect: {len(versions)} releases of {parser}, {versions[0]} to {versions[-1]}"
          f"{' (pre-releases included)' if args.pre else ''}", file=sys.stderr, flush=True)

    def log(line):
        print(line, file=sys.stderr, flush=True)

    if args.input is not None:
        return _bisect(args, parser, pkg, mine, listed, versions, args.input, args.base, args.out or DEFAULT_OUT,
                       t0, log)
    witnesses = generated_witnesses(parser, versions, args.generate, args.seed, args.rebuild, log)
    if not witnesses:
        print(f"urlwb bisect: {parser} {versions[0]} and {versions[-1]} agree on all {args.generate:,} generated "
              "inputs and the ones grown around them: nothing to bisect")
        return 0
    status = 0
    for k, w in enumerate(witnesses[:args.witnesses], 1):
        print(f"witness {k} of {min(len(witnesses), args.witnesses)} ({len(witnesses)} causes): {w.input!r}, "
              f"[{w.cls}{'/' + w.cause if w.cause else ''}]")
        out = (args.out or DEFAULT_OUT) / f"witness-{k}"
        status = max(status, _bisect(args, parser, pkg, mine, listed, versions, w.input, w.base, out,
                                     time.monotonic(), log))
    return status


def generated_witnesses(parser: str, versions: list[str], n: int, seed: int, rebuild: bool, log) -> list:
    """What changed between the oldest and newest of ``versions``, with no input typed: ``n``
    generated inputs asked of both (and the engine), grown and shrunk by the release differential
    (:mod:`urlwb.differential.releases`); the shortest witness of each cause, the causes where
    both releases accept and read two hosts first."""
    a = names.register(f"{parser}@{versions[0]}", rebuild=rebuild, log=log)
    b = names.register(f"{parser}@{versions[-1]}", rebuild=rebuild, log=log)
    items = [(i, base, "generated") for i, base in generate.generate(n, seed)]
    res = diff(items, ["engine", a, b], reparse=False, hosts=False)
    (changes,) = releases.explore(res, [(a, b)], seed=seed, log=log) or [None]
    return releases.witnesses(changes) if changes is not None else []


def _bisect(args, parser, pkg, mine, listed, versions, input, base, out, t0, log) -> int:
    """One input bisected over ``versions``: the ranges printed, the report written into ``out``."""
    asker = Asker(pkg, input, base, args.question, args.rebuild, log, user=mine is not None)

    def ask(v):
        said.note = f"{len(got_so_far)} asked of {len(versions)} releases, now {v}"
        a = asker.ask(v)
        got_so_far.append(v)
        log(f"urlwb bisect: {parser}@{v}: " + (f"skipped ({a.skipped})" if a.skipped else a.text))
        return a

    got_so_far: list[str] = []
    # the releases asked are not known ahead (the search splits where answers differ): k asked
    # of the N releases, and a line every few seconds while one builds
    with progress.task(f"urlwb bisect {parser}", None, beat=True) as said:
        got = search(versions, ask, args.step, lines=not args.no_lines)
    found = ranges(versions, got)
    seconds = time.monotonic() - t0
    std_text = (_record_text(asker.standard) if pkg.kind == "url"
                else repr(asker.standard_host(asker.question or "to-ascii")))
    report = {
        "parser": parser, "registry": pkg.registry, "package": listed, "input": input,
        "base": base, "question": asker.question, "oldest": versions[0], "newest": versions[-1],
        "releases": len(versions), "step": args.step, "pre": args.pre, "lines": not args.no_lines, "seconds": round(seconds, 1),
        "standard": std_text,
        "ranges": [dataclasses.asdict(r) for r in found],
        "asked": [{"version": a.version, "answer": a.text, "standard": a.standard, "hello_version": a.shown,
                   "skipped": a.skipped} for _, a in sorted(got.items())],
    }
    print(terminal(report))
    paths = write_report(report, out)
    paths.append(findings.write(report, got, asker, pkg.kind, out))
    for p in paths:
        print(f"report: {p}")
    if not found:
        raise Incomplete(f"no version of {parser} could be asked (each skipped, above)")
    return 0


def user_package(spec):
    """The registry package of a user's adapter (``package = "npm:NAME"`` of its table), as
    bisect walks it; one line when it names none, or is not a parser."""
    from urlwb.oracles.versions.catalog import Package
    if not spec.package:
        raise UsageError(f"{spec.name}: a user's adapter with no package: package = \"npm:NAME\" (pypi:, maven:) "
                         "in its table gives it releases")
    registry, name = installs.split_package(spec.package)
    if registry not in installs.INSTALLED:
        raise UsageError(f"{spec.name}: {registry} packages are built by the adapter's own project, not "
                         f"installed by the workbench (npm, pypi and maven are)")
    if spec.kind != "url":
        raise UsageError(f"{spec.name}: bisect asks parsers; a validator's releases are asked by "
                         f"urlwb ssrf --oracle {spec.name}@VERSION")
    return Package(spec.name, registry, name, "url")


def _listing_package(pkg) -> str:
    # OkHttp 5's jar is okhttp-jvm; the okhttp artifact lists every release (3, 4 and 5)
    return pkg.package


def _bounded(pkg, versions: list[str], every: list[str], oldest, newest) -> list[str]:
    key = registries.sort_key(pkg.registry)
    for flag, v in (("--oldest", oldest), ("--newest", newest)):
        if v is not None and v not in every:
            near = sorted(every, key=lambda x: abs(every.index(x) - _insertion(every, v, key)))[:3]
            raise UsageError(f"{flag} {v}: not a released version of {pkg.parser} on {pkg.registry} "
                             f"(nearest: {', '.join(sorted(near, key=key))})")
    lo = key(oldest) if oldest else None
    hi = key(newest) if newest else None
    out = [v for v in versions if (lo is None or key(v) >= lo) and (hi is None or key(v) <= hi)]
    if oldest and oldest not in out and oldest in every:
        out = sorted([oldest, *out], key=key)
    if newest and newest not in out and newest in every:
        out = sorted([*out, newest], key=key)
    return out


def _insertion(every, v, key) -> int:
    k = key(v)
    return sum(1 for x in every if key(x) < k)


def terminal(rep: dict) -> str:
    lines = [f"{rep['parser']} ({rep['registry']} {rep['package']}) on {short(rep['input'], 80)!s}"
             + (f" against base {short(rep['base'], 60)}" if rep["base"] else "")
             + (f", question {rep['question']}" if rep.get("question") else ""),
             f"  {rep['releases']} releases {rep['oldest']} .. {rep['newest']}, "
             f"{sum(1 for a in rep['asked'] if not a['skipped'])} asked, "
             f"{sum(1 for a in rep['asked'] if a['skipped'])} skipped, {rep['seconds']:.1f} s"]
    for r in rep["ranges"]:
        span = r["first"] if r["first"] == r["last"] else f"{r['first']} .. {r['last']}"
        std = "= the Standard" if r["standard"] == "=" else f"differs from the Standard ({r['standard']})"
        lines.append(f"  {span:<28} {r['text']}   [{std}; {r['releases']} releases, {r['asked']} asked]")
    for a in rep["asked"]:
        if a["skipped"]:
            lines.append(f"  skipped {a['version']}: {a['skipped']}")
    lines.append(f"  the Standard (engine): {rep['standard']}")
    return "\n".join(lines)


def markdown(rep: dict) -> str:
    cell = code_cell

    out = [f"# urlwb bisect: {rep['parser']}", "",
           f"- input: {cell(short(rep['input'], 200))}" + (f", base {cell(short(rep['base'], 200))}" if rep["base"] else ""),
           f"- package: {rep['registry']} `{rep['package']}`; {rep['releases']} releases from "
           f"{rep['oldest']} to {rep['newest']}" + (" (pre-releases included)" if rep["pre"] else " (pre-releases left out)"),
           f"- the Standard (the engine): {cell(rep['standard'])}",
           f"- {len([a for a in rep['asked'] if not a['skipped']])} versions asked, "
           f"{len([a for a in rep['asked'] if a['skipped']])} skipped, in {rep['seconds']:.1f} s",
           "", "## Versions and their answers", "",
           "| versions | answer | against the Standard | releases | asked | next release answers otherwise |",
           "|---|---|---|---|---|---|"]
    for r in rep["ranges"]:
        span = r["first"] if r["first"] == r["last"] else f"{r['first']} to {r['last']}"
        out.append(f"| {span} | {cell(r['text'])} | {'same' if r['standard'] == '=' else cell(r['standard'])} | "
                   f"{r['releases']} | {r['asked']} | {r['next_other'] or ''} |")
    out += ["", "## How", "",
            "The oldest and newest versions were asked"
            + (", and the oldest and newest release of every maintenance line (the same first two numbers)" if rep.get("lines") else "")
            + "; each interval whose ends answered differently was "
            "split at its middle release, recursively, down to two neighbouring releases; each interval "
            f"whose ends agreed was sampled every {rep['step']} releases"
            + (" (here: not sampled, --step 0)" if rep["step"] == 0 else "")
            + ". The releases inside a range that were not asked are taken to answer as its ends do: a change "
              "and its reversal within one sampling step would be missed.", "",
            "## Every version asked", "", "| version | hello version | answer | against the Standard |",
            "|---|---|---|---|"]
    for a in rep["asked"]:
        if a["skipped"]:
            out.append(f"| {a['version']} | | skipped: {cell(a['skipped'])} | |")
        else:
            out.append(f"| {a['version']} | {a['hello_version']} | {cell(a['answer'])} | "
                       f"{'same' if a['standard'] == '=' else cell(a['standard'])} |")
    return "\n".join(out) + "\n"


def write_report(rep: dict, out: pathlib.Path) -> list[pathlib.Path]:
    from urlwb import corpus_store, htmlpage
    folder = pathlib.Path(out) / rep["parser"]
    folder.mkdir(parents=True, exist_ok=True)
    md = markdown(rep)
    paths = [folder / "report.md", folder / "report.html", folder / "bisect.json"]
    corpus_store.atomic_write(paths[0], md.encode("utf-8"))
    corpus_store.atomic_write(paths[1], htmlpage.page(f"urlwb bisect: {rep['parser']}", md).encode("utf-8"))
    corpus_store.atomic_write(paths[2], (json.dumps(rep, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    return paths
