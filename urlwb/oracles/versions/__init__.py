"""Any shipped parser at any released version: ``PARSER@VERSION``.

Owns: which shipped oracles come from which package registry (:mod:`.catalog`), the registries'
lists of released versions (:mod:`.registries`), building a shipped adapter against another
version in a cache of its own outside the checkout (:mod:`.builds`), the protocol adapter that
runs an in-process Python peer at another version in its own venv (:mod:`.pyadapter`), and
registering ``PARSER@VERSION`` as an oracle beside the shipped one (:mod:`.names`).

May import: the rest of :mod:`urlwb.oracles` (the registry it adds to, the manifests it reads, the
supervisor that runs what it builds) and the shared plumbing. The commands that take parser names
(``urlwb diff``, the differential target's replay, ``urlwb bisect``) call
:func:`names.resolve_names`; it is a part of the oracles' layer so that every job can.
"""
