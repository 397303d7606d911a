"""Measurements of the engine: coverage, speed, conformance and answers across revisions.

Owns: ``urlwb coverage`` (:mod:`.coverage`, the engine's branch coverage by WPT, properties and
corpora; :mod:`.reference_steps`, which of the reference parser's numbered steps they reach),
``urlwb bench`` (:mod:`.bench`: ratios against peers measured in the same run),
``urlwb compare-rev`` (:mod:`.compare_rev`) and the conformance table (:mod:`.conformance`).

May import: the engine, ``properties``, the shared plumbing, :mod:`urlwb.fuzzing.replay` (coverage
replays the corpora through the targets) and :mod:`urlwb.differential.generate` (compare-rev's
inputs). Nothing imports it but the campaign, the mutation kill suite (conformance) and scripts.
"""
