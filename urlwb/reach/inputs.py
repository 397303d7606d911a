"""The inputs ``urlwb reach`` puts to a parser: WPT's, generated ones, and corpus folders (each
file one input in the differential corpus's format: :func:`urlwb.differential.run.decode_case`;
sidecars and hidden files skipped). Duplicates are dropped, first kept; lone surrogates become
U+FFFD, as the differential gives every oracle (:func:`urlwb.oracles.to_usv`)."""

from __future__ import annotations

import pathlib

from urlwb import corpus_store, oracles
from urlwb.differential import generate
from urlwb.differential.run import decode_case
from urlwb.errors import UsageError

#: the committed corpora of the differential target, as the README's table measures them
COMMITTED = ("seed", "distilled", "regress")


def corpus_folder(folder: pathlib.Path) -> list[tuple[str, str | None]]:
    folder = pathlib.Path(folder)
    if not folder.is_dir():
        raise UsageError(f"--corpus {folder}: not a folder")
    cases = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.suffix == ".json" or not path.is_file():
            continue
        data = corpus_store.read_input(path)
        if data is not None:
            cases.append(decode_case(data))
    return cases


def committed() -> list[pathlib.Path]:
    """``corpus/differential/{seed,distilled,regress}`` that exist."""
    root = corpus_store.corpus_root() / "differential"
    return [root / name for name in COMMITTED if (root / name).is_dir()]


def collect(wpt: bool, n: int, seed: int, folders: list[pathlib.Path]) -> list[tuple[str, str | None]]:
    if n < 0:
        raise UsageError("--generate must be 0 or more")
    items: list[tuple[str, str | None]] = []
    for folder in folders:
        items += corpus_folder(folder)
    if wpt:
        items += generate.wpt_cases()
    if n:
        items += list(generate.generate(n, seed=seed))
    # Every oracle gets the same scalar-value strings, as in the differential (urlwb.differential.run).
    items = [(oracles.to_usv(i), None if b is None else oracles.to_usv(b)) for i, b in items]
    seen, out = set(), []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out
