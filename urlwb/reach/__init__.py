"""A parser's own reach: how much of a foreign parser's code a set of inputs executes, measured by
its language's own coverage tool (coverage.py, ``go build -cover``, JaCoCo, V8's block coverage,
Ruby's ``Coverage``).

Owns ``urlwb reach`` (:mod:`urlwb.reach.command`): the inputs (:mod:`~urlwb.reach.inputs`), what
is measured of each parser (:mod:`~urlwb.reach.targets`), one module per tool
(:mod:`~urlwb.reach.python` with its subprocess :mod:`~urlwb.reach.pyrun`,
:mod:`~urlwb.reach.golang`, :mod:`~urlwb.reach.jvm`, :mod:`~urlwb.reach.node`,
:mod:`~urlwb.reach.ruby` with ``ruby_coverage.rb``), the common
result (:mod:`~urlwb.reach.model`), running an adapter under a tool
(:mod:`~urlwb.reach.adapter`) and the report (:mod:`~urlwb.reach.report`).

May import: ``urlwb.differential.generate``, ``urlwb.differential.run`` (the corpus format), ``urlwb.corpus_store``
(atomic writes, the committed corpora), ``urlwb.oracles`` (the registry, manifests, the
supervisor), ``urlwb.htmlpage``, ``urlwb.cliutil``, ``urlwb.errors``. Nothing of the workbench
imports it but ``urlwb.cli``. The parsers it measures run in other processes, never in the
caller's.
"""
