"""Findings: the one record shape every command writes and every corpus sidecar holds.

A finding is a claim about someone's software, so each one carries a verdict judged by that
software's own contract (its declared spec or documentation): ``bug`` when it breaks that contract,
``hazard`` when it keeps it and still reads an input otherwise than another parser. The shape is a
versioned JSON Schema, ``schema/finding-v1.json`` (:mod:`urlwb.findings.record`); every command's
``--out`` folder holds ``findings.jsonl`` in it; the SARIF and JUnit reports are rendered from it.
"""
