"""Failure and validation errors.

https://url.spec.whatwg.org/#validation-error

The Standard's algorithms either return a value or return failure; failure is the one exception
family here, ``Failure`` (a ``ValueError``), carrying the name of the validation error that led to
it. Non-fatal validation errors are appended, by their spec names, to an optional ``errors`` list.

Every module of the engine, both URL parsers and the host parsers among them, reports a validation
error through one pair of helpers (as rust-url reports every syntax violation through one):
``validation_error(errors, name)`` for one that is not fatal, and ``raise fail(errors, name)``
for "<name> validation error, return failure". Where telling whether an error happened costs a
search, the search runs only when someone listens (``errors`` is not None), where it is made.
"""

from __future__ import annotations

__all__ = ["Failure", "VALIDATION_ERRORS", "validation_error", "fail"]


class Failure(ValueError):
    """The Standard's "failure": raised wherever an algorithm returns failure.

    ``validation_error`` is the spec name of the validation error that caused it, or ``None``
    where the Standard names none.
    """

    def __init__(self, validation_error: str | None = None, message: str | None = None):
        self.validation_error = validation_error
        super().__init__(message or validation_error or "failure")


def validation_error(errors: list[str] | None, name: str, times: int = 1) -> None:
    """https://url.spec.whatwg.org/#validation-error: ``name`` reported to whoever listens
    (appended to ``errors``; nothing when it is None), ``times`` times where a parser takes at
    once a run of code points that are each that error."""
    if errors is not None:
        errors.extend((name,) * times)


def fail(errors: list[str] | None, name: str) -> Failure:
    """"``name`` validation error, return failure": the error reported (``validation_error``),
    and the Failure to raise: ``raise fail(errors, name)``."""
    validation_error(errors, name)
    return Failure(name)


#: Every validation error the URL Standard names, in the order of its table
#: (https://url.spec.whatwg.org/#writing).
VALIDATION_ERRORS = (
    # IDNA
    "domain-to-ASCII",
    # Host parsing
    "domain-percent-encoded",
    "host-invalid-code-point",
    "IPv4-empty-part",
    "IPv4-too-few-parts",
    "IPv4-too-many-parts",
    "IPv4-non-numeric-part",
    "IPv4-non-decimal-part",
    "IPv4-out-of-range-part",
    "IPv6-unclosed",
    "IPv6-invalid-compression",
    "IPv6-too-many-pieces",
    "IPv6-multiple-compression",
    "IPv6-invalid-code-point",
    "IPv6-too-few-pieces",
    "IPv6-piece-leading-zero",
    "IPv4-in-IPv6-too-many-pieces",
    "IPv4-in-IPv6-invalid-code-point",
    "IPv4-in-IPv6-out-of-range-part",
    "IPv4-in-IPv6-too-few-parts",
    # URL parsing
    "invalid-URL-unit",
    "special-scheme-missing-following-solidus",
    "missing-scheme-non-relative-URL",
    "invalid-reverse-solidus",
    "invalid-credentials",
    "host-missing",
    "port-out-of-range",
    "port-invalid",
    "file-invalid-Windows-drive-letter",
    "file-invalid-Windows-drive-letter-host",
)
