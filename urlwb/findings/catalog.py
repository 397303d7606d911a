"""Every finding on disk, in the one shape, with the room that made it: what ``urlwb list`` shows.

The committed corpus holds them as sidecars: ``corpus/<target>/regress/<sha1>.json`` (the engine's
fuzz targets, ``differential`` (``urlwb diff``, and ``urlwb hunt`` where ``found_by`` says so),
``ssrf``, ``growth``) and ``corpus/history/<parser>/<sha1>.json`` (a release's change, ``urlwb
bisect`` / ``urlwb hunt --against``). A command's ``--out`` holds ``findings.jsonl`` (read with
:func:`urlwb.findings.record.read_findings`). Each sidecar goes through
:func:`urlwb.findings.sidecar.shape` (a no-op on one in the shape already), so an old one is
listed with a provisional verdict rather than left out.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib

from urlwb import corpus_store
from urlwb.errors import UsageError
from urlwb.findings import record, sidecar

ROOMS = ("fuzz", "differential", "hunt", "ssrf", "growth", "history", "bisect")


@dataclasses.dataclass(frozen=True)
class Listed:
    room: str
    record: dict
    #: the sidecar or findings.jsonl it came from
    source: str


def room_of(rec: dict, target: str | None = None) -> str:
    """The room a record came from: its corpus folder, else what its rule says."""
    if target == "history" or "old" in rec:
        return "history"
    if target in ("ssrf", "growth"):
        return target
    if target == "differential":
        return "hunt" if str(rec.get("found_by") or "").startswith("urlwb hunt") else "differential"
    if target is not None:
        return "fuzz"
    rule = rec.get("rule", "")
    head = rule.split("/", 1)[0]
    return {"ssrf": "ssrf", "superlinear": "growth", "hang": "growth", "bisect": "bisect",
            "differential": "differential", "unstable": "differential",
            "contract": "differential"}.get(head, "fuzz")   # contract/: differential.findings.spec_records


def corpus() -> list[Listed]:
    """Every regress sidecar and history entry of the corpus (``URLWB_CORPUS``), shaped."""
    out = []
    for e in corpus_store.iter_regress():
        if e.sidecar is None:
            continue
        rec = sidecar.shape(e.sidecar, data=corpus_store.read_input(e.path))
        out.append(Listed(room_of(rec, e.target), rec, str(corpus_store.sidecar_path(e.path))))
    history = corpus_store.corpus_root() / "history"
    for path in sorted(history.glob("*/*.json")) if history.is_dir() else []:
        try:
            meta = json.loads(path.read_text(encoding="utf-8"))
            rec = sidecar.shape(meta)
        except (OSError, ValueError, KeyError) as exc:
            raise UsageError(f"{path}: not a history entry ({type(exc).__name__}: {exc})") from None
        out.append(Listed("history", rec, str(path)))
    return out


def from_files(paths: list[pathlib.Path]) -> list[Listed]:
    """The records of each ``findings.jsonl`` (or a folder holding one); a file that is not in the
    shape is one line, exit 2."""
    out = []
    for p in paths:
        out += [Listed(room_of(r), r, str(p)) for r in record.read_given("--from", p)]
    return out


def matches(item: Listed, *, kind: str | None = None, parser: str | None = None,
            room: str | None = None, status: str | None = None) -> bool:
    """Whether ``item`` passes the filters: ``parser`` (a name, or a comma list of names) matches
    the parser as asked, its name without a version, the validator or a client."""
    r = item.record
    if kind and r["verdict"]["kind"] != kind:
        return False
    if room and item.room != room:
        return False
    if status and r.get("status", "open") != status:
        return False
    if parser:
        names = {r["parser"], r["parser"].partition("@")[0], r.get("validator"), r.get("client"),
                 r.get("parser_base")}
        names |= {p["client"] for p in r["verdict"].get("pairs") or []}
        if not names & set(parser.split(",")):
            return False
    return True


def group_key(item: Listed) -> str:
    """A hazard's group: its validator -> client pairs (ssrf), else its parser."""
    pairs = item.record["verdict"].get("pairs")
    if pairs:
        return ", ".join(sorted({f"{p['validator']} -> {p['client']}" for p in pairs}))
    return item.record["parser"]
