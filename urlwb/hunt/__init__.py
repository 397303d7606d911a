"""``urlwb hunt``: coverage-guided fuzzing inside a parser under test, judged by the Standard.

Owns: the catalogue of huntable parsers (:mod:`.targets`), the seeds every hunt starts from (the
grammar generator's inputs and WPT's, :mod:`.seeds`), one runner per guided fuzzer
(:mod:`.runners`: atheris for Python parsers through the child :mod:`.atheris_target`, Go's
native fuzzer on the module in ``go/``, Jazzer on the harness in ``jvm/``), the judge that sends
what a fuzzer keeps to the differential in batches and files new disagreements (:mod:`.judge`),
the distilled corpora ``corpus/hunt/<parser>/`` (:mod:`.distill`), reach measured in the
parser's own code (:mod:`.reach`), the report (:mod:`.report`) and the subcommand
(:mod:`.command`).

May import: ``engine`` and the workbench's shared modules: ``urlwb.differential.run``,
``urlwb.differential.classify``, ``urlwb.fuzzing.signatures``, ``urlwb.fuzzing.shrink``, ``urlwb.corpus_store``,
``urlwb.differential.generate``, ``urlwb.fuzzdata``, ``urlwb.oracles``, ``urlwb.children``, ``urlwb.htmlpage``,
``urlwb.cliutil``, and two helpers of other commands: ``urlwb.fuzzing.fuzz.parse_status`` (libFuzzer's
status lines) and ``urlwb.fuzzing.minimize.fuzzer_env`` (the environment a libFuzzer child needs). Only
``urlwb.cli`` imports this package (by name, when ``urlwb hunt`` runs); the differential reads
the distilled corpora as files (``urlwb.differential.run.hunt_cases``), not through this package.

A hunt corpus file is the UTF-8 text of one input, with no base (the same bytes for atheris, Go
and Jazzer: each harness parses exactly the text the judge sends to the differential).
"""
