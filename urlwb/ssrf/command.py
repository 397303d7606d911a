"""``urlwb ssrf``: hunt for inputs a validator allows where a fetcher would connect to a denied
destination.

    urlwb ssrf [--oracle NAME|NAME@VERSION|NAME=CMD|NAME=py:mod:fn ...] [--parsers LIST]
               [--deny private|loopback|metadata|link-local|HOSTS] [--allow HOSTS]
               [--minutes M] [--seed N] [--out DIR] [--no-file]
               [--inputs FILE] [--clients LIST|none] [--sarif F] [--junit F]
               [--fail-on bug|hazard|never] [--baseline FILE]

Validators: the flags', else ``[tool.urlwb.validators]``, else every shipped one. Fetchers: the
URL parsers of ``urlwb.oracles`` (``--parsers`` names and groups), default every available one.
First every spelling of every denied host in every confusion template, then random inputs from
the same pieces until ``--minutes`` are up; then each (validator, fetcher) cell's shortest bypass
is minimized, filed in ``corpus/ssrf/regress/`` (not with ``--no-file``), and the report written
to ``--out`` (default ``reports/ssrf/``). Two releases of one validator (``ip@1.1.8`` and ``ip``)
give a history: what the older allows that the newer judges denied (``allow: false``; an
error, such as ip 2.x throwing on every name, is not counted as a judgement).
The model (parsers and resolvers) is the fast pre-filter; what it flags (each cell's minimized
witnesses) is then fetched by real HTTP clients, each in a network namespace the run makes for
it (:mod:`urlwb.ssrf.observe`; ``--clients``, default every one that can start, ``none``: no
observation), and ``observed.jsonl`` and ``findings.jsonl`` say where each was seen to connect.
``--inputs FILE`` (one URL a line) replaces the generated inputs: every one is judged, modelled
and observed (no hunt, no minimizing, nothing filed). The exit status is the one contract
(:mod:`urlwb.exitcodes`): 1 when a new finding (a bypass, or a validator that crashed, hung or
answered out of schema on some input) is at or above ``--fail-on``; 3 when a validator named on
the command line, or every validator or fetcher, could not start.
"""

from __future__ import annotations

import itertools
import json
import os
import pathlib
import subprocess
import sys
import time

from urlwb import children, corpus_store, exitcodes, oracles, progress, report_formats
from urlwb.oracles import manifests
from urlwb.oracles.versions import installs, registries
from urlwb.oracles.versions.catalog import VALIDATORS
from urlwb.cliutil import add_minutes, check_outputs, count, seconds, add_oracle, add_out, add_parsers, add_seed, alias, count_flag, minutes_flag, seconds_flag
from urlwb.errors import Incomplete, UsageError
from urlwb.differential import generate
from urlwb.findings import record
from urlwb.ssrf import catalog, fetchers, hunt, inputs, install, policy, regress, report
from urlwb.ssrf.finding_records import finding_records, no_uri_records
from urlwb.ssrf.observe import run as observing
from urlwb.differential import facts

DEFAULT_OUT = pathlib.Path("reports") / "ssrf"
#: the minimizer's own budget, after the hunt
MINIMIZE_SECONDS = 120.0


def add_arguments(p) -> None:
    add_oracle(p, "a validator: NAME (shipped), NAME@VERSION (npm/PyPI/Maven release), NAME=CMD or "
                  "NAME=py:module:function (default: [tool.urlwb.validators], else every shipped one)",
               dest="validator")
    alias(p, "--validator", "--oracle")
    installs.add_flag(p)   # NAME@VERSION installs run no package code without it
    add_parsers(p, "the URL parsers whose hosts are fetched (default: all)", None, dest="fetchers")
    alias(p, "--fetchers", "--parsers")
    p.add_argument("--deny", default=None, metavar="LIST",
                   help="denied destinations: private, loopback, metadata, link-local, and host names, "
                        "addresses or networks (default: the four categories)")
    p.add_argument("--allow", default=None, metavar="HOSTS",
                   help="an allow-list: connecting anywhere else is a bypass too")
    add_minutes(p, "the hunt", 2.0)
    add_seed(p, "the random phase and of the spellings' mixed radices")
    add_out(p, "the report folder", DEFAULT_OUT)
    p.add_argument("--no-file", action="store_true", help="file no regress entries")
    p.add_argument("--batch", type=count(1, hunt.MOST_BATCH), default=hunt.BATCH, help="inputs per batch (default %(default)s)")
    p.add_argument("--guided-seconds", type=seconds(), default=20.0, metavar="S",
                   help="seconds of coverage-guided search per Python validator (atheris) and npm validator (V8 block coverage, guided.mjs), before the random phase; "
                        "0: none (default %(default)s)")
    p.add_argument("--inputs", type=pathlib.Path, default=None, metavar="FILE",
                   help="your inputs, one URL a line, in place of the generated ones: each judged, "
                        "modelled and fetched by every client (observed.jsonl in --out)")
    p.add_argument("--clients", default=None, metavar="LIST",
                   help="HTTP clients that fetch in the sealed network (default: every one that can "
                        "start; none: no observation)")
    report_formats.add_arguments(p)
    exitcodes.add_arguments(p)


def fetcher_names_of(spec: str | None) -> list[str]:
    try:
        names = oracles.resolve_names(spec) if spec else fetchers.default_names()
    except ValueError as exc:
        raise UsageError(f"--parsers: {exc}") from None
    url_kind = set(fetchers.default_names())
    wrong = [n for n in names if n not in url_kind]
    if wrong:
        raise UsageError(f"--parsers: {wrong[0]} is not a URL parser")
    return names


def _history_pairs(declared: list[catalog.Declared], started) -> list[tuple[str, str]]:
    """(older, newer) for each two started releases of one shipped validator, older first by
    their versions (the shipped pin counts as its hello line's version)."""
    by_base: dict[str, list[str]] = {}
    d_base: dict[str, str] = {}
    for d in declared:
        if d.base and d.name in started:
            by_base.setdefault(d.base, []).append(d.name)
            d_base[d.name] = d.base
    pairs = []
    for names in by_base.values():
        ordered = sorted(names, key=lambda n: _version_key(d_base[n], started[n].version))
        pairs += list(itertools.pairwise(ordered))
    return pairs


def _version_key(base: str, v: str):
    """The one version order, the registry's (:func:`urlwb.oracles.versions.registries.sort_key`:
    Guava's 33.0.0-jre after 32.1.3-jre, 1.0.0-rc.1 before 1.0.0); Maven's generic order for a
    validator of no known registry."""
    registry = (install.PACKAGES.get(base) or (None,))[0] or (
        VALIDATORS[base].registry if base in VALIDATORS else "maven")
    return registries.sort_key(registry)(v)


def pairs_said(validators: int, fetchers: int, what: str = "fetchers") -> str:
    """The run's size in its flags' words: validators are what ``--oracle`` names, fetchers what
    ``--parsers`` names (the flags were renamed, the printed words were not: issue 37)."""
    return f"{validators} validators (--oracle) × {fetchers} {what} (--parsers)"


def run(args) -> int:
    check_outputs(args)
    installs.from_args(args)
    minutes_flag("--minutes", args.minutes)
    count_flag("--batch", args.batch)
    pol = policy.parse(args.deny, args.allow)
    client_names = observing.client_names(args.clients)
    user_inputs = observing.read_inputs(args.inputs) if args.inputs is not None else None
    if user_inputs is not None and args.fetchers is None:
        url_kind = set(fetchers.default_names())
        fetcher_names = [n for n in observing.model_parsers(client_names) if n in url_kind]
    else:
        fetcher_names = fetcher_names_of(args.fetchers)
    declared = catalog.declared(args.validator, progress=lambda s: print(s, flush=True))
    print(f"urlwb ssrf: starting {pairs_said(len(declared), len(fetcher_names))}", flush=True)
    with progress.heartbeat(f"urlwb ssrf: starting {pairs_said(len(declared), len(fetcher_names))}",
                            after=progress.EVERY):
        validators, skipped = catalog.start(declared)
        fetcher_oracles, f_skipped = oracles.load(fetcher_names)
    skipped.update(f_skipped)
    try:
        for name, why in skipped.items():
            print(f"  skipped {name}: {why}")
        explicit = [d.name for d in declared if d.name not in validators]
        if args.validator and explicit:
            raise Incomplete(f"validator {explicit[0]} cannot start: {skipped.get(explicit[0], '?')}")
        if not validators:
            raise Incomplete("no validator could start (run `make oracles`)")
        if not fetcher_oracles and user_inputs is None:
            raise Incomplete("no fetcher could start")
        if user_inputs is not None:
            return _inputs_run(args, pol, user_inputs, client_names, validators, fetcher_oracles, skipped)
        return _hunt(args, pol, declared, validators, fetcher_oracles, skipped, client_names)
    finally:
        for v in validators.values():
            v.close()
        oracles.close_all(fetcher_oracles)


def _inputs_run(args, pol, user_inputs, client_names, validators, fetcher_oracles, skipped) -> int:
    """``--inputs``: every input judged by every validator and read by the model (the bypass
    matrix, unminimized), then observed through every client (module docstring)."""
    asker = hunt.Asker(validators, fetcher_oracles)
    print(f"{len(user_inputs):,} inputs from {args.inputs} "
          f"({pairs_said(len(validators), len(fetcher_oracles), 'modelled fetchers')})", flush=True)
    # every input judged (no time bound): a line every few seconds while a batch is asked
    with progress.task(f"urlwb ssrf: judging {len(user_inputs):,} inputs", beat=True) as said:
        res, run_cells = judge_inputs(asker, pol, user_inputs, args.batch,
                                      lambda line: (print(line, flush=True), said.advance(0, note=line.strip())))
    observed_md: list[str] = []
    found = None
    if client_names != []:
        versions = {n: v.version for n, v in validators.items()}
        obs, _, found, observed_md, lines = observing.observe_and_record(
            user_inputs, client_names, asker, pol, args.out, versions,
            observing.policy_flags(args.deny, args.allow))
        print("\n".join(lines))
        print(f"{len(found)} findings in {args.out / 'findings.jsonl'}; observations in {args.out / 'observed.jsonl'}")
        found = found if obs.clients else None
    run = _run_record(args, pol, validators, fetcher_oracles, skipped, res, run_cells, {}, [], [])
    run.observed = observed_md
    run.inputs_file = str(args.inputs)
    print(report.terminal(run))
    paths = report.write(run, args.out)
    print(f"report: {paths[0]}")
    # one list of records for findings.jsonl, --sarif and --junit (as the hunt's, below)
    records = finding_records(per_validator_input(res, asker, pol, fetcher_oracles), validators, {},
                              list(pol.categories), found, asker)
    print(f"report: {record.write_findings(args.out, records)}")
    return exitcodes.conclude(args, records, "ssrf", args.out)


def judge_inputs(asker, pol, user_inputs: list[str], batch: int, progress=lambda line: None):
    """Every input asked of every validator and modelled fetcher (the bypass matrix, unminimized):
    (the hunt's result, its cells as the report shows them)."""
    res = hunt.hunt(asker, pol, user_inputs, float("inf"), 0, batch=batch, progress=progress)
    run_cells = {}
    for (v, f), c in res.cells.items():
        w = min(c.witnesses.values(), key=lambda s: (len(s), s))
        run_cells[(v, f)] = {"count": len(c.inputs), "categories": c.categories, "witness": w,
                             "destination": asker.dests[f][w].show(),
                             "witnesses": {cat: {"witness": x, "destination": asker.dests[f][x].show()}
                                           for cat, x in sorted(c.witnesses.items())}}
    return res, run_cells


def model_records(validators: dict, fetcher_oracles: dict, pol, user_inputs: list[str], batch: int = 64) -> list[dict]:
    """The records ``urlwb ssrf --inputs ... --clients none`` writes for ``user_inputs``: each
    (validator, witness) the model flags, judged by the one judge with the validator's own host
    (``urlwb verdict INPUT --parsers VALIDATOR`` prints these)."""
    asker = hunt.Asker(validators, fetcher_oracles)
    res, _ = judge_inputs(asker, pol, user_inputs, batch)
    return finding_records(per_validator_input(res, asker, pol, fetcher_oracles), validators, {},
                           list(pol.categories), None, asker)


def per_validator_input(res, asker, pol, fetcher_oracles) -> dict[tuple[str, str], dict]:
    """(validator, input) -> {fetcher: what it reached} for every input of every cell: with
    ``--inputs`` each input is judged, not only each cell's shortest witness (which kept
    http://127.1/ and hid http://0x7f.1/, another spelling the same validator allows)."""
    per: dict[tuple[str, str], dict] = {}
    for (v, f), c in res.cells.items():
        for s in sorted(c.inputs):
            d = asker.dests[f][s]
            per.setdefault((v, s), {})[f] = {"host": d.host, "destination": d.show(),
                                              "category": pol.denied(d), "version": fetcher_oracles[f].version}
    return per


def _per_validator_witness(run_cells, asker, pol, fetcher_oracles) -> dict[tuple[str, str], dict]:
    """(validator, witness) -> {fetcher: what it reached}: each cell's witnesses, as a regress
    entry (and ``--sarif``) records them."""
    per_vw: dict[tuple[str, str], dict] = {}
    for (v, f), c in run_cells.items():
        for per in c["witnesses"].values():
            w = per["witness"]
            d = asker.dests[f][w]
            per_vw.setdefault((v, w), {})[f] = {"host": d.host, "destination": d.show(),
                                                 "category": pol.denied(d), "version": fetcher_oracles[f].version}
    return per_vw


def _run_record(args, pol, validators, fetcher_oracles, skipped, res, run_cells, witnesses, history, filed):
    return report.Run(
        validators={n: {"version": v.version, "what": v.describe, "counts": dict(v.counts),
                        "findings": list(v.findings), "incidents": list(v.incidents)} for n, v in validators.items()},
        fetchers={n: {"version": o.version, "resolver": fetchers.resolver_of(n),
                      "language": oracles.REGISTRY[n].language} for n, o in fetcher_oracles.items()},
        skipped=skipped, policy=_policy_text(pol), seed=args.seed, minutes=args.minutes,
        inputs=len(res.inputs), systematic=res.systematic, seconds=res.seconds, cells=run_cells,
        witnesses=witnesses, history=history, filed=filed, guided=res.guided)


#: well-formed URLs holding a character no URI holds, put first to every validator (finding_records.no_uri_records)
NO_URI_INPUTS = 100


def _hunt(args, pol, declared, validators, fetcher_oracles, skipped, client_names=None) -> int:
    asker = hunt.Asker(validators, fetcher_oracles)
    targets, decoy = pol.targets(), pol.decoy()
    first = list(inputs.systematic(targets, decoy, args.seed))
    guided_lines: list[str] = []
    found = (_guided(args, declared, validators, fetcher_oracles, first, guided_lines)
             if args.guided_seconds > 0 else [])
    # first, well-formed URLs holding a character no URI holds: a validator of URL syntax is
    # judged on them by its contract (finding_records.no_uri_records), within the hunt's time
    no_uri = [s for s in dict.fromkeys(generate.no_uri_inputs(NO_URI_INPUTS, args.seed)) if s not in first]
    first = no_uri + first
    stream = itertools.chain(found, first, inputs.random_inputs(targets, decoy, args.seed))
    print(f"hunting: {len(first):,} systematic inputs, then random ones, for {args.minutes:g} min "
          f"({pairs_said(len(validators), len(fetcher_oracles))})", flush=True)
    with progress.task("urlwb ssrf: seconds of the hunt", total=int(args.minutes * 60), beat=True,
                       timed=True) as said:
        res = hunt.hunt(asker, pol, stream, args.minutes * 60, len(first), batch=args.batch,
                        progress=lambda line: said.advance(0, note=line.strip()))
    res.guided = guided_lines
    t0 = time.monotonic()
    cells = {(v, f, cat): w for (v, f), c in res.cells.items() for cat, w in c.witnesses.items()}
    with progress.heartbeat(f"urlwb ssrf: minimizing {len(cells)} witnesses", after=progress.EVERY):
        best, rounds = hunt.minimize(asker, pol, cells, seconds=MINIMIZE_SECONDS)
    print(f"minimized {len(best)} witnesses in {rounds} batches, {time.monotonic() - t0:.0f} s", flush=True)

    history, hist_witness = [], {}
    for old, new in _history_pairs(declared, validators):
        # up to a minute of minimizing each pair of releases: heard from every few seconds
        with progress.heartbeat(f"urlwb ssrf: what {old} allows and {new} denies", after=progress.EVERY):
            hcells = hunt.history(asker, pol, res.inputs, old, new, seconds=MINIMIZE_SECONDS / 2)
        hist_witness.update({c["witness"]: True for c in hcells.values() if "witness" in c})
        still_n = sum(len(c.inputs) for (v, _), c in res.cells.items() if v == new)
        history.append({"old": old, "new": new, "cells": hcells, "still": still_n})
    res.seconds["minimize"] = time.monotonic() - t0

    run_cells, witnesses, filed = {}, {}, []
    by_name = {d.name: d for d in declared}
    for (v, f), c in res.cells.items():
        per_cat = {cat: best[(v, f, cat)] for cat in c.witnesses}
        w = min(per_cat.values(), key=lambda s: (len(s), s))
        run_cells[(v, f)] = {"count": len(c.inputs), "categories": c.categories, "witness": w,
                             "destination": asker.dests[f][w].show(),
                             "witnesses": {cat: {"witness": x, "destination": asker.dests[f][x].show()}
                                           for cat, x in sorted(per_cat.items())}}
        for x in per_cat.values():
            witnesses.setdefault(x, None)
    asker.ask(list(witnesses) + list(hist_witness), validators=[])
    for w in list(witnesses) + list(hist_witness):
        witnesses[w] = {f: _shown(pol, asker.dests[f][w]) for f in fetcher_oracles}
    per_vw = _per_validator_witness(run_cells, asker, pol, fetcher_oracles)
    if not args.no_file:
        for (v, w), fs in per_vw.items():
            path = regress.file(v, by_name[v].base if v in by_name else None, validators[v].version, w, fs,
                                list(pol.categories), facts.own_host(asker, v, w))
            if path:
                filed.append(str(path))
    run = _run_record(args, pol, validators, fetcher_oracles, skipped, res, run_cells, witnesses, history, filed)
    observed_findings = None
    if client_names != [] and witnesses:
        # the model flagged these (each cell's minimized witnesses): now observed
        flagged = list(witnesses) + [w for w in hist_witness if w not in witnesses]
        print(f"observing the {len(flagged)} witnesses the model flagged through real clients", flush=True)
        versions = {n: v.version for n, v in validators.items()}
        obs, _, found, run.observed, lines = observing.observe_and_record(
            flagged, client_names, asker, pol, args.out, versions,
            observing.policy_flags(args.deny, args.allow))
        print("\n".join(lines))
        print(f"{len(found)} observed findings in {args.out / 'findings.jsonl'}")
        observed_findings = found if obs.clients else None   # no client started: the model's stand
    print(report.terminal(run))
    paths = report.write(run, args.out)
    # one list of records: findings.jsonl, --sarif and --junit (the clients' observations when
    # they ran, else the model's bypasses judged by the validator's contract; then the validators'
    # own failures)
    records = (finding_records(per_vw, validators, by_name, list(pol.categories), observed_findings, asker)
               + no_uri_records(asker.verdicts, by_name))
    paths.append(record.write_findings(args.out, records))
    print(f"report: {paths[0]} (and {', '.join(p.name for p in paths[1:])}); "
          f"{len(filed)} new regress entries in corpus/ssrf/regress/")
    for name, v in validators.items():
        if v.findings:
            cls, what, inp, reason = v.findings[0]
            print(f"validator {name}: {len(v.findings)} findings ({cls}), first on {inp[:60]!r}: {reason[:100]}")
    return exitcodes.conclude(args, records, "ssrf", args.out)


def _guided(args, declared, validators, fetcher_oracles, seeds: list[str], lines_out: list[str]) -> list[str]:
    """Run :mod:`urlwb.ssrf.guided` for each Python validator (shipped ``validators`` and
    ``ipaddress`` at any release, and ``py:`` ones) against the in-process fetchers, and
    ``guided.mjs`` for each npm one (:func:`_guided_js`), for ``--guided-seconds`` each; the
    inputs they report, to be asked of everyone."""
    here = [n for n, o in fetcher_oracles.items() if not getattr(o, "runs_apart", False)]
    jobs, js, js_user = [], [], []
    for d in declared:
        if d.name not in validators:
            continue
        if d.target:
            jobs.append((d.name, d.target, {}))
        elif d.base in ("validators", "ipaddress"):
            jobs.append((d.name, d.base, {k: v for k, v in d.spec.env.items() if k == "URLWB_VALIDATOR_SITE"}))
        elif d.spec is not None and d.spec.command[:1] == ["node"] and d.spec.command[1].endswith("adapter.mjs"):
            js.append(d)
        elif d.spec is not None and d.spec.command[:1] == ["node"]:
            js_user.append(d)
    found: list[str] = []
    work = corpus_store.work_root() / "ssrf" / "guided"
    for d in js:
        found += _guided_js(args, d, seeds, work / d.name.replace("@", "-"), lines_out)
    for d in js_user:
        found += _guided_js_user(args, d, seeds, work / d.name.replace("@", "-"), lines_out)
    if not jobs or not here:
        return found
    for name, target, env in jobs:
        folder = work / name.replace("@", "-")
        corpus = _seed_corpus(folder, seeds)
        out = folder / "bypasses.jsonl"
        out.write_text("", encoding="utf-8")
        cmd = [sys.executable, "-m", "urlwb.ssrf.guided", target, str(out), str(corpus),
               "--fetchers", ",".join(here), *(["--deny", args.deny] if args.deny else []),
               *(["--allow", args.allow] if args.allow else []), "--",
               f"-max_total_time={int(args.guided_seconds)}", "-timeout=10", "-rss_limit_mb=2048",
               "-print_final_stats=1"]
        print(f"guided: {name} under atheris for {args.guided_seconds:g} s against {', '.join(here)}", flush=True)
        penv = {**os.environ, **env, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        try:
            with progress.heartbeat(f"urlwb ssrf: guided search in {name}"):
                r = children.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, env=penv,
                                 timeout=args.guided_seconds + 120)
        except subprocess.TimeoutExpired:
            print(f"  {name}: the guided run did not end in time")
            continue
        stats = [x for x in r.stderr.splitlines() if x.startswith(("stat::number_of_executed_units", "#"))]
        lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines() if x.strip()]
        found += [x["input"] for x in lines]
        execs = next((x.split(":")[-1].strip() for x in stats if "number_of_executed_units" in x), "?")
        said = (f"{name}: {execs} executions in {args.guided_seconds:g} s, {len(lines)} bypass inputs "
                f"(atheris, {target} instrumented; fetchers {', '.join(here)}; status {r.returncode})")
        lines_out.append(said)
        print("  " + said, flush=True)
    return found


#: the npm validators' guided pass (V8 block coverage of the validator's package)
GUIDED_JS = manifests.VALIDATORS_ROOT / "npm" / "guided.mjs"
DICTIONARY = corpus_store.ROOT / "fuzzers" / "fuzz_url.dict"


def _seed_corpus(folder: pathlib.Path, seeds: list[str]) -> pathlib.Path:
    """``folder/corpus/``, one file per systematic input (the first 3,000), named by its SHA-1."""
    corpus = folder / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    for s in seeds[:3000]:
        data = s.encode("utf-8", "surrogatepass")
        path = corpus / corpus_store.sha1(data)
        if not path.exists():
            path.write_bytes(data)
    return corpus


def _guided_js_user(args, d, seeds: list[str], folder: pathlib.Path, lines_out: list[str]) -> list[str]:
    """A user's npm validator (a program speaking the protocol, ``node SCRIPT``, at a release of
    its package or not): ``urlwb.hunt.js_fuzz`` over it, guided by V8's block coverage of its
    script's folder and its ``NODE_PATH`` (where the release is), confined as every foreign
    process; the inputs it allows, to be asked of every fetcher."""
    from urlwb import children, sandbox
    spec = d.spec
    cwd = pathlib.Path(spec.cwd or ".")
    script = next((cwd / a for a in spec.command[1:] if not a.startswith("-") and (cwd / a).is_file()), None)
    roots = [str((script.parent if script else cwd).resolve())]
    roots += [p for p in (spec.env.get("NODE_PATH") or "").split(os.pathsep) if p]
    corpus = _seed_corpus(folder, seeds)
    out = folder / "allowed.jsonl"
    out.write_text("", encoding="utf-8")
    cmd = [sys.executable, "-m", "urlwb.hunt.js_fuzz", "--command", json.dumps(spec.command), "--cwd", str(cwd),
           "--roots", os.pathsep.join(roots), "--work", str(folder / "work"), "--seeds", str(corpus),
           "--artifacts", str(folder / "artifacts"), "--seconds", str(args.guided_seconds),
           "--seed", str(getattr(args, "seed", 1) or 1), "--dict", str(DICTIONARY),
           "--deadline", str(max(10.0, spec.deadline)), "--allowed", str(out)]
    env = {**os.environ, **spec.env, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    print(f"guided: {d.name} under V8 block coverage for {args.guided_seconds:g} s (urlwb.hunt.js_fuzz)", flush=True)
    try:
        r = children.run(cmd, env=env, capture_output=True, text=True, timeout=args.guided_seconds + 120,
                         sandbox=sandbox.limits())
    except subprocess.TimeoutExpired:
        r = None
    last = [x for x in (r.stdout if r else "").splitlines() if x.startswith("#")][-1:]
    inputs = [json.loads(x)["input"] for x in out.read_text(encoding="utf-8").splitlines() if x.strip()]
    said = (f"{d.name}: {last[0].lstrip('#').replace(chr(9), ' ') if last else 'no progress line'}, "
            f"{len(inputs)} allowed inputs sent on (V8 block coverage, urlwb.hunt.js_fuzz)"
            if r is not None and r.returncode == 0 else
            f"{d.name}: the guided run failed ({'did not end' if r is None else f'status {r.returncode}'})")
    lines_out.append(said)
    print("  " + said, flush=True)
    return inputs


def _guided_js(args, d, seeds: list[str], folder: pathlib.Path, lines_out: list[str]) -> list[str]:
    """``urlwb/ssrf/validators/npm/guided.mjs`` on one npm validator (the shipped adapter, or its
    copy beside another release's packages) for ``--guided-seconds``: the inputs it allows,
    every one to be asked of every fetcher."""
    corpus = _seed_corpus(folder, seeds)
    out = folder / "allowed.jsonl"
    out.write_text("", encoding="utf-8")
    adapter = pathlib.Path(d.spec.cwd or ".") / d.spec.command[1]
    cmd = ["node", str(GUIDED_JS), str(adapter), d.spec.command[2], str(out), str(corpus),
           str(int(args.guided_seconds)), str(getattr(args, "seed", 1) or 1), str(DICTIONARY)]
    print(f"guided: {d.name} under V8 block coverage for {args.guided_seconds:g} s", flush=True)
    try:
        with progress.heartbeat(f"urlwb ssrf: guided search in {d.name}"):
            r = children.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                             timeout=args.guided_seconds + 120, cwd=adapter.parent)
    except (subprocess.TimeoutExpired, OSError) as exc:
        said = f"{d.name}: the guided run did not end ({type(exc).__name__})"
        lines_out.append(said)
        print("  " + said, flush=True)
        return []
    try:
        stats = json.loads(r.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        said = f"{d.name}: the guided run failed (status {r.returncode}: {(r.stderr.strip().splitlines() or ['?'])[-1][:200]})"
        lines_out.append(said)
        print("  " + said, flush=True)
        return []
    inputs = [json.loads(x)["input"] for x in out.read_text(encoding="utf-8").splitlines() if x.strip()]
    said = (f"{d.name}: {stats['execs']:,} executions in {args.guided_seconds:g} s, blocks of {stats['pkg']} "
            f"{stats['version']} {stats['blocks_seeds']} -> {stats['blocks']}, {stats['kept']} inputs kept, "
            f"{len(inputs)} allowed inputs sent on (V8 block coverage, guided.mjs)")
    lines_out.append(said)
    print("  " + said, flush=True)
    return inputs


def _shown(pol, dest) -> str:
    why = pol.denied(dest)
    return dest.show() + (f"  DENIED ({why})" if why else "")


def _policy_text(pol: policy.Policy) -> str:
    parts = list(pol.categories) + list(pol.names) + [str(n) for n in pol.networks]
    text = ", ".join(parts) or "nothing"
    if pol.allow_names is not None:
        text += "; allowed only: " + ", ".join(list(pol.allow_names) + [str(n) for n in pol.allow_networks])
    return text
