"""What ``urlwb reach`` measures of each parser, and by which tool; and, for the parsers it cannot
measure here, the one-line reason: read from the parser's card (its ``[oracle.reach]`` table,
``docs/oracle-protocol.md``), a user's ``[tool.urlwb.oracles.NAME.reach]`` as a shipped one's.

A parser's own code only: the parsing module or package (never the adapter, the JSON code, the
rest of an HTTP client). For the JVM, ``code`` holds JaCoCo ``includes`` patterns and ``jars``
the classfiles they are read from (relative to ``urlwb/oracles/java/``, globbed); for Node, the
scripts whose V8 coverage counts (a path inside ``node_modules/``, or a builtin module's
``node:`` URL); for Go, the import paths instrumented (``-coverpkg``).
"""

from __future__ import annotations

from dataclasses import dataclass

from urlwb import oracles

#: what a parser's card says when it says nothing of reach
NOT_WIRED = "no coverage tool for it is wired into urlwb reach"


@dataclass(frozen=True)
class Target:
    tool: str                     # "python", "go", "jvm", "node", "ruby"
    code: tuple[str, ...]         # modules / import paths / class patterns / scripts
    jars: tuple[str, ...] = ()
    note: str = ""


def target(name: str) -> Target | str:
    """What ``name``'s card says reach measures of it, or the one-line reason it does not."""
    entry = oracles.REGISTRY.get(name)
    reach = entry.card.reach if entry is not None and entry.card is not None else None
    if not reach:
        return NOT_WIRED
    if "unmeasured" in reach:
        return reach["unmeasured"]
    return Target(reach["tool"], tuple(reach["code"]), tuple(reach.get("jars", ())), reach.get("note", ""))
