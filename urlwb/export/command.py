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

from urlwb import exitcodes, oracles, progress
from urlwb.cliutil import add_out, check_output_folder
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
    t.add_argument("--lang", choices=LANGS, help="the suite's language (default: the parser's own, the one "
                   "language that knows its API)")
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


def language_of(parser: str) -> str | None:
    """The language of ``parser``'s export template (its card's ``export.lang``), or None."""
    return (exported.card(parser) or {}).get("lang")


def run(args) -> int:
    parser = args.parser
    if "@" in parser:
        raise UsageError(f"{parser}: name the parser without a version (--run VERSION runs a release)")
    check_output_folder("--out", args.out or DEFAULT_OUT / parser)
    try:   # urlwb.toml's parsers too: a card's [export] says which suite
        oracles.configure()
    except oracles.manifests.ManifestError as exc:
        raise UsageError(str(exc)) from None
    lang = args.lang or language_of(parser)
    if lang is None or (exported.card(parser) or {}).get("lang") != lang:
        langs = {lang: sorted(n for n in oracles.REGISTRY if (exported.card(n) or {}).get("lang") == lang)
                 for lang in LANGS}
        known = "; ".join(f"{lang}: {', '.join(names)}" for lang, names in langs.items())
        raise UsageError(f"{parser}: no {args.lang or 'language'} suite for it (known: {known})")
    args.lang = lang
    module = _module(lang)
    template = exported.card(parser)["template"]
    if template not in module.READ:
        raise UsageError(f"{parser}: its card's export template {template!r} is none of {lang}'s "
                         f"({', '.join(module.READ)})")
    for p in args.findings:
        if not p.exists():
            raise UsageError(f"--findings {p}: no such file or folder")
    from urlwb.export import runner
    # before any work: each release as it will run (one with no wheel here: the nearest that has one)
    releases = runner.resolve(lang, parser, args.run)
    for r in releases:
        if r.note:
            print(r.note)
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
    runs = []
    if releases:
        kept, dropped, runs = checked(lang, parser, kept, skipped, releases)
        skipped += dropped
        if dropped:
            runs = []   # the suite written is another: run again
    for s in skipped:
        print(f"skipped {s.finding}: {s.reason}")
    if not kept:
        raise UsageError(f"no finding about {parser} gives a test ({len(skipped)} skipped)")
    out = args.out or DEFAULT_OUT / parser
    files = _write(lang, parser, kept, skipped, out, releases)
    print(f"wrote {len(kept)} test{'s' if len(kept) != 1 else ''} for {parser} ({lang}) in {out}: "
          + ", ".join(sorted(files)))
    failed = False
    for n, release in enumerate(releases):
        r = runs[n][1] if runs else _run(lang, parser, release, out, files)
        print(f"{r.release}: {'passed' if r.passed else 'FAILED'} ({r.command})")
        failed = failed or not r.passed
        if not r.passed:
            for name in runner.failing(lang, r.output):
                print(f"  failed: {name}")
            lines = [x for x in r.output.strip().splitlines() if not x.lstrip().startswith("at ")]
            print("\n".join("  " + line for line in lines[-25:]))
    # a failing test is a finding that holds on that release; a suite that did not build or run
    # raised Incomplete (exit status 3)
    return exitcodes.FINDINGS if failed else exitcodes.OK


def _write(lang: str, parser: str, kept, skipped, out: pathlib.Path, releases) -> list[str]:
    """Write the suite of ``kept`` into ``out``; its header names the releases it was run on."""
    generator = f"urlwb export tests --lang {lang} {parser}" + "".join(f" --run {r.version}" for r in releases)
    files = _module(lang).render(parser, kept, [f"{s.finding}: {s.reason}" for s in skipped], generator)
    for name, text in files.items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return sorted(files)


def _run(lang: str, parser: str, release, folder: pathlib.Path, files: list[str]):
    from urlwb.export import runner
    # an install of the release and its test run: heard from every few seconds
    with progress.heartbeat(f"urlwb export tests: running the tests on {parser}@{release.version}",
                            after=progress.EVERY):
        return runner.run(lang, parser, release.version, folder, files)


def _order(parser: str):
    """The version order of ``parser``'s releases (its registry's; a Go toolchain's as semver)."""
    from urlwb.oracles.versions import catalog, registries
    pkg = catalog.PACKAGES.get(parser)
    key = registries.sort_key(pkg.registry if pkg is not None and pkg.registry in registries.ORDER else "go")
    return lambda v: key(v[2:] if v.startswith("go") else v)


def checked(lang: str, parser: str, cases, skipped, releases) -> tuple[list, list, list]:
    """(the cases kept, the cases dropped as :class:`~urlwb.export.cases.Skipped`, (release,
    :class:`~urlwb.export.runner.Result`) of each run): the suite of
    ``cases`` is run on each release (in a scratch folder) before it is written, and a case that
    claims a fix (``fixed_in``) and fails on a release at or after it is dropped, its reason the
    failure in the tool's words. A case that passes on a release before its fix is kept, and said."""
    import tempfile

    from urlwb.export import runner
    key = _order(parser)
    runs = []
    with tempfile.TemporaryDirectory(prefix="urlwb-export-") as scratch:
        files = _write(lang, parser, cases, skipped, pathlib.Path(scratch), releases)
        for release in releases:
            runs.append((release, _run(lang, parser, release, pathlib.Path(scratch), files)))
    kept, dropped = [], []
    for c in cases:
        why = None
        for release, r in runs:
            if c.fixed_in is None:
                continue
            after = key(release.version) >= key(c.fixed_in)
            failed = not r.passed and runner.case_failed(lang, r.output, c)
            if after and failed and why is None:
                why = (f"fails on {parser}@{release.version}, at or after its fix ({c.fixed_in}): "
                       f"{runner.why_failed(lang, r.output, c)}")
            elif not after and not failed:
                print(f"note: {c.name} passes on {parser}@{release.version} too, before its fix ({c.fixed_in})")
        if why is None:
            kept.append(c)
        else:
            dropped.append(casing.Skipped(c.finding, f"{c.name}: {why}"))
    return kept, dropped, runs
