"""One vocabulary (issue 30): every flag of a kind in docs/cli.md's table means the same in every
subcommand, and a flag of one of those kinds spelled otherwise fails.

:func:`problems` walks the real ``urlwb`` parser, every subcommand and nested one, and names each
flag that breaks the table: a time that is not ``--minutes``/``--seconds``/``--WHAT-seconds``, a
``--seed`` whose default is not the one default, a ``--runs`` that is not repetitions, a parser
chosen otherwise than by ``--parsers``/``--oracle``, an output otherwise than by ``--out``; and
each old spelling kept as an alias must set what its new one sets and warn in one line. The tests
below plant each kind of off-vocabulary flag in a copy of the parser and check that
:func:`problems` names it."""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import pathlib
import re

import pytest

from urlwb import cli, cliutil

ROOT = pathlib.Path(__file__).resolve().parents[2]

_TIME_WORDS = re.compile(r"\b(seconds?|minutes?|milliseconds?|hours?)\b")
_TIME_NAME = re.compile(r"time|deadline|every|delay|wait|interval")
_PARSER_NAME = re.compile(r"parser|fetcher|validator")
_OUT_NAME = re.compile(r"^(-o|--output|--out-.*|--outdir|--report-dir|--dir)$")
_RUNS_NAME = re.compile(r"^--(rounds|repeat|repeats|times|iterations|reps)$")


def subparsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(path, parser) for ``parser`` and every subparser under it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from subparsers(sub, path + (name,))


def _takes_value(action) -> bool:
    return action.nargs != 0


def _kind(type_):
    """What a flag's value is: float, int, a path...: a bounded number (cliutil.Number) is its kind."""
    return type_.kind if isinstance(type_, cliutil.Number) else type_


def _flag_problems(path, action) -> list[str]:
    where = "urlwb " + " ".join(path)
    out = []
    help_ = action.help or ""
    for flag in action.option_strings:
        said = f"{where} {flag}"
        if flag in ("-h", "--help"):
            continue
        meaning = cliutil.VOCABULARY.get(flag)
        if flag.endswith("-seconds") and flag != "--seconds":
            meaning = cliutil.VOCABULARY["--WHAT-seconds"]
        if meaning is not None:
            metavar, phrase = meaning
            if action.metavar != metavar:
                out.append(f"{said}: metavar {action.metavar!r}, the table says {metavar}")
            if not help_.startswith(phrase):
                out.append(f"{said}: help does not start with the table's meaning {phrase!r}: {help_[:60]!r}")
        if flag in ("--minutes", "--seconds") or flag.endswith("-seconds"):
            if _kind(action.type) is not float:
                out.append(f"{said}: a time is a float, not {action.type}")
            elif not isinstance(action.type, cliutil.Number):
                out.append(f"{said}: a time is bounded (cliutil.seconds or cliutil.minutes: nan, inf and negatives refused)")
        elif _takes_value(action) and (_TIME_NAME.search(flag) and not flag.endswith("-factor")
                                       or _TIME_WORDS.search(re.sub(r"--[\w-]+", "", help_))
                                       and action.metavar in ("S", "M", None)
                                       and _kind(action.type) in (float, int)):
            out.append(f"{said}: a time flag off the table (say --minutes, --seconds or --WHAT-seconds)")
        if flag == "--seed":
            if _kind(action.type) is not int:
                out.append(f"{said}: --seed is an int")
            if action.default != cliutil.DEFAULT_SEED and not (
                    path == ("campaign",) and action.default is None and "printed" in help_):
                out.append(f"{said}: default {action.default!r}, the one default is {cliutil.DEFAULT_SEED}")
        if _RUNS_NAME.match(flag):
            out.append(f"{said}: repetitions are --runs")
        if _PARSER_NAME.search(flag) and flag not in ("--parsers",):
            out.append(f"{said}: parsers are chosen by --parsers (or named by --oracle)")
        if _OUT_NAME.match(flag):
            out.append(f"{said}: output goes to --out")
        if flag == "--out" and action.type is not pathlib.Path:
            out.append(f"{said}: --out is a path")
    return out


def _words_for_positionals(parser) -> list[str]:
    words = []
    for action in parser._actions:
        if action.option_strings or isinstance(action, argparse._SubParsersAction):
            continue
        if action.nargs in (None, "+", 1):
            words.append(action.choices[0] if action.choices else "x")
    return words


_SAMPLE = {float: "1.5", int: "2", pathlib.Path: "somewhere"}


def _parse(parser, words):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            ns = parser.parse_args(words)
        except SystemExit:
            return None, err.getvalue()
    return vars(ns), err.getvalue()


def _alias_problems(path, parser, action) -> list[str]:
    new = action.deprecated_for
    old = action.option_strings[0]
    said = f"urlwb {' '.join(path)} {old}"
    value = [] if action.nargs == 0 else [_SAMPLE.get(_kind(action.type), "a")]
    base = _words_for_positionals(parser)
    got_old, err_old = _parse(parser, base + [old, *value])
    got_new, err_new = _parse(parser, base + [new, *value])
    out = []
    if got_old is None or got_new is None:
        return [f"{said}: does not parse beside {new}: {(err_old or err_new).strip()}"]
    if got_old != got_new:
        out.append(f"{said}: sets {got_old} where {new} sets {got_new}")
    lines = err_old.strip().splitlines()
    if len(lines) != 1 or "deprecated" not in lines[0] or new not in lines[0]:
        out.append(f"{said}: must say in one stderr line that it is deprecated for {new}, said {err_old!r}")
    if "deprecated" in err_new:
        out.append(f"urlwb {' '.join(path)} {new}: the new spelling warns")
    if action.help != argparse.SUPPRESS:
        out.append(f"{said}: an alias is hidden from --help")
    return out


def problems(root: argparse.ArgumentParser) -> list[str]:
    found = []
    for path, parser in subparsers(root):
        for action in parser._actions:
            if not action.option_strings:
                continue
            if getattr(action, "deprecated_for", None):
                found += _alias_problems(path, parser, action)
            else:
                found += _flag_problems(path, action)
    return found


@pytest.fixture(scope="module")
def parser():
    return cli.build_parser()


def test_every_subcommand_speaks_the_table(parser):
    assert not [p for p in cli.SUBCOMMANDS if not list(subparsers(parser, ()))], "no subcommands"
    unavailable = [path for path, p in subparsers(parser) if p.get_default("_unavailable")]
    assert not unavailable, unavailable   # every command's flags were walked
    assert problems(parser) == []


def test_the_walk_reaches_nested_subcommands(parser):
    paths = {path for path, _ in subparsers(parser)}
    assert ("oracle", "check") in paths and len(paths) > len(cli.SUBCOMMANDS)


def test_the_docs_table_is_the_vocabulary():
    page = (ROOT / "docs" / "cli.md").read_text("utf-8")
    table = page[page.index("<!-- vocabulary:start -->"):page.index("<!-- vocabulary:end -->")]
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        m = re.fullmatch(r"`(--[\w-]+) (\w+)`", cells[0]) if len(cells) >= 2 else None
        if m:
            rows[m[1]] = (m[2], cells[1])
    assert rows == cliutil.VOCABULARY


# -- each planted off-vocabulary flag is named ------------------------------------------------------

def _planted(parser, command, *args, **kwargs):
    root = copy.deepcopy(parser)
    sub = dict(subparsers(root))[tuple(command.split())]
    sub.add_argument(*args, **kwargs)
    return root


@pytest.mark.parametrize("command,args,kwargs", [
    ("fuzz", ("--time-limit",), dict(type=float, default=60.0, metavar="S", help="seconds per target")),
    ("diff", ("--wait",), dict(type=float, default=1.0, help="how long to wait")),
    ("growth", ("--budget",), dict(type=float, default=1.0, metavar="S", help="in seconds (default 1)")),
    ("hunt", ("--parser",), dict(default=None, help="the parser")),
    ("ssrf", ("--fetcher",), dict(default=None, help="the fetching parser")),
    ("bench", ("--repeat",), dict(type=int, default=3, help="repetitions")),
    ("reach", ("-o", "--output"), dict(type=pathlib.Path, help="report folder")),
    ("oracle check", ("--seconds",), dict(type=int, default=5, metavar="S", help="seconds per input")),
    ("mutants", ("--minutes",), dict(type=float, default=1.0, metavar="M", help="time of the run")),
    ("campaign", ("--out2-seconds",), dict(type=float, default=1.0, metavar="T", help="seconds of x")),
])
def test_a_planted_off_vocabulary_flag_is_named(parser, command, args, kwargs):
    found = problems(_planted(parser, command, *args, **kwargs))
    assert found and all(f.startswith(f"urlwb {command} ") for f in found), found


def test_a_planted_seed_default_is_named(parser):
    root = copy.deepcopy(parser)
    seed = dict(subparsers(root))[("hunt",)]._option_string_actions["--seed"]
    seed.default = 0
    assert any("--seed: default 0" in f for f in problems(root))


def test_a_planted_silent_alias_is_named(parser):
    root = copy.deepcopy(parser)
    sub = dict(subparsers(root))[("growth",)]
    twin = sub.add_argument("--rounds", type=int, dest="runs", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    twin.deprecated_for = "--runs"     # hidden, but it does not warn
    assert any("must say in one stderr line" in f for f in problems(root))


def test_an_alias_warns_in_one_line_and_means_the_new_flag(capsys):
    from urlwb import cli as c
    p = c.build_parser(only="fuzz")
    new = vars(p.parse_args(["fuzz", "url", "--seconds", "5"]))
    assert capsys.readouterr().err == ""
    old = vars(p.parse_args(["fuzz", "url", "--time", "5"]))
    err = capsys.readouterr().err
    assert old == new and err.count("\n") == 1
    assert err.startswith("urlwb fuzz: --time is deprecated: say --seconds")


def test_minutes_below_zero_is_refused_in_minutes(capsys):
    assert cli.main(["ssrf", "--minutes", "-1"]) == 2
    err = capsys.readouterr().err
    assert "minutes" in err and "-60" not in err and err.count("\n") == 1


def test_every_stored_reproduce_command_speaks_the_vocabulary(parser):
    """The ``command`` a finding carries (``urlwb list`` prints it as the way to reproduce) parses
    with no deprecated spelling: the 218 ssrf sidecars said ``--validator`` and ``--fetchers``
    until 2026-12-02."""
    import glob
    import json
    import shlex

    from urlwb import corpus_store
    bad, checked = [], 0
    for path in sorted(glob.glob(str(corpus_store.ROOT / "corpus" / "**" / "*.json"), recursive=True)):
        meta = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
        command = meta.get("command") if isinstance(meta, dict) else None
        if not command or not command.startswith("urlwb "):
            continue
        checked += 1
        got, err = _parse(parser, shlex.split(command)[1:])
        if got is None or "deprecated" in err:
            bad.append(f"{path}: {command!r}: {err.strip()[:200]}")
    assert checked > 200
    assert bad == [], f"{len(bad)} stored commands: " + "\n".join(bad[:5])
