"""``urlwb oracle check CMD`` and ``urlwb oracle list``: validate an adapter of the oracle protocol
for its author; list every oracle the workbench knows and whether it can run here.

    urlwb oracle check './my-adapter --flag'     # any program speaking docs/oracle-protocol.md
    urlwb oracle check node                      # a shipped adapter, by its name
    urlwb oracle check url-parse@1.4.0           # a shipped adapter built against another release
    urlwb oracle check parse-url-mine@6.0.2      # a user's adapter (urlwb.toml) at a release of its package
    urlwb oracle check py:mymodule:parse         # a py: adapter, run out of process (pyadapter)
    urlwb oracle check jvm-guava                 # a shipped SSRF validator (kind "validator"), by its name
    urlwb oracle check --all                     # every shipped adapter and validator that is built
    urlwb oracle list

The check starts the adapter under the workbench's own supervisor and looks at: its hello line;
pipelining (a window of requests in one write, before any answer is read: each answered once, by
id); every WPT input (``tests/data/wpt/urltestdata.json`` and ``toascii.json``, bases included),
each answer held to the schema of the hello line's kind (URL answers; host answers to the host
questions; for a validator, every distinct WPT input as a question, each answer one of ``allow``
as a JSON boolean, ``error``, ``not_applicable``, ``crash``); the hostile strings (a lone
surrogate, NUL, controls, line separators, a 1 MB input), which must survive the pipe; and its
exit at the end of its input. It prints the throughput and one line per problem; exit status 0
only when there is none. Every schema is :mod:`urlwb.oracles.protocol`'s, the one the supervisor
holds a run to.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections import Counter

from urlwb import oracles, progress
from urlwb.cliutil import add_seconds, alias
from urlwb.differential import generate
from urlwb.errors import UsageError
from urlwb.oracles import Unavailable, contracts, manifests, protocol, supervisor
from urlwb.oracles.versions import installs

#: the protocol's hostile strings, each of which must come back as an answer (any answer)
HOSTILE = [
    ("a lone surrogate", "http://a/\udc80x"),
    ("NUL", "http://a/\x00b"),
    ("control characters", "http://a/\x01\x1f\x7f\x85"),
    ("line and paragraph separators", "http://a/\U0001F600?\u2028#\u2029"),
    ("a 1 MB input", "http://a/" + "x" * (1_000_000 - len("http://a/"))),  # max_input's default
]

HOST_SAMPLES = {
    "to-ascii": ["bücher.example", "EXAMPLE.com", "xn--bcher-kva.example", "a\u200db.example", "faß.de"],
    "ip": ["127.0.0.1", "0x7f.1", "[::1]", "[::ffff:127.0.0.1]", "1.2.3.4.5"],
    "public-suffix": ["www.example.co.uk", "example.com", "a.b.c.kawasaki.jp", "com", "localhost"],
    "registrable-domain": ["www.example.co.uk", "example.com", "a.b.c.kawasaki.jp", "com", "localhost"],
}


def add_arguments(p) -> None:
    sub = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    c = sub.add_parser("check", help="validate an adapter: hello line, schema, pipelining, hostile "
                       "strings, end of input; print its throughput and one line per problem",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("command", nargs="*", metavar="CMD",
                   help="the adapter's command (one shell-quoted string, or its words), or the "
                        "name of a shipped oracle or validator")
    c.add_argument("--all", action="store_true", help="every shipped adapter and validator (skipped ones named)")
    add_seconds(c, "the answer to each input, its deadline (default the manifest's, else 5)", None,
                name="--deadline-seconds", dest="deadline")
    alias(c, "--deadline", "--deadline-seconds")
    add_seconds(c, "the start, to the hello line (default the manifest's, else 10)", None,
                name="--start-seconds", dest="start_deadline")
    alias(c, "--start-deadline", "--start-seconds")
    installs.add_flag(c)
    sub.add_parser("list", help="every oracle the workbench knows: family, language, where it is "
                   "declared, and whether it can run here")


def run(args) -> int:
    if args.action == "list":
        return list_oracles()
    if args.action != "check":
        raise UsageError("expected an action: check CMD, or list")
    for flag in ("deadline", "start_deadline"):
        value = getattr(args, flag)
        if value is not None and not 0 < value < 3600:
            raise UsageError(f"--{flag.replace('_', '-')} must be between 0 and 3600 seconds")
    installs.from_args(args)
    specs = selected(args)
    bad = 0
    # the report goes to stdout; stderr hears k of N adapters every few seconds (a check of one
    # quick adapter says nothing there)
    with progress.task(f"urlwb oracle check: {len(specs)} adapters", total=len(specs), beat=True,
                       after=progress.EVERY) as said:
        bad = _check_each(args, specs, said)
    return 1 if bad else 0


def _check_each(args, specs, said) -> int:
    """Each spec checked, its lines on stdout; how many had problems."""
    bad = 0
    for spec in specs:
        said.advance(0, note=f"now {spec.name}")
        if args.deadline:
            spec = dataclasses.replace(spec, deadline=args.deadline)
        if args.start_deadline:
            spec = dataclasses.replace(spec, start_deadline=args.start_deadline)
        label = (spec.name if spec.source in ("manifest", "version", "config") or spec.name.startswith("py:")
                 else " ".join(spec.command))
        if spec.skip:
            print(f"{label}: skipped: {spec.skip}")
            said.advance(note=f"{spec.name} skipped")
            continue
        print(f"{label}:")
        problems = check(spec, log=lambda line: print(f"  {line}"))
        for p in problems:
            print(f"  problem: {p}")
        print(f"  {'ok: no problems' if not problems else f'{len(problems)} problem' + 's' * (len(problems) > 1)}")
        bad += bool(problems)
        said.advance(note=spec.name)
    return bad


def selected(args) -> list[manifests.Spec]:
    """The specs ``oracle check`` is asked about: ``--all`` (every shipped adapter, host oracle
    and validator), one shipped name, ``PARSER@VERSION`` (that release's build, as ``urlwb diff``
    builds it), or the user's command."""
    if args.all == bool(args.command):
        raise UsageError("give the adapter's command (or a shipped oracle's name), or --all")
    if args.all:
        specs = [e.spec for e in oracles.REGISTRY.values() if e.spec is not None and e.spec.source == "manifest"]
        specs += list(oracles.HOST_SPECS.values()) + list(oracles.VALIDATOR_SPECS.values())
    elif len(args.command) == 1 and "@" in args.command[0] and " " not in args.command[0]:
        # PARSER@VERSION: that release's build of the shipped adapter (built first if need be), or
        # a user's adapter with that release of its package installed
        from urlwb.oracles.versions import names as versioned
        specs = [versioned.spec_of(versioned.register(args.command[0]))]
    elif len(args.command) == 1 and any(args.command[0] in names for names in
                                        (oracles.REGISTRY, oracles.HOST_SPECS, oracles.VALIDATOR_SPECS)):
        name = args.command[0]
        entry = oracles.REGISTRY.get(name)
        spec = oracles.HOST_SPECS.get(name) or oracles.VALIDATOR_SPECS.get(name) or (entry.spec if entry else None)
        if spec is None or spec.callable:
            raise UsageError(f"{name} runs in the workbench's process: nothing to check")
        specs = [spec]
    elif len(args.command) == 1 and _user(args.command[0]) is not None:
        specs = [_user(args.command[0])]   # a user's adapter of urlwb.toml / pyproject.toml, by its name
    else:
        value = args.command[0] if len(args.command) == 1 else args.command
        try:
            specs = [manifests.user_spec("adapter", value, "flag")]
        except manifests.ManifestError as exc:
            raise UsageError(str(exc).replace("oracle 'adapter': ", "")) from None
    # a py: adapter is checked as a program: out of process, through the protocol (pyadapter)
    return [dataclasses.replace(installs.out_of_process(s), name=s.name if s.name != "adapter" else f"py:{s.callable}")
            if s.callable else s for s in specs]


def _user(name: str):
    from urlwb.oracles.versions import names as versioned
    return versioned.user_spec(name) if manifests.NAME.match(name) else None


def list_oracles() -> int:
    """One line per oracle (name, family, language, where declared, status), then its contract
    (urlwb.oracles.contracts: the spec it declares and the documentation that says so)."""
    rows = [(n, e.family, e.language, e.spec) for n, e in oracles.REGISTRY.items()]
    rows += [(n, "host", s.language, s) for n, s in oracles.HOST_SPECS.items()]
    rows += [(n, "validator", s.language, s) for n, s in oracles.VALIDATOR_SPECS.items()]
    width = max(len(r[0]) for r in rows)
    print(f"{'name':<{width}} {'family':<9} {'language':<11} {'declared':<41} status")
    for name, fam, lang, spec in rows:
        where = ("in process" if spec is None else
                 f"{spec.folder.relative_to(manifests.ROOT.parents[1])}/oracles.toml" if spec.source == "manifest"
                 else spec.source)
        status = f"skipped: {spec.skip}" if spec is not None and spec.skip else "ready"
        print(f"{name:<{width}} {fam:<9} {lang:<11} {where:<41} {status}")
        role = {"host": "host", "validator": "validator"}.get(fam, "parser")
        c = contracts.contract(name, fam, spec, role)
        extra = f"; deprecated since {c.deprecated['since']}" if c.deprecated else ""
        print(f"{'':<{width}}   contract: {c.spec} ({c.role}), {c.docs or 'no documentation declared'}{extra}")
    for error in oracles.MANIFEST_ERRORS + [f.error for f in oracles.VALIDATOR_FOLDERS if f.error]:
        print(f"manifest not read: {error}")
    return 0


def check(spec, log=print) -> list[str]:
    """Every problem of the adapter ``spec`` declares, one line each; ``log`` gets what it did."""
    problems: list[str] = []
    t0 = time.perf_counter()
    # More restarts than a run allows, so that one check names more of what is wrong.
    sup = supervisor.Supervised(dataclasses.replace(spec, max_restarts=max(spec.max_restarts, 10)))
    try:
        sup.ready()
    except Unavailable as exc:
        return [f"does not start: {exc}"]
    h = sup.hello
    what = "validator" if h["kind"] == "validator" else "parser"
    log(f"hello: name {h['name']}, family {h['family']}, kind {h['kind']}, version {h['version']}, "
        f"{what} {h.get(what, '?')}, language {h['language']} ({time.perf_counter() - t0:.2f} s to start)")
    if spec.source != "flag" and h["kind"] != spec.kind:   # a command given here declares no kind
        problems.append(f"hello line: kind {h['kind']!r}, where {spec.kind!r} is declared")
    for key in (what, "language"):
        if h.get(key, "?") == "?":
            problems.append(f"hello line: no {key}")
    try:
        if h["kind"] == "host":
            _check_host(sup, h, problems, log)
        elif h["kind"] == "validator":
            _check_validator(sup, problems, log)
        else:
            _check_url(sup, h, problems, log)
        if sup.given_up is None:
            child = sup.child
            t1 = time.perf_counter()
            child.close()
            waited = time.perf_counter() - t1
            status = child.proc.returncode
            if waited >= supervisor.EXIT_GRACE:
                problems.append(f"does not exit within {supervisor.EXIT_GRACE:g} s of the end of its input "
                                "(it must exit when standard input ends)")
            else:
                log(f"end of input: exited in {waited:.2f} s (status {status})")
    finally:
        sup.close()
    # Restarts are named above with their inputs; the rest had no input to blame.
    problems += [f"supervisor: {line}" for line in sup.incidents
                 if not line.startswith(("restarted", "given up"))]
    return problems


def _run_phase(sup, payloads, convert, name, problems, log) -> tuple[list, float]:
    t = time.perf_counter()
    before = len(sup.findings)
    answers = sup.run(payloads, convert)
    seconds = time.perf_counter() - t
    for _, what, input, reason in sup.findings[before:]:
        problems.append(f"{name}: {what} on {_show(input)}: {reason}")
    return answers, seconds


def _pipelined(sup, payloads, convert, noun, problems, log) -> tuple[list, float] | None:
    """The first window of ``payloads`` in one write, before any answer is read; then the rest.
    (answers, seconds), or None when the oracle was given up (named among the problems)."""
    window = sup.spec.window
    first = payloads[:window]
    answers, seconds = _run_phase(sup, first, convert, "pipelining", problems, log)
    if sup.given_up:
        problems.append(f"pipelining: {sup.given_up}")
        return None
    log(f"pipelining: {sum(p is not None for p in first)} {noun} in one write, each answered once by id")
    more, more_seconds = _run_phase(sup, payloads[window:], convert, "WPT", problems, log)
    if sup.given_up:
        problems.append(f"WPT: {sup.given_up}")
        return None
    return answers + more, seconds + more_seconds


def _hostile(sup, payload_of, convert, problems, log, judge=None) -> None:
    """The hostile strings, one at a time: each must come back (any answer, in schema);
    ``judge(what, answer)`` may say more of one that did."""
    survived = 0
    for what, input in HOSTILE:
        before = len(sup.findings)
        a = sup.run([payload_of(input) if len(input) <= sup.spec.max_input else None], convert)[0]
        if sup.given_up:
            problems.append(f"{what}: {sup.given_up}")
            return
        if len(sup.findings) > before:
            _, how, _, reason = sup.findings[-1]
            problems.append(f"{what}: {how}: {reason}")
            continue
        survived += 1
        if judge is not None and a is not None and a.ok:
            problems += judge(what, a)
    log(f"hostile strings: {survived} of {len(HOSTILE)} survived")


def _check_url(sup, h, problems, log) -> None:

    base_ok = h["base"]
    lint: Counter = Counter()
    lint_first: dict[str, str] = {}

    def convert(obj):
        for kind, message in protocol.lint_url_answer(obj):
            lint[kind] += 1
            lint_first.setdefault(kind, message)
        return protocol.url_answer(obj)

    def payload(input, base):
        if base is not None and not base_ok:
            return None
        return input, lambda rid, i=input, b=base: protocol.request_line(rid, i, b)

    payloads = [payload(i, b) for i, b in generate.wpt_cases()]
    got = _pipelined(sup, payloads, convert, "requests", problems, log)
    if got is None:
        return
    answers, seconds = got
    c = Counter("n/a" if a is None else "hung" if a.hung else "crash" if a.crash else
                "rejected" if a.failure else "answered" for a in answers)
    sent = sum(p is not None for p in payloads)
    log(f"WPT: {sent} inputs in {seconds:.2f} s ({sent / max(seconds, 1e-9):,.0f} inputs/s): "
        f"{c['answered']} answered, {c['rejected']} rejected, {c['n/a']} not applicable, "
        f"{c['crash']} crashed (undocumented exceptions of the parser, or the adapter's faults above)")
    for kind, n in lint.items():
        problems.append(f"WPT: {lint_first[kind]} ({n} answer{'s' if n > 1 else ''} like it)")
    if c["answered"] == 0:
        crashed = next((a.crash for a in answers if a is not None and a.crash), None)
        problems.append("WPT: no input accepted: does the adapter answer with the components?"
                        + (f" (the first crash: {_show(crashed)})" if crashed else ""))
    # Hostile strings, one at a time: each must come back.
    def judge(what, a):
        out = []
        if h["family"] == "whatwg":
            if what == "a lone surrogate" and "%EF%BF%BD" not in (a.path or ""):
                out.append(f"{what}: the path {_show(a.path)} lacks U+FFFD (%EF%BF%BD): the "
                           "surrogate did not arrive as the Standard's USVString conversion has it")
            if what == "NUL" and "%00" not in (a.path or ""):
                out.append(f"{what}: the path {_show(a.path)} lacks %00: the NUL did not arrive")
        if what == "a 1 MB input" and max(len(a.path or ""), len(a.href or "")) < 999_990:
            out.append(f"{what}: came back truncated (path of {len(a.path or '')} code points)")
        return out

    _hostile(sup, lambda input: payload(input, None), convert, problems, log, judge)


def _check_validator(sup, problems, log) -> None:
    """Kind ``validator``: every distinct WPT input as a question (the first window in one
    write), each answer held to :func:`protocol.validator_answer`; then the hostile strings."""

    def payload(input):
        return input, lambda rid, i=input: protocol.validator_request_line(rid, i)

    inputs = list(dict.fromkeys(i for i, _ in generate.wpt_cases()))
    got = _pipelined(sup, [payload(i) for i in inputs], protocol.validator_answer, "questions", problems, log)
    if got is None:
        return
    answers, seconds = got
    # A death or a hang comes back as the supervisor's Record (crash/hung), an answer as a Verdict.
    c = Counter("n/a" if a is None else "hung" if a.hung else "crash" if a.crash else
                "error" if a.failure else "allowed" if a.allow else "denied" for a in answers)
    log(f"WPT: {len(inputs)} inputs in {seconds:.2f} s ({len(inputs) / max(seconds, 1e-9):,.0f} inputs/s): "
        f"{c['allowed']} allowed, {c['denied']} denied, {c['error']} refused (error), "
        f"{c['n/a']} not applicable, {c['crash'] + c['hung']} crashed or hung")
    if c["allowed"] + c["denied"] == 0:
        problems.append("WPT: no input allowed or denied: does the validator answer {\"id\", \"allow\": true|false}?")
    _hostile(sup, payload, protocol.validator_answer, problems, log)


def _check_host(sup, h, problems, log) -> None:
    items = [(q, text) for q in h["questions"] for text in HOST_SAMPLES[q]]
    payloads = [(t, lambda rid, q=q, t=t: protocol.question_line(rid, q, t)) for q, t in items]
    answers, seconds = _run_phase(sup, payloads, protocol.host_answer, "host questions", problems, log)
    if sup.given_up:
        problems.append(f"host questions: {sup.given_up}")
        return
    log(f"host questions: {len(items)} in {seconds:.2f} s, "
        f"{sum(a is not None and not a.failure and not a.crash for a in answers)} answered")
    q = h["questions"][0]
    _hostile(sup, lambda text: (text, lambda rid, t=text: protocol.question_line(rid, q, t)),
             protocol.host_answer, problems, log)


def _show(s) -> str:
    s = "" if s is None else s
    return repr(s[:60] + ("…" if len(s) > 60 else ""))
