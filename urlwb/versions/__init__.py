"""Any shipped parser at any released version: ``PARSER@VERSION`` and ``urlwb bisect``.

Owns: which shipped oracles come from which package registry (:mod:`.catalog`), the registries'
lists of released versions (:mod:`.registries`), building a shipped adapter against another
version in a cache of its own outside the checkout (:mod:`.builds`), the protocol adapter that
runs an in-process Python peer at another version in its own venv (:mod:`.pyadapter`),
and registering ``PARSER@VERSION`` as an oracle beside the shipped one (:mod:`.names`). The
``urlwb bisect`` command, which compares each version's answer with the Standard's through the
differential's classes, is :mod:`urlwb.differential.bisect`, one layer up.

May import: :mod:`urlwb.oracles` (the registry it adds to, the manifests it reads, the
supervisor that runs what it builds), :mod:`urlwb.errors`, :mod:`urlwb.cliutil`,
:mod:`urlwb.corpus_store` (atomic writes) and :mod:`urlwb.htmlpage`. Nothing under
:mod:`urlwb.oracles` imports it (the oracles stay one layer below); the commands that take parser
names (``urlwb diff``, the differential target's replay) call :func:`names.resolve_names`. It imports no job
(fuzzing, differential, mutation, measure, campaign): the differential imports it.
"""
