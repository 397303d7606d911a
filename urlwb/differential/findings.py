"""The differential's findings in the one shape (``finding-v1``): each parser's disagreement with
the reference, judged by that parser's own contract (:func:`urlwb.verdicts.judge.judge`).

https://url.spec.whatwg.org/#url-parsing for the WHATWG family; RFC 3986 / 3987 / 2396 or the
parser's own documentation for the others (``urlwb/oracles/contracts.toml``).

One record per signature (the class and cause of the disagreement, the reference and the
parser, as :func:`urlwb.fuzzing.signatures.of_differential` writes it for the engine), kept on
the shortest input that shows it. A disagreement the contract judge finds nothing in (an RFC
parser that reads a valid reference as the RFC says, when the comparison was lenient) is no
finding; one that is the engine's own deviation (``classify.known_deviation``'s "the engine's")
is no finding about the parser. Where the reference itself crashed or hung, the finding is the
reference's. ``urlwb diff`` writes these into ``--out``'s ``findings.jsonl``; ``urlwb hunt``
and the campaign's differential round reuse them.
"""

from __future__ import annotations

from urlwb import oracles
from urlwb.differential import classify
from urlwb.differential.run import DiffResult, Finding
from urlwb.findings import record
from urlwb.findings.sidecar import INPUT_MAX, diff_command, in_project
from urlwb.oracles import contracts
from urlwb.differential import facts
from urlwb.verdicts.judge import REFERENCE_CLAUSES, RFC_NAMES, judge


def signature(cls: str, cause: str | None, reference: str, parser: str) -> str:
    """``CLASS[/CAUSE]:REFERENCE~PARSER`` (the differential target's signature when the reference
    is the engine); ``unstable:PARSER`` for an answer that changes on re-parse."""
    if cls == "unstable":
        return f"unstable:{parser}"
    return f"{cls}:{reference}~{parser}" if cause is None else f"{cls}/{cause}:{reference}~{parser}"


def reading(r) -> str:
    """One record as a person reads it."""
    if r is None:
        return "not applicable"
    if r.crash:
        return ("hung: " if r.hung else "crash: ") + r.crash
    if r.failure:
        return "failure"
    return r.href if r.href is not None else f"host {r.host!r}, path {r.path!r}"


def _cut(text: str) -> str:
    return text if len(text) <= INPUT_MAX else text[:INPUT_MAX] + "…"


def _shortest(res: DiffResult) -> dict[str, Finding]:
    keep: dict[str, Finding] = {}
    for f in res.findings:
        if f.a != f.b and f.a != res.reference:
            continue
        sig = signature(f.cls, f.cause, f.a, f.b)
        old = keep.get(sig)
        text = res.items[f.index][0]
        if old is None or (len(text), text) < (len(res.items[old.index][0]), res.items[old.index][0]):
            keep[sig] = f
    return keep


def records(res: DiffResult) -> list[dict]:
    """The findings of ``res``, each judged by its parser's contract and checked against the
    schema; bugs and hazards alike (the writer orders them)."""
    if res.reference is None:
        return []
    ref = res.reference
    standard = "engine" if "engine" in res.records else ref
    out = []
    for sig, f in sorted(_shortest(res).items()):
        text, base, source = res.items[f.index]
        name = f.b
        mine = res.records[name][f.index]
        std = res.records[standard][f.index]
        if f.known and f.known.startswith("the engine's"):
            continue
        if std is not None and std.crash and f.cls != "unstable":
            what = "oracle-hung" if std.hung else "oracle-crashed"
            name, mine, std, sig = standard, std, None, f"{what}:{standard}:{std.crash.split(':')[0][:80]}"
            kind = "hang" if what == "oracle-hung" else "crash"
        else:
            kind = record.rule(f.cls, f.cause)   # the kind of finding: its class and cause, as the signature
        family = "whatwg" if name == "engine" else oracles.family(name)
        again = res.reparsed.get(name, [])[f.index] if f.cls == "unstable" and name in res.reparsed else None
        if std is None:   # the reference's own crash (no engine reading beside it), or no engine in the run
            verdict = judge(name, text, base, mine, None, cause=f.cause or f.cls, reparse_record=again,
                            contract=contracts.describe(name).contract, family=family, known=f.known)
        else:
            verdict = facts.verdict(facts.Reading(name, text, base, mine, std, reparse=again,
                                                  version=res.versions.get(name)))
        if verdict is None:
            continue
        cause = verdict["cause"]
        out.append(record.make_finding(
            input=_cut(text), base=base, parser=name, signature=sig,
            rule=kind,
            verdict=verdict, parser_version=res.versions.get(name), command=in_project(diff_command(text, name, base, ref), oracles.project_of(name)),
            summary=f"{classify.TITLES.get(f.cls, f.cls)}: {name} reads {reading(mine)[:200]}; "
                    f"{standard} reads {reading(std)[:200]}",
            family=family, language=oracles.REGISTRY[name].language if name in oracles.REGISTRY else None,
            observed=reading(mine)[:2000], expected=reading(std)[:2000] if std is not None else None,
            reference=standard, source=source, known=f.known,
            **({"input_length": len(text)} if len(text) > INPUT_MAX else {})))
    return out + spec_records(res, {(f.b, f.index) for f in res.findings})


def spec_records(res: DiffResult, found: set[tuple[str, int]]) -> list[dict]:
    """The readings no disagreement holds but the one judge still calls a finding: a parser that
    declares an RFC and reads a valid reference otherwise than the RFC, where the engine reads it
    as the parser does (``https://0x7f.1``: the URL Standard's 127.0.0.1, RFC 3986's reg-name).
    ``urlwb verdict`` judges every reading; so does the differential (issue 34: one input and one
    parser, one verdict, whichever command asked). One record per parser and component, on the
    shortest input."""
    standard = "engine" if "engine" in res.records else res.reference
    keep: dict[str, tuple[int, str, dict]] = {}
    for name in res.parsers:
        if name == standard or contracts.describe(name).contract.spec not in RFC_NAMES:
            continue
        for idx, mine in enumerate(res.records[name]):
            if (name, idx) in found or mine is None or mine.crash:
                continue
            text, base, _ = res.items[idx]
            v = facts.verdict(facts.Reading(name, text, base, mine, res.records[standard][idx],
                                            version=res.versions.get(name)))
            if v is None:
                continue
            sig = f"contract/{v['cause']}:{v['kind']}~{name}"
            old = keep.get(sig)
            if old is None or (len(text), text) < (len(res.items[old[0]][0]), res.items[old[0]][0]):
                keep[sig] = (idx, name, v)
    out = []
    for sig, (idx, name, v) in sorted(keep.items()):
        text, base, source = res.items[idx]
        mine, std = res.records[name][idx], res.records[standard][idx]
        out.append(record.make_finding(
            input=_cut(text), base=base, parser=name, signature=sig, rule=record.rule("contract", v["cause"]),
            verdict=v, parser_version=res.versions.get(name), command=diff_command(text, name, base, res.reference),
            summary=f"{name} reads {reading(mine)[:200]} as {standard} does; its declared spec reads it otherwise",
            family=oracles.family(name), language=oracles.REGISTRY[name].language if name in oracles.REGISTRY else None,
            observed=reading(mine)[:2000], expected=reading(std)[:2000] if std is not None else None,
            reference=standard, source=source,
            **({"input_length": len(text)} if len(text) > INPUT_MAX else {})))
    return out


#: what a host oracle is asked (urlwb.differential.run.host_round) -> what the engine answers it with
_HOST_QUESTIONS = {
    "to-ascii": "https://url.spec.whatwg.org/#concept-domain-to-ascii",
    "ip": "https://url.spec.whatwg.org/#concept-host-parser",
    "public-suffix": "https://url.spec.whatwg.org/#host-public-suffix",
    "registrable-domain": "https://url.spec.whatwg.org/#host-registrable-domain",
}


def host_records(res: DiffResult) -> list[dict]:
    """The host round's disagreements (:func:`urlwb.differential.run.host_round`): a host oracle
    (``idna``, ``ipaddress``, the Public Suffix List libraries, Go's, Guava's and Rust's) whose
    answer about a host the reference read differs from the engine's. One record per oracle,
    question and class, on the shortest host. Judged by the oracle's own contract
    (``contracts.toml`` ``[hosts.*]``, each of which declares its own rules): an exception its
    API does not document is a bug; a different answer a hazard, as its rules are not the
    Standard's (IDNA2008 where the Standard maps by UTS #46, a list of another date)."""
    if res.reference is None:
        return []
    keep: dict[str, dict] = {}
    for h in res.host_findings:
        sig = f"host-{h['cls']}/{h['question']}:engine~{h['oracle']}"
        old = keep.get(sig)
        if old is None or (len(h["text"]), h["text"]) < (len(old["text"]), old["text"]):
            keep[sig] = h
    out = []
    for sig, h in sorted(keep.items()):
        name, question = h["oracle"], h["question"]
        c = contracts.describe(name).contract
        crashed = h["cls"] == "oracle-crashed"
        clause = ("any contract: no exception its API does not document" if crashed
                  else f"{name}'s own contract: {c.says}"[:500])
        verdict = record.verdict("bug" if crashed else "hazard", "own", clause, h["cls"],
                                 documented=c.docs,
                                 reason=f"{name} answers {question}({h['text']!r}) with {h['oracle_answer']!r}; "
                                        f"the engine ({_HOST_QUESTIONS.get(question, question)}) with {h['engine']!r}")
        url, base, source = res.items[h["index"]]
        out.append(record.make_finding(
            input=_cut(h["text"]), base=None, parser=name, signature=sig, rule=record.rule("host-" + h["cls"], question),
            verdict=verdict, parser_version=res.versions.get(name),
            summary=f"{question}: {name} answers {str(h['oracle_answer'])[:200]}; the engine {str(h['engine'])[:200]}",
            family="other", observed=str(h["oracle_answer"])[:2000], expected=str(h["engine"])[:2000],
            reference="engine", source=source, question=question, url=_cut(url)))
    return out


#: characters no URI or IRI holds (RFC 3986 Appendix A, RFC 3987 §2.2, RFC 2396 §2.4.3: controls,
#: space and DEL are excluded everywhere), each by the name a report gives it
NO_URI_CHARACTERS = {"\t": "tab", "\n": "newline", "\r": "carriage return", " ": "space",
                     "\x00": "NUL", "\x7f": "DEL"}


def no_uri_character(text: str) -> str | None:
    """The name of the first character of ``text`` no URI holds (another C0 control: its code)."""
    for c in text:
        if c in NO_URI_CHARACTERS:
            return NO_URI_CHARACTERS[c]
        if c < " ":
            return f"U+{ord(c):04X}"
    return None


def accepts_no_uri(name: str, text: str, base: str | None, r) -> tuple[str, dict] | None:
    """(the character, the verdict) when ``name`` is a validator that declares an RFC (``role =
    "validator"``, ``spec = "rfc3986"``: it says it accepts URIs) and accepts ``text`` (no base),
    which holds a character no URI holds: it breaks its contract, a bug, whatever the Standard
    reads (which strips or removes tabs and newlines: Django's CVE-2021-32052). None otherwise."""
    c = contracts.describe(name).contract
    if c.role != "validator" or c.spec not in RFC_NAMES or r is None or not r.ok or base is not None:
        return None
    what = no_uri_character(text)
    if what is None:
        return None
    rfc = RFC_NAMES[c.spec]
    return what, record.verdict(
        "bug", c.spec, f"{REFERENCE_CLAUSES[c.spec]} (Appendix A: no {what} in any URI)",
        "accepts-no-uri", documented=c.docs,
        reason=f"{name} is a validator declaring {rfc}; it accepts {text!r}, which holds a {what}: "
               f"no URI reference of {rfc} does")


def validator_records(res: DiffResult) -> list[dict]:
    """Every validator's :func:`accepts_no_uri` findings: one record per validator and character,
    on the shortest input."""
    out = []
    for name in res.parsers:
        keep: dict[str, tuple[int, dict]] = {}
        for idx, r in enumerate(res.records[name]):
            text, base, _ = res.items[idx]
            found = accepts_no_uri(name, text, base, r)
            if found is not None and (found[0] not in keep or len(text) < len(res.items[keep[found[0]][0]][0])):
                keep[found[0]] = (idx, found[1])
        for what, (idx, verdict) in sorted(keep.items()):
            text, base, source = res.items[idx]
            out.append(record.make_finding(
                input=_cut(text), base=None, parser=name, rule=record.rule("accepts-no-uri", what),
                signature=f"accepts-no-uri/{record.rule(what)}:{name}", verdict=verdict,
                parser_version=res.versions.get(name),
                command=in_project(diff_command(text, name), oracles.project_of(name)),
                summary=f"{name} (a validator, {verdict['spec']['name']}) accepts an input holding a {what}",
                family=oracles.family(name), observed=reading(res.records[name][idx])[:2000],
                expected="failure", source=source))
    return out


def write_findings(res: DiffResult, out):
    """``out/findings.jsonl`` of ``res`` (the URL parsers' findings and the host round's); its path."""
    return record.write_findings(out, res.changes + validator_records(res) + records(res) + host_records(res))


def tally(path) -> str:
    """``N bugs, M hazards`` of a findings.jsonl."""
    kinds = [r["verdict"]["kind"] for r in record.read_findings(path)]
    return f"{kinds.count('bug')} bugs, {kinds.count('hazard')} hazards"
