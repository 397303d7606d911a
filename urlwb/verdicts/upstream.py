"""Known upstream reports and fixes: the curated table ``upstream.toml`` beside this module.

Each row names a parser, what it matches (an exact input, a cause, or ``any``) and the upstream
URL, state (``open``, ``fixed``, ``closed``, ``wontfix``, ``documented``), the release that fixed
it when known, and where it was read (the findings record's ``verdict.upstream``: url, state,
fixed_in, source).
"""

from __future__ import annotations

import functools
import pathlib
import tomllib

DATA = pathlib.Path(__file__).with_name("upstream.toml")
STATES = ("open", "fixed", "closed", "wontfix", "documented")


class UpstreamError(ValueError):
    """A row of upstream.toml that does not say what it must; one line."""


@functools.lru_cache(maxsize=1)
def rows() -> tuple[dict, ...]:
    data = tomllib.loads(DATA.read_text(encoding="utf-8"))
    out = []
    for n, row in enumerate(data.get("row", []), 1):
        for key in ("parser", "match", "url", "state", "source"):
            if not isinstance(row.get(key), str) or not row[key]:
                raise UpstreamError(f"{DATA.name} row {n}: {key} missing")
        if row["state"] not in STATES:
            raise UpstreamError(f"{DATA.name} row {n}: state must be one of {', '.join(STATES)}")
        if row["match"] == "input" and "input" not in row:
            raise UpstreamError(f"{DATA.name} row {n}: match = \"input\" without an input")
        out.append(row)
    return tuple(out)


def find(parser: str, input: str, cause: str | None) -> dict | None:
    """The verdict's ``upstream`` for ``parser`` (``NAME@VERSION`` reads NAME's rows) on
    ``input`` parting at ``cause``: an exact input first, then the cause, then ``any``; None when
    no row matches."""
    base = parser.partition("@")[0]
    mine = [r for r in rows() if r["parser"] == base]
    for test in (lambda r: r["match"] == "input" and r["input"] == input,
                 lambda r: cause is not None and r["match"] == cause,
                 lambda r: r["match"] == "any"):
        for r in mine:
            if test(r):
                out = {"url": r["url"], "state": r["state"], "source": r["source"]}
                out["fixed_in"] = r.get("fixed_in")
                return out
    return None
