"""The differential: one input before many URL parsers, and which side the Standard supports.

Owns: ``urlwb diff`` (:mod:`.command`, also the campaign's differential round), the run over the
oracles (:mod:`.run`: records, findings, minimization of a disagreement, host questions), the
verdict (:mod:`.classify`: confusion classes, causes, known deviations), the report
(:mod:`.report`), the release differential (:mod:`.releases`: what changed between two
releases of one package, grown and shrunk around the first disagreements), the grammar generator of inputs (:mod:`.generate`, the WPT cases too),
``export-wpt`` and ``urlwb oracle`` (:mod:`.oracle_check`). The parsers themselves live beside
it, in :mod:`urlwb.oracles`.

May import: the engine, :mod:`urlwb.oracles` and the shared plumbing at the top of ``urlwb``.
Not :mod:`urlwb.fuzzing` nor :mod:`urlwb.mutation` (independence contract).
"""
