"""``urlwb hunt``: coverage-guided fuzzing inside a parser under test, judged by the Standard.

Owns: the catalogue of huntable parsers (:mod:`.targets`), the seeds every hunt starts from (the
grammar generator's inputs and WPT's, :mod:`.seeds`), one runner per guided fuzzer (atheris for
Python parsers, :mod:`.python_runner` and the child :mod:`.atheris_target`; Go's native fuzzer,
:mod:`.go_runner` and the module in ``go/``; Jazzer for JVM parsers, :mod:`.jvm_runner` and
``jvm/``), the judge that sends what a fuzzer keeps to the differential in batches and files
new disagreements (:mod:`.judge`), the distilled corpora ``corpus/hunt/<parser>/``
(:mod:`.distill`), reach measured in the parser's own code (:mod:`.reach`), the report
(:mod:`.report`) and the subcommand (:mod:`.command`).

May import: ``engine``, ``urlwb`` modules that sit below the commands (``urlwb.differential``,
``urlwb.classify``, ``urlwb.signatures``, ``urlwb.shrink``, ``urlwb.corpus_store``,
``urlwb.generate``, ``urlwb.oracles``, ``urlwb.children``, ``urlwb.fuzz``'s status-line parser,
``urlwb.htmlpage``). Nothing outside this package imports it but ``urlwb.cli`` and
``urlwb.differential`` (which reads the distilled corpora as inputs).

A hunt corpus file is the UTF-8 text of one input, with no base (the same bytes for atheris, Go
and Jazzer: each harness parses exactly the text the judge sends to the differential).
"""
