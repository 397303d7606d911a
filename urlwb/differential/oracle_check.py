"""``urlwb oracle check CMD`` and ``urlwb oracle list``: validate an adapter of the oracle protocol
for its author; list every oracle the workbench knows and whether it can run here.

    urlwb oracle check './my-adapter --flag'     # any program speaking urlwb/oracles/PROTOCOL.md
    urlwb oracle check node                      # a shipped adapter, by its name
    urlwb oracle check --all                     # every shipped adapter that is built
    urlwb oracle list

The check starts the adapter under the workbench's own supervisor and looks at: its hello line;
pipelining (a window of requests in one write, before any answer is read: each answered once, by
id); every WPT input (``tests/data/wpt/urltestdata.json`` and ``toascii.json``, bases included),
each answer held to the schema; the hostile strings (a lone surrogate, NUL, controls, line
separators, a 1 MB input), which must survive the pipe; and its exit at the end of its input. It
prints the throughput and one line per problem; exit status 0 only when there is none.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections import Counter

from urlwb import oracles
from urlwb.differential import generate
from urlwb.errors import UsageError
from urlwb.oracles import Unavailable, manifests, protocol, supervisor

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
                        "name of a shipped oracle")
    c.add_argument("--all", action="store_true", help="every shipped adapter (skipped ones named)")
    c.add_argument("--deadline", type=float, default=None, metavar="S",
                   help="seconds per input (default the manifest's, else 5)")
    c.add_argument("--start-deadline", type=float, default=None, metavar="S",
                   help="seconds to the hello line (default the manifest's, else 10)")
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
    if args.all == bool(args.command):
        raise UsageError("give the adapter's command (or a shipped oracle's name), or --all")
    if args.all:
        specs = [e.spec for e in oracles.REGISTRY.values() if e.spec is not None and e.spec.source == "manifest"]
        specs += list(oracles.HOST_SPECS.values())
    elif len(args.command) == 1 and (args.command[0] in oracles.REGISTRY or args.command[0] in oracles.HOST_SPECS):
        name = args.command[0]
        entry = oracles.REGISTRY.get(name)
        spec = oracles.HOST_SPECS.get(name) or (entry.spec if entry else None)
        if spec is None or spec.callable:
            raise UsageError(f"{name} runs in the workbench's process: nothing to check")
        specs = [spec]
    else:
        value = args.command[0] if len(args.command) == 1 else args.command
        try:
            specs = [manifests.user_spec("adapter", value, "flag")]
        except manifests.ManifestError as exc:
            raise UsageError(str(exc).replace("oracle 'adapter': ", "")) from None
    bad = 0
    for spec in specs:
        if args.deadline:
            spec = dataclasses.replace(spec, deadline=args.deadline)
        if args.start_deadline:
            spec = dataclasses.replace(spec, start_deadline=args.start_deadline)
        label = spec.name if spec.source == "manifest" else " ".join(spec.command)
        if spec.skip:
            print(f"{label}: skipped: {spec.skip}")
            continue
        print(f"{label}:")
        problems = check(spec, log=lambda line: print(f"  {line}"))
        for p in problems:
            print(f"  problem: {p}")
        print(f"  {'ok: no problems' if not problems else f'{len(problems)} problem' + 's' * (len(problems) > 1)}")
        bad += bool(problems)
    return 1 if bad else 0


def list_oracles() -> int:
    rows = [(n, e.family, e.language, e.spec) for n, e in oracles.REGISTRY.items()]
    rows += [(n, "host", s.language, s) for n, s in oracles.HOST_SPECS.items()]
    width = max(len(r[0]) for r in rows)
    print(f"{'name':<{width}} {'family':<7} {'language':<11} {'declared':<36} status")
    for name, fam, lang, spec in rows:
        where = ("in process" if spec is None else
                 f"urlwb/oracles/{spec.folder.name}/oracles.toml" if spec.source == "manifest" else spec.source)
        status = f"skipped: {spec.skip}" if spec is not None and spec.skip else "ready"
        print(f"{name:<{width}} {fam:<7} {lang:<11} {where:<36} {status}")
    for error in oracles.MANIFEST_ERRORS:
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
    log(f"hello: name {h['name']}, family {h['family']}, kind {h['kind']}, version {h['version']}, "
        f"parser {h['parser']}, language {h['language']} ({time.perf_counter() - t0:.2f} s to start)")
    for key in ("parser", "language"):
        if h[key] == "?":
            problems.append(f"hello line: no {key}")
    try:
        if h["kind"] == "host":
            _check_host(sup, h, problems, log)
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

    cases = generate.wpt_cases()
    window = sup.spec.window
    # Pipelining: the first window of WPT inputs in one write, before any answer is read.
    first = [payload(i, b) for i, b in cases[:window]]
    answers, seconds = _run_phase(sup, first, convert, "pipelining", problems, log)
    if sup.given_up:
        problems.append(f"pipelining: {sup.given_up}")
        return
    log(f"pipelining: {sum(p is not None for p in first)} requests in one write, each answered once by id")
    payloads = first + [payload(i, b) for i, b in cases[window:]]
    more, more_seconds = _run_phase(sup, payloads[window:], convert, "WPT", problems, log)
    answers, seconds = answers + more, seconds + more_seconds
    if sup.given_up:
        problems.append(f"WPT: {sup.given_up}")
        return
    c = Counter("n/a" if a is None else "hung" if a.hung else "crash" if a.crash else
                "rejected" if a.failure else "answered" for a in answers)
    sent = sum(p is not None for p in payloads)
    log(f"WPT: {sent} inputs in {seconds:.2f} s ({sent / max(seconds, 1e-9):,.0f} inputs/s): "
        f"{c['answered']} answered, {c['rejected']} rejected, {c['n/a']} not applicable, "
        f"{c['crash']} crashed (undocumented exceptions of the parser, or the adapter's faults above)")
    for kind, n in lint.items():
        problems.append(f"WPT: {lint_first[kind]} ({n} answer{'s' if n > 1 else ''} like it)")
    if c["answered"] == 0:
        problems.append("WPT: no input accepted: does the adapter answer with the components?")
    # Hostile strings, one at a time: each must come back.
    survived = 0
    for what, input in HOSTILE:
        before = len(sup.findings)
        a = sup.run([payload(input, None) if len(input) <= sup.spec.max_input else None], convert)[0]
        if sup.given_up:
            problems.append(f"{what}: {sup.given_up}")
            return
        if len(sup.findings) > before:
            _, how, _, reason = sup.findings[-1]
            problems.append(f"{what}: {how}: {reason}")
            continue
        survived += 1
        if a is not None and a.ok and h["family"] == "whatwg":
            if what == "a lone surrogate" and "%EF%BF%BD" not in (a.path or ""):
                problems.append(f"{what}: the path {_show(a.path)} lacks U+FFFD (%EF%BF%BD): the "
                                "surrogate did not arrive as the Standard's USVString conversion has it")
            if what == "NUL" and "%00" not in (a.path or ""):
                problems.append(f"{what}: the path {_show(a.path)} lacks %00: the NUL did not arrive")
        if a is not None and a.ok and what == "a 1 MB input" and max(len(a.path or ""), len(a.href or "")) < 999_990:
            problems.append(f"{what}: came back truncated (path of {len(a.path or '')} code points)")
    log(f"hostile strings: {survived} of {len(HOSTILE)} survived")


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
    for what, text in HOSTILE:
        before = len(sup.findings)
        sup.run([(text, lambda rid, t=text: protocol.question_line(rid, q, t))
                 if len(text) <= sup.spec.max_input else None], protocol.host_answer)
        if sup.given_up:
            problems.append(f"{what}: {sup.given_up}")
            return
        if len(sup.findings) > before:
            _, how, _, reason = sup.findings[-1]
            problems.append(f"{what}: {how}: {reason}")


def _show(s) -> str:
    s = "" if s is None else s
    return repr(s[:60] + ("…" if len(s) > 60 else ""))
