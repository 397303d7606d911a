"""The fuzzing job's name for the workbench's one shrinker, :mod:`urlwb.shrinking`.

The shrinker is shared plumbing (it imports nothing of the workbench): the fuzzing job's
minimizer, the hunt's history and judge, the SSRF hunt and the differential's release
differential (``urlwb.differential.releases``) all delete chunks through it, and the jobs fuzzing
and differential do not import each other.
"""

from urlwb.shrinking import first_index, shrink  # noqa: F401  (the names the fuzzing job's callers use)
