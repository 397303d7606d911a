"""Small helpers shared by the ``urlwb`` subcommands, and the one spelling of each flag several
commands share: each flag below is added by its ``add_*`` function, with its default chosen here
once (a command that needs another says why in its help)."""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import pathlib
import sys
import tempfile

from urlwb import children
from urlwb.errors import UsageError

#: a week, the longest any time flag runs
WEEK_SECONDS = 7 * 24 * 3600.0


def short(s: str, n: int = 60) -> str:
    """``s`` as its repr shows it (controls, surrogates and quotes escaped), at most ``n``
    characters, an ellipsis where it was cut: a 10 MB input prints as one short line."""
    r = repr(s)[1:-1]
    return r if len(r) <= n else r[: n - 1] + "…"


def shorten(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def seconds_flag(name: str, value: float, most: float = WEEK_SECONDS) -> float:
    """A duration flag: a finite number of seconds above 0 and at most a week, else one line."""
    if not (0 < value <= most):   # also false for nan
        raise UsageError(f"{name} must be a number of seconds above 0 and at most {most:g}, "
                         f"not {value!r}")
    return value


def minutes_flag(name: str, value: float, most: float = WEEK_SECONDS / 60) -> float:
    """A duration flag in minutes: above 0 and at most a week, else one line (in minutes)."""
    if not (0 < value <= most):   # also false for nan
        raise UsageError(f"{name} must be a number of minutes above 0 and at most {most:g}, "
                         f"not {value!r}")
    return value


def jobs_flag(jobs: int) -> int:
    """``--jobs``: from 1 to four processes per core, else one line."""
    if not 1 <= jobs <= children.jobs_limit():
        raise UsageError(f"--jobs must be from 1 to {children.jobs_limit()} (four per core), "
                         f"not {jobs}")
    return jobs


def count_flag(name: str, value: int, least: int = 1) -> int:
    """A count flag: a whole number at least ``least``, else one line."""
    if value < least:
        raise UsageError(f"{name} must be at least {least}, not {value}")
    return value


# -- numbers: one parser type for every count, budget and time ---------------------------------------

#: the most any count flag takes unless it says otherwise: above it a count is an absurd size
MOST_COUNT = 10**9


class Number:
    """An argparse ``type``: a finite number from ``least`` to ``most`` (a whole number when
    ``kind`` is int), else argparse's one line, exit status 2 (``argument --runs: a whole number
    from 1 to 1000, not '99999999999999999'``). nan, inf, negatives and absurd sizes never reach
    a command."""

    def __init__(self, kind: type, least: float, most: float, unit: str = ""):
        self.kind, self.least, self.most, self.unit = kind, least, most, unit
        self.__name__ = "whole number" if kind is int else "number"

    def __call__(self, text: str):
        what = (f"a whole number" if self.kind is int else "a number") + (f" of {self.unit}" if self.unit else "")
        shown = "{:,}" if self.kind is int else "{:,g}"
        bounds = f"{what} from {shown.format(self.least)} to {shown.format(self.most)}"
        try:
            value = self.kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{bounds}, not {text!r}") from None
        if not (math.isfinite(value) and self.least <= value <= self.most):   # nan fails every comparison
            raise argparse.ArgumentTypeError(f"{bounds}, not {text!r}")
        return value

    def __repr__(self) -> str:
        return f"Number({self.kind.__name__}, {self.least:g}, {self.most:g})"


def count(least: int = 0, most: int = MOST_COUNT) -> Number:
    """A count flag's type: a whole number from ``least`` to ``most``."""
    return Number(int, least, most)


def seconds(least: float = 0.0, most: float = WEEK_SECONDS) -> Number:
    """A time flag's type in seconds: finite, from ``least`` (0 by default) to a week."""
    return Number(float, least, most, "seconds")


def minutes(least: float = 0.0, most: float = WEEK_SECONDS / 60) -> Number:
    """A time flag's type in minutes: finite, from ``least`` to a week."""
    return Number(float, least, most, "minutes")


# -- paths: every output checked before the work starts, every input read in one line -------------

def _nearest(path: pathlib.Path) -> pathlib.Path:
    """The nearest of ``path`` and its ancestors that exists (``/`` at worst)."""
    path = pathlib.Path(os.path.abspath(path))
    while not os.path.lexists(path) and path != path.parent:
        path = path.parent
    return path


def _can_write_in(flag: str, path: pathlib.Path, folder: pathlib.Path) -> None:
    """A file can be made in ``folder`` (it exists and is a folder): tried, by a temporary file
    removed at once, so that a read-only file system, a folder of another's or a full inode table
    is found now, not after the work."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".urlwb-probe.", dir=folder)
    except OSError as exc:
        raise UsageError(f"{flag} {path}: cannot write in {folder} ({exc.strerror or exc})") from None
    os.close(fd)
    os.unlink(tmp)


def check_output_file(flag: str, path) -> None:
    """``path`` (when given) can be written as a file: not a folder, its folder a folder (or one
    that can be made) that can be written. Else one line, exit status 2, before the work."""
    if path is None:
        return
    path = pathlib.Path(path)
    if path.is_dir():
        raise UsageError(f"{flag} {path}: a folder, where a file is meant")
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"{flag} {path}: the file cannot be written (read-only)")
    where = _nearest(path.parent)
    if not where.is_dir():
        raise UsageError(f"{flag} {path}: {where} is a file, where a folder is meant")
    _can_write_in(flag, path, where)


def check_output_folder(flag: str, path) -> None:
    """``path`` (when given) can be written as a folder: not a file, nor under one, and writable
    (or makeable in a writable folder). Else one line, exit status 2, before the work."""
    if path is None:
        return
    path = pathlib.Path(path)
    where = _nearest(path)
    if not where.is_dir():
        raise UsageError(f"{flag} {path}: " + ("a file, where a folder is meant" if where == pathlib.Path(os.path.abspath(path))
                                               else f"{where} is a file, where a folder is meant"))
    _can_write_in(flag, path, where)


def check_outputs(args, out=None) -> None:
    """A command's outputs, checked before its work starts: its report folder (``out``, the one
    it will use when ``--out`` is not given; else ``args.out``) as a folder, ``--sarif`` and
    ``--junit`` (when the command has them and they are given) as files."""
    check_output_folder("--out", out if out is not None else getattr(args, "out", None))
    check_output_file("--sarif", getattr(args, "sarif", None))
    check_output_file("--junit", getattr(args, "junit", None))


def read_text(path, what: str) -> str:
    """The UTF-8 text of the input file ``path``, or a one-line UsageError naming ``what`` and
    the file: unreadable, a folder, or bytes that are not UTF-8 (with the first bad offset)."""
    try:
        data = pathlib.Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(f"{what} {path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{what} {path}: not UTF-8 text (byte {exc.start})") from None


def load_json(path: pathlib.Path, what: str) -> object:
    """The JSON value in ``path``, or a one-line UsageError naming ``what`` and the file: an
    unreadable file, bytes that are not UTF-8, text that is not JSON, or JSON nested deeper than
    Python's parser goes."""
    text = read_text(path, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{what} {path}: not JSON ({exc})") from None
    except RecursionError:
        raise UsageError(f"{what} {path}: JSON nested too deep") from None


# -- the one vocabulary ----------------------------------------------------------------------------
#
# Every flag of these kinds means the same in every command: its help starts with the phrase
# below, and docs/cli.md shows this table (tests/workbench/test_vocabulary.py walks every
# subparser and holds both to it). ``--WHAT-seconds`` stands for every other time flag
# (``--minimize-seconds``, ``--growth-seconds``, ...): a time is always minutes or seconds.

#: flag -> (metavar, the meaning its help starts with)
VOCABULARY: dict[str, tuple[str, str]] = {
    "--minutes": ("M", "minutes of the command's main work"),
    "--seconds": ("S", "seconds of each unit of work"),
    "--WHAT-seconds": ("S", "seconds of"),
    "--seed": ("N", "seed of"),
    "--runs": ("N", "times each figure is measured"),
    "--parsers": ("LIST", "the shipped parsers that run"),
    "--oracle": ("SPEC", "a parser named by itself, yours or shipped"),
    "--out": ("PATH", "where the command writes"),
    "--jobs": ("N", "processes at once"),
}

#: the old spellings, kept one release as hidden aliases that warn: old -> new
DEPRECATED = "{old} is deprecated: say {new} (same meaning; {old} goes in the next release)"


def _meaning(flag: str, text: str, default) -> str:
    shown = "" if default is None else f" (default {default:g})" if isinstance(default, float) else f" (default {default})"
    return f"{VOCABULARY[flag][1]}: {text}{shown}"


def add_minutes(parser, what: str, default: float, dest: str | None = None) -> None:
    """``--minutes M``: how long the command's main work (``what``) runs, about."""
    parser.add_argument("--minutes", type=minutes(), default=default, metavar="M", dest=dest or "minutes",
                        help=_meaning("--minutes", what + "; fractions allowed", default))


def add_seconds(parser, what: str, default: float | None, name: str = "--seconds",
                dest: str | None = None) -> None:
    """``--seconds S`` (each unit of work: a target, an input, a merge) or ``--WHAT-seconds S``
    (one named part: ``name``): a time in seconds."""
    assert name == "--seconds" or name.endswith("-seconds"), name
    key = "--seconds" if name == "--seconds" else "--WHAT-seconds"
    text = f"{VOCABULARY[key][1]}{':' if key == '--seconds' else ''} {what}"
    parser.add_argument(name, type=seconds(), default=default, metavar="S", dest=dest,
                        help=text + ("" if default is None else f" (default {default:g})"))


#: ``--runs``: the most times a figure is measured
MOST_RUNS = 1000


def add_runs(parser, what: str, default: int, dest: str | None = None) -> None:
    """``--runs N``: how many times each figure is measured; ``what`` is kept of them."""
    parser.add_argument("--runs", type=count(1, MOST_RUNS), default=default, metavar="N", dest=dest or "runs",
                        help=_meaning("--runs", what, default))


def add_parsers(parser, what: str, default: str | None = "all", dest: str | None = None) -> None:
    """``--parsers LIST``: which shipped parsers run (names and groups: all, whatwg, other)."""
    parser.add_argument("--parsers", default=default, metavar="LIST", dest=dest or "parsers",
                        help=_meaning("--parsers", "a comma list of names and groups (all, whatwg, "
                                      "other); " + what, default))


def add_oracle(parser, what: str, dest: str | None = None) -> None:
    """``--oracle SPEC`` (repeatable): a parser of the user's own, or a chosen release."""
    parser.add_argument("--oracle", action="append", default=[], metavar="SPEC", dest=dest or "oracle",
                        help=_meaning("--oracle", what + "; repeatable", None))


def add_out(parser, what: str, default, dest: str | None = None) -> None:
    """``--out PATH``: where the command writes (``what``: a report folder, or its one file)."""
    parser.add_argument("--out", type=pathlib.Path, default=default, metavar="PATH", dest=dest or "out",
                        help=_meaning("--out", what, None) + (f" (default {_shown(default)})"
                                                              if default is not None else ""))


def _shown(path) -> str:
    """A default path as the user would type it: relative to the checkout when inside it."""
    from urlwb import corpus_store  # the checkout's root; imported here to keep --help light
    try:
        return str(pathlib.Path(path).relative_to(corpus_store.ROOT))
    except ValueError:
        return str(path)


def alias(parser, old: str, new: str) -> None:
    """Keep ``old`` one release as a hidden spelling of ``new``: it sets what ``new`` sets and
    says once on stderr that it is deprecated (:data:`DEPRECATED`)."""
    canonical = parser._option_string_actions[new]
    twin = copy.copy(canonical)
    twin.option_strings = [old]
    twin.help = argparse.SUPPRESS
    twin.default = argparse.SUPPRESS
    twin.required = False
    twin.deprecated_for = new

    class Warned(type(canonical)):
        def __call__(self, p, namespace, values, option_string=None):
            print(f"{p.prog}: " + DEPRECATED.format(old=old, new=new), file=sys.stderr)
            super().__call__(p, namespace, values, new)

    twin.__class__ = Warned
    parser._add_action(twin)


# -- the shared flags -------------------------------------------------------------------------------

#: ``--seed``: every seeded command draws the same inputs from the same seed; 1 by default
DEFAULT_SEED = 1
#: ``--minimize-seconds``: the time to minimize one new finding
DEFAULT_MINIMIZE_SECONDS = 20.0
#: ``--jobs``: processes working at once (libFuzzer's -fork workers when fuzzing, kill-suite
#: workers for mutants); 1 by default, so that one command leaves the other core to the machine
DEFAULT_JOBS = 1


def add_targets(parser, required: bool = False) -> None:
    """The fuzz targets a command works on: positional names (``all`` for every one), every
    target when none is named unless ``required``."""
    parser.add_argument("targets", nargs="+" if required else "*", metavar="TARGET",
                        help="fuzz target names, or all" + ("" if required else " (default: all)"))


def add_seed(parser, what: str, default: int | None = DEFAULT_SEED, why: str = "") -> None:
    """``--seed N``: the seed of ``what``: :data:`DEFAULT_SEED` everywhere, but the campaign's,
    a new one each run, printed (``default=None``)."""
    shown = f"default {default}" if default is not None else "default: a new one each run, printed"
    parser.add_argument("--seed", type=count(0, 2**32 - 1), default=default, metavar="N",
                        help=f"seed of {what} ({shown}{'; ' + why if why else ''})")


def add_jobs(parser, what: str, default: int = DEFAULT_JOBS, why: str = "") -> None:
    """``--jobs N``: how many processes work at once, ``what`` they are."""
    parser.add_argument("--jobs", type=count(0, MOST_COUNT), default=default, metavar="N",
                        help=f"{VOCABULARY['--jobs'][1]}: {what} (default {default}{'; ' + why if why else ''})")


def add_minimize_seconds(parser, default: float = DEFAULT_MINIMIZE_SECONDS, why: str = "") -> None:
    """``--minimize-seconds S``: the time to minimize each new finding."""
    parser.add_argument("--minimize-seconds", type=seconds(), default=default, metavar="S",
                        help=f"seconds of minimizing each new finding (default {default:g}"
                             f"{'; ' + why if why else ''})")
