"""Small helpers shared by the ``urlwb`` subcommands."""

from __future__ import annotations

import json
import pathlib

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
