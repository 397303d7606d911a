"""``urlwb bisect``: which released versions of a parser give which answer on one input, with
the Standard's beside them (:mod:`.bisect`).

May import: :mod:`urlwb.oracles` (and its :mod:`~urlwb.oracles.versions`, which builds each
release), :mod:`urlwb.differential.classify` (the verdicts) and the shared plumbing.
"""
