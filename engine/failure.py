"""Failure and validation errors.

https://url.spec.whatwg.org/#validation-error

The Standard's algorithms either return a value or return failure; failure is the one exception
family here, ``Failure`` (a ``ValueError``), carrying the name of the validation error that led to
it. Non-fatal validation errors are appended, by their spec names, to an optional ``errors`` list.
"""

from __future__ import annotations

__all__ = ["Failure", "VALIDATION_ERRORS"]


class Failure(ValueError):
    """The Standard's "failure": raised wherever an algorithm returns failure.

    ``validation_error`` is the spec name of the validation error that caused it, or ``None``
    where the Standard names none.
    """

    def __init__(self, validation_error: str | None = None, message: str | None = None):
        self.validation_error = validation_error
        super().__init__(message or validation_error or "failure")


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
