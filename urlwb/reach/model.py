"""One parser's reach, whatever the tool: its functions, each with lines (or statements) and
branches (or blocks) executed of those it has, and where its missed branches are.

"Reachable" code is the code of the functions some input entered (a call graph is more than
this needs): a branch missed there is one an input could take; a function never entered is
listed apart, largest first.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Function:
    file: str                 # as the tool names it (relative to its package or module root)
    name: str
    line: int                 # where it starts
    lines_hit: int
    lines: int
    branches_hit: int | None  # None when the tool counts no branches (Go's blocks are the lines)
    branches: int | None
    #: lines of branches never taken (a branch point, or a block never run)
    missed: list[int] = field(default_factory=list)

    @property
    def entered(self) -> bool:
        return self.lines_hit > 0


@dataclass
class Reach:
    parser: str
    language: str
    version: str
    tool: str
    #: what the line figure counts: "lines", "statements", "instructions"...
    unit: str = "lines"
    #: what the branch figure counts: "branches" (None when only blocks are counted)
    branch_unit: str | None = "branches"
    files: list[str] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    inputs: int = 0
    seconds: float = 0.0
    #: anything a reader needs to weigh the figures (what was left out, and why)
    note: str = ""

    def _sum(self, fns, attr):
        vals = [getattr(f, attr) for f in fns]
        return None if any(v is None for v in vals) else sum(vals)

    def totals(self, entered_only: bool = False) -> dict:
        fns = [f for f in self.functions if f.entered or not entered_only]
        return {"functions": len(fns), "entered": sum(f.entered for f in fns),
                "lines_hit": sum(f.lines_hit for f in fns), "lines": sum(f.lines for f in fns),
                "branches_hit": self._sum(fns, "branches_hit"), "branches": self._sum(fns, "branches")}

    def never_entered(self) -> list[Function]:
        return sorted((f for f in self.functions if not f.entered), key=lambda f: (-f.lines, f.file, f.line))

    def missed_in_entered(self) -> list[Function]:
        """Entered functions with branches never taken, most missed first."""
        return sorted((f for f in self.functions if f.entered and f.missed),
                      key=lambda f: (-len(f.missed), f.file, f.line))


def percent(hit: int | None, total: int | None) -> str:
    if hit is None or total is None:
        return "—"
    return f"{100.0 * hit / total:.1f}%" if total else "—"
