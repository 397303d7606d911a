"""``urlwb coverage [--wpt] [--properties] [--corpus [TARGET]]``: which engine steps inputs reach.

Each chosen source runs under coverage.py (branch coverage of ``engine/``, configured in
pyproject.toml; no atheris), in child processes, into its own data file under
``.urlwb/coverage/``:

- ``--wpt``: the vendored WPT data run straight through the engine (URL parsing with every
  getter, setters, toascii and IdnaTestV2 through the URL parser, percent-encoding per encoding);
- ``--properties``: the Hypothesis properties (``pytest properties/``);
- ``--corpus [TARGET]``: seed, regress and working corpora replayed through the targets' checks.

With no source flag, all three. Prints a table per engine module (statements, branches, percent)
for all chosen sources together, a line per source, and, with ``--corpus``, the engine functions
(spec algorithms) no corpus input ever enters; then the reference parser's view
(``urlwb.measure.reference_steps``): per state of the basic URL parser, how many of its numbered steps
the corpora reach (the WPT data, without ``--corpus``), the states never entered and each step
never reached ("path state, step 1.2.2"); writes an HTML report to ``.urlwb/coverage/html/``.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import os
import pathlib
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from urlwb import children, corpus_store
from urlwb.measure import reference_steps
from urlwb.fuzzing.replay import replay

PYPROJECT = corpus_store.ROOT / "pyproject.toml"
ENGINE = corpus_store.ROOT / "engine"


def cov_dir() -> pathlib.Path:
    path = corpus_store.work_root() / "coverage"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _new_coverage(data_file: pathlib.Path):
    import coverage

    return coverage.Coverage(data_file=str(data_file), config_file=str(PYPROJECT))


def combine(parts: list[pathlib.Path], out: pathlib.Path, *, keep: bool = True) -> pathlib.Path:
    """Combine coverage data files into ``out`` (the parts are kept unless ``keep`` is false)."""
    import coverage

    existing = [str(p) for p in parts if p.exists()]
    if out.exists():
        out.unlink()
    if not existing:                       # nothing ran: an empty (branch) data file, not an error
        data = coverage.CoverageData(basename=str(out))
        data.add_arcs({})
        data.write()
        return out
    cov = _new_coverage(out)
    cov.combine(existing, keep=keep)
    cov.save()
    return out


def data_parts(prefix: pathlib.Path) -> list[pathlib.Path]:
    """The parallel data files coverage.py wrote beside ``prefix`` (``prefix.*``), sorted."""
    return sorted(prefix.parent.glob(prefix.name + ".*"))


# -- measuring the sources --------------------------------------------------------------------

def corpus_paths(target: str, include_work: bool = True) -> list[pathlib.Path]:
    paths = list(corpus_store.iter_seeds(target))
    paths += [e.path for e in corpus_store.iter_regress(target)]
    work = corpus_store.work_path(target)
    if include_work and work.is_dir():
        paths += sorted(p for p in work.iterdir() if p.is_file())
    return paths


def replay_covered(target: str, paths: list[pathlib.Path], prefix: pathlib.Path) -> int:
    """Replay ``paths`` under coverage into ``prefix.*`` data files; how many failed."""
    return sum(not o.ok for o in replay(target, paths, coverage_file=prefix)) if paths else 0


def measure_corpus(targets: list[str], out: pathlib.Path, *, include_work: bool = True,
                   log=print, workers: int = 2) -> pathlib.Path:
    """Replay the corpora of ``targets`` under coverage (child processes, ``workers`` at a
    time), combined into ``out``."""

    prefix = out.with_name(out.name + "-part")
    for old in data_parts(prefix):
        old.unlink()
    jobs = {t: corpus_paths(t, include_work) for t in targets}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        failing = dict(zip(jobs, pool.map(lambda t: replay_covered(t, jobs[t], prefix), jobs)))
    for t, paths in jobs.items():
        log(f"  {t:14} {len(paths):6} inputs replayed" + (f" ({failing[t]} failing)" if failing[t] else ""))
    return combine(data_parts(prefix), out, keep=False)


def engine_fingerprint() -> str:
    """SHA-1 of the engine's sources: coverage data of different sources does not combine."""
    h = hashlib.sha1()
    for path in engine_files():
        h.update(os.fsencode(path.name) + b"\0" + (corpus_store.read_input(path) or b""))
    return h.hexdigest()


def measure_wpt(out: pathlib.Path) -> pathlib.Path:
    children.run([sys.executable, "-m", "urlwb.measure.coverage", "--child-wpt", str(out)], check=True,
                   cwd=corpus_store.ROOT, env=_env())
    return out


def measure_properties(out: pathlib.Path, pytest_args: list[str] | None = None) -> pathlib.Path:
    cmd = [sys.executable, "-m", "coverage", "run", f"--rcfile={PYPROJECT}", f"--data-file={out}",
           "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", str(corpus_store.ROOT / "properties"),
           *(pytest_args or [])]
    proc = children.run(cmd, cwd=corpus_store.ROOT, env=_env(), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace")
    last = proc.stdout.strip().splitlines()[-1:] or [""]
    print(f"  properties: {last[0]}")
    return out


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(corpus_store.ROOT), env.get("PYTHONPATH")]))
    return env


def _wpt_child(data_file: str) -> None:
    """Run the vendored WPT data through the engine under coverage (catching only Failure)."""
    cov = _new_coverage(pathlib.Path(data_file))
    cov.start()
    import json

    import engine

    wpt = corpus_store.ROOT / "tests" / "data" / "wpt"

    def cases(name):
        return [c for c in json.loads((wpt / name).read_text(encoding="utf-8")) if isinstance(c, dict)]

    getters = ("href", "origin", "protocol", "username", "password", "host", "hostname", "port",
               "pathname", "search", "hash")

    def touch(url):
        for g in getters:
            getattr(url, g)
        list(url.search_params)

    import engine.reference

    for URL in (engine.URL, engine.reference.ReferenceURL):
        for c in cases("urltestdata.json") + cases("urltestdata-javascript-only.json"):
            try:
                touch(URL(c["input"], c.get("base")))
            except engine.Failure:
                pass
        setters = json.loads((wpt / "setters_tests.json").read_text(encoding="utf-8"))
        for attr, tests in setters.items():
            if attr == "comment":
                continue
            for c in tests:
                url = URL(c["href"])
                setattr(url, attr, c["new_value"])
                touch(url)
    for c in cases("toascii.json") + cases("IdnaTestV2.json"):
        try:
            touch(engine.URL(f"https://{c['input']}/x"))
        except engine.Failure:
            pass
    for c in cases("percent-encoding.json"):
        for enc in c["output"]:
            engine.percent_encode_after_encoding(enc, c["input"], engine.SPECIAL_QUERY_PERCENT_ENCODE_SET)
    cov.stop()
    cov.save()


# -- reporting --------------------------------------------------------------------------------

@dataclasses.dataclass
class ModuleNumbers:
    name: str
    statements: int
    missing: int
    branches: int
    missing_branches: int

    @property
    def branch_pc(self) -> float:
        return 100.0 * (self.branches - self.missing_branches) / self.branches if self.branches else 100.0

    @property
    def line_pc(self) -> float:
        return 100.0 * (self.statements - self.missing) / self.statements if self.statements else 100.0


def engine_files() -> list[pathlib.Path]:
    return sorted(p for p in ENGINE.glob("*.py"))


def numbers(data_file: pathlib.Path) -> list[ModuleNumbers]:
    """Per engine module: statements, missing, branches, missing branches (+ partial ones)."""
    cov = _new_coverage(data_file)
    cov.load()
    rows = []
    for path in engine_files():
        n = cov._analyze(str(path)).numbers   # coverage.py's per-file Numbers (7.x)
        rows.append(ModuleNumbers(f"engine/{path.name}", n.n_statements, n.n_missing, n.n_branches,
                                  n.n_missing_branches))
    return rows


def total(rows: list[ModuleNumbers]) -> ModuleNumbers:
    return ModuleNumbers("total", sum(r.statements for r in rows), sum(r.missing for r in rows),
                         sum(r.branches for r in rows), sum(r.missing_branches for r in rows))


def table(rows: list[ModuleNumbers]) -> str:
    lines = [f"{'module':28} {'stmts':>6} {'miss':>5} {'lines%':>7} {'branches':>8} {'miss':>5} {'branch%':>7}"]
    for r in rows + [total(rows)]:
        lines.append(f"{r.name:28} {r.statements:>6} {r.missing:>5} {r.line_pc:>6.1f}% {r.branches:>8} "
                     f"{r.missing_branches:>5} {r.branch_pc:>6.1f}%")
    return "\n".join(lines)


def branch_percent(data_file: pathlib.Path) -> float:
    """Branch coverage of the whole engine; 0.0 when nothing of the engine ran (coverage.py
    would count no branches at all, which reads as 100%)."""
    cov = _new_coverage(data_file)
    cov.load()
    if not cov.get_data().measured_files():
        return 0.0
    return total(numbers(data_file)).branch_pc


def functions_never_entered(data_file: pathlib.Path) -> list[str]:
    """``engine/<module>.py:<function>`` for each function whose body never ran."""
    cov = _new_coverage(data_file)
    cov.load()
    data = cov.get_data()
    result = []
    for path in engine_files():
        executed = set(data.lines(str(path.resolve())) or ())
        tree = ast.parse(path.read_text(encoding="utf-8"))
        owner = {}
        for parent in ast.walk(tree):
            for child in ast.iter_child_nodes(parent):
                if isinstance(parent, (ast.ClassDef, ast.FunctionDef)):
                    owner[child] = parent.name
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                body = node.body
                if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                        and isinstance(body[0].value.value, str) and len(body) > 1):
                    body = body[1:]
                if body and body[0].lineno not in executed:
                    name = f"{owner[node]}.{node.name}" if node in owner else node.name
                    result.append(f"engine/{path.name}:{name} (line {node.lineno})")
    return result


def html_report(data_file: pathlib.Path, out_dir: pathlib.Path) -> pathlib.Path:
    cov = _new_coverage(data_file)
    cov.load()
    cov.html_report(directory=str(out_dir), title="url-workbench: engine coverage")
    return out_dir / "index.html"


# -- the subcommand ---------------------------------------------------------------------------

def add_arguments(parser) -> None:
    parser.add_argument("--wpt", action="store_true", help="the vendored WPT data")
    parser.add_argument("--properties", action="store_true", help="the Hypothesis properties")
    parser.add_argument("--corpus", nargs="?", const="all", metavar="TARGET",
                        help="seed, regress and working corpora (of one target, or all)")
    parser.add_argument("--no-work", action="store_true", help="leave the working corpus out")


def run(args) -> int:
    sources = [s for s in ("wpt", "properties") if getattr(args, s)]
    if args.corpus:
        targets = corpus_store.resolve_targets(args.corpus)
        if args.corpus != "all":
            corpus_store.require_corpus(args.corpus)
        sources.append("corpus")
    if not sources:
        sources, targets = ["wpt", "properties", "corpus"], list(corpus_store.TARGETS)
    folder = cov_dir()
    files = {}
    for source in sources:
        print(f"measuring {source} ...", flush=True)
        out = folder / f"{source}.data"
        if source == "wpt":
            files[source] = measure_wpt(out)
        elif source == "properties":
            files[source] = measure_properties(out)
        else:
            files[source] = measure_corpus(targets, out, include_work=not args.no_work)
    combined = combine(list(files.values()), folder / "combined.data") if len(files) > 1 else files[sources[0]]
    rows = numbers(combined)
    print()
    print(f"engine coverage, {' + '.join(sources)}:")
    print(table(rows))
    if len(files) > 1:
        print()
        print(f"{'source':12} {'lines%':>7} {'branch%':>8}")
        for source, f in list(files.items()) + [("all", combined)]:
            t = total(numbers(f))
            print(f"{source:12} {t.line_pc:>6.1f}% {t.branch_pc:>7.1f}%")
    if "corpus" in files:
        never = functions_never_entered(files["corpus"])
        print()
        print(f"engine functions the corpus never enters ({len(never)}):")
        for name in never:
            print(f"  {name}")
    steps_source = "corpus" if "corpus" in files else " + ".join(sources)
    print()
    print(f"the reference parser's steps (engine/reference/url_parser.py) reached by {steps_source}:")
    print(reference_steps.report(files.get("corpus", combined)))
    index = html_report(combined, folder / "html")
    print()
    print(f"HTML report: {index}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child-wpt"]:
        _wpt_child(sys.argv[2])
    else:
        sys.exit("use: urlwb coverage")
