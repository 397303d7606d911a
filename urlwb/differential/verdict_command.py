"""``urlwb verdict``: one input judged by a parser's own contract, or the README's headline
findings re-judged (``--headline``, the table of docs/findings.md).

``urlwb verdict INPUT --parser NAME [--base BASE]`` runs NAME and the engine on INPUT and prints
the verdict (:func:`urlwb.differential.facts.verdict`, the one judge every command calls, with the
facts the differential uses) as JSON, with the contract it was judged by; ``--out PATH`` writes
them to a file as well, a JSON list of one object per parser (:func:`write_out`).
``urlwb verdict --headline`` runs every headline finding through its real parser (those that
cannot start are skipped with their one-line reason) and prints a Markdown table: the finding,
the parser's contract and its documentation, the verdict, the clause, the known upstream report,
and how it was checked.

Exit status (:mod:`urlwb.exitcodes`): 1 when a verdict is at or above ``--fail-on`` (default bug),
3 when a parser named could not start; ``--headline`` is a report of known findings, 0.
"""

from __future__ import annotations

import json
import subprocess
import time

from urlwb import children, corpus_store, exitcodes, oracles
from urlwb.cliutil import add_out, add_parsers, alias
from urlwb.errors import Incomplete, UsageError
from urlwb.htmlpage import cell
from urlwb.oracles import Record, contracts, manifests
from urlwb.differential import facts
from urlwb.verdicts import judge as judging
from urlwb.verdicts import upstream

#: (finding, parser, input, how): the README's "What it found" rows (main 254e793), the three
#: findings after it, and OkHttp's quadratic userinfo (corpus/growth/regress/f0aff084...).
#: ``how`` is what the judge cannot read from the contract or the upstream table: the tracker
#: searches that found nothing, and what the row needs beside the parser's answer.
HEADLINE = [
    ("scheme: leading space", "spring-uricomponents", " http://evil.com/",
     "tracker: search issues 'UriComponentsBuilder fromUriString leading whitespace scheme': no report"),
    ("slashes", "go-net-url", "https:/evil.com", ""),
    ("backslash", "java-url", "http://evil.com\\@good.com/", ""),
    ("URL-encoded data", "node-legacy-url", "http://127.0.0.1%2f.evil.com/", ""),
    ("scheme mixup (octal)", "dotnet-system-uri", "foo://1.2.3.09/x", ""),
    ("userinfo: two @", "java-url", "http://foo@evil.com:80@google.com/", ""),
    ("IPv4 hex", "go-net-url", "http://0x7f.1/", ""),
    ("IDNA / encoding", "php-parse-url", "http://%65vil.com/", ""),
    ("crash: IPv6 nine pieces", "okhttp", "http://[1:1:1:1:1:1:1::1]/",
     "tracker: search issues 'okhttp HttpUrl ArrayIndexOutOfBoundsException IPv6 address too many groups', "
     "'decodeIpv6 ArrayIndexOutOfBoundsException': square/okhttp 1613 (leading zeros), 4451 (IPv4-mapped), "
     "none for nine pieces"),
    ("form decoding", "node", "q=%FF\u4e3cscript\u4e3e",
     "new URLSearchParams(string) run in the machine's node (not the URL oracle); tracker: search issues "
     "'URLSearchParams percent decoding invalid UTF-8 ...', 'nodejs URLSearchParams wrong decoding ...': "
     "nodejs/node 33892 is about a lone '%', none for this"),
    ("quadratic userinfo", "okhttp", "http://" + "a:b@" * 1000 + "h/",
     "timed through the oracle, 'http://' + 'a:b@' * n + 'h/' (below); tracker: search issues "
     "'okhttp HttpUrl parse slow quadratic many @ characters userinfo': no report"),
    ("port ended by a backslash", "rust-url", "sc://h:1\\x",
     "tracker: search issues 'rust-url port followed by backslash non-special URL accepted': no report "
     "(wpt PR 58840 is about backslashes in non-special paths)"),
    ("http://3", "okhttp", "http://3", ""),
    ("http://3", "yarl", "http://3", ""),
]

_FORM_CLAUSE = ("URL Standard: application/x-www-form-urlencoded parser, step 3.4 (UTF-8 decode without BOM of the "
                "percent-decoding of the name and of the value)")


def add_arguments(p) -> None:
    p.add_argument("input", nargs="?", help="the input to judge")
    add_parsers(p, "names of `urlwb oracle list`, each judged in turn", None, dest="parser")
    alias(p, "--parser", "--parsers")
    p.add_argument("--base", help="a base URL to resolve the input against")
    p.add_argument("--headline", action="store_true",
                   help="re-judge the README's headline findings with the real parsers (Markdown table)")
    exitcodes.add_fail_on(p)
    add_out(p, "a file that gets the verdicts as well as the terminal: a JSON list, one object per "
               "parser or validator judged (with --headline, the Markdown table)", None)


def write_out(path, printed: list[dict] | str) -> None:
    """``--out PATH``: what was printed, as one file: the JSON objects as a list (a skipped
    parser has none), or the --headline table. Nothing when ``path`` is None."""
    if path is None:
        return
    text = printed if isinstance(printed, str) else json.dumps(printed, ensure_ascii=False, indent=2)
    corpus_store.atomic_write(path, (text + "\n").encode("utf-8", "backslashreplace"))


def run(args) -> int:
    if args.headline:
        if args.input or args.parser:
            raise UsageError("--headline takes no INPUT or --parsers")
        table = headline_table()
        print(table)
        write_out(args.out, table)
        return 0
    if args.input is None or not args.parser:
        raise UsageError("give INPUT and --parsers NAMES (or --headline)")
    try:
        oracles.configure([])
    except manifests.ManifestError as exc:
        raise UsageError(str(exc)) from None
    try:
        names = oracles.resolve_names(args.parser)
    except ValueError as exc:
        raise UsageError(f"{exc} (urlwb oracle list names them)") from None
    printed, skipped = [], []
    for name in names:
        said = _judge_one(name, args.input, args.base)
        (skipped if isinstance(said, str) else printed).append(said)
    write_out(args.out, printed)
    verdicts = [said["verdict"] for said in printed]
    if skipped:
        raise Incomplete(f"{len(skipped)} of {len(names)} parsers could not start: {skipped[0]}")
    failing = [v for v in verdicts if v is not None and exitcodes.fails({"verdict": v}, args.fail_on)]
    return exitcodes.FINDINGS if failing else exitcodes.OK


def _judge_one(parser: str, input: str, base: str | None) -> dict | str:
    """One parser's verdict on ``input``, printed as JSON and returned as the object printed (its
    ``verdict`` None: no finding), or the one line saying it was skipped, printed and returned as
    a string."""
    record, engine_record, version, skipped = _readings(parser, input, base)
    if skipped:
        print(f"urlwb verdict: {parser} skipped: {skipped}")
        return f"{parser}: {skipped}"
    v = facts.verdict(facts.Reading(parser, input, base, record, engine_record, version=version))
    c = contracts.describe(parser).contract
    said = {"parser": parser, "contract": {"spec": c.spec, "docs": c.docs, "says": c.says},
            "reading": None if record is None else record._asdict(), "verdict": v}
    print(json.dumps(said, ensure_ascii=False, indent=2))
    return said


def _readings(parser: str, input: str, base: str | None) -> tuple[Record | None, Record | None, str | None, str | None]:
    """(the parser's record, the engine's, the parser's version, why it was skipped)."""
    started, skipped = oracles.load(["engine", parser] if parser != "engine" else ["engine"])
    try:
        if parser in skipped:
            return None, None, None, skipped[parser]
        engine_record = started["engine"].parse(input, base)
        record = started[parser].parse_many([(oracles.to_usv(input), base)])[0]
        return record, engine_record, getattr(started[parser], "version", None), None
    finally:
        oracles.close_all(started)


GROWTH_SIZES = (2000, 16000)
#: super-linear: the time grows more than twice as fast as the input (quadratic gives 64 for 8x)
GROWTH_LIMIT = 2.0


def _best(oracle, text: str, runs: int = 3) -> float:
    best = None
    for _ in range(runs):
        t = time.perf_counter()
        oracle.parse_many([(text, None)])
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return best


def _okhttp_growth(oracle) -> tuple[float, float]:
    """Seconds per parse of 'http://' + 'a:b@' * n + 'h/' at the two GROWTH_SIZES (best of 3),
    the round trip of a tiny input ('http://h/') taken out, as urlwb growth does."""
    trip = _best(oracle, "http://h/", 5)
    return tuple(max(_best(oracle, "http://" + "a:b@" * n + "h/") - trip, 1e-6) for n in GROWTH_SIZES)


def _node_search_params(text: str) -> list | str:
    """``new URLSearchParams(text)`` in the machine's node: its pairs, or why it could not run."""
    script = "process.stdout.write(JSON.stringify([...new URLSearchParams(process.argv[1])]))"
    try:
        r = children.run(["node", "-e", script, text], capture_output=True, timeout=20, text=True)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"node could not run ({exc})"
    return json.loads(r.stdout) if r.returncode == 0 else f"node failed: {r.stderr.strip()[:120]}"


_md = cell   # the one table-cell escaper (urlwb.htmlpage)


def headline_table() -> str:
    """The Markdown table of docs/findings.md, measured now."""
    import engine

    names = list(dict.fromkeys(p for _, p, _, _ in HEADLINE))
    started, skipped = oracles.load(["engine", *names])
    rows = ["| finding | parser | input | contract (documentation) | verdict | clause | upstream | how checked |",
            "|---|---|---|---|---|---|---|---|"]
    try:
        for label, parser, input, how in HEADLINE:
            c = contracts.describe(parser).contract
            contract_cell = f"{c.spec}: [{c.docs}]({c.docs}) \"{c.says[:160]}\""
            shown = input if len(input) < 60 else input[:24] + f"... ({len(input)} chars)"
            if parser in skipped:
                rows.append(f"| {label} | {parser} | `{_md(shown)}` | {_md(contract_cell)} | not run | "
                            f"skipped: {_md(skipped[parser])} | | {_md(how)} |")
                continue
            superlinear = False
            if label == "form decoding":
                theirs = _node_search_params(input)
                ours = engine.form_urlencoded_parse(input.encode("utf-8"))
                same = isinstance(theirs, list) and [tuple(p) for p in theirs] == list(ours)
                v = None if same else judging.make_verdict(
                    "bug", c.spec, _FORM_CLAUSE, "urlencoded", documented=None,
                    upstream=upstream.find(parser, input, "urlencoded"),
                    reason=f"node {json.dumps(theirs, ensure_ascii=False)}, the engine {json.dumps(ours, ensure_ascii=False)}")
                how = f"{how}; node gave {json.dumps(theirs, ensure_ascii=False)}, the engine {json.dumps(ours, ensure_ascii=False)}"
            else:
                record = started[parser].parse_many([(oracles.to_usv(input), None)])[0]
                engine_record = started["engine"].parse(input, None)
                if label == "quadratic userinfo":
                    small, large = _okhttp_growth(started[parser])
                    size = GROWTH_SIZES[1] / GROWTH_SIZES[0]
                    superlinear = large / small > GROWTH_LIMIT * size
                    how = (f"{how}: n = {GROWTH_SIZES[0]:,} and {GROWTH_SIZES[1]:,}: {small * 1e3:.1f} ms and "
                           f"{large * 1e3:.1f} ms (ratio {large / small:.1f} for {size:g}x the input; linear is {size:g})")
                v = facts.verdict(facts.Reading(parser, input, None, record, engine_record, superlinear=superlinear,
                                                version=started[parser].version))
                reading = ("crash: " + record.crash) if record.crash else "failure" if record.failure else \
                    f"host {record.host!r}, path {record.path!r}"
                how = (f"reading: {reading}; " + how) if how else f"reading: {reading}"
            how = f"{how}; contract: {c.source}"
            if v is None:
                rows.append(f"| {label} | {parser} | `{_md(shown)}` | {_md(contract_cell)} | none (agrees) | | | {_md(how)} |")
                continue
            up = v["upstream"]
            up_cell = f"[{up['state']}]({up['url']})" + (f", {up['fixed_in']}" if up.get("fixed_in") else "") if up else "none found"
            if up:
                how = f"{how}; upstream: {up['source']}"
            kind = f"**{v['kind']}**" + (f" (documented: {v['documented']})" if v["documented"] else "")
            rows.append(f"| {label} | {parser} | `{_md(shown)}` | {_md(contract_cell)} | {_md(kind)} | "
                        f"{_md(v['spec']['clause'])} | {_md(up_cell)} | {_md(how)} |")
    finally:
        oracles.close_all(started)
    return "\n".join(rows)
