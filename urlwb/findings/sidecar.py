"""Corpus sidecars in the one shape: the common fields of ``finding-v1`` added to what each room
already writes.

A sidecar (``corpus/<target>/regress/<sha1>.json``, ``corpus/history/<parser>/<sha1>.json``)
keeps every field its room and its replay read (``target``, ``kind``, ``status``, ``class``,
``fetchers``...); :func:`shape` adds ``schema``, ``input``, ``base``, ``parser``, ``rule``,
``command`` and the ``verdict`` object (:func:`urlwb.findings.provisional.judge`), and moves an
old string ``verdict`` into ``verdict.reason``. It is idempotent: a sidecar already in the shape
keeps its verdict (a person's, or a judge's) and gets nothing new. ``scripts/migrate_findings.py``
runs it over the committed corpus; the writers (:func:`urlwb.corpus_store.record_finding`'s
``shape`` argument, ``urlwb.ssrf.regress``, ``urlwb.hunt.history``) call it on every new one.

What decides each field, by room (the sidecar's ``target``; a history entry has ``old``):

- ``differential`` (``urlwb hunt``'s judge, ``urlwb diff``): the parser and input it names; the
  rule is the signature's ``<class>/<cause>``; ``urlwb diff INPUT --parsers engine,PARSER``.
- history: the parser is the old release (``old``: ``NAME@VERSION``, the one that behaves so);
  status ``fixed``; ``upstream`` the changelog line's link, fixed in ``new_version``;
  ``urlwb bisect NAME INPUT``.
- ``ssrf``: parser and validator are the validator as asked, client the first fetcher (all in
  ``verdict.pairs``); ``urlwb ssrf --oracle V --parsers C`` (a hunt, not a one-input
  replay: ``tests/workbench/test_ssrf_regress.py`` replays the witness itself).
- ``growth``: rule ``superlinear`` or ``hang``; ``urlwb growth --parsers P --shapes SHAPE``.
- the engine's fuzz targets (and ``properties``): parser ``engine``, the rule from the failure
  kind (an exception is a crash, a timeout a hang); ``urlwb replay TARGET``.
"""

from __future__ import annotations

import re
import shlex

from urlwb.findings import provisional
from urlwb.findings.record import SCHEMA_ID, check

#: corpus_store failure kind -> rule, for the engine's own targets
KIND_RULES = {"exception": "crash", "timeout": "hang", "oom": "oom", "invariant": "invariant",
              "unreproducible": "unreproducible"}
#: the longest ``input`` a sidecar holds; a longer one is cut with an ellipsis (the regress file
#: next to it holds it whole)
INPUT_MAX = 2000

_REPEATED_VERSION = re.compile(r"^(ssrf:.+?)(@[^@:]+)\2:")


def dedupe_ssrf_signature(signature: str) -> str:
    """``ssrf:is-localhost-ip@1.4.0@1.4.0:…`` -> ``ssrf:is-localhost-ip@1.4.0:…`` (a validator
    asked as NAME@VERSION used to get its version twice)."""
    return _REPEATED_VERSION.sub(r"\1\2:", signature)


def _q(text: str) -> str:
    return shlex.quote(text)


def _cut(text: str) -> str:
    return text if len(text) <= INPUT_MAX else text[:INPUT_MAX] + "…"


def _input_of(meta: dict, data: bytes | None) -> str:
    if isinstance(meta.get("input"), str):
        return meta["input"]
    if data is None:
        return ""
    return _cut(data.decode("utf-8", "backslashreplace"))


def diff_command(input: str, parser: str, base: str | None = None, reference: str = "engine") -> str:
    """The ``urlwb diff`` line that shows one input read by ``reference`` and ``parser``."""
    parsers = parser if parser == reference else f"{reference},{parser}"
    return (f"urlwb diff {_q(input)}" + (f" --base {_q(base)}" if base else "")
            + f" --parsers {_q(parsers)}")


def in_project(command: str, folder) -> str:
    """``command`` as run from ``folder``, the user's project whose ``urlwb.toml`` declares the
    adapter it names (``cd FOLDER && ...``), so that it runs as printed from anywhere; unchanged
    when ``folder`` is None."""
    return command if folder is None else f"cd {_q(str(folder))} && {command}"


def _fields(meta: dict, data: bytes | None, family: str | None) -> dict:
    """The common fields of one sidecar (not yet the verdict), by room."""
    target = meta.get("target")
    text = _input_of(meta, data)
    base = meta.get("base")
    old_verdict = meta.get("verdict") if isinstance(meta.get("verdict"), str) else None
    reason = old_verdict or (meta.get("note") or None)
    out: dict = {"input": text, "base": base, "reason": reason,
                 "family": meta.get("family") or family}
    if target is None and "old" in meta:                     # corpus/history/<parser>/
        out.update(parser=meta["old"], rule=meta["signature"].split(":", 1)[0],
                   parser_version=meta.get("old_version"), status="fixed",
                   first_seen=meta.get("filed"),
                   command=f"urlwb bisect {_q(meta['parser'])} {_q(text)}",
                   upstream=provisional.upstream_fix(meta.get("confirmed_by")),
                   summary=f"{meta.get('class', '')}: {meta['old']} and {meta['new']} differ"
                           + (f" ({meta['cause']})" if meta.get("cause") else ""))
        return out
    detail = meta.get(meta.get("kind", ""), "")
    summary = detail if isinstance(detail, str) else ""
    if target == "differential":
        # the peer is in the signature too (<class>[/<cause>]:engine~<parser>): an entry filed
        # by triage from a replay carries no "parser" field of its own
        parser = meta.get("parser") or meta["signature"].rpartition("~")[2] or "unknown"
        out.update(parser=parser, rule=meta["signature"].split(":", 1)[0],
                   parser_version=meta.get("version"),
                   command=diff_command(text, parser, base))
    elif target == "ssrf":
        clients = sorted(meta.get("fetchers") or {})
        validator = meta["validator"]
        out.update(parser=validator, validator=validator, client=clients[0] if clients else None,
                   rule="ssrf", parser_version=meta.get("validator_version"), cause="ssrf-bypass",
                   pairs=[{"validator": validator, "client": c,
                           "reached": (meta["fetchers"][c] or {}).get("destination")} for c in clients],
                   command=f"urlwb ssrf --oracle {_q(validator)}"
                           + (f" --parsers {_q(','.join(clients))}" if clients else ""))
    elif target == "growth":
        out.update(parser=meta["parser"], rule=meta.get("class") or "superlinear",
                   parser_version=meta.get("version"),
                   command=f"urlwb growth --parsers {_q(meta['parser'])}"
                           + (f" --shapes {_q(meta['shape'])}" if meta.get("shape") else ""))
    else:                                                    # the engine's own targets
        out.update(parser="engine", family="whatwg", rule=KIND_RULES.get(meta.get("kind"), "invariant"),
                   command=f"urlwb replay {_q(target or '')}".rstrip())
    out["summary"] = summary[:500]
    return out


def shape(meta: dict, *, data: bytes | None = None, family: str | None = None) -> dict:
    """``meta`` with the common fields of ``finding-v1`` (a new dict; ``meta`` is not changed),
    checked against the schema. ``data``: the regress input, for a sidecar that does not hold
    its input as text; ``family``: the parser's family when the sidecar does not say."""
    out = dict(meta)
    if out.get("target") == "ssrf":
        out["signature"] = dedupe_ssrf_signature(out["signature"])
    if out.get("schema") == SCHEMA_ID and isinstance(out.get("verdict"), dict):
        return check(out)
    f = _fields(meta, data, family)
    reason, upstream, pairs = f.pop("reason"), f.pop("upstream", None), f.pop("pairs", None)
    fam, cause = f.pop("family"), f.pop("cause", None)
    judged = provisional.judge({"rule": f["rule"], "parser": f["parser"], "family": fam,
                                "cause": cause, "reason": reason, "upstream": upstream,
                                "pairs": pairs})
    out["schema"] = SCHEMA_ID
    if fam and "family" not in out:
        out["family"] = fam
    if "old" in meta and "parser_base" not in out:      # history: parser is the old release
        out["parser_base"] = meta["parser"]
        out["parser"] = f["parser"]
    for key, value in f.items():
        if key not in out or (out[key] is None and value is not None):
            out[key] = value
    out["verdict"] = judged
    return check(out)
