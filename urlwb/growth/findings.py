"""The growth survey's findings in the one shape (``finding-v1``): a parser that takes
super-linear time, or gives no answer, on long inputs of one shape.

Both break any parser's contract (issue 25: "a hang, super-linear time"), so each is a ``bug``
under the parser's declared spec, judged by :func:`urlwb.verdicts.judge.judge` through
:func:`urlwb.growth.filing.verdict_of`, which the filed sidecar gets too (``superlinear``
for a time that grows faster than the input, a hang record for no answer within the deadline).
One record per parser and class (:func:`urlwb.growth.filing.signature`), on its minimized shape
and count; ``input`` is the shape at eight repetitions and an ellipsis, ``input_shape`` says how
to make the measured one.
"""

from __future__ import annotations

import shlex

from urlwb import oracles
from urlwb.findings import record
from urlwb.growth import filing


def records(res) -> list[dict]:
    """One record per (parser, class) of ``res`` (a :class:`urlwb.growth.survey.GrowthResult`)."""
    out = []
    for row, f in res.findings:
        p = f.minimized
        text = p.shape.make(min(p.count, 8)) + ("…" if p.count > 8 else "")
        hung = p.verdict == "hang"
        family = oracles.family(row.name) if row.name in oracles.REGISTRY else None
        verdict = filing.verdict_of(row.name, p, text)
        out.append(record.make_finding(
            input=text, base=None, parser=row.name, rule=record.rule("hang" if hung else "superlinear"),
            signature=f"growth:{filing.signature(row.name, p)}", verdict=verdict, parser_version=row.version,
            summary=filing.describe(row.name, p),
            command=f"urlwb growth --parsers {shlex.quote(row.name)} --shapes {shlex.quote(p.shape.name)}",
            family=family, language=row.language, filed=f.path,
            input_shape={"shape": p.shape.name, "prefix": p.shape.prefix, "piece": p.shape.piece,
                         "suffix": p.shape.suffix, "count": p.count * p.scale},
            ratio=p.ratio, engine_ratio=p.engine_ratio,
            **_regex(p.shape, f.lengths)))
    return out


def _regex(shape, lengths: list) -> dict:
    """A regex's shape (urlwb.growth.regexes): the regex, its source line, the checker's attack
    and the times at four lengths."""
    if shape.regex is None:
        return {}
    where, source, flags, checker, complexity = shape.regex
    return {"regex": {"where": where, "source": source, "flags": flags, "checker": checker,
                      "complexity": complexity}, "lengths": lengths}
