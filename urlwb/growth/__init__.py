"""Time on long inputs: every parser's parse time at two lengths of one repeated piece, against
the engine's on the same inputs (catastrophic backtracking and quadratic loops: a denial of
service on a URL field).

Owns ``urlwb growth`` (:mod:`urlwb.growth.command`, and ``growth_round`` for the campaign), the
shapes (:mod:`~urlwb.growth.shapes`), the timers (:mod:`~urlwb.growth.timing`), the verdict and
its minimization (:mod:`~urlwb.growth.measure`), the findings in ``corpus/growth/regress/``
(:mod:`~urlwb.growth.filing`) and the report (:mod:`~urlwb.growth.report`).

May import: ``engine``, ``urlwb.differential.generate`` (where the pieces come from), ``urlwb.oracles`` (the
parsers), ``urlwb.corpus_store`` (atomic writes, regress entries), ``urlwb.differential.run``
(the corpus input format), ``urlwb.htmlpage``, ``urlwb.cliutil``, ``urlwb.errors``. Nothing of the
workbench imports it but ``urlwb.cli`` (and the campaign, through ``growth_round``).
"""
