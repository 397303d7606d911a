"""The reference parser's numbered steps, for ``urlwb coverage``: which of the Standard's states
and steps the inputs reached.

https://url.spec.whatwg.org/#concept-basic-url-parser

``engine/reference/url_parser.py`` writes each step as a comment ("# path state, step 1.4: ...",
"# step 1.4.1: ...", and in ``basic_url_parse`` "# 1. ...") above the code that does it. A step is
*reached* when the line it governs runs: the statement after the comment, or, where that is an
``if``/``elif``, the first statement of its branch (a conditional step counts when its condition
held), or, above an ``else:``, the first statement of the ``else`` branch. A state is *entered*
when its function's body runs.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import pathlib
import re
import tokenize

from urlwb import corpus_store

REFERENCE = corpus_store.ROOT / "engine" / "reference" / "url_parser.py"
# A step number: after "step" ("step 1", "step 2.1"), a later dotted one in the same comment
# ("... 5.4.2: ..."), or, in basic_url_parse, one that opens a sentence ("# 1.2. If input ...").
_STATE_STEP = re.compile(r"[Ss]tep (\d+(?:\.\d+)*)|(?<=[\s(])(\d+\.\d+(?:\.\d+)*)(?=[:,])")
_PARSER_STEP = re.compile(r"(?:^|(?<=\s))(\d+(?:\.\d+)*)\.(?= [A-Z])")


@dataclasses.dataclass(frozen=True)
class Step:
    state: str     # "path state", or "basic URL parser" for the algorithm's own steps
    number: str    # "1.4.1"
    line: int      # the line that runs when the step is reached
    text: str      # the comment, first line


@dataclasses.dataclass(frozen=True)
class State:
    name: str
    line: int      # the first line of its body


def _comment_blocks(source: str) -> list[tuple[int, int, str]]:
    """(first line, last line, text) of each run of comment-only lines."""
    code_lines = source.splitlines()
    blocks: list[list] = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.COMMENT or code_lines[tok.start[0] - 1].strip()[:1] != "#":
            continue
        line, text = tok.start[0], tok.string.lstrip("#").strip()
        if blocks and blocks[-1][1] == line - 1:
            blocks[-1][1], blocks[-1][2] = line, blocks[-1][2] + " " + text
        else:
            blocks.append([line, line, text])
    return [tuple(b) for b in blocks]


def _governed_line(lines: list[str], statements: dict[int, ast.stmt], after: int) -> int | None:
    """The line that runs when the step commented above line ``after`` + 1 is reached."""
    k = after + 1
    while k <= len(lines) and (not lines[k - 1].strip() or lines[k - 1].strip().startswith("#")):
        k += 1
    text = lines[k - 1].strip() if k <= len(lines) else ""
    if text == "else:":
        return min((n for n in statements if n > k), default=None)
    node = statements.get(k)
    if isinstance(node, ast.If):
        return node.body[0].lineno
    return k if node is not None else None


def states_and_steps(path: pathlib.Path = REFERENCE) -> tuple[list[State], list[Step]]:
    """The state functions (``*_state``) and every numbered step in them and in
    ``basic_url_parse``, in source order."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    statements = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            statements.setdefault(node.lineno, node)
    functions = [f for f in tree.body if isinstance(f, ast.FunctionDef)
                 and (f.name.endswith("_state") or f.name == "basic_url_parse")]
    states, steps = [], []
    blocks = _comment_blocks(source)
    for f in functions:
        name = "basic URL parser" if f.name == "basic_url_parse" else f.name.replace("_", " ")
        body = f.body[1:] if isinstance(f.body[0], ast.Expr) else f.body  # (the docstring)
        if name != "basic URL parser":
            states.append(State(name, body[0].lineno))
        pattern = _PARSER_STEP if name == "basic URL parser" else _STATE_STEP
        for first, last, text in blocks:
            if not f.lineno < first <= f.end_lineno:
                continue
            numbers = [a or b for a, b in pattern.findall(text)] if pattern is _STATE_STEP else pattern.findall(text)
            line = _governed_line(lines, statements, last)
            for number in dict.fromkeys(numbers):
                if line is not None:
                    steps.append(Step(name, number, line, lines[first - 1].strip()))
    return states, steps


def reached(data_file: pathlib.Path, path: pathlib.Path = REFERENCE) -> tuple[list[State], list[Step], set[int]]:
    """The states and steps, and the lines of the reference that ran, per a coverage data file."""
    import coverage

    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    executed = set(data.lines(str(path.resolve())) or ())
    states, steps = states_and_steps(path)
    return states, steps, executed


def report(data_file: pathlib.Path, path: pathlib.Path = REFERENCE) -> str:
    """Per state: steps reached out of steps; then the states never entered and the steps never
    reached, each as "<state>, step <number>" (as the reference's comments say them)."""
    states, steps, executed = reached(data_file, path)
    by_state: dict[str, list[Step]] = {}
    for step in steps:
        by_state.setdefault(step.state, []).append(step)
    out = [f"{'state':40} {'steps':>5} {'reached':>7}"]
    for name in ["basic URL parser"] + [s.name for s in states]:
        mine = by_state.get(name, [])
        out.append(f"{name:40} {len(mine):>5} {sum(s.line in executed for s in mine):>7}")
    total = len(steps)
    hit = sum(s.line in executed for s in steps)
    out.append(f"{'total':40} {total:>5} {hit:>7}")
    never = [s.name for s in states if s.line not in executed]
    out.append("")
    out.append(f"states never entered ({len(never)}): {', '.join(never) or 'none'}")
    missed = [s for s in steps if s.line not in executed]
    out.append(f"steps never reached ({len(missed)}):")
    out += [f"  {s.state}, step {s.number} (line {s.line}): {s.text[:90]}" for s in missed]
    return "\n".join(out)
