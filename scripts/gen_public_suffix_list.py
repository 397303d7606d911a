#!/usr/bin/env python3
"""Generate engine/data/public_suffix_list.dat, the Public Suffix List the engine reads.

https://publicsuffix.org/list/

The source is the list the ``publicsuffixlist`` package (PyPI) ships as
publicsuffixlist/public_suffix_list.dat (the package is released with each new list), read once,
here. It is copied unchanged (its MPL 2.0 notice, VERSION and COMMIT lines included) below a
header that records this script, the package's version, the list's VERSION and the SHA-256 of
the file read. The engine reads only the copy, so its answers do not move with whatever package
version is installed, and the list's age is stated (``engine.public_suffix.LIST_VERSION``).

    python scripts/gen_public_suffix_list.py            # write the file
    python scripts/gen_public_suffix_list.py --check    # exit 1 if it is not up to date

To take a newer list: upgrade publicsuffixlist, run this script and tests/engine/test_psl.py, commit.
"""

from __future__ import annotations

import hashlib
import re
import sys
from importlib import metadata, resources

import datagen  # scripts/datagen.py: the write-or-check command line

GENERATOR = "scripts/gen_public_suffix_list.py"
FILENAME = "public_suffix_list.dat"


def generate() -> dict[str, str]:
    """The generated file's content, by file name."""
    try:
        source = resources.files("publicsuffixlist").joinpath(FILENAME).read_bytes()
        package_version = metadata.version("publicsuffixlist")
    except (ImportError, FileNotFoundError, metadata.PackageNotFoundError) as exc:
        raise SystemExit(f"{GENERATOR}: the publicsuffixlist package is needed ({exc})")
    text = source.decode("utf-8")
    version = re.search(r"^// VERSION: (\S+)$", text, re.MULTILINE)
    if version is None or "// ===BEGIN ICANN DOMAINS===" not in text or not text.endswith("\n"):
        raise SystemExit(f"{GENERATOR}: publicsuffixlist {package_version}'s {FILENAME} is not a list "
                         "as publicsuffix.org publishes it (no VERSION line or ICANN section)")
    header = [
        f"engine/data/{FILENAME}: the Public Suffix List (https://publicsuffix.org/list/), unchanged,",
        f"after these lines. Do not edit: made by {GENERATOR}, from the source below.",
        f"generated_by: {GENERATOR}",
        f"source: publicsuffixlist {package_version} (PyPI), publicsuffixlist/{FILENAME}",
        f"source_sha256: {hashlib.sha256(source).hexdigest()}",
        f"list_version: {version[1]}",
        "",
    ]
    return {FILENAME: "".join(f"// {line}".rstrip() + "\n" for line in header) + text}


if __name__ == "__main__":
    sys.exit(datagen.main(generate, GENERATOR, __doc__.split("\n\n")[0]))
