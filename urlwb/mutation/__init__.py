"""Mutation testing of the engine: how many planted engine bugs the checks notice.

Owns: ``urlwb mutants`` (:mod:`.mutants`: cosmic-ray's mutants, a seeded sample, workers in
private copies of the engine, the session), the kill suite (:mod:`.killsuite`: the checks in
the order they kill fastest) and the report (:mod:`.report`), with the reviewed lists in
``corpus/mutants/``.

May import: the engine, ``properties``, the shared plumbing at the top of ``urlwb`` and
:mod:`urlwb.measure.conformance` (the WPT suites the kill suite runs). Not
:mod:`urlwb.fuzzing` nor :mod:`urlwb.differential` (independence contract).
"""
