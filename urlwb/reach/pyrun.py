"""``python -m urlwb.reach.pyrun REQUEST.json``: one in-process oracle's parse of every input,
under coverage.py (branch coverage, ``include`` = the parser's own files only), in a process of
its own so that the caller's (and its own coverage measurement, under ``make test``) is left
alone. Writes coverage.py's JSON report and ``{"version": ...}`` where the request says.

The request: ``{"oracle": NAME, "flags": [--oracle values], "include": [paths], "inputs": PATH
(a JSON list of [input, base]), "out": PATH, "meta": PATH}``.
"""

from __future__ import annotations

import json
import sys

import coverage


def main(path: str) -> int:
    req = json.loads(open(path, encoding="utf-8").read())
    items = [tuple(x) for x in json.loads(open(req["inputs"], encoding="utf-8").read())]
    cov = coverage.Coverage(branch=True, include=req["include"], data_file=None, config_file=False)
    cov.start()
    from urlwb import oracles
    oracles.configure(req["flags"], config=False)
    started, skipped = oracles.load([req["oracle"]])
    if req["oracle"] not in started:
        cov.stop()
        print(skipped.get(req["oracle"], "could not start"), file=sys.stderr)
        return 3
    oracle = started[req["oracle"]]
    for input, base in items:
        oracle.parse(input, base)
    cov.stop()
    cov.json_report(outfile=req["out"])
    with open(req["meta"], "w", encoding="utf-8") as f:
        json.dump({"version": oracle.version}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
