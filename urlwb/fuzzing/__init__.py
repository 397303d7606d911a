"""Fuzzing the engine: running the atheris targets of ``fuzzers/`` under libFuzzer and keeping
what they find.

Owns: ``urlwb fuzz`` (:mod:`.fuzz`, libFuzzer's progress as :mod:`.events`), ``triage``
(:mod:`.triage`: reproduce, minimize with :mod:`.minimize` and :mod:`.shrink`, sign with
:mod:`.signatures`, file into ``corpus/<target>/regress/``), ``merge`` (distil a working corpus),
``replay`` (every committed input through its target's check), ``list`` (:mod:`.listing`),
``bench-fuzz`` (:mod:`.bench`) and ``export-hypothesis``.

May import: the engine, ``properties``, and the workbench's shared plumbing at the top of
``urlwb`` (``cliutil``, ``errors``, ``children``, ``corpus_store``, ``fuzzdata``, ``htmlpage``).
Not :mod:`urlwb.differential` nor :mod:`urlwb.mutation` (an import-linter independence
contract, ``tests/workbench/test_layers.py``): the three jobs share only the plumbing.
"""
