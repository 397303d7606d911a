"""``urlwb mutants [--sample N] [--seed S] [--jobs J]``: mutation testing of ``engine/``.

How much of a wrong engine does the workbench notice? Each *mutant* is the engine with one small
change (an operator, a comparison, a constant, a condition); the kill suite (``urlwb.mutation.killsuite``:
the WPT data, every committed corpus input through its target's checks, the differential replay
against the in-process oracles, the properties) runs against it and *kills* it at the first check
that fails. The kill rate, per engine module and function, says where the workbench is blind, and
every survivor is listed with its diff as a work item: a check to add, or a reviewed entry of
``corpus/mutants/equivalent.toml`` (a mutant no input can tell apart, with a one-line reason;
only that file takes a survivor out of the denominator).

The tool is cosmic-ray (https://cosmic-ray.readthedocs.io); why it and not mutmut is in
``docs/mutation.md``.

cosmic-ray's own executors mutate the files in place (its local one, one at a time), which a run
that is killed midway would leave mutated; here cosmic-ray lists the mutants (``init``) and
applies each one (``mutate_code``), and ``--jobs`` workers each judge theirs in a private copy of
the engine (``.urlwb/mutants/workers/``) imported first by the kill suite's process. The session
lives in ``.urlwb/mutants/``, with a snapshot of the engine and of everything the kill suite reads
(``snapshot/``: its code, properties, fuzz targets, corpus, test data), so that editing the
working tree during a run changes neither the mutants nor their judge. It is reused while the
engine's sources, the kill suite, the sample size and the seed stay the same; an interrupted run
(Ctrl-C, or killed) continues with the mutants not judged yet.

Mutants inside annotations are not sampled: every engine module postpones their evaluation
(``from __future__ import annotations``), so such a mutant changes a string nothing reads (the
report says how many of cosmic-ray's mutants that leaves out).

A hang: each check may take ``--timeout-factor`` times what it took on the unmutated engine (at
least ``--min-timeout`` seconds); past that the mutant is killed *by timeout*, the check named.
The report (terminal, ``reports/mutants/report.md`` and ``report.html``) gives the kill rate
overall and per module and function, the killers, the time to kill, and every survivor's diff.
"""

from __future__ import annotations

import ast
import dataclasses
import difflib
import hashlib
import json
import os
import pathlib
import queue
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import tomllib

from urlwb import children, corpus_store, progress
from urlwb.cliutil import MOST_COUNT, Number, add_jobs, check_outputs, count, add_out, add_seconds, add_seed, alias
from urlwb.errors import Incomplete, UsageError
from urlwb.mutation.killsuite import UNIT_TESTS

ENGINE_DIR = corpus_store.ROOT / "engine"
EQUIVALENT_FILE = corpus_store.ROOT / "corpus" / "mutants" / "equivalent.toml"
#: survivors known and reviewed: why each survives (the check it would take), shown in the
#: report; unlike equivalent.toml, these stay in the kill rate's denominator
SURVIVORS_FILE = corpus_store.ROOT / "corpus" / "mutants" / "survivors.toml"
REPORT_DIR = corpus_store.ROOT / "reports" / "mutants"
#: what the kill suite reads: a change to any of these makes a new session (results re-judged);
#: with the engine, they are what the session's snapshot holds
SUITE_SOURCES = ("properties", "fuzzers", "corpus", "tests/data/wpt", "tests/data/psl",
                 "tests/data/encoding", "tests/engine/wpt_data.py", "tests/expected_failures", *UNIT_TESTS,
                 "urlwb/mutation/killsuite.py", "urlwb/measure/conformance.py", "urlwb/differential/classify.py",
                 "urlwb/oracles", "urlwb/fuzzdata.py")
#: seconds allowed before the kill suite says READY (imports, before any check)
STARTUP_TIMEOUT = 120.0


def session_dir() -> pathlib.Path:
    return corpus_store.work_root() / "mutants"


# -- fingerprints -------------------------------------------------------------------------------

def _digest(paths) -> str:
    h = hashlib.sha1()
    for path in paths:
        h.update(str(path.relative_to(corpus_store.ROOT)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def engine_digest() -> str:
    return _digest(sorted(ENGINE_DIR.rglob("*.py")) + sorted((ENGINE_DIR / "data").glob("*")))


def suite_digest() -> str:
    files = []
    for name in SUITE_SOURCES:
        path = corpus_store.ROOT / name
        found = [path] if path.is_file() else sorted(
            p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts
            and "node_modules" not in p.parts and not p.name.startswith("."))
        files += [p for p in found if "mutants" not in p.relative_to(corpus_store.ROOT).parts[:2]]
    return _digest(files)


# -- the equivalent mutants -----------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Key:
    """What identifies a mutant across sessions (occurrence numbers shift with any edit): its
    module, function, operator and the lines it changes, before and after."""
    module: str
    function: str
    operator: str
    original: str
    mutated: str


EQUIVALENT_FIELDS = ("module", "function", "operator", "original", "mutated", "reason")


def _load_reviewed(path: pathlib.Path, why: str) -> dict[Key, str]:
    """A reviewed list of mutants (equivalent.toml, survivors.toml): Key -> the entry's reason.
    Every entry needs every field and a reason; ValueError (naming the entry) otherwise."""
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: {exc}") from None
    found = {}
    for i, entry in enumerate(data.get("mutant", [])):
        missing = [f for f in EQUIVALENT_FIELDS if not isinstance(entry.get(f), str)]
        if missing:
            raise ValueError(f"{path}: mutant {i + 1} lacks {', '.join(missing)}")
        if not entry["reason"].strip():
            raise ValueError(f"{path}: mutant {i + 1} ({entry['module']} {entry['function']}) "
                             f"has an empty reason: {why}")
        found[Key(*(entry[f].strip() if f in ("original", "mutated") else entry[f]
                    for f in EQUIVALENT_FIELDS[:-1]))] = entry["reason"].strip()
    return found


def load_equivalents(path: pathlib.Path = EQUIVALENT_FILE) -> dict[Key, str]:
    """``corpus/mutants/equivalent.toml``: Key -> why no input can tell that mutant apart."""
    return _load_reviewed(path, "say why no input can tell it apart")


def load_survivors(path: pathlib.Path = SURVIVORS_FILE) -> dict[Key, str]:
    """``corpus/mutants/survivors.toml``: Key -> why that survivor survives."""
    return _load_reviewed(path, "say why it survives and what check would kill it")


# -- mutants --------------------------------------------------------------------------------------

def qualified_names(source: str) -> list[tuple[int, int, str]]:
    """(first line, last line, Class.function) of every function and class of a module (its
    decorators included), innermost last."""
    spans = []

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                spans.append((first, child.end_lineno, name))
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(source), "")
    return sorted(spans, key=lambda s: (s[0], -s[1]))


def function_at(spans, line: int) -> str:
    inside = [name for first, last, name in spans if first <= line <= last]
    return inside[-1] if inside else "<module>"


def changed_lines(diff: str) -> tuple[str, str]:
    """The lines a unified diff removes and adds, each stripped, blank ones left out, joined by
    newlines."""
    lines = diff.splitlines()
    removed = [l[1:].strip() for l in lines if l.startswith("-") and not l.startswith("---")]
    added = [l[1:].strip() for l in lines if l.startswith("+") and not l.startswith("+++")]
    return "\n".join(filter(None, removed)), "\n".join(filter(None, added))


def make_diff(module: str, original: str, mutated: str) -> str:
    return "".join(difflib.unified_diff(original.splitlines(keepends=True),
                                        mutated.splitlines(keepends=True),
                                        fromfile=f"a/{module}", tofile=f"b/{module}", n=2))


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The (start, end) positions of a module's annotations, if it postpones their evaluation
    (``from __future__ import annotations``: they stay strings, never evaluated); else none."""
    tree = ast.parse(source)
    if not any(isinstance(n, ast.ImportFrom) and n.module == "__future__" and
               any(a.name == "annotations" for a in n.names) for n in tree.body):
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            found.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
    return [((a.lineno, a.col_offset), (a.end_lineno, a.end_col_offset)) for a in found if a]


def in_annotation(spec, spans) -> bool:
    return any(start <= tuple(spec.start_pos) < end for start, end in spans)


def sample(items, n: int, seed: int) -> list:
    """A seeded sample of ``n`` work items, spread over the modules in proportion to their
    mutants (largest remainders; every module with mutants gets at least one)."""
    by_module: dict[str, list] = {}
    for item in sorted(items, key=_item_order):
        by_module.setdefault(str(item.mutations[0].module_path), []).append(item)
    total = sum(len(v) for v in by_module.values())
    n = min(n, total)
    quotas = {m: n * len(v) / total for m, v in by_module.items()}
    counts = {m: max(1, int(q)) for m, q in quotas.items()}
    for m in sorted(quotas, key=lambda m: quotas[m] - int(quotas[m]), reverse=True):
        if sum(counts.values()) >= n:
            break
        counts[m] += 1
    while sum(counts.values()) > n:  # the minimum of one overshot: take from the largest
        counts[max(counts, key=counts.get)] -= 1
    rng = random.Random(seed)
    chosen = []
    for m in sorted(by_module):
        chosen += rng.sample(by_module[m], min(counts[m], len(by_module[m])))
    return chosen


def _item_order(item):
    spec = item.mutations[0]
    return str(spec.module_path), spec.operator_name, spec.occurrence


# -- the session ----------------------------------------------------------------------------------

class Session:
    """The cosmic-ray WorkDB of one engine snapshot and one sample, with its metadata."""

    def __init__(self, folder: pathlib.Path):
        self.folder = folder
        self.db_path = folder / "session.sqlite"
        self.meta_path = folder / "session.json"
        self.pristine = folder / "snapshot"   # the engine and the kill suite, as the session began
        self.meta = json.loads(self.meta_path.read_text()) if self.meta_path.exists() else {}
        #: the differential disagreements of the unmutated engine (the baseline run writes them)
        self.differences = folder / "differences.json"

    def save_meta(self) -> None:
        corpus_store.atomic_write(self.meta_path, json.dumps(self.meta, indent=2).encode())

    def db(self):
        from cosmic_ray.work_db import WorkDB, use_db

        return use_db(str(self.db_path), WorkDB.Mode.create)

    def source(self, module: str) -> str:
        return (self.pristine / module).read_text(encoding="utf-8")


def open_session(n: int, seed: int, fresh: bool, log=print) -> Session:
    """The session for this engine, kill suite, sample and seed: resumed if it exists, else
    made (the mutants listed anew only when the engine changed)."""
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    session = Session(session_dir())
    want = {"engine": engine_digest(), "suite": suite_digest(), "sample": n, "seed": seed}
    have = {k: session.meta.get(k) for k in want}
    if have == want and not fresh and session.db_path.exists():
        if not (session.pristine / "urlwb").is_dir():  # a session made before snapshots held the suite
            _snapshot(session)
        return session
    session.folder.mkdir(parents=True, exist_ok=True)
    _snapshot(session)
    if session.meta.get("engine") != want["engine"] or not session.db_path.exists():
        log(f"listing the engine's mutants with cosmic-ray (about a minute) ...")
        _init_db(session)
    else:
        reason = "--fresh" if fresh and have == want else "the kill suite, sample or seed changed"
        log(f"the engine is unchanged, {reason}: its mutants are judged again")
    with session.db() as db:
        items = db.work_items
        db.clear()
        db.add_work_items(items)
        spans = {m: annotation_spans(session.source(m))
                 for m in {str(i.mutations[0].module_path) for i in items}}
        eligible = [i for i in items if not in_annotation(i.mutations[0], spans[str(i.mutations[0].module_path)])]
        chosen = {item.job_id for item in sample(eligible, n, seed)}
        db.set_multiple_results([i.job_id for i in items if i.job_id not in chosen],
                                WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
    session.meta = dict(want, population=len(items), in_annotations=len(items) - len(eligible),
                        created=time.strftime("%Y-%m-%d %H:%M:%S"),
                        baseline=None, elapsed=0.0)
    session.save_meta()
    return session


def _snapshot(session: Session) -> None:
    """Copy the engine and the kill suite's sources into the session (its ``snapshot/``)."""
    shutil.rmtree(session.pristine, ignore_errors=True)
    ignore = shutil.ignore_patterns("__pycache__", "node_modules", ".*")
    # The whole urlwb package: the kill suite imports its helpers (corpus_store, oracles, ...).
    for name in ("engine", "urlwb", *(s for s in SUITE_SOURCES if not s.startswith("urlwb"))):
        source, copy = corpus_store.ROOT / name, session.pristine / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, copy, ignore=ignore)
        else:
            shutil.copyfile(source, copy)


def _init_db(session: Session) -> None:
    import contextlib

    from cosmic_ray.commands import init
    from cosmic_ray.modules import find_modules

    session.db_path.unlink(missing_ok=True)
    with contextlib.chdir(session.pristine), session.db() as db:
        # Paths relative to the snapshot: "engine/url.py".
        init(sorted(find_modules([pathlib.Path("engine")])), db, {})


# -- judging one mutant ---------------------------------------------------------------------------

@dataclasses.dataclass
class Verdict:
    killed: bool
    killer: str = ""        # the check's name, "import", "timeout" or "crash"
    check: str = ""         # the check that was running (for a timeout or crash)
    seconds: float = 0.0    # from the kill suite's start to the kill (or to its end)
    detail: str = ""
    where: str = ""         # the innermost engine frame of the exception


def run_suite(engine_root: pathlib.Path, timeouts: dict[str, float], *, default_timeout: float,
              suite_root: pathlib.Path = corpus_store.ROOT, extra_args=(),
              cwd: pathlib.Path | None = None, on_proc=None) -> tuple[Verdict, dict[str, float]]:
    """Run the kill suite of ``suite_root`` (a checkout, or a session's snapshot) against the
    ``engine`` package in ``engine_root``; the verdict, and each passed check's seconds."""
    from urlwb.children import read_lines

    # PYTHONHASHSEED: the properties' examples are derandomized, but a strategy drawn from a set
    # follows the set's order, which str hashing changes from process to process.
    env = dict(os.environ, PYTHONSAFEPATH="1", PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0",
               PYTHONPATH=os.pathsep.join([str(engine_root), str(suite_root)]))
    start = time.perf_counter()
    err_path = (cwd or engine_root) / "killsuite.stderr"
    with open(err_path, "w+", encoding="utf-8", errors="replace") as err:
        proc = children.popen([sys.executable, "-m", "urlwb.mutation.killsuite", *extra_args],
                              stdout=subprocess.PIPE, stderr=err, text=True, env=env,
                              cwd=cwd or engine_root)
        if on_proc:
            on_proc(proc)
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=read_lines, args=(proc.stdout, lines), daemon=True).start()
        passed: dict[str, float] = {}
        current, limit, verdict = "", STARTUP_TIMEOUT, None
        while verdict is None:
            try:
                line = lines.get(timeout=limit)
            except queue.Empty:
                _kill(proc)
                verdict = Verdict(True, "timeout", current or "startup",
                                  detail=f"no answer within {limit:.0f} s")
                break
            if line is None:
                proc.wait()
                err.seek(0)
                tail = err.read()[-1500:]
                verdict = Verdict(True, "crash", current,
                                  detail=f"exit status {proc.returncode}: {tail}")
                break
            word, _, rest = line.partition(" ")
            if word == "READY":
                if pathlib.Path(rest).resolve() != (engine_root / "engine").resolve():
                    children.release(proc)
                    raise RuntimeError(f"the kill suite imported the engine at {rest}, not "
                                       f"{engine_root / 'engine'}")
                limit = default_timeout
            elif word == "CHECK":
                current, limit = rest, timeouts.get(rest, default_timeout)
            elif word == "PASS":
                name, seconds = rest.split(" ")
                passed[name] = float(seconds)
            elif word == "KILL":
                name, _, more = rest.partition(" ")
                _, _, info = more.partition(" ")
                info = json.loads(info)
                verdict = Verdict(True, name, name, detail=f"{info['type']}: {info['message']}",
                                  where=info["where"])
            elif word == "DONE":
                verdict = Verdict(False)
        verdict.seconds = round(time.perf_counter() - start, 3)
        children.release(proc)
    return verdict, passed


def _kill(proc: subprocess.Popen) -> None:
    """End the kill suite's process group (it was started in a session of its own)."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class Worker:
    """One private copy of the engine, mutated one mutant at a time."""

    def __init__(self, session: Session, index: int):
        self.session = session
        self.root = session.folder / "workers" / f"w{index}"
        shutil.rmtree(self.root, ignore_errors=True)
        shutil.copytree(session.pristine / "engine", self.root / "engine")
        self.proc: subprocess.Popen | None = None

    def judge(self, item, timeouts, default_timeout) -> tuple:
        """(WorkResult, Verdict or None) for one work item."""
        from cosmic_ray.mutating import mutate_code
        from cosmic_ray.plugins import get_operator
        from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

        spec = item.mutations[0]
        module = str(spec.module_path)
        original = self.session.source(module)
        operator = get_operator(spec.operator_name)(**(spec.operator_args or {}))
        mutated = mutate_code(original, operator, spec.occurrence)
        if mutated is None:
            return WorkResult(worker_outcome=WorkerOutcome.NO_TEST), None
        target = self.root / module
        target.write_text(mutated, encoding="utf-8")
        try:
            verdict, _ = run_suite(self.root, timeouts, default_timeout=default_timeout,
                                   suite_root=self.session.pristine,
                                   extra_args=["--differences", str(self.session.differences)],
                                   on_proc=lambda p: setattr(self, "proc", p))
        finally:
            target.write_text(original, encoding="utf-8")
            self.proc = None
        result = WorkResult(
            worker_outcome=WorkerOutcome.NORMAL, diff=make_diff(module, original, mutated),
            test_outcome=TestOutcome.KILLED if verdict.killed else TestOutcome.SURVIVED,
            output=json.dumps(dataclasses.asdict(verdict)))
        return result, verdict


def baseline(session: Session, log=print) -> dict[str, float]:
    """Run the kill suite against the unmutated snapshot: it must pass every check; each
    check's seconds (the measure of a hang)."""
    log("the kill suite against the unmutated engine ...")
    verdict, passed = run_suite(session.pristine, {}, default_timeout=600.0,
                                suite_root=session.pristine, cwd=session.folder,
                                extra_args=["--record-differences", str(session.differences)])
    if verdict.killed:
        raise RuntimeError(f"the kill suite fails on the unmutated engine: {verdict.killer} "
                           f"({verdict.check}): {verdict.detail[:500]}")
    known = len(json.loads(session.differences.read_text(encoding="utf-8")))
    log(f"  {len(passed)} checks pass in {verdict.seconds:.1f} s ({known} differential "
        f"disagreements it has too do not count)")
    return dict(passed, __total__=verdict.seconds)


def execute(session: Session, jobs: int, timeout_factor: float, min_timeout: float,
            log=print) -> bool:
    """Judge every pending mutant of the session with ``jobs`` workers; True when all are
    judged, False when interrupted (what was judged is kept)."""
    with session.db() as db:
        pending = sorted(db.pending_work_items, key=_item_order)
        total = session.meta["sample"]
        done = sum(1 for _, r in db.results if r.worker_outcome != "skipped")
    if not pending:
        return True
    times = session.meta["baseline"]
    timeouts = {name: max(min_timeout, timeout_factor * s) for name, s in times.items()}
    todo: queue.Queue = queue.Queue()
    for item in pending:
        todo.put(item)
    results: queue.Queue = queue.Queue()
    stop = threading.Event()
    workers = [Worker(session, i) for i in range(max(1, min(jobs, len(pending))))]

    def work(worker: Worker) -> None:
        while not stop.is_set():
            try:
                item = todo.get_nowait()
            except queue.Empty:
                break
            try:
                result, verdict = worker.judge(item, timeouts, min_timeout)
            except Exception as exc:  # noqa: BLE001 - the harness's own failure: stop, say it
                results.put((item, None, exc))
                break
            if not stop.is_set():
                results.put((item, result, verdict))
        results.put(None)

    threads = [threading.Thread(target=work, args=(w,), daemon=True) for w in workers]
    started = time.monotonic()
    for t in threads:
        t.start()
    running, error = len(threads), None
    try:
        with session.db() as db, progress.task("mutants judged", total=total, beat=True) as said:
            said.advance(done)
            while running:
                got = results.get()
                if got is None:
                    running -= 1
                    continue
                item, result, verdict = got
                if result is None:
                    error = verdict
                    stop.set()
                    continue
                db.set_result(item.job_id, result)
                done += 1
                said.advance()
                log(_progress_line(done, total, item, verdict))
    except KeyboardInterrupt:
        stop.set()
        for w in workers:
            if w.proc is not None:
                _kill(w.proc)
        log("interrupted: the mutants judged so far are kept; run the same command to go on")
        return False
    finally:
        session.meta["elapsed"] = round(session.meta.get("elapsed", 0.0) + time.monotonic() - started, 1)
        session.save_meta()
    if error is not None:
        raise RuntimeError(f"a worker failed: {type(error).__name__}: {error}")
    return True


def _progress_line(done: int, total: int, item, verdict) -> str:
    spec = item.mutations[0]
    where = f"{spec.module_path}:{spec.start_pos[0]} {spec.operator_name.removeprefix('core/')}"
    if verdict is None:
        what = "no mutation to apply"
    elif verdict.killed:
        what = f"killed by {verdict.killer}" + (f" ({verdict.check})" if verdict.killer in (
            "timeout", "crash") else "") + f" in {verdict.seconds:.1f} s"
    else:
        what = f"SURVIVED ({verdict.seconds:.1f} s)"
    return f"[{done}/{total}] {where}: {what}"


# -- results --------------------------------------------------------------------------------------

@dataclasses.dataclass
class Mutant:
    job_id: str
    module: str
    function: str
    line: int
    operator: str
    status: str             # killed | survived | equivalent | no-mutation | pending
    killer: str = ""
    check: str = ""
    seconds: float = 0.0
    detail: str = ""
    where: str = ""
    diff: str = ""
    reason: str = ""        # why it is equivalent, or (a survivor) why it survives
    key: Key | None = None


def collect(session: Session, equivalents: dict[Key, str],
            survivors: dict[Key, str] | None = None) -> tuple[list[Mutant], list[str]]:
    """Every sampled mutant with its status, a survivor with its reviewed reason if
    ``survivors`` has one; and the problems of the two lists (entries matching a killed
    mutant)."""
    survivors = survivors or {}
    with session.db() as db:
        items = {i.job_id: i for i in db.work_items}
        results = dict(db.results)
    spans: dict[str, list] = {}
    mutants, problems = [], []
    for job_id, item in sorted(items.items(), key=lambda kv: _item_order(kv[1])):
        result = results.get(job_id)
        if result is not None and result.worker_outcome == "skipped":
            continue
        spec = item.mutations[0]
        module = str(spec.module_path)
        if module not in spans:
            spans[module] = qualified_names(session.source(module))
        m = Mutant(job_id, module, function_at(spans[module], spec.start_pos[0]),
                   spec.start_pos[0], spec.operator_name.removeprefix("core/"), "pending")
        if result is not None and result.worker_outcome == "no-test":
            m.status = "no-mutation"
        elif result is not None:
            m.diff = result.diff or ""
            m.key = Key(module, m.function, m.operator, *changed_lines(m.diff))
            v = json.loads(result.output or "{}")
            m.killer, m.check, m.seconds = v.get("killer", ""), v.get("check", ""), v.get("seconds", 0.0)
            m.detail, m.where = v.get("detail", ""), v.get("where", "")
            m.status = "killed" if v.get("killed") else "survived"
            if m.key in equivalents:
                if m.status == "killed":
                    problems.append(f"{module}:{m.line} {m.function} ({m.operator}) is listed as "
                                    f"equivalent but {m.killer} kills it: remove the entry")
                else:
                    m.status, m.reason = "equivalent", equivalents[m.key]
            elif m.key in survivors:
                if m.status == "killed":
                    problems.append(f"{module}:{m.line} {m.function} ({m.operator}) is listed in "
                                    f"survivors.toml but {m.killer} kills it now: remove the entry")
                else:
                    m.reason = survivors[m.key]
        mutants.append(m)
    return mutants, problems


# -- the subcommand -------------------------------------------------------------------------------

def add_arguments(parser) -> None:
    parser.add_argument("--sample", type=count(0, MOST_COUNT), default=300, metavar="N",
                        help="how many mutants, a seeded sample across all engine modules (default 300)")
    add_seed(parser, "the sample")
    add_jobs(parser, "workers, each judging mutants with a kill suite of its own", default=2,
             why="a run takes minutes per worker, and judging is the whole job")
    parser.add_argument("--fresh", action="store_true",
                        help="judge the sample again even if the session has results")
    parser.add_argument("--report-only", action="store_true",
                        help="only write the report of the session as it is")
    parser.add_argument("--timeout-factor", type=Number(float, 0, 1000), default=10.0, metavar="F",
                        help="a check may take F times its time on the unmutated engine (default 10)")
    add_seconds(parser, "a check's least timeout, beside --timeout-factor", 20.0,
                name="--min-timeout-seconds", dest="min_timeout")
    alias(parser, "--min-timeout", "--min-timeout-seconds")
    add_out(parser, "the folder of report.md, report.html and results.json", REPORT_DIR)


def run(args) -> int:
    from urlwb.mutation import report as mutants_report

    check_outputs(args)
    if args.sample < 1 or args.jobs < 1 or args.timeout_factor <= 0 or args.min_timeout <= 0:
        raise UsageError("--sample, --jobs, --timeout-factor and --min-timeout must be positive")
    try:
        import cosmic_ray  # noqa: F401
    except ImportError:
        raise UsageError("cosmic-ray is not installed (pip install -e '.[mutants]', or make setup)") from None
    try:
        equivalents, survivors = load_equivalents(), load_survivors()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.report_only:
        session = Session(session_dir())
        if not session.db_path.exists():
            raise UsageError(f"no session in {session.folder}: run urlwb mutants first")
    else:
        session = open_session(args.sample, args.seed, args.fresh)
        if session.meta.get("baseline") is None:
            try:
                session.meta["baseline"] = baseline(session)
            except RuntimeError as exc:
                raise Incomplete(str(exc)) from None
            session.save_meta()
        previous = signal.signal(signal.SIGTERM, _raise_interrupt)
        try:
            if not execute(session, args.jobs, args.timeout_factor, args.min_timeout):
                return 130
        finally:
            signal.signal(signal.SIGTERM, previous)
    mutants, problems = collect(session, equivalents, survivors)
    summary = mutants_report.summarize(mutants, session.meta)
    print(mutants_report.render_terminal(summary, mutants, problems))
    args.out.mkdir(parents=True, exist_ok=True)
    corpus_store.atomic_write(args.out / "report.md",
                              mutants_report.render_markdown(summary, mutants, problems).encode())
    corpus_store.atomic_write(args.out / "report.html",
                              mutants_report.render_html(summary, mutants, problems).encode())
    corpus_store.atomic_write(args.out / "results.json", json.dumps(
        {"summary": summary, "problems": problems,
         "mutants": [dict(dataclasses.asdict(m), key=None) for m in mutants]}, indent=1).encode())
    print(f"report: {args.out / 'report.md'} and report.html")
    return 1 if problems else 0


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt
