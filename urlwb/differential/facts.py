"""The one judge every command calls: the same facts give the same verdict on every path.

Issue 34: ``urlwb verdict``, ``urlwb diff`` (one input and ``--file``), ``urlwb ssrf``
(``--inputs`` and the hunt), the campaign, ``urlwb hunt`` and ``scripts/judge_corpus.py`` each
passed :func:`urlwb.verdicts.judge.judge` facts of their own choosing (a cause from the
differential, from a filed record, or none; a validator's own reading of the host or not), so one
input and one parser got a bug from one command and a hazard, or nothing, from another. Here the
caller gives only what it measured, a :class:`Reading` (the parser's record, the engine's, the
parser's reading of its own serialization, whether time grew super-linearly) or, for a validator,
an :class:`Allowing`; everything else is derived in one place:

- the step where the readings part: :func:`urlwb.differential.classify.classify` of the engine's
  record against the parser's (``cause or class``), as the differential files it;
- the known deviation (:func:`urlwb.differential.classify.known_deviation`); one that is the
  engine's own (its older Unicode data) is no verdict on the parser;
- the contract (:func:`urlwb.oracles.contracts.describe`);
- the owner's own tests (:mod:`urlwb.verdicts.owner_tests`): a reading the parser's owner asserts
  in its test suite at that release is its contract, a hazard at most, citing file:line.
"""

from __future__ import annotations

import dataclasses

from urlwb import oracles
from urlwb.differential import classify
from urlwb.oracles import Record, contracts
from urlwb.verdicts import judge, owner_tests


@dataclasses.dataclass(frozen=True)
class Reading:
    """What was measured of one parser on one input."""
    parser: str
    input: str
    base: str | None
    record: Record | None
    engine: Record | None
    #: the parser's reading of its own serialization (None: not asked)
    reparse: Record | None = None
    #: the caller measured super-linear time on inputs of this shape
    superlinear: bool = False
    #: the parser's release, as its oracle reports it
    version: str | None = None


def family(parser: str) -> str | None:
    if parser == "engine":
        return "whatwg"
    name = parser if parser in oracles.REGISTRY else parser.partition("@")[0]
    return oracles.REGISTRY[name].family if name in oracles.REGISTRY else None


def cause(r: Reading) -> tuple[str | None, str | None]:
    """(the step where the parser's record parts from the engine's, the known deviation): the
    differential's class and cause (``cause or cls``), None when the two agree."""
    if r.record is None or r.engine is None:
        return None, None
    lenient = family(r.parser) != "whatwg"
    found = classify.classify(r.input, r.engine, r.record, lenient)
    known = classify.known_deviation(r.parser, r.engine, r.record, r.input, r.base)
    return ((found.cause or found.cls) if found else None), known


def verdict(r: Reading) -> dict | None:
    """The verdict on ``r`` (:func:`urlwb.verdicts.judge.judge`'s shape), or None when there is
    nothing to judge (the readings agree and the spec gives this reading) or the difference is
    the engine's own deviation."""
    step, known = cause(r)
    if known and known.startswith("the engine's"):
        return None
    c = contracts.describe(r.parser).contract
    v = judge.judge(r.parser, r.input, r.base, r.record, r.engine, cause=step, reparse_record=r.reparse,
                    superlinear=r.superlinear, contract=c, family=family(r.parser), known=known)
    if v is None or v["kind"] != "bug" or r.record is None or v["cause"] in ("hang", "superlinear", "unstable"):
        return v
    return owner_tests.held_to(r.parser, r.version, r.input, r.base, r.record, v)


@dataclasses.dataclass(frozen=True)
class Allowing:
    """A validator that allowed an input, and what is known of where it bites."""
    validator: str
    input: str
    #: the host as the validator's own parser (its contract's ``reads``) reads it
    own_host: str | None
    #: the validator -> client pairs, each with what the client reached (observed or modelled)
    pairs: tuple[dict, ...] = ()
    #: the validator's release (its owner's assertions are per release)
    version: str | None = None


def validator_verdict(a: Allowing) -> dict | None:
    """The verdict on validator ``a.validator`` allowing ``a.input``
    (:func:`urlwb.verdicts.judge.judge_validator`), the same from every command: the validator's
    own reading of the host is always passed (without it a misclassified address it read itself
    was called a hazard, with a reason that says a client reads the host otherwise)."""
    c = contracts.contract(a.validator, "validator", role="validator")
    version = a.version or (a.validator.partition("@")[2] or None)
    addr = judge.address_of(a.own_host)
    c = _with_code_evidence(c, a.validator, version, judge.address_class(addr) if addr is not None else None)
    v = judge.judge_validator(a.validator, a.input, True, pairs=[dict(p) for p in a.pairs],
                              own_host=a.own_host, contract=c)
    return owner_tests.held_validator(a.validator, version, a.own_host, v)


def _with_code_evidence(c: contracts.Contract, validator: str, version: str | None,
                        cls: str | None) -> contracts.Contract:
    """``c`` with address class ``cls`` among those it rejects, citing the line, when its owner's
    code and tests classify that class at ``version`` (owner_tests/validators.toml ``covers``): a
    README that names fewer classes than the code checks is not the whole contract (ip and
    private-ip check 169.254/16, so the IPv4-mapped hex flaw is one bug for 10.x and 169.254.x)."""
    rows = [r for r in owner_tests.covered(validator, version)
            if c.rejects is not None and r["covers"] == cls and cls not in c.rejects["categories"]]
    if not rows:
        return c
    rejects = {"categories": [*c.rejects["categories"], *(r["covers"] for r in rows)],
               "url": owner_tests.cite_row(rows[0]),
               "says": f"{c.rejects['says']}; its code and tests at {rows[0]['tag']} ({rows[0]['at']}): {rows[0]['says']}"}
    return dataclasses.replace(c, rejects=rejects)


def own_host(asker, validator: str, input: str) -> str | None:
    """The host of ``input`` as ``validator``'s own parser (its contract's ``reads``) reads it,
    from an :class:`urlwb.ssrf.hunt.Asker` that modelled that parser; None when it did not."""
    reads = contracts.contract(validator, "validator", role="validator").reads
    dest = asker.dests.get(reads, {}).get(input) if reads else None
    return dest.host if dest is not None else None
