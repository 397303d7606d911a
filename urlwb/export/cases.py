"""Which findings about a parser become tests, and what each test asserts.

A finding (a corpus sidecar, ``corpus/*/regress/*.json`` or ``corpus/history/PARSER/*.json``, or
a record of a ``findings.jsonl``; :mod:`urlwb.findings.record`) is about PARSER when its
``parser`` is PARSER or ``PARSER@VERSION`` (a finding in an old release is a regression test for
the new one). It becomes a :class:`Case` only when an expected answer can be stated from the
parser's contract (``urlwb/oracles/contracts.toml``) and the finding is one its contract, or its
maintainers, call wrong:

- its verdict is a bug (``urlwb/verdicts/``), or its ``upstream`` says the maintainers fixed it
  (``state = "fixed"``: the fixing release is theirs, not our reading);
- what is asserted, by the finding's rule and the parser's declared spec:

  - a crash (``oracle-crashed/*``, ``crash``): the call returns, with a value or with the
    failure its API documents (``no-exception``): "an exception its API does not document";
  - a super-linear time or a hang (``superlinear``, ``hang``): the input, at the length the
    finding measured, is answered within :data:`TIME_BUDGET` seconds, and (below) read as the
    spec says;
  - otherwise the spec's reading of the input: for ``rfc3986``/``rfc3987``/``rfc2396``, an input
    that is no URI reference of the RFC's Appendix A grammar is rejected (``reject``; the judge's
    grammar, :func:`urlwb.verdicts.rfc3986.check`), a valid one has Appendix B's components
    (``components``), unless the maintainers fixed it by reading it as Appendix B splits it (the
  fixing release of a ``corpus/history`` entry accepted it: then those components); for ``whatwg-url``, and for a parser of its ``own`` rules whose
    maintainers fixed the finding, the URL Standard's reading (the engine's): failure, or the
    components. Only the components where the finding parts (its cause: host, port, path...)
    are asserted, so that a test fails for the finding's reason and no other.

Everything else is skipped with its reason (a hazard: a reading its contract allows; a growth
finding whose input cannot be rebuilt); the command prints them.
"""

from __future__ import annotations

import dataclasses
import json
import math
import pathlib
import re

from urlwb import corpus_store
from urlwb.cliutil import load_json
from urlwb.errors import UsageError
from urlwb.findings import record as findings_record

#: seconds a super-linear finding's input must be answered in (the fixed release answers it in
#: well under a millisecond; the finding's release took seconds: docs/export-tests.md)
TIME_BUDGET = 1.0
#: a growth test's input is long enough for the release with the bug to take this many budgets
#: by the finding's own figures (growth_input)
PREDICTED_FACTOR = 10
MAX_REPETITIONS = 200_000
#: the components a test can assert, in the order the suites list them
COMPONENTS = ("scheme", "username", "password", "host", "port", "path", "query", "fragment")
#: a finding's cause (a differential class, an RFC component) -> the components it asserts
CAUSE_COMPONENTS = {
    "scheme": ("scheme",), "userinfo": ("username", "password", "host"), "host": ("host",),
    "port": ("host", "port"), "ipv4": ("host",), "ipv6": ("host",), "idna": ("host",),
    "path": ("path",), "slash": ("path",), "slashes": ("host", "path"), "backslash": ("host", "path"),
    "query": ("query",), "fragment": ("fragment",), "query-fragment": ("query", "fragment"),
    "pct-delimiter": ("host", "path"), "whitespace": ("host", "path"), "authority": ("username", "password", "host", "port"),
}
RFCS = ("rfc3986", "rfc3987", "rfc2396")
_SLOW_RULES = ("superlinear", "hang")


@dataclasses.dataclass(frozen=True)
class Case:
    """One test: ``input`` (against ``base``) must get the answer ``expect`` says.

    ``expect``: ``reject`` (the parser's documented failure), ``no-exception`` (a value or the
    documented failure, nothing else), or ``components`` (``components`` holds the expected
    value of each asserted component, None where the component is absent). ``within``: seconds
    the answer must come in, for a growth finding. ``clause`` is what the contract says, quoted
    in the suite's header."""

    name: str
    input: str
    base: str | None
    expect: str
    clause: str
    finding: str
    release: str
    components: tuple[tuple[str, str | int | None], ...] = ()
    within: float | None = None
    #: the release its maintainers fixed it in (the upstream record's ``fixed_in``, else the
    #: release a history entry found it fixed in); None for a bug not known fixed
    fixed_in: str | None = None

    @property
    def expected(self) -> dict:
        return dict(self.components)


@dataclasses.dataclass(frozen=True)
class Skipped:
    finding: str
    reason: str


def base_name(parser: str) -> str:
    return parser.partition("@")[0]


def corpus_findings(parser: str, root: pathlib.Path | None = None) -> list[tuple[str, dict]]:
    """(where, record) of every corpus sidecar about ``parser`` (or one of its releases), the
    input read whole from the regress file beside it when the sidecar's is cut."""
    root = root or corpus_store.corpus_root()
    out = []
    for path in sorted(root.glob("*/regress/*.json")) + sorted(root.glob(f"history/{parser}/*.json")):
        try:
            meta = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(meta, dict) or base_name(str(meta.get("parser", ""))) != parser:
            continue
        if not isinstance(meta.get("verdict"), dict) or meta.get("target") == "ssrf":
            continue   # not in the one shape yet; an SSRF finding is a validator's, tested by urlwb ssrf
        meta = _whole_input(path, meta)
        out.append((str(path.relative_to(root.parent)) if root.parent in path.parents else str(path), meta))
    return out


def _whole_input(path: pathlib.Path, meta: dict) -> dict:
    """``meta`` with its input read whole from the regress file beside the sidecar ``path``
    when the sidecar's is cut (or absent)."""
    data = path.with_suffix("")
    text = meta.get("input")
    if (not isinstance(text, str) or text.endswith("…")) and data.is_file():
        return {**meta, "input": data.read_bytes().decode("utf-8", "surrogateescape")}
    return meta


def file_findings(parser: str, paths: list[pathlib.Path]) -> list[tuple[str, dict]]:
    """(where, record) of the records about ``parser`` in ``findings.jsonl`` files (or the
    folders holding one), or in one corpus sidecar (a ``.json`` file: one record)."""
    out = []
    for p in paths:
        if p.suffix == ".json":
            try:
                rec = findings_record.check(load_json(p, "--findings"))
            except findings_record.FindingError as exc:
                raise UsageError(f"--findings {p}: {exc}") from None
            if base_name(rec["parser"]) == parser:
                out.append((str(p), _whole_input(p, rec)))
            continue
        for n, rec in enumerate(findings_record.read_given("--findings", p), 1):
            if base_name(rec["parser"]) == parser:
                out.append((f"{p}:{n}", rec))
    return out


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:40] or "case"


def growth_input(meta: dict) -> str | None:
    """The input a growth finding's test asks: prefix + piece × n + suffix, n the repetitions at
    which the finding's own measurement predicts :data:`PREDICTED_FACTOR` × :data:`TIME_BUDGET`
    for the release with the bug (its time at ``count`` × ``scale`` repetitions, read from the
    sidecar's ``timeout`` line, and its growth exponent, log ``ratio`` / log ``scale``), so that a
    machine several times faster than the one that filed it still takes longer than the budget;
    without those figures, the longest length it measured. None when the sidecar has no piece."""
    piece, count = meta.get("piece"), meta.get("count")
    if not isinstance(piece, str) or not isinstance(count, int):
        return None
    scale = int(meta.get("scale") or 1)
    found = (meta.get("found_at") or {}).get("count")
    n = max(count, found if isinstance(found, int) else 0) * scale
    times = re.findall(r"([\d.]+) ms", str(meta.get("timeout") or ""))
    ratio = meta.get("ratio")
    if len(times) >= 2 and isinstance(ratio, (int, float)) and ratio > 1 and scale > 1:
        exponent = math.log(ratio) / math.log(scale)
        at, seconds = count * scale, float(times[1]) / 1000
        if exponent > 1.2 and seconds > 0:
            wanted = at * (PREDICTED_FACTOR * TIME_BUDGET / seconds) ** (1 / exponent)
            n = min(max(n, math.ceil(wanted / 1000) * 1000), MAX_REPETITIONS)
    return (meta.get("prefix") or "") + piece * n + (meta.get("suffix") or "")


class Judge:
    """The expected answers: the engine (the URL Standard) and the RFC judge, loaded once."""

    def __init__(self):
        self._engine = None

    def engine(self, text: str, base: str | None):
        if self._engine is None:
            from urlwb import oracles
            loaded, skipped = oracles.load(["engine"])
            if "engine" not in loaded:
                raise RuntimeError(f"the engine did not start: {skipped}")
            self._engine = loaded["engine"]
        return self._engine.parse(text, base)


def _engine_components(rec, names: tuple[str, ...]) -> tuple[tuple[str, object], ...]:
    return tuple((n, getattr(rec, n)) for n in names)


def _rfc_components(text: str, names: tuple[str, ...]) -> tuple[tuple[str, object], ...]:
    from urlwb.verdicts import rfc3986
    c = rfc3986.components(text)
    user, _, password = (c.userinfo or "").partition(":") if c.userinfo is not None else (None, "", None)
    port = int(c.port) if c.port else None
    host = c.host
    values = {"scheme": c.scheme, "username": user, "password": password if c.userinfo and ":" in c.userinfo else None,
              "host": host, "port": port, "path": c.path, "query": c.query, "fragment": c.fragment}
    return tuple((n, values[n]) for n in names)


def _fixed_release_reads(meta: dict) -> bool:
    """True when a history entry's fixing release (``new``) accepted the input (it has components)."""
    records = meta.get("records") or {}
    return isinstance(records.get(meta.get("new")), dict)


def _fixed_release_rejects(meta: dict) -> bool:
    """True when a history entry's fixing release (``new``) rejected the input: the maintainers'
    fix is the rejection (httpcore5's HTTPCORE-756: an http URI with an empty host, RFC 9110)."""
    records = meta.get("records") or {}
    return bool(meta.get("new")) and meta["new"] in records and records[meta["new"]] is None


def case_of(parser: str, where: str, meta: dict, judge: Judge) -> Case | Skipped:
    """The test one finding becomes, or why it becomes none (module docstring)."""
    from urlwb.oracles import contracts
    from urlwb.verdicts import rfc3986

    verdict = meta["verdict"]
    upstream = verdict.get("upstream") or {}
    fixed = upstream.get("state") == "fixed"
    if verdict.get("kind") != "bug" and not fixed:
        return Skipped(where, f"a {verdict.get('kind')}: {verdict['spec'].get('clause')} (its contract does not "
                              "call it wrong, and no upstream fix says so)")
    spec = contracts.describe(parser).contract.spec   # a user's card declares its own (spec)
    rule = str(meta.get("rule") or "")
    text, base = meta["input"], meta.get("base")
    release = meta["parser"]
    name = f"{_slug(rule)}_{corpus_store.sha1(text.encode('utf-8', 'surrogatepass'))[:8]}"
    why_fixed = (f"; fixed upstream: {upstream['url']}" + (f" (in {upstream['fixed_in']})" if upstream.get("fixed_in") else "")
                 if fixed else "")
    fixed_in = (upstream.get("fixed_in") or meta.get("new_version")) if fixed else None
    common = dict(base=base, finding=where, release=release, fixed_in=str(fixed_in) if fixed_in else None)
    within = None
    if rule in _SLOW_RULES:
        text = growth_input(meta) or ""
        if not text:
            return Skipped(where, "a growth finding whose input cannot be rebuilt (no piece and count)")
        within = TIME_BUDGET
        name = f"{_slug(rule)}_{corpus_store.sha1(text.encode('utf-8', 'surrogatepass'))[:8]}"
    elif rule.startswith("oracle-crashed") or rule == "crash":
        return Case(name, text, expect="no-exception", clause=f"{verdict['spec']['clause']}{why_fixed}", **common)
    timing = (f"an answer within {TIME_BUDGET:g} s at {len(text):,} code points ({verdict['spec']['clause']})"
              if within else "")
    cause = str(verdict.get("cause") or "")
    names = CAUSE_COMPONENTS.get(cause) or CAUSE_COMPONENTS.get(rule.rpartition("/")[2]) or ("host", "path")
    if fixed and _fixed_release_rejects(meta):
        # the maintainers' fix is to reject it, by their own rules over the RFC's grammar (which
        # may admit it): the test holds the fix, whatever the grammar alone says
        clause = f"{base_name(parser)}'s maintainers' fix: the fixing release ({meta.get('new_version') or meta['new']}) rejects it"
        return Case(name, text, expect="reject", clause="; ".join(x for x in (timing, clause) if x)
                    + why_fixed, within=within, **common)
    if spec in RFCS:
        from urlwb.verdicts.judge import REFERENCE_CLAUSES, _rfc_clause
        checked, judged = rfc3986.check(text, spec), text
        short = growth_input({**meta, "found_at": None, "scale": 1, "timeout": None}) if within else None
        if checked.valid is None and short:
            # the same shape, the piece repeated fewer times: the grammar decides it the same way
            # (a repetition of one piece between a fixed prefix and suffix), within its length limit
            checked, judged = rfc3986.check(short, spec), short
        if checked.valid is None:
            return Skipped(where, f"too long for the {spec} grammar check ({len(text):,} code points)")
        fixed_reads = _fixed_release_reads(meta)
        if checked.valid is False and fixed and fixed_reads:
            # no URI reference, so the RFC's grammar leaves the reading open; Appendix B's regular
            # expression still splits every string, and the maintainers' fix reads it so
            clause = (f"{REFERENCE_CLAUSES[spec]}: {judged[:40]!r} is no URI reference ({checked.where(judged)}); "
                      f"its {', '.join(dict.fromkeys(names))} as {spec.upper().replace('RFC', 'RFC ')} Appendix B "
                      f"splits it, as the fixing release ({meta.get('new')}) reads it")
            return Case(name, text, expect="components", clause="; ".join(x for x in (timing, clause) if x) + why_fixed,
                        components=_rfc_components(text, names), within=within, **common)
        if checked.valid is False:
            shape = (f" (the grammar run on the same shape at {len(judged):,} code points, "
                     f"{meta.get('piece')!r} × {meta.get('count')})" if judged is not text else "")
            clause = (f"{REFERENCE_CLAUSES[spec]}: {judged[:40]!r}{'...' if len(judged) > 40 else ''} is no URI "
                      f"reference ({checked.where(judged)}){shape}, so it is rejected")
            return Case(name, text, expect="reject", clause="; ".join(x for x in (timing, clause) if x) + why_fixed,
                        within=within, **common)
        clause = "; ".join(x for x in (timing, ", ".join(_rfc_clause(spec, "userinfo" if n in ("username", "password") else n)
                                                           for n in dict.fromkeys(names)) + " (Appendix B)") if x)
        return Case(name, text, expect="components", clause=clause + why_fixed,
                    components=_rfc_components(text, names), within=within, **common)
    if spec == "whatwg-url" or fixed:
        rec = judge.engine(text, base)
        said = ("the URL Standard" if spec == "whatwg-url" else
                f"{base_name(parser)}'s maintainers' fix (its own rules), whose reading is the URL Standard's")
        if rec.failure:
            clause = f"{said}: the basic URL parser returns failure"
            return Case(name, text, expect="reject", clause="; ".join(x for x in (timing, clause) if x) + why_fixed,
                        within=within, **common)
        clause = f"{said}: the basic URL parser's {', '.join(names)}"
        return Case(name, text, expect="components", clause="; ".join(x for x in (timing, clause) if x) + why_fixed,
                    components=_engine_components(rec, names), within=within, **common)
    if within:
        return Case(name, text, expect="no-exception", clause=timing, within=within, **common)
    return Skipped(where, f"{parser} declares its own rules ({spec}): no expected reading to assert")


def cases_for(parser: str, findings: list[tuple[str, dict]]) -> tuple[list[Case], list[Skipped]]:
    """The cases of ``findings`` (deduplicated by input and base, in a stable order) and the
    findings skipped, each with its reason."""
    judge = Judge()
    cases: dict[tuple, Case] = {}
    skipped: list[Skipped] = []
    for where, meta in findings:
        got = case_of(parser, where, meta, judge)
        if isinstance(got, Skipped):
            skipped.append(got)
        else:
            cases.setdefault((got.input, got.base), got)
    return sorted(cases.values(), key=lambda c: c.name), skipped
