"""``urlwb export``: findings leave the workbench in the shapes their users work in.

    urlwb export tests --lang go|java|python|js PARSER [--findings PATH]... [--out DIR]
                       [--run VERSION]...

``tests`` writes each finding about PARSER (the corpus sidecars about it or one of its releases,
and the records of any ``--findings`` file) that its contract lets a test assert
(:mod:`urlwb.export.cases`) as a test in PARSER's own language and framework, into ``DIR``
(default ``reports/export-tests/PARSER``): a Go table test with its ``testdata/fuzz/FuzzParse``
corpus, a JUnit 5 parameterized test with its ``pom.xml``, a pytest file, a ``node:test`` file.
Each ``--run VERSION`` then runs the written suite against that release (:mod:`.runner`) and
says whether it passed: a suite fails on a release with the finding and passes on one without.

(``urlwb export-wpt`` and ``urlwb export-hypothesis`` predate this command and stay as they are.)
"""

from __future__ import annotations

import pathlib
import sys

from urlwb import oracles, progress
from urlwb.cliutil import add_out
from urlwb.errors import UsageError
from urlwb.export import api as exported
from urlwb.export import cases as casing

LANGS = ("go", "java", "python", "js")
DEFAULT_OUT = pathlib.Path("reports") / "export-tests"


def _module(lang: str):
    from urlwb.export import golang, java, js, python
    return {"go": golang, "java": java, "python": python, "js": js}[lang]


def add_arguments(p) -> None:
    sub = p.add_subparsers(dest="what", metavar="WHAT", required=True)
    t = sub.add_parser("tests", help="each finding about a parser as a test in its own language",
                       description="each finding about PARSER as a test in its own language and framework")
    t.add_argument("parser", metavar="PARSER", help="the parser the findings are about (go-net-url, okhttp, "
                   "spring-uricomponents, apache-httpclient5, urllib3, yarl, url-parse, whatwg-url)")
    t.add_argument("--lang", required=True, choices=LANGS, help="the suite's language (the parser's own)")
    t.add_argument("--findings", action="append", default=[], type=pathlib.Path, metavar="PATH",
                   help="a findings.jsonl (or the folder holding one), or one corpus sidecar (.json), beside the corpus; repeatable")
    t.add_argument("--no-corpus", action="store_true", help="only the --findings files, not the corpus sidecars")
    add_out(t, f"the suite's folder (default {DEFAULT_OUT}/PARSER)", None)
    t.add_argument("--run", action="append", default=[], metavar="VERSION",
                   help="run the written suite against PARSER@VERSION (a Go toolchain version for "
                        "go-net-url); repeatable")
    p.epilog = ("A finding becomes a test when its verdict is a bug or its upstream fix is known, and its "
                "parser's contract gives an expected answer (the spec's reading, a rejection, no "
                "undocumented exception, an answer in time); the others are listed with the reason. "
                "Exit status: 0 when written (and every --run done); 1 when no finding could be written; "
                "2 for a usage error.")


def run(args) -> int:
    parser = args.parser
    if "@" in parser:
        raise UsageError(f"{parser}: name the parser without a version (--run VERSION runs a release)")
    module = _module(args.lang)
    try:   # urlwb.toml's parsers too: a card's [export] says which suite
        oracles.configure()
    except oracles.manifests.ManifestError as exc:
        raise UsageError(str(exc)) from None
    if (exported.card(parser) or {}).get("lang") != args.lang:
        langs = {lang: sorted(n for n in oracles.REGISTRY if (exported.card(n) or {}).get("lang") == lang)
                 for lang in LANGS}
        known = "; ".join(f"{lang}: {', '.join(names)}" for lang, names in langs.items())
        raise UsageError(f"{parser}: no {args.lang} suite for it (known: {known})")
    template = exported.card(parser)["template"]
    if template not in module.READ:
        raise UsageError(f"{parser}: its card's export template {template!r} is none of {args.lang}'s "
                         f"({', '.join(module.READ)})")
    for p in args.findings:
        if not p.exists():
            raise UsageError(f"--findings {p}: no such file or folder")
    found = ([] if args.no_corpus else casing.corpus_findings(parser)) + casing.file_findings(parser, args.findings)
    written, skipped = casing.cases_for(parser, found)
    api = exported.api_of(parser)
    kept = []
    for c in written:
        if c.expect == "reject" and not api.can_reject:
            skipped.append(casing.Skipped(c.finding, f"expects a rejection, and {parser}'s API has none ({api.rejects})"))
        elif c.base is not None and not api.takes_base:
            skipped.append(casing.Skipped(c.finding, f"has a base URL, and {parser}'s API takes none"))
        else:
            kept.append(c)
    for s in skipped:
        print(f"skipped {s.finding}: {s.reason}")
    if not kept:
        print(f"urlwb export tests: no finding about {parser} gives a test ({len(skipped)} skipped)", file=sys.stderr)
        return 1
    out = args.out or DEFAULT_OUT / parser
    generator = f"urlwb export tests --lang {args.lang} {parser}"
    files = module.render(parser, kept, [f"{s.finding}: {s.reason}" for s in skipped], generator)
    for name, text in files.items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"wrote {len(kept)} test{'s' if len(kept) != 1 else ''} for {parser} ({args.lang}) in {out}: "
          + ", ".join(sorted(files)))
    if args.run:
        from urlwb.export import runner
        for version in args.run:
            # an install of the release and its test run: heard from every few seconds
            with progress.heartbeat(f"urlwb export tests: running the tests on {parser}@{version}",
                                    after=progress.EVERY):
                r = runner.run(args.lang, parser, version, out, sorted(files))
            print(f"{r.release}: {'passed' if r.passed else 'FAILED'} ({r.command})")
            if not r.passed:
                for name in runner.failing(args.lang, r.output):
                    print(f"  failed: {name}")
                lines = [x for x in r.output.strip().splitlines() if not x.lstrip().startswith("at ")]
                print("\n".join("  " + line for line in lines[-25:]))
    return 0
