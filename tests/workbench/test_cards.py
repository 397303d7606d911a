"""The card schema (``urlwb/oracles/card.schema.json``): every shipped card fits it, and one
loader holds a shipped card and a user's ``[tool.urlwb.oracles.NAME]`` entry to it alike, with a
one-line error that names the key."""

from __future__ import annotations

import json
import pathlib
import textwrap
import tomllib

import jsonschema
import pytest

from urlwb import oracles
from urlwb.oracles import cards, manifests

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "urlwb" / "oracles" / "card.schema.json").read_text(encoding="utf-8"))


def shipped_cards() -> list[tuple[str, dict]]:
    """(where, table) of every shipped card: each adapter folder's, validator's and client's
    ``[[oracle]]`` and the in-process parsers' (``in_process.toml``)."""
    files = [ROOT / "urlwb" / "oracles" / "in_process.toml"]
    for root in (manifests.ROOT, manifests.VALIDATORS_ROOT, manifests.CLIENTS_ROOT):
        files += sorted(root.glob("*/oracles.toml"))
    out = []
    for path in files:
        for table in tomllib.loads(path.read_text(encoding="utf-8")).get("oracle", []):
            out.append((f"{path.relative_to(ROOT)} {table.get('name')}", table))
    return out


def test_the_schema_is_a_json_schema_and_says_what_each_key_must_be():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert [k for k, v in SCHEMA["properties"].items() if not v.get("must", "").startswith("must ")] == []


def test_every_shipped_card_fits_the_schema():
    found = shipped_cards()
    assert len(found) >= 50   # 30 parsers, 3 host oracles, 9 validators, 11 clients
    validator = jsonschema.Draft202012Validator(SCHEMA)
    assert [f"{where}: {e.message}" for where, table in found for e in validator.iter_errors(table)] == []
    assert oracles.MANIFEST_ERRORS == []


#: (key = value lines of a card, what its one-line error says)
BAD = [
    ('colour = "red"', "unknown field 'colour'"),
    ('deadline = "soon"', 'deadline must be a number of at least 0.001, not "soon"'),
    ('family = "w3c"', 'family must be "whatwg" or "other", not "w3c"'),
    ("quirks = [1]", "quirks must be a list of strings, not 1 (at quirks[0])"),
    ('deviations = [{ reason = "no predicate named" }]', "deviations must be a list of tables {when = NAME"),
    ('deviations = [{ when = "ascii_xn_domain", because = "x" }]', "deviations must be a list of tables"),
]


def _shipped(tmp_path, lines: str) -> str:
    folder = tmp_path / "shipped"
    folder.mkdir()
    (folder / "oracles.toml").write_text(
        f'[[oracle]]\nname = "planted"\ncommand = ["sh"]\n{lines}\n', encoding="utf-8")
    f = manifests.read_folder(folder / "oracles.toml")
    assert not f.specs
    return f.error


def _users(tmp_path, lines: str) -> str:
    (tmp_path / "urlwb.toml").write_text(
        f'[tool.urlwb.oracles.planted]\ncommand = "sh"\n{lines}\n', encoding="utf-8")
    with pytest.raises(manifests.ManifestError) as exc:
        manifests.config_specs(tmp_path)
    return str(exc.value)


@pytest.mark.parametrize("lines, says", BAD)
def test_a_bad_key_is_one_line_naming_it_in_a_shipped_card_and_a_users_entry_alike(tmp_path, lines, says):
    shipped, users = _shipped(tmp_path, lines), _users(tmp_path, lines)
    for error in (shipped, users):
        assert says in error and "\n" not in error, error
    assert shipped.endswith(users.partition("'planted': ")[2])


def test_a_card_missing_a_required_key_is_one_line(tmp_path):
    assert "oracle 1: no name" in manifests.read_folder(_write(tmp_path, 'command = ["sh"]')).error
    assert manifests.read_folder(_write(tmp_path, 'name = "planted"')).error.endswith("planted: no command")
    (tmp_path / "urlwb.toml").write_text('[tool.urlwb.oracles.planted]\ndeadline = 1\n', encoding="utf-8")
    with pytest.raises(manifests.ManifestError, match=r"^urlwb.toml: oracle 'planted': no command$"):
        manifests.config_specs(tmp_path)
    with pytest.raises(cards.CardError, match=r"^x: command and adapter: a card has one"):
        cards.check({"name": "planted", "command": ["sh"], "adapter": "whatwg:EngineOracle"}, "x")


def test_a_users_entry_takes_the_keys_of_a_shipped_card(tmp_path):
    (tmp_path / "urlwb.toml").write_text(textwrap.dedent("""
        [tool.urlwb.oracles.planted]
        command = ["sh"]
        deadline = 2
        quirks = ["none"]
        [[tool.urlwb.oracles.planted.deviations]]
        when = "ascii_xn_domain"
        reason = "rejects an xn-- label it cannot decode"
        """), encoding="utf-8")
    (spec,) = manifests.config_specs(tmp_path)
    assert spec.deadline == 2.0 and spec.quirks == ("none",)
    assert spec.deviations == (("ascii_xn_domain", "rejects an xn-- label it cannot decode"),)


def _write(tmp_path, lines: str) -> pathlib.Path:
    folder = tmp_path / "card"
    folder.mkdir(exist_ok=True)
    (folder / "oracles.toml").write_text(f"[[oracle]]\n{lines}\n", encoding="utf-8")
    return folder / "oracles.toml"


def test_a_clients_card_names_a_parser_of_the_registry():
    # the SSRF resolver model reads each observed client by the parser its card names
    from urlwb.ssrf.observe import model
    assert model.MODEL_OF and {p for p in model.MODEL_OF.values() if p} <= set(oracles.REGISTRY)
