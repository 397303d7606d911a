"""https://url.spec.whatwg.org/#api

The invariants' shared vocabulary: the URL API's attribute names, the scalar-value
conversion, and the helpers that compare outcomes (a result or a Failure).
"""

from __future__ import annotations

import re

import engine
from engine import Failure


#: URL API attributes with a setter, as named on engine.URL.
SETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
           "search", "hash")


#: URL API attributes with a getter.
GETTERS = ("href", "origin", "protocol", "username", "password", "host", "hostname", "port",
           "pathname", "search", "hash")


# https://url.spec.whatwg.org/#special-scheme
SPECIAL_SCHEMES = {"ftp": 21, "file": None, "http": 80, "https": 443, "ws": 80, "wss": 443}


PERCENT_ENCODED_BYTE = re.compile("%[0-9A-Fa-f]{2}")


SURROGATE = re.compile("[\ud800-\udfff]")


def fail(message: str) -> None:
    raise AssertionError(message)


def to_usv(s: str) -> str:
    """https://infra.spec.whatwg.org/#javascript-string-convert

    The scalar value string a JavaScript string converts to: a surrogate pair is one code point,
    any other surrogate becomes U+FFFD.
    """
    if SURROGATE.search(s) is None:
        return s
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def host_repr(host: object) -> str:
    return f"{type(host).__name__}({host!r})"


class Failed:
    """Stands for a Failure raised, comparing by its validation error name."""

    __slots__ = ("validation_error",)

    def __init__(self, validation_error: str | None):
        self.validation_error = validation_error

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Failed) and other.validation_error == self.validation_error

    def __repr__(self) -> str:
        return f"Failure({self.validation_error!r})"


def outcome(fn, *args, **kwargs):
    """The result of ``fn``, or a Failed for the Failure it raised."""
    try:
        return fn(*args, **kwargs)
    except Failure as exc:
        return Failed(exc.validation_error)


def check_errors_list(fn, args: tuple, kwargs: dict, plain, where: str) -> None:
    """Listening for validation errors changes nothing: same result or same failure, and every
    recorded name is one of the Standard's."""
    errors: list[str] = []
    listened = outcome(fn, *args, errors=errors, **kwargs)
    if type(listened) is not type(plain) or listened != plain:
        fail(f"{where}: with errors=[] the result is {listened!r}, without it {plain!r}")
    unknown = [e for e in errors if e not in engine.VALIDATION_ERRORS]
    if unknown:
        fail(f"{where}: unknown validation error names {unknown!r}")
    check_failure_names_its_error(plain, errors, where)


def check_failure_names_its_error(outcome, errors: list[str], where: str) -> None:
    """A failure names a validation error of the Standard's, the last one recorded: the
    algorithms say "<name> validation error, return failure"."""
    if not isinstance(outcome, Failed) or outcome.validation_error is None:
        return
    if outcome.validation_error not in engine.VALIDATION_ERRORS:
        fail(f"{where}: Failure names unknown validation error {outcome.validation_error!r}")
    if errors[-1:] != [outcome.validation_error]:
        fail(f"{where}: Failure({outcome.validation_error!r}), but the last validation errors "
              f"recorded are {errors[-3:]!r}")
