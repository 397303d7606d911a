"""Findings leave the workbench as tests in the parser's own language: ``urlwb export tests``.

Owns: choosing the findings about one parser that a test can hold it to, and what each such test
asserts (:mod:`.cases`: the reading its contract asks, by the spec it declares); one module per
language that writes the suite in that language's own framework (:mod:`.golang`: a table test and
``testdata/fuzz/FuzzParse/`` files; :mod:`.java`: a JUnit 5 parameterized test with its
``pom.xml``; :mod:`.python`: a pytest file; :mod:`.js`: a ``node:test`` file); and running a
written suite against one release of the parser (:mod:`.runner`).

May import: the findings record, the verdicts (the RFC 3986 judge), the oracles (the engine's
reading, the contracts, the release builds) and the shared plumbing.
"""
