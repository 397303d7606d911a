"""The README and docs/: every `urlwb` command a page shows still parses (issue 30), and the
engine page's conformance table is the output of scripts/conformance.py, not typed by hand.

A command is a line of a fenced code block that starts with ``urlwb `` (or ``.venv/bin/urlwb ``),
joined with the lines its trailing backslashes continue, its ``# comment`` cut; in a block that
shows a prompt (``$ urlwb ...``), only the prompted lines (the others are output). Usage synopses
(``[--minutes M]``, ``TARGET|all``) are not commands and are left out; so is a line with ``...``.
Each is parsed by the real ``urlwb`` parser of its subcommand (nothing runs)."""

from __future__ import annotations

import contextlib
import io
import pathlib
import re
import shlex
import sys

import pytest

from urlwb import cli

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import conformance  # noqa: E402

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
_SYNOPSIS = re.compile(r"\[-|\w\|\w|\.\.\.|…|<[A-Z]")


def commands(text: str) -> list[str]:
    found = []
    for block in _FENCE.findall(text):
        lines = block.splitlines()
        prompted = any(line.startswith("$ ") for line in lines)   # then the rest is output
        i = 0
        while i < len(lines):
            line = lines[i].strip()
            while line.endswith("\\") and i + 1 < len(lines):
                i += 1
                line = line[:-1] + " " + lines[i].strip()
            i += 1
            if prompted and not line.startswith("$ "):
                continue
            line = re.sub(r"^(\$ )?(\.venv/bin/)?", "", line)
            if not line.startswith("urlwb "):
                continue
            line = re.split(r"\s{2,}#|\s#\s", line)[0].strip()
            if _SYNOPSIS.search(line) or "|" in line.split("'")[0]:
                continue
            found.append(line)
    return found


ALL = [(page.relative_to(ROOT).as_posix(), c) for page in PAGES for c in commands(page.read_text("utf-8"))]


def test_the_pages_show_commands():
    assert len(ALL) >= 25, len(ALL)
    assert any(page == "README.md" for page, _ in ALL)


@pytest.mark.parametrize("page,command", ALL, ids=[f"{p}:{c[:60]}" for p, c in ALL])
def test_every_command_a_page_shows_parses(page, command):
    words = shlex.split(command)[1:]
    parser = cli.build_parser(only=cli._chosen(words))
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            args = parser.parse_args(words)
        except SystemExit as exc:
            pytest.fail(f"{page}: `{command}` does not parse: {err.getvalue().strip() or exc}")
    assert "deprecated" not in err.getvalue(), f"{page}: `{command}` shows an old spelling: {err.getvalue().strip()}"
    assert args.subcommand, f"{page}: `{command}` names no subcommand"
    assert not getattr(args, "_unavailable", None), args._unavailable


def test_engine_page_conformance_table_is_computed():
    page = (ROOT / "docs" / "engine.md").read_text("utf-8")
    start = page.index("<!-- conformance:start -->") + len("<!-- conformance:start -->")
    end = page.index("<!-- conformance:end -->")
    assert page[start:end].strip() == conformance.markdown()
