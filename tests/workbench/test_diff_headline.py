"""The differential report heads each confusion cell with the shortest input on which two
parsers read different hosts, not the shortest that merely differs (issue 27, part 4).

The planted parser (``planted_userinfo.py``) is wrong twice in the userinfo: it accepts
``sc://@/`` (7 code points; the Standard rejects it, and there is no host to confuse) and ends
the userinfo at the first '@' (``http://u@@h/``: the host ``@h`` where the Standard reads ``h``).
"""

from __future__ import annotations

import re

import pytest

from urlwb import oracles
from urlwb.differential import report, run

ITEMS = [("sc://@/", None, "file"), ("http://a@b@c/", None, "file"), ("http://u@@h/", None, "file"),
         ("http://x/", None, "file")]


@pytest.fixture
def result():
    names = oracles.configure(["planted-ui=py:planted_userinfo:parse"], config=False)
    try:
        yield run.diff(ITEMS, ["engine", *names])
    finally:
        for n in names:
            oracles.REGISTRY.pop(n, None)


def test_the_headline_is_the_shortest_host_confusion(result):
    md = report.markdown(result)
    row = next(line for line in md.splitlines() if line.startswith("| **planted-ui** | Python | "))
    assert re.search(r"3: \[`http://u@@h/`\]\(#witness-\d+\) \(hosts differ\)", row), row
    # the witnesses per class: the host confusions first, then the rest, shortest first
    rows = [line for line in md.split("## Shortest witnesses per (class, parser)")[1].splitlines()
            if line.startswith("| engine / planted-ui")]
    assert [r.split(" | ")[1] for r in rows] == ["`http://u@@h/`", "`http://a@b@c/`", "`sc://@/`"], rows


def test_without_a_host_confusion_the_shortest_difference_heads_the_cell(result):
    idxs = [0]   # sc://@/ only
    assert report._headline(result, idxs, "engine", "planted-ui") == 0
    assert report._headline(result, [0, 1, 2], "engine", "planted-ui") == 2
