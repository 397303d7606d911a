"""Property failures as regression-corpus inputs, and their replay.

https://hypothesis.readthedocs.io/en/latest/reference/api.html#fuzz-one-input

A failure of a property (a minimized example from the Hypothesis database, or a disagreement
found by a state machine) is filed under the fuzz target ``properties`` as a *record*: the
line ``urlwb-property`` then a JSON object ``{"property": NAME, "args": {...}}`` holding the
example's arguments (bytes as ``{"bytes": hex}``, dataclasses as ``{"IPv4Case": {...}}``).
Arguments, not Hypothesis's internal choice sequence, so an entry replays under any Hypothesis
version. ``replay(data)`` runs the named property on them again.
"""

from __future__ import annotations

import dataclasses
import importlib
import json

from properties import machines, strategies

MAGIC = b"urlwb-property\n"
#: modules whose @given tests are properties with a name (their function name)
PROPERTY_MODULES = ("properties.test_hosts", "properties.test_percent",
                    "properties.test_urlencoded", "properties.test_urls",
                    "properties.test_independent")


def _encode(value):
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if dataclasses.is_dataclass(value):
        return {type(value).__name__: {k: _encode(v) for k, v in
                                       dataclasses.asdict(value).items()}}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    return value


def _decode(value):
    if isinstance(value, dict):
        (tag, inner), = value.items()
        if tag == "bytes":
            return bytes.fromhex(inner)
        cls = getattr(strategies, tag)
        fields = {k: _decode(v) for k, v in inner.items()}
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})
    if isinstance(value, list):
        items = [_decode(v) for v in value]
        # pairs and setter steps were tuples
        return [tuple(v) if isinstance(v, list) else v for v in items]
    return value


def encode_record(prop: str, args: dict) -> bytes:
    return MAGIC + json.dumps({"property": prop, "args": {k: _encode(v) for k, v in
                                                          args.items()}},
                              sort_keys=True).encode("ascii")


def decode_record(data: bytes) -> tuple[str, dict] | None:
    """(property, args) of a record, or None if ``data`` is not one."""
    if not data.startswith(MAGIC):
        return None
    record = json.loads(data[len(MAGIC):].decode("ascii"))
    return record["property"], {k: _decode(v) for k, v in record["args"].items()}


def given_properties() -> dict:
    """Property name -> its Hypothesis test (a function with a ``.hypothesis`` handle)."""
    found = {}
    for name in PROPERTY_MODULES:
        module = importlib.import_module(name)
        for attr, obj in vars(module).items():
            if attr.startswith("test_") and hasattr(obj, "hypothesis"):
                found[attr] = obj
    return found


def replayers() -> dict:
    """Property name -> a function of the record's arguments that raises on failure."""
    found = {name: test.hypothesis.inner_test for name, test in given_properties().items()}
    found[machines.ADA_PROPERTY] = machines.check_setters_against_ada
    found.update(machines.MACHINE_REPLAYERS)
    return found


def replay(data: bytes) -> None:
    decoded = decode_record(data)
    if decoded is None:
        raise ValueError("not a property record")
    prop, args = decoded
    replayers()[prop](**args)
