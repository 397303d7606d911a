"""Properties of the WHATWG URL Standard: invariants, strategies, state machines.

https://url.spec.whatwg.org/

``invariants`` holds the checks shared by the Hypothesis tests here and the fuzz targets in
``fuzzers/``; ``strategies`` the spec-aware input generators; ``machines`` the stateful models.
"""
