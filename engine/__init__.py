"""A compact, spec-faithful implementation of the WHATWG URL Standard.

https://url.spec.whatwg.org/
"""

from .failure import Failure, VALIDATION_ERRORS

__all__ = ["Failure", "VALIDATION_ERRORS"]
