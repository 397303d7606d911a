"""One runner per guided fuzzer: how it starts, what its progress lines say, what it kept.

Every runner works in ``.urlwb/hunt/<parser>/``: ``seed/`` (the generated inputs, in the
fuzzer's own corpus format), ``corpus/`` (what the fuzzer keeps; for Go, its fuzz cache), and a
log of the run. :func:`hunt_loop` runs one for a number of seconds; meanwhile, every ``every``
seconds, the inputs it kept since the last look go to the judge (``urlwb.hunt.judge``): for all
three fuzzers the judge is outside the fuzzer's process, in batches, so that the fuzzer loop
runs the parser alone and every judged input is one the parser's coverage chose.

- Python: ``atheris_target.py`` under libFuzzer (``-dict=fuzzers/fuzz_url.dict -max_len=256``);
- Go: ``go test -fuzz=FuzzNetURL -parallel=1`` in a copy of ``urlwb/hunt/go/`` whose
  ``testdata/fuzz/FuzzNetURL/`` holds the seeds (``go test fuzz v1``), ``-test.fuzzcachedir``
  pointing into the hunt's folder;
- JVM: Jazzer's standalone driver (``com.code_intelligence.jazzer.Jazzer``) on
  ``urlwb/hunt/jvm/``'s harness, compiled against the Java oracles' jars (``make oracles``),
  ``--instrumentation_includes`` the parser's packages;
- Rust: ``urlwb/hunt/rust/``'s libfuzzer-sys binary, built with SanitizerCoverage on stable Rust;
- JavaScript: ``js_fuzz.py``'s loop over the oracle's adapter, with ``js/cover.cjs`` preloaded
  (V8's block coverage of the parser's scripts).
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading
import time

from urlwb import children, corpus_store, sandbox
from urlwb.errors import UsageError
from urlwb.fuzzing.fuzz import parse_status
from urlwb.fuzzdata import encode_text
from urlwb.hunt import seeds as seeding
from urlwb.hunt.targets import Target, child_env
from urlwb.fuzzing.minimize import fuzzer_env

HERE = pathlib.Path(__file__).resolve().parent
JAZZER_VERSION = "0.24.0"
# "fuzz: elapsed: 1m57s, execs: 2170483 (23207/sec), new interesting: 73 (total: 2871)"
_GO_STATUS = re.compile(r"fuzz: elapsed: ([\dhms]+), execs: (\d+) \((\d+)/sec\), new interesting: (\d+) \(total: (\d+)\)")
_LIBFUZZER_DONE = re.compile(r"^stat::average_exec_per_sec:\s+(\d+)")


@dataclasses.dataclass
class Stats:
    execs: int = 0
    seconds: float = 0.0
    cov_start: int | None = None   # libFuzzer's edges once the seeds are loaded (INITED)
    cov_end: int | None = None
    kept: int = 0                  # inputs the fuzzer kept (beyond the seeds)
    restarts: int = 0
    stops: list = dataclasses.field(default_factory=list)  # one line per early stop (a hang, a crash)
    log: str = ""

    @property
    def exec_per_s(self) -> float:
        return self.execs / self.seconds if self.seconds else 0.0


def hunt_dir(parser: str) -> pathlib.Path:
    return corpus_store.work_root() / "hunt" / parser


class Runner:
    """The common part: folders, the child, its progress; subclasses say how."""

    def __init__(self, target: Target, oracle_flags: list[str] | None = None):
        # a user's py: adapter at a release declares itself in the fuzzing child (Target.flags)
        self.target, self.oracle_flags = target, list(oracle_flags or []) + list(getattr(target, "flags", ()))
        self.root = hunt_dir(target.name)
        self.seed_dir, self.work = self.root / "seed", self.root / "corpus"
        self.stats = Stats()
        self._run_execs = 0
        #: libFuzzer's -seed (atheris, Jazzer): the same hunt mutates the same way (0: random)
        self.random_seed = 0
        #: stop after this many executions (0: when the time is up)
        self.runs = 0

    # --- subclasses -------------------------------------------------------------------------
    def prepare(self) -> None:
        """Build what the fuzzer needs (UsageError, one line, when it cannot)."""

    def write_seeds(self, inputs: list[str]) -> None:
        raise NotImplementedError

    def command(self, seconds: int) -> tuple[list[str], dict, pathlib.Path]:
        raise NotImplementedError

    def kept(self) -> dict[str, bytes]:
        """Every input the fuzzer has kept so far (beyond the seeds): name -> bytes."""
        out = {}
        if self.work.is_dir():
            for path in self.work.iterdir():
                if path.name.startswith("."):
                    continue
                try:
                    out[path.name] = path.read_bytes()
                except OSError:   # libFuzzer replaced it by a reduced input meanwhile
                    continue
        return {k: v for k, v in out.items() if k not in self._seed_names}

    def on_line(self, line: str) -> None:
        s = parse_status(line)
        if s:
            if self.stats.cov_start is None:
                self.stats.cov_start = s.cov
            self.stats.cov_end = s.cov
            self.stats.execs = self._run_execs + s.execs
        m = re.match(r"^stat::number_of_executed_units:\s+(\d+)", line)
        if m:
            self.stats.execs = self._run_execs + int(m[1])

    # --- shared -----------------------------------------------------------------------------
    def reset(self) -> None:
        """A fresh hunt: the previous run's kept inputs and seeds removed."""
        shutil.rmtree(self.root, ignore_errors=True)
        self.root.mkdir(parents=True, exist_ok=True)
        self._seed_names: set[str] = set()

    def seed(self, inputs: list[str]) -> None:
        self.write_seeds(inputs)
        self._seed_names = {corpus_store.sha1(encode_text(t)) for t in inputs}

    def crashes(self) -> dict[str, bytes]:
        """The inputs libFuzzer wrote as crash or timeout artifacts (name -> bytes)."""
        folder = self.root / "artifacts"
        out = {}
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                if path.is_file() and path.name.split("-")[0] in ("crash", "timeout", "oom"):
                    out[path.name] = path.read_bytes()
        return out

    def drop_seed(self, data: bytes) -> bool:
        """Remove ``data`` from the seeds and the working corpus (a seed that crashes the parser
        stops libFuzzer as it loads the seeds: every restart would stop on it again)."""
        name = corpus_store.sha1(data)
        gone = False
        for folder in (self.seed_dir, self.work):
            path = folder / name
            if path.is_file():
                path.unlink()
                gone = True
        return gone

    def start(self, seconds: float) -> subprocess.Popen:
        """The fuzzer, confined as every foreign process is (:mod:`urlwb.sandbox`: no network,
        memory, CPU, file-size and process caps): it runs the parser's code."""
        cmd, env, cwd = self.command(max(1, int(seconds)))
        self.stats.log = str(self.root / "fuzzer.log")
        return children.popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              errors="replace", env=env, cwd=cwd, sandbox=sandbox.limits())


class PythonRunner(Runner):
    def write_seeds(self, inputs):
        seeding.write_corpus(self.seed_dir, inputs)
        self.work.mkdir(parents=True, exist_ok=True)

    def env(self) -> dict:
        """The child's environment; for another release, its venv's packages first on the
        path and the shipped oracle's name (the in-process class then runs that release)."""
        env = fuzzer_env()
        env["URLWB_HUNT_PARSER"] = self.target.base
        env["URLWB_HUNT_ORACLES"] = json.dumps(self.oracle_flags)
        env["URLWB_HUNT_INSTRUMENT"] = ",".join(self.target.instrument)
        return child_env(self.target, env)

    def command(self, seconds):
        (self.root / "artifacts").mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, str(HERE / "atheris_target.py"), str(self.work), str(self.seed_dir),
               f"-max_total_time={seconds}", f"-max_len={seeding.MAX_LEN}",
               f"-dict={seeding.DICTIONARY}", "-print_final_stats=1", "-timeout=10",
               "-rss_limit_mb=2048", f"-artifact_prefix={self.root / 'artifacts'}/",
               f"-seed={self.random_seed}"] + ([f"-runs={self.runs}"] if self.runs else [])
        return cmd, self.env(), self.root

    def merge(self, into: pathlib.Path, sources: list[pathlib.Path], seconds: float = 300) -> None:
        """libFuzzer ``-merge=1``: the inputs of ``sources`` that add coverage to ``into``'s."""
        cmd = [sys.executable, str(HERE / "atheris_target.py"), "-merge=1",
               f"-max_len={seeding.MAX_LEN}", "-timeout=10", str(into), *map(str, sources)]
        children.run(cmd, env=self.env(), cwd=self.root, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, timeout=seconds, sandbox=sandbox.limits())


class GoRunner(Runner):
    """``go test -fuzz``; Go's fuzz cache (``-test.fuzzcachedir``) is the working corpus."""

    def __init__(self, target, oracle_flags=None):
        super().__init__(target, oracle_flags)
        self.module = self.root / "module"
        self.work = self.root / "cache" / target.harness

    def prepare(self):
        if shutil.which("go") is None:
            raise UsageError(f"{self.target.name}: go is not on PATH (make oracles installs it)")

    def env(self) -> dict:
        env = dict(os.environ)
        env.setdefault("GOTOOLCHAIN", "local")
        env["GOFLAGS"] = "-mod=mod"
        return env

    def write_seeds(self, inputs):
        self.module.mkdir(parents=True, exist_ok=True)
        for name in ("go.mod", "hunt_test.go"):
            shutil.copy2(HERE / "go" / name, self.module / name)
        folder = self.module / "testdata" / "fuzz" / self.target.harness
        folder.mkdir(parents=True, exist_ok=True)
        for text in inputs:
            data = encode_text(text)
            (folder / corpus_store.sha1(data)).write_text(seeding.go_corpus_file(data), encoding="utf-8")
        self.work.mkdir(parents=True, exist_ok=True)

    def start(self, seconds: float) -> subprocess.Popen:
        """The module's dependencies fetched and compiled once, with the network (``go test -c``
        runs no code of theirs: Go runs nothing at build time, no ``go generate``), so that
        the confined ``go test -fuzz`` builds from the module cache with none."""
        if not getattr(self, "_prebuilt", False):
            proc = children.run(["go", "test", "-c", "-o", str(self.root / "prebuilt.test"), "."],
                                env=self.env(), cwd=self.module, capture_output=True, text=True, timeout=600)
            if proc.returncode:
                raise UsageError(f"{self.target.name}: go test -c failed: "
                                 f"{(proc.stderr.strip().splitlines() or ['?'])[-1][:200]}")
            self._prebuilt = True
        return super().start(seconds)

    def command(self, seconds):
        fn = self.target.harness
        cmd = ["go", "test", "-run=^$", f"-fuzz=^{fn}$", f"-fuzztime={f'{self.runs}x' if self.runs else f'{seconds}s'}", "-parallel=1",
               "-fuzzminimizetime=200x",
               ".", "-args", f"-test.fuzzcachedir={self.root / 'cache'}"]
        return cmd, self.env(), self.module

    def kept(self):
        out = {}
        if self.work.is_dir():
            for path in self.work.iterdir():
                if path.is_file():
                    data = seeding.read_go_corpus_file(path.read_text(encoding="utf-8", errors="replace"))
                    if data is not None:
                        out[corpus_store.sha1(data)] = data
        return {k: v for k, v in out.items() if k not in self._seed_names}

    def on_line(self, line):
        m = _GO_STATUS.search(line)
        if m:
            self.stats.execs = self._run_execs + int(m[2])

    def reach(self, inputs: list[str], seconds: float = 300) -> float | None:
        """The percentage of the target's packages' statements that ``inputs`` reach
        (``go test -cover -coverpkg``), or None when Go cannot say."""
        listing = self.root / "reach-inputs.json"
        corpus_store.atomic_write(listing, json.dumps(inputs).encode("utf-8"))
        env = self.env()
        env["URLWB_HUNT_INPUTS"] = str(listing)
        proc = children.run(["go", "test", "-count=1", "-run=^TestReach$", "-cover",
                             f"-coverpkg={','.join(self.target.instrument)}", "."],
                            env=env, cwd=self.module, capture_output=True, text=True, timeout=seconds,
                            sandbox=sandbox.limits())
        m = re.search(r"coverage: ([\d.]+)% of statements", proc.stdout + proc.stderr)
        return float(m[1]) if m else None


def jazzer_jars() -> list[pathlib.Path]:
    """Jazzer's standalone driver and its API, from the local Maven repository, fetched once
    from Maven Central (``mvn dependency:get``) when missing."""
    repo = pathlib.Path.home() / ".m2" / "repository" / "com" / "code-intelligence"
    jars = [repo / a / JAZZER_VERSION / f"{a}-{JAZZER_VERSION}.jar" for a in ("jazzer", "jazzer-api")]
    for jar, artifact in zip(jars, ("jazzer", "jazzer-api")):
        if not jar.exists():
            if shutil.which("mvn") is None:
                raise UsageError("Jazzer needs mvn to fetch it (make oracles installs maven)")
            print(f"urlwb hunt: fetching com.code-intelligence:{artifact}:{JAZZER_VERSION} (mvn)",
                  file=sys.stderr, flush=True)
            children.run(["mvn", "-q", "-B", "dependency:get",
                          f"-Dartifact=com.code-intelligence:{artifact}:{JAZZER_VERSION}"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
            if not jar.exists():
                raise UsageError(f"could not fetch com.code-intelligence:{artifact}:{JAZZER_VERSION}")
    return jars


class JvmRunner(Runner):
    """Jazzer's standalone driver on ``urlwb/hunt/jvm/urlwb/hunt/Hunt.java``, compiled against
    the Java oracles' jars: the shipped build's, or for ``PARSER@VERSION`` that version's build
    in the versions cache (the same pom with one dependency's version changed), into a class
    folder of its own."""

    LIB = corpus_store.ROOT / "urlwb" / "oracles" / "java" / "build" / "lib"
    CLASSES = corpus_store.ROOT / "build" / "hunt-jvm"

    def __init__(self, target, oracle_flags=None):
        super().__init__(target, oracle_flags)
        if target.build is not None:
            self.LIB = target.build / "build" / "lib"
            self.CLASSES = target.build / "hunt-jvm"

    def prepare(self):
        for tool in ("java", "javac"):
            if shutil.which(tool) is None:
                raise UsageError(f"{self.target.name}: {tool} is not on PATH (make oracles installs a JDK)")
        if not self.LIB.is_dir():
            raise UsageError(f"{self.target.name}: the Java oracles are not built ({self.LIB}): run make oracles")
        self.jars = jazzer_jars()
        source = HERE / "jvm" / "urlwb" / "hunt" / "Hunt.java"
        built = self.CLASSES / "urlwb" / "hunt" / "Hunt.class"
        if not built.exists() or built.stat().st_mtime < source.stat().st_mtime:
            self.CLASSES.mkdir(parents=True, exist_ok=True)
            proc = children.run(["javac", "-d", str(self.CLASSES), "-cp", f"{self.LIB}/*", str(source)],
                                capture_output=True, text=True, timeout=300)
            if proc.returncode:
                raise UsageError(f"{self.target.name}: javac failed: {proc.stderr.strip().splitlines()[-1:]}")

    def write_seeds(self, inputs):
        seeding.write_corpus(self.seed_dir, inputs)
        self.work.mkdir(parents=True, exist_ok=True)

    def command(self, seconds):
        cp = os.pathsep.join([*map(str, self.jars), str(self.CLASSES), f"{self.LIB}/*"])
        includes = ":".join(self.target.instrument)
        cmd = ["java", "-XX:+UseSerialGC", "-Xmx512m", f"-Durlwb.hunt.parser={self.target.harness}",
               "-cp", cp, "com.code_intelligence.jazzer.Jazzer", "--target_class=urlwb.hunt.Hunt",
               f"--instrumentation_includes={includes}", "--keep_going=0",
               str(self.work), str(self.seed_dir), f"-max_total_time={seconds}",
               f"-max_len={seeding.MAX_LEN}", f"-dict={seeding.DICTIONARY}", "-print_final_stats=1",
               "-timeout=10", "-rss_limit_mb=2048", f"-artifact_prefix={self.root / 'artifacts'}/",
               f"-seed={self.random_seed}"] + ([f"-runs={self.runs}"] if self.runs else [])
        (self.root / "artifacts").mkdir(parents=True, exist_ok=True)
        return cmd, dict(os.environ), self.root


#: SanitizerCoverage as cargo-fuzz asks for it, without the sanitizer (stable Rust has no -Z)
RUST_FLAGS = ("-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=3 "
              "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters "
              "-Cllvm-args=-sanitizer-coverage-pc-table "
              "-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing")


class RustRunner(PythonRunner):
    """``urlwb/hunt/rust/``'s libFuzzer binary (libfuzzer-sys), built once into
    ``build/hunt-rust/`` with the SanitizerCoverage flags and ``--target`` the host triple (so
    that build scripts, compiled for the host, are not instrumented)."""

    CRATE = HERE / "rust"
    TARGET_DIR = corpus_store.ROOT / "build" / "hunt-rust"

    def __init__(self, target, oracle_flags=None):
        super().__init__(target, oracle_flags)
        self.locked = target.build is None
        if target.build is not None:
            self.CRATE, self.TARGET_DIR = target.build / "hunt-rust", target.build / "hunt-rust" / "target"

    def _versioned_crate(self) -> None:
        """A copy of ``urlwb/hunt/rust/`` requiring exactly this release of ``url`` (cargo
        resolves the rest of that release's tree afresh: the shipped lock file pins 2.5's)."""
        version = self.target.name.partition("@")[2]
        self.CRATE.mkdir(parents=True, exist_ok=True)
        (self.CRATE / "src").mkdir(exist_ok=True)
        for f in (HERE / "rust" / "src").glob("*.rs"):
            if not (self.CRATE / "src" / f.name).exists() or (self.CRATE / "src" / f.name).read_bytes() != f.read_bytes():
                shutil.copy2(f, self.CRATE / "src" / f.name)
        toml = (HERE / "rust" / "Cargo.toml").read_text(encoding="utf-8")
        toml, n = re.subn(r'(?m)^url = "[^"]*"', f'url = "={version}"', toml)
        if n != 1:
            raise UsageError(f"{self.target.name}: url is not a dependency of {HERE / 'rust' / 'Cargo.toml'}")
        old = self.CRATE / "Cargo.toml"
        if not old.exists() or old.read_text(encoding="utf-8") != toml:
            old.write_text(toml, encoding="utf-8")

    def prepare(self):
        if shutil.which("cargo") is None or shutil.which("rustc") is None:
            raise UsageError(f"{self.target.name}: cargo is not on PATH (make oracles installs it)")
        host = next((line.split()[1] for line in children.run(
            ["rustc", "-vV"], capture_output=True, text=True).stdout.splitlines()
            if line.startswith("host:")), None)
        if not self.locked:
            self._versioned_crate()
        self.binary = self.TARGET_DIR / host / "release" / self.target.harness
        sources = [self.CRATE / "Cargo.toml", *self.CRATE.glob("src/*.rs")]
        if self.locked:
            sources.append(self.CRATE / "Cargo.lock")
        if self.binary.exists() and all(p.stat().st_mtime <= self.binary.stat().st_mtime for p in sources):
            return
        print(f"urlwb hunt: building {self.target.harness} for {self.target.name} (cargo, once)",
              file=sys.stderr, flush=True)
        env = dict(os.environ, RUSTFLAGS=RUST_FLAGS)
        locked = ["--locked"] if self.locked else []
        # the crates fetched with the network (no build script runs), then built without it:
        # every build.rs (libfuzzer-sys's compiles libFuzzer) and proc macro runs confined
        proc = children.run(["cargo", "fetch", *locked], cwd=self.CRATE, env=env, capture_output=True,
                            text=True, timeout=600)
        if proc.returncode == 0:
            proc = children.run(["cargo", "build", "--release", "--offline", *locked, "--target", host,
                                 "--target-dir", str(self.TARGET_DIR)], cwd=self.CRATE, env=env,
                                capture_output=True, text=True, timeout=1800, sandbox=sandbox.limits())
        if proc.returncode or not self.binary.exists():
            raise UsageError(f"{self.target.name}: cargo build failed: "
                             f"{(proc.stderr.strip().splitlines() or ['?'])[-1]}")

    def env(self) -> dict:
        return dict(os.environ)

    def command(self, seconds):
        cmd, env, cwd = super().command(seconds)
        return [str(self.binary)] + cmd[2:], env, cwd

    def merge(self, into, sources, seconds: float = 300) -> None:
        cmd = [str(self.binary), "-merge=1", f"-max_len={seeding.MAX_LEN}", "-timeout=10",
               str(into), *map(str, sources)]
        children.run(cmd, cwd=self.root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     timeout=seconds, sandbox=sandbox.limits())


_JS_STATUS = re.compile(r"^#(\d+)\t(INITED |DONE )?js cov: (\d+) kept: (\d+)")


class JsRunner(Runner):
    """``urlwb/hunt/js_fuzz.py`` on the oracle's own adapter (its command and folder, from the
    registry: the shipped one, another release's in the versions cache, or a user's program run
    by ``node``), guided by V8's block coverage of :func:`urlwb.hunt.targets.js_roots`."""

    def prepare(self):
        if shutil.which("node") is None:
            raise UsageError(f"{self.target.name}: node is not on PATH (make oracles installs it)")
        from urlwb import oracles
        from urlwb.hunt.targets import js_roots
        self.spec = oracles.REGISTRY[self.target.name].spec
        self.roots = js_roots(self.target)

    def write_seeds(self, inputs):
        seeding.write_corpus(self.seed_dir, inputs)
        self.work.mkdir(parents=True, exist_ok=True)

    def command(self, seconds):
        (self.root / "artifacts").mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, **self.spec.env)
        cmd = [sys.executable, "-m", "urlwb.hunt.js_fuzz", "--command", json.dumps(self.spec.command),
               "--cwd", str(self.spec.cwd), "--roots", os.pathsep.join(map(str, self.roots)),
               "--work", str(self.work), "--seeds", str(self.seed_dir),
               "--artifacts", str(self.root / "artifacts"), "--seconds", str(seconds),
               "--seed", str(self.random_seed or 1), "--dict", str(seeding.DICTIONARY),
               "--deadline", str(max(10.0, self.spec.deadline))] + (["--runs", str(self.runs)] if self.runs else [])
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        return cmd, env, self.root

    def crashes(self):
        return {}   # the loop keeps a crash or a hang among its inputs, and goes on

    def on_line(self, line):
        m = _JS_STATUS.match(line)
        if m:
            if m[2] == "INITED ":
                self.stats.cov_start = int(m[3])
            self.stats.cov_end = int(m[3])
            self.stats.execs = self._run_execs + int(m[1])


RUNNERS = {"python": PythonRunner, "go": GoRunner, "jvm": JvmRunner, "rust": RustRunner, "js": JsRunner}


def runner_for(target: Target, oracle_flags: list[str] | None = None) -> Runner:
    return RUNNERS[target.language](target, oracle_flags)


def hunt_loop(runner: Runner, seconds: float, on_batch=None, every: float = 15.0,
              progress=None) -> Stats:
    """Run the fuzzer for ``seconds`` of wall time, restarted when it stops early: after a crash
    or a time-out on an input it wrote as an artifact (judged, and dropped from the seeds when it
    is one) while time is left, otherwise up to three times; every ``every`` seconds and at the end, the inputs
    kept since the last look go to ``on_batch(list of bytes)``. The fuzzer's statistics."""
    t0 = time.monotonic()
    seen: set[str] = set()
    crashed: set[str] = set()
    log = open(runner.root / "fuzzer.log", "a", encoding="utf-8")

    def look() -> None:
        fresh = {k: v for k, v in runner.kept().items() if k not in seen}
        seen.update(fresh)
        runner.stats.kept = len(seen)
        if fresh and on_batch is not None:
            on_batch(list(fresh.values()))

    with log:
        while True:
            left = seconds - (time.monotonic() - t0)
            if left < 2:
                break
            run_started = time.monotonic()
            proc = runner.start(left)
            reader = threading.Thread(target=_read, args=(proc, runner, log), daemon=True)
            reader.start()
            try:
                while proc.poll() is None:
                    deadline = time.monotonic() + every
                    while proc.poll() is None and time.monotonic() < deadline:
                        time.sleep(0.2)
                        if time.monotonic() - t0 > seconds + 120:
                            children.kill_group(proc)
                    look()
                    if progress:
                        progress(time.monotonic() - t0, runner.stats)
            finally:
                children.release(proc)
                reader.join(timeout=10)
            runner.stats.seconds += time.monotonic() - run_started
            runner._run_execs = runner.stats.execs
            if proc.returncode == 0:
                break
            runner.stats.stops.append(f"the fuzzer stopped with exit status {proc.returncode} "
                                      f"after {time.monotonic() - t0:.0f} s (see {runner.stats.log})")
            # The input it stopped on is judged (a crash of the parser is a finding); a seed
            # that crashes is dropped, so that the restart gets past it: that restart is free.
            fresh = {k: v for k, v in runner.crashes().items() if k not in crashed}
            crashed.update(fresh)
            if fresh and on_batch is not None:
                on_batch(list(fresh.values()))
            dropped = [data for data in fresh.values() if runner.drop_seed(data)]
            if dropped:
                runner.stats.stops[-1] += (f": on a seed input, {dropped[0][:60]!r}, which crashes the "
                                           f"parser; the seed is dropped and the fuzzer restarted")
                continue
            if fresh:   # a crash on an input of its own: judged; the hunt goes on while time is left
                runner.stats.stops[-1] += f": on {next(iter(fresh.values()))[:60]!r} (judged)"
                continue
            runner.stats.restarts += 1
            if runner.stats.restarts > 3:
                break
    look()
    return runner.stats


def _read(proc: subprocess.Popen, runner: Runner, log) -> None:
    for line in proc.stdout:
        log.write(line)
        runner.on_line(line)
