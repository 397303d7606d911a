"""Verdicts: each finding judged by the parser's own contract (issue 25).

A parser's contract (the spec it declares, its documentation, its documented deviations) is read
from :mod:`urlwb.oracles.contracts`; :mod:`.rfc3986` judges the RFC family by the RFC's own
grammar and algorithms, the engine judges the WHATWG family; :mod:`.judge` turns one finding into
the findings record's ``verdict`` (:func:`urlwb.findings.record.verdict`), with the known upstream
report of :mod:`.upstream` when there is one.
"""
