"""The findings record: build, check and write findings in the one shape (``finding-v1``).

:func:`make_finding` builds a record from the fields every finding has; :func:`check` holds a
record to the JSON Schema in ``schema/finding-v1.json`` (raising :class:`FindingError` with the
first violation); :func:`write_findings` writes ``findings.jsonl`` into a command's ``--out``
folder atomically (a temporary file, then ``os.replace``), one finding a line, deduplicated by
signature, in a stable order.
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
import re
from collections.abc import Iterable

from urlwb import corpus_store
from urlwb.errors import UsageError

SCHEMA_ID = "urlwb-finding/1"
SCHEMA_PATH = pathlib.Path(__file__).with_name("schema") / "finding-v1.json"
FINDINGS_FILE = "findings.jsonl"
KINDS = ("bug", "hazard")
SPECS = ("whatwg-url", "rfc3986", "rfc3987", "rfc2396", "own")


class FindingError(ValueError):
    """A record that does not fit the schema: a bug in the command that built it."""


@functools.lru_cache(maxsize=1)
def _validator():
    import jsonschema  # imported on first use: `urlwb --help` needs none of it

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def check(record: dict) -> dict:
    """The record itself when it fits ``finding-v1``; :class:`FindingError` naming the first
    violation (its JSON path and message) otherwise."""
    errors = sorted(_validator().iter_errors(record), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path) or "(record)"
        raise FindingError(f"finding does not fit {SCHEMA_ID} at {where}: {first.message}")
    return record


def verdict(kind: str, spec: str, clause: str, cause: str, *, documented: str | None = None,
            upstream: dict | None = None, reason: str | None = None,
            pairs: list[dict] | None = None) -> dict:
    """A verdict object: ``kind`` bug or hazard, judged against ``spec`` at ``clause``."""
    out: dict = {"kind": kind, "spec": {"name": spec, "clause": clause}, "documented": documented,
                 "upstream": upstream, "cause": cause}
    if reason:
        out["reason"] = reason
    if pairs is not None:
        out["pairs"] = pairs
    return out


_RULE_PART = re.compile(r"[^a-z0-9-]+")


def rule(head: str, cause: str | None = None) -> str:
    """A ``rule`` in the schema's pattern: ``HEAD`` or ``HEAD/CAUSE``, lower-case, any other
    character run as ``-`` (a cause such as ``domain-to-ASCII`` or ``path-encoding``)."""
    def part(text: str) -> str:
        return _RULE_PART.sub("-", text.lower()).strip("-") or "other"
    return part(head) if not cause or cause == head else f"{part(head)}/{part(cause)}"


def make_finding(*, input: str, parser: str, rule: str, signature: str, verdict: dict,
                 base: str | None = None, **extra) -> dict:
    """A finding in the one shape; ``extra`` holds the optional common fields (``summary``,
    ``command``, ``validator``, ``client``, ``parser_version``, ``status``, ``first_seen``) and any
    room-specific detail. Checked against the schema before it is returned."""
    record = {"schema": SCHEMA_ID, "input": input, "base": base, "parser": parser, "rule": rule,
              "signature": signature, "verdict": verdict}
    record.update(extra)
    return check(record)


def write_findings(out_dir: str | os.PathLike, records: Iterable[dict]) -> pathlib.Path:
    """``OUT/findings.jsonl``: every record checked, one a line, the first of each signature
    kept, bugs before hazards, then by signature; written atomically. Returns its path."""
    folder = pathlib.Path(out_dir)
    seen: dict[str, dict] = {}
    for record in records:
        check(record)
        seen.setdefault(record["signature"], record)
    ordered = sorted(seen.values(), key=lambda r: (KINDS.index(r["verdict"]["kind"]), r["signature"]))
    text = "".join(_line(r) for r in ordered)
    path = folder / FINDINGS_FILE
    corpus_store.atomic_write(path, text.encode("utf-8"))   # a write that cannot happen: one line
    return path


def _line(r: dict) -> str:
    """One record, one line of UTF-8 JSON; a lone surrogate (an input the fuzzers made, no UTF-8
    can hold it) is written as its \\u escape, which JSON keeps and reads back."""
    line = json.dumps(r, ensure_ascii=False, sort_keys=True)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(r, ensure_ascii=True, sort_keys=True)
    return line + "\n"


def read_given(flag: str, path: str | os.PathLike) -> list[dict]:
    """:func:`read_findings` of a file the user named with ``flag``: what is wrong with it (not
    there, not UTF-8, not JSON, not records) is one line naming the flag and the file."""
    try:
        return read_findings(path)
    except OSError as exc:
        raise UsageError(f"{flag} {path}: {exc.strerror or exc}") from None
    except FindingError as exc:
        raise UsageError(f"{flag} {exc}") from None


def read_findings(path: str | os.PathLike) -> list[dict]:
    """The records of a ``findings.jsonl`` (or of the folder that holds one), each checked."""
    p = pathlib.Path(path)
    if p.is_dir():
        p = p / FINDINGS_FILE
    out = []
    try:
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FindingError(f"{p}: not UTF-8 text (byte {exc.start})") from None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(check(json.loads(line)))
        except (json.JSONDecodeError, FindingError) as exc:
            raise FindingError(f"{p}:{number}: {exc}") from None
        except RecursionError:
            raise FindingError(f"{p}:{number}: JSON nested too deep") from None
    return out
