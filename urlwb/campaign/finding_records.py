"""A campaign's findings as ``finding-v1`` records (:mod:`urlwb.findings.record`), the shape SARIF
and JUnit are rendered from (:mod:`urlwb.report_formats`).

Every **open** regress entry (``corpus/*/regress/``), not only those this round filed: a SARIF
upload is the state of the analysis, and GitHub code scanning closes an alert that a later upload
of the same category no longer carries; the round's new ones are among them (``new`` True). Each is
its sidecar in the one shape (:func:`urlwb.findings.sidecar.shape`, idempotent on a shaped one),
``filed`` naming the entry. A sidecar that does not fit the schema is named in one line and left out.
"""

from __future__ import annotations

import pathlib
import sys

from urlwb import corpus_store
from urlwb.findings import sidecar
from urlwb.findings.record import FindingError


def finding_records(entries, new_paths: set[pathlib.Path]) -> list[dict]:
    out = []
    for e in entries:
        try:
            rec = sidecar.shape(e.sidecar, data=e.path.read_bytes())
        except (FindingError, KeyError, OSError) as exc:
            print(f"urlwb campaign: {e.path}: left out of --sarif/--junit ({exc})", file=sys.stderr)
            continue
        rec["filed"] = (str(e.path.relative_to(corpus_store.ROOT)) if e.path.is_relative_to(corpus_store.ROOT)
                        else str(e.path))
        rec["new"] = e.path in new_paths
        out.append(rec)
    return out
