"""Small helpers shared by the ``urlwb`` subcommands, and the one spelling of each flag several
commands share: each flag below is added by its ``add_*`` function, with its default chosen here
once (a command that needs another says why in its help)."""

from __future__ import annotations

import json
import pathlib

from urlwb import children
from urlwb.errors import UsageError


def short(s: str, n: int = 60) -> str:
    """``s`` as its repr shows it (controls, surrogates and quotes escaped), at most ``n``
    characters, an ellipsis where it was cut: a 10 MB input prints as one short line."""
    r = repr(s)[1:-1]
    return r if len(r) <= n else r[: n - 1] + "…"


def shorten(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def seconds_flag(name: str, value: float, most: float = 7 * 24 * 3600.0) -> float:
    """A duration flag: a finite number of seconds above 0 and at most a week, else one line."""
    if not (0 < value <= most):   # also false for nan
        raise UsageError(f"{name} must be a number of seconds above 0 and at most {most:g}, "
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


def load_json(path: pathlib.Path, what: str) -> object:
    """The JSON value in ``path``, or a one-line UsageError naming ``what`` and the file: an
    unreadable file, bytes that are not UTF-8, text that is not JSON, or JSON nested deeper than
    Python's parser goes."""
    try:
        return json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"{what} {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{what} {path}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{what} {path}: not JSON ({exc})") from None
    except RecursionError:
        raise UsageError(f"{what} {path}: JSON nested too deep") from None


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
    """``--seed N``: the seed of ``what``."""
    shown = f"default {default}" if default is not None else "default: a new one each run, printed"
    parser.add_argument("--seed", type=int, default=default, metavar="N",
                        help=f"seed of {what} ({shown}{'; ' + why if why else ''})")


def add_jobs(parser, what: str, default: int = DEFAULT_JOBS, why: str = "") -> None:
    """``--jobs N``: how many processes work at once, ``what`` they are."""
    parser.add_argument("--jobs", type=int, default=default, metavar="N",
                        help=f"processes at once: {what} (default {default}{'; ' + why if why else ''})")


def add_minimize_seconds(parser, default: float = DEFAULT_MINIMIZE_SECONDS, why: str = "") -> None:
    """``--minimize-seconds S``: the time to minimize each new finding."""
    parser.add_argument("--minimize-seconds", type=float, default=default, metavar="S",
                        help=f"time to minimize each new finding (default {default:g}"
                             f"{'; ' + why if why else ''})")
