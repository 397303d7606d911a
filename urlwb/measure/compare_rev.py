"""``urlwb compare-rev REV``: the engine against its own version at a git revision.

A differential for the engine's maintainers: a rewrite for speed (or any refactoring) must not
change what the engine answers. Both versions are loaded in one process (the one at ``REV`` from
``git archive``, as a package of another name) and given the same inputs: every WPT URL, base,
host and domain input, then ``--inputs`` seeded inputs more (a run repeats): URLs from
``urlwb.differential.generate`` (the differential's confusion-aware mutations and grammar), and hosts mutated
with its host parts and inserts.
For each input they must agree on

- the basic URL parser, without and with a base, and listening for validation errors (the
  serialization or the failure, and the list of validation errors, in order);
- each URL setter (the parser with its state overrides), on the URL parsed, with a value taken
  from WPT's setter tests, hosts and URL inputs, or pieces of the URL itself: the href after;
- the host parser, special and opaque, listening or not;
- the domain parser, strict and not, listening or not, and domain to Unicode;
- UTF-8 percent-encoding with each percent-encode set, and percent-decoding.

Every difference is printed with the input and both answers, the first ``--show`` of each kind;
the exit status is 1 if there is any. A difference is a finding for a human: either a bug of one
version (this command found one, in the counting of invalid-URL-unit errors) or a change meant.
"""

from __future__ import annotations

import importlib
import io
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from types import ModuleType

import engine as new
from urlwb import corpus_store
from urlwb import progress as saying
from urlwb.cliutil import MOST_COUNT, add_seed, count
from urlwb.differential import generate
from urlwb.errors import UsageError

# What host inputs are mutated with: the generator's hosts and inserts, and a few IDNA parts.
HOST_PIECES = generate.HOSTS + generate.INSERTS + ["xn--nxa", "\u200d", "\u0661", "\u05d0", "-", "--",
                                                    "\ud800", "\U0001f600"]


def load_engine_at(revision: str, workdir: Path) -> ModuleType:
    """The engine package as it was at ``revision``, imported as ``engine_at_rev``."""
    try:
        archive = subprocess.run(["git", "archive", "--format=tar", revision, "engine"],
                                 cwd=corpus_store.ROOT, capture_output=True, check=True).stdout
    except FileNotFoundError:
        raise UsageError("git is not installed") from None
    except subprocess.CalledProcessError as exc:
        message = exc.stderr.decode(errors="replace").strip().splitlines()
        raise UsageError(f"cannot read engine/ at {revision!r}: "
                         f"{message[-1] if message else 'git archive failed'}") from None
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(workdir, filter="data")
    (workdir / "engine").rename(workdir / "engine_at_rev")
    return import_engine_from(workdir / "engine_at_rev")


def import_engine_from(package_dir: Path) -> ModuleType:
    """Import an engine package from ``package_dir`` under the directory's name."""
    sys.path.insert(0, str(package_dir.parent))
    try:
        for name in [m for m in sys.modules if m == package_dir.name or m.startswith(package_dir.name + ".")]:
            del sys.modules[name]
        return importlib.import_module(package_dir.name)
    finally:
        sys.path.remove(str(package_dir.parent))


def wpt_hosts() -> list[str]:
    """The host and domain inputs of the vendored WPT data (toascii.json, IdnaTestV2.json)."""
    hosts = [c["input"] for c in generate.load_wpt("toascii.json") if isinstance(c, dict)]
    hosts += [c["input"] for c in generate.load_wpt("IdnaTestV2.json")
              if isinstance(c, dict) and c.get("input")]
    return list(dict.fromkeys(hosts))


def mutate_host(rng: random.Random, pool: list[str]) -> str:
    """A WPT host with one to three parts inserted or swapped in, or parts strung together."""
    if rng.random() < 0.5:
        s = rng.choice(pool)
        for _ in range(rng.randrange(1, 4)):
            k = rng.randrange(len(s) + 1)
            s = s[:k] + rng.choice(HOST_PIECES) + s[k + rng.randrange(3):]
        return s
    return "".join(rng.choice(HOST_PIECES) for _ in range(rng.randrange(1, 6)))


def _answer(engine: ModuleType, fn, *args, listen: bool = False, **kwargs):
    """What ``fn`` answers, comparable across the two versions: a value (as a string), or the
    failure's validation error name; with the validation errors listened for."""
    errors: list[str] | None = [] if listen else None
    try:
        value = fn(*args, errors=errors, **kwargs) if listen else fn(*args, **kwargs)
        value = repr(value) if isinstance(value, (bytes, bool, type(None))) else str(value)
    except engine.Failure as exc:
        value = f"failure ({exc.validation_error})"
    return (value, tuple(errors)) if listen else value


SETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
           "search", "hash")


def setter_values(hosts: list[str], urls: list[str]) -> list[str]:
    """Values to give the setters: WPT's setter tests' values, then some hosts and URL inputs."""
    values = [c["new_value"] for tests in generate.load_wpt("setters_tests.json").values()
              if isinstance(tests, list) for c in tests if isinstance(c, dict) and "new_value" in c]
    return list(dict.fromkeys(values + hosts[:300] + urls[:300]))


def answers(engine: ModuleType, kind: str, text: str, base: str | None = None,
            value: str | None = None) -> dict[str, object]:
    """Every answer the engine gives about ``text`` for one kind of input ("url" or "host");
    for a URL, with ``value`` given, the href after each setter given it."""
    out: dict[str, object] = {}
    if kind == "url":
        parse = engine.basic_url_parse
        try:
            base_record = parse(base) if base is not None else None
        except engine.Failure:
            return out

        def href(listen: bool):
            def run(s, errors=None):
                return engine.serialize_url(parse(s, base_record, errors=errors))
            return _answer(engine, run, text, listen=listen)

        out["basic URL parser"] = href(False)
        out["basic URL parser, listening"] = href(True)
        if value is not None:
            for name in SETTERS:
                def set_then_href(s, name=name):
                    url = engine.URL(s, base)
                    setattr(url, name, value)
                    return url.href
                out[f"setter {name}"] = _answer(engine, set_then_href, text)
        return out
    for is_opaque in (False, True):
        for listen in (False, True):
            out[f"host parser{' (opaque)' if is_opaque else ''}{', listening' if listen else ''}"] = \
                _answer(engine, lambda s, errors=None: engine.serialize_host(
                    engine.parse_host(s, is_opaque, errors=errors)), text, listen=listen)
    for strict in (False, True):
        for listen in (False, True):
            out[f"domain to ASCII{' (strict)' if strict else ''}{', listening' if listen else ''}"] = \
                _answer(engine, engine.domain_to_ascii, text, strict, listen=listen)
    out["domain to Unicode"] = _answer(engine, engine.domain_to_unicode, text)
    for name, encode_set in engine.PERCENT_ENCODE_SETS.items():
        out[f"UTF-8 percent-encode ({name})"] = _answer(engine, engine.utf8_percent_encode, text,
                                                        encode_set)
    out["percent-decode"] = _answer(engine, engine.percent_decode_string, text)
    return out


def compare(old: ModuleType, new: ModuleType, *, inputs: int, seed: int,
            progress=None) -> tuple[dict[str, list[tuple]], int]:
    """Differences by kind of answer (each: input, base, old answer, new answer), and the number
    of comparisons made."""
    hosts = wpt_hosts()
    rng = random.Random(seed)
    url_count = sum(rng.random() < 0.6 for _ in range(inputs))
    wpt = generate.wpt_cases()
    values = setter_values(hosts, [u for u, _ in wpt])
    cases = [("url", u, b) for u, b in wpt]
    cases += [("url", u, b) for u, b in generate.generate(url_count, seed)]
    cases += [("host", h, None) for h in hosts]
    cases += [("host", mutate_host(rng, hosts), None) for _ in range(inputs - url_count)]
    differences: dict[str, list[tuple]] = defaultdict(list)
    compared = 0
    for i, (kind, text, base) in enumerate(cases):
        # A setter value: one of the pool, or a piece of the URL itself.
        value = rng.choice(values) if rng.random() < 0.7 else text[rng.randrange(len(text) + 1):]
        a, b = answers(old, kind, text, base, value), answers(new, kind, text, base, value)
        for what in a.keys() | b.keys():
            compared += 1
            if a.get(what) != b.get(what):
                differences[what].append((text, base, a.get(what), b.get(what)))
        if progress is not None and i % 5000 == 0:
            progress(i, len(cases))
    return differences, compared


def add_arguments(parser) -> None:
    parser.add_argument("revision", metavar="REV", help="a git revision (a commit, tag, HEAD~3, ...)")
    parser.add_argument("--inputs", type=count(0, MOST_COUNT), default=20000, metavar="N",
                        help="random mutations beyond the WPT inputs (default 20000)")
    add_seed(parser, "the mutations")
    parser.add_argument("--show", type=count(0, MOST_COUNT), default=5, metavar="K",
                        help="differences shown per kind of answer (default 5)")


def run(args) -> int:
    if args.inputs < 0 or args.show < 0:
        raise UsageError("--inputs and --show must not be negative")

    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="urlwb-rev-") as tmp:
        old = load_engine_at(args.revision, Path(tmp))

        with saying.task(f"compare-rev {args.revision}: inputs", total=None, beat=True) as said:
            def step(done: int, total: int) -> None:
                said.total = total
                said.advance(done - said.done)

            differences, compared = compare(old, new, inputs=args.inputs, seed=args.seed, progress=step)
    total = sum(len(v) for v in differences.values())
    print(f"engine at {args.revision} vs the working tree: {compared:,} answers compared "
          f"({args.inputs:,} random inputs, seed {args.seed}) in {time.monotonic() - t0:.1f} s; "
          f"{total:,} differ")
    for what in sorted(differences):
        found = differences[what]
        print(f"\n{what}: {len(found):,} differences")
        for text, base, a, b in found[: args.show]:
            print(f"  input {text!r}" + ("" if base is None else f" base {base!r}"))
            print(f"    at {args.revision}: {a!r}")
            print(f"    now: {b!r}")
    return 1 if total else 0
