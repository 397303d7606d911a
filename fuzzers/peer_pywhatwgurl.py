#!/usr/bin/env python3
"""Speed peer for ``urlwb bench-fuzz`` (not a target of the engine): atheris driving pywhatwgurl.

Parse, serialize, reparse, assert the href is stable: the classic reparse fuzz target, on a
pure-Python WHATWG parser, with the same input format as ``fuzz_url`` (``urlwb.fuzzdata``).
pywhatwgurl signals failure with ValueError, the one exception caught.
"""
import contextlib
import sys

import atheris

from urlwb.fuzzdata import Reader

with atheris.instrument_imports(include=["pywhatwgurl"]) if __name__ == "__main__" else contextlib.nullcontext():
    import pywhatwgurl

WITH_BASE = (False, True)


def check(data: bytes) -> None:
    r = Reader(data)
    base = r.text(r.length()) if r.choice(WITH_BASE) else None
    try:
        href = pywhatwgurl.URL(r.rest(), base).href
    except ValueError:
        return
    again = pywhatwgurl.URL(href).href
    assert again == href, (href, again)


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
