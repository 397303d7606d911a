"""The card schema: one loader for a shipped card and a user's entry alike.

A parser's card is everything the workbench knows about it, in one declaration: an ``[[oracle]]``
entry of an adapter folder's ``oracles.toml`` or of ``in_process.toml``, or the user's
``[tool.urlwb.oracles.NAME]`` (whose NAME is its name), which takes the same keys.
``card.schema.json`` beside this module is its definition (a JSON Schema, draft 2020-12);
:func:`check` holds a table to it and says what is wrong in one line that names the key (each
property's ``must`` is what that line says of it). :mod:`urlwb.oracles.manifests` calls it before
it reads a table's fields, so that a field is checked in one place.
"""

from __future__ import annotations

import functools
import json
import pathlib

SCHEMA_PATH = pathlib.Path(__file__).with_name("card.schema.json")


class CardError(ValueError):
    """A card that does not fit the schema; the message is one line naming where and the key."""


@functools.cache
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


#: the keys a card may have, in the schema's order
KEYS = tuple(schema()["properties"])


@functools.cache
def _validator():
    import jsonschema  # on first use: a command that reads no card needs none of it

    jsonschema.Draft202012Validator.check_schema(schema())
    return jsonschema.Draft202012Validator(schema())


def _line(error) -> str:
    """One line for the first thing wrong: the key, and what it must be."""
    path = list(error.absolute_path)
    if not path:
        if error.validator == "additionalProperties":
            unknown = sorted(set(error.instance) - set(KEYS))
            return f"unknown field {unknown[0]!r}"
        if error.validator == "required":
            missing = [k for k in error.validator_value if k not in error.instance]
            return f"no {missing[0]}"
        if error.validator == "anyOf":
            return "no command"
        if error.validator == "not":
            return "command and adapter: a card has one (a program's command, or an in-process module:Factory)"
        return error.message
    key, rest = path[0], path[1:]
    must = schema()["properties"][key]["must"]
    at = key + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in rest)
    shown = json.dumps(error.instance, ensure_ascii=False, default=str)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    line = f"{key} {must}, not {shown}"
    return f"{line} (at {at})" if rest else line


def check(table: dict, where: str) -> dict:
    """``table`` itself when it fits the card schema; :class:`CardError` (one line: ``where``,
    the key, what it must be) for the first thing that does not."""
    errors = sorted(_validator().iter_errors(table), key=lambda e: (list(map(str, e.absolute_path)), e.validator))
    if errors:
        raise CardError(f"{where}: {_line(errors[0])}")
    return table
