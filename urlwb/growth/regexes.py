"""ReDoS found from the regex: a package's own regexes, each asked of a maintained ReDoS checker
for an attack string, each attack a growth shape, confirmed through the package's API.

``urlwb growth --parsers NAME@VERSION --regexes`` (a user's adapter that names its ``package``,
npm or PyPI, at the release asked):

1. the release's source (``node_modules/<package>/`` of its install, or the files its wheel's
   ``RECORD`` lists) is read, never run: JavaScript parsed by acorn (regex literals, ``RegExp``
   of a string literal), Python by :mod:`ast` (``re.compile``, ``re.match`` ... of a string
   literal);
2. each regex is asked of recheck (``urlwb/growth/regexes/check.cjs``, both languages: it reads
   the common syntax, Python's named groups translated) and, for Python, of regexploit when it
   is installed; each attack (a prefix, a pump, a suffix the regex fails on) becomes a shape
   whose piece is the pump, and a second one with 'x' after the suffix (a package that trims its
   input first would strip a trailing newline: normalize-url does);
3. growth measures the shapes through the adapter as it measures its own (two lengths, confirmed,
   then four times the longer), and :func:`four_lengths` times a flagged one at four lengths for
   the record: a confirmed super-linear time is a bug, with the regex and its source line.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import pathlib
import re
import shutil
import subprocess
import warnings
from dataclasses import dataclass

from urlwb import children
from urlwb.errors import UsageError
from urlwb.growth.shapes import Shape
from urlwb.oracles import manifests
from urlwb.oracles.versions import installs
from urlwb.oracles.versions.catalog import PACKAGES

CHECKER = pathlib.Path(__file__).with_name("regexes")
#: seconds recheck may take over one package (it bounds each regex itself: URLWB_RECHECK_TIMEOUT ms)
CHECK_SECONDS = 600
#: the ``re`` functions whose first argument is a pattern
RE_FUNCTIONS = {"compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer"}


@dataclass(frozen=True)
class Attack:
    file: str
    line: int
    source: str
    flags: str
    checker: str
    complexity: str
    prefix: str
    pump: str
    suffix: str

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def package_files(spec: manifests.Spec) -> tuple[str, list[pathlib.Path]]:
    """(language, the release's own source files) of a user's adapter at a release, or of a
    shipped parser's build at a release (``url-parse@1.5.7``: its catalog package, the same layout)."""
    shipped = PACKAGES.get(spec.name.partition("@")[0])
    package = spec.package or (shipped.coordinates if shipped is not None else None)
    if not package or spec.folder is None or "@" not in spec.name:
        raise UsageError(f"--regexes: {spec.name} is not a package at a release (NAME@VERSION of a shipped "
                         "parser from npm or PyPI, or of an adapter that names its package = \"npm:...\" or \"pypi:...\")")
    registry, name = installs.split_package(package)
    if registry == "npm":
        root = spec.folder / "node_modules" / name
        return "JavaScript", sorted(p for p in root.rglob("*") if p.suffix in (".js", ".cjs", ".mjs")
                                    and "node_modules" not in p.relative_to(root).parts and p.is_file())
    if registry == "pypi":
        return "Python", _wheel_files(spec.folder, name)
    raise UsageError(f"--regexes: {spec.name}'s package is {registry}: npm and PyPI sources are read")


def _wheel_files(folder: pathlib.Path, name: str) -> list[pathlib.Path]:
    """The .py files the installed distribution ``name`` lists in its RECORD."""
    wanted = re.sub(r"[-_.]+", "_", name).lower()
    for info in sorted(folder.glob("venv/lib/python*/site-packages/*.dist-info")):
        if re.sub(r"[-_.]+", "_", info.name.removesuffix(".dist-info").rsplit("-", 1)[0]).lower() != wanted:
            continue
        site = info.parent
        rows = (info / "RECORD").read_text(encoding="utf-8").splitlines()
        return sorted(site / r.split(",")[0] for r in rows if r.split(",")[0].endswith(".py")
                      and (site / r.split(",")[0]).is_file())
    return []


def python_regexes(files: list[pathlib.Path]) -> list[dict]:
    """Every ``re.FUNCTION("literal", ...)`` of ``files``: file, line, source, flags ('' or 'i')."""
    out = []
    for path in files:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in RE_FUNCTIONS and isinstance(node.func.value, ast.Name)
                    and node.func.value.id in ("re", "regex") and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                flags = "i" if "IGNORECASE" in ast.dump(node) or "re.I" in ast.unparse(node) else ""
                out.append({"file": str(path), "line": node.lineno, "source": node.args[0].value, "flags": flags})
    return out


def _as_javascript(source: str) -> str:
    """A Python pattern in the syntax recheck reads (named groups, the string anchors)."""
    return (source.replace("(?P<", "(?<").replace("\\A", "^").replace("\\Z", "$")
            .replace("(?P=", "\\k<").replace("(?#", "(?:"))


def recheck(asked: dict) -> list[dict]:
    """check.cjs's answers (one per regex) to ``{"files": [...]}`` or ``{"regexes": [...]}``."""
    node = shutil.which("node")
    if node is None or not (CHECKER / "node_modules" / "recheck").is_dir():
        raise UsageError("--regexes: the ReDoS checker is not installed (run `make oracles`, which "
                         "runs npm ci in urlwb/growth/regexes/)")
    try:
        r = children.run([node, str(CHECKER / "check.cjs")], input=json.dumps(asked).encode(),
                         capture_output=True, timeout=CHECK_SECONDS)
    except subprocess.TimeoutExpired:
        raise UsageError(f"--regexes: the checker took more than {CHECK_SECONDS} s") from None
    if r.returncode != 0:
        raise UsageError(f"--regexes: the checker failed: {r.stderr.decode(errors='replace').strip()[-300:]}")
    return [json.loads(line) for line in r.stdout.decode().splitlines() if line.strip()]


def _from_recheck(d: dict) -> Attack | None:
    if d.get("status") != "vulnerable" or not d.get("pumps"):
        return None
    first, *rest = d["pumps"]
    tail = "".join(p["prefix"] + p["pump"] for p in rest)
    return Attack(d["file"], d["line"], d["source"], d["flags"], f"recheck ({d.get('checker')})",
                  d.get("complexity", "?"), first["prefix"], first["pump"], tail + d.get("suffix", ""))


def regexploit_attacks(regexes: list[dict]) -> list[Attack]:
    """regexploit's attacks on Python patterns, when it is installed (else none)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            from regexploit.ast.sre import SreOpParser   # optional: the PyPI side's checker
            from regexploit.redos import find
    except ImportError:
        return []
    out = []
    for r in regexes:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                found = find(SreOpParser().parse_sre(r["source"]))
        except Exception:  # noqa: BLE001 - regexploit raises what its parser meets; a pattern it cannot read is skipped
            continue
        for redos in found[:1]:
            killer = redos.killer.example() if redos.killer is not None else "!"
            out.append(Attack(r["file"], r["line"], r["source"], r["flags"], "regexploit",
                              f"starriness {redos.starriness}", redos.example_prefix,
                              redos.repeated_character.example(), killer))
    return out


def attacks(spec: manifests.Spec) -> tuple[list[Attack], int]:
    """The attacks on a release's regexes, and how many regexes were asked."""
    language, files = package_files(spec)
    if language == "JavaScript":
        answers = recheck({"files": [str(f) for f in files]})
        found = [a for a in map(_from_recheck, answers) if a is not None]
        return found, len(answers)
    regexes = python_regexes(files)
    answers = recheck({"regexes": [{**r, "source": _as_javascript(r["source"])} for r in regexes]})
    by_place = {(r["file"], r["line"]): r["source"] for r in regexes}
    found = [dataclasses.replace(a, source=by_place.get((a.file, a.line), a.source))   # as written
             for a in map(_from_recheck, answers) if a is not None]
    return found + regexploit_attacks(regexes), len(regexes)


def shapes(found: list[Attack], root: pathlib.Path | None = None) -> list[Shape]:
    """Each attack as a shape (its pump repeated), and again with 'x' after its failing suffix."""
    out, seen = [], set()
    for a in found:
        where = f"{short_path(a.file, root)}:{a.line}"
        for tail, said in ((a.suffix, ""), (a.suffix + "x", ", then 'x'")):
            key = (a.prefix, a.pump, tail)
            if key in seen or not a.pump:
                continue
            seen.add(key)
            out.append(Shape(f"regex {where}{said}", a.pump, a.prefix, tail,
                             f"{a.checker} on /{a.source}/{a.flags} ({a.complexity})",
                             regex=(where, a.source, a.flags, a.checker, a.complexity)))
    return out


def short_path(file: str, root: pathlib.Path | None = None) -> str:
    """A source file as a maintainer names it: from the package's own folder on."""
    p = pathlib.Path(file)
    for anchor in ("node_modules", "site-packages"):
        if anchor in p.parts:
            return "/".join(p.parts[len(p.parts) - p.parts[::-1].index(anchor):])
    return str(p.relative_to(root)) if root is not None and p.is_relative_to(root) else p.name


def four_lengths(timer, shape: Shape, count: int, runs: int = 1) -> list[dict]:
    """``shape`` timed at ``count`` × 1, 2, 4 and 8 (seconds, None for no answer in time)."""
    tiny = shape.tiny()
    return [{"count": count * k, "code_points": len(shape.make(count * k)),
             "seconds": timer.time(shape.make(count * k), runs, tiny)} for k in (1, 2, 4, 8)]
