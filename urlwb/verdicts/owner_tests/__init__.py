"""What a parser's owner asserts in its own test suite: its contract at that release (issue 34).

Each ``<parser>.json`` here holds the cases mined from the owner's tests as they ship with one
release (``scripts/mine_owner_tests.py``: the input, the base, the call site ``path:line``, the
reading through the parser's public attributes, and the provenance: repo, path, tag). Two uses:

- :func:`held_to`: a bug verdict on a reading the owner's test asserts at the running release is
  a hazard at most, the verdict citing file:line (the owner's tests are its contract: a reading
  another parser or an RFC reads otherwise is where they part, not a break of its own contract);
- :func:`agrees`: an adapter must carry that reading onto the oracle protocol's fields
  (``adapters.toml``: what it documents it cannot carry); ``tests/workbench/test_owner_tests.py``
  fails on any mined case an adapter reads otherwise.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import pathlib
import tomllib

from urlwb.oracles import Record, contracts

#: the folders read, in order (a test adds its own)
DIRS = [pathlib.Path(__file__).resolve().parent]
FIELDS = ("scheme", "username", "password", "host", "port", "path", "query", "fragment")


@functools.lru_cache(maxsize=None)
def _load(dirs: tuple[pathlib.Path, ...]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for d in dirs:
        quirks = tomllib.loads((d / "adapters.toml").read_text(encoding="utf-8")) if (d / "adapters.toml").exists() else {}
        for path in sorted(d.glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            data["adapter"] = quirks.get(data["parser"], {})
            data["file"] = path
            out[data["parser"]] = data
    return out


def mined() -> dict[str, dict]:
    """parser -> its mined file (``cases``, ``release``, ``provenance``, ``adapter`` quirks)."""
    return _load(tuple(DIRS))


def release_matches(data: dict, version: str | None) -> bool:
    """Whether the running ``version`` (as the oracle reports it: ``Python 3.11.7``, ``1.9.4``)
    is the release the cases were mined at."""
    if version is None:
        return False
    return version == data["release"] or version.split()[-1] == data["release"]


def agrees(data: dict, case: dict, r: Record | None) -> str | None:
    """Where the adapter's record ``r`` differs from the owner-asserted ``case`` reading (the
    field, what the owner's test asserts, what the adapter sent), or None when it carries it."""
    want, quirks = case["reading"], data.get("adapter", {})
    if case["at"].rpartition(":")[0] in quirks.get("skip_files", ()):
        return None
    if r is None:
        return "record: no answer"
    if "failure" in want or (quirks.get("requires_scheme") and not want.get("scheme")) or \
            (quirks.get("requires_valid") and want.get("is_valid") is False):
        return None if r.failure and not r.crash else f"failure: the owner asserts {want.get('failure', 'no scheme')}, the adapter answered {r}"
    if r.failure or r.crash:
        return f"failure: the owner asserts a reading, the adapter answered {'crash ' + r.crash if r.crash else 'failure'}"
    for field in (*FIELDS, "userinfo", "href"):
        if field not in want:   # a table that asserts the serialization only (curl's get_url_list)
            continue
        w, g = want.get(field), (_userinfo(r) if field == "userinfo" else getattr(r, field))
        if field == "path":
            w = w or ""   # the protocol's path is a string: a parser's None path is its empty one
        if field in quirks.get("cannot_tell", ()) and not w:
            w, g = w or None, g or None
        if field == "host" and w and not w.startswith("[") and (":" in w or ("[" + w).lower() in _written(case).lower()):
            w = f"[{w}]"   # the protocol's one host rule: an IP literal written in brackets keeps them
        if w != g:
            return f"{field}: the owner asserts {w!r}, the adapter sent {g!r}"
    return None


def _userinfo(r: Record) -> str | None:
    """The record's userinfo as one string (a parser whose owner asserts it whole): None when
    neither part is present, ``user:`` for a present empty password."""
    if r.username is None and r.password is None:
        return None
    return (r.username or "") + (":" + r.password if r.password is not None else "")


def _written(case: dict) -> str:
    return case["input"] if case["base"] is None else case["input"] + " " + case["base"]


def _base_name(parser: str) -> str:
    return parser.partition("@")[0]


def asserted(parser: str, version: str | None, input: str, base: str | None, r: Record | None) -> dict | None:
    """The first mined case of ``parser`` at release ``version`` whose input and base are these
    and whose reading ``r`` carries: the owner asserts exactly this reading."""
    data = mined().get(_base_name(parser))
    if data is None or not release_matches(data, version):
        return None
    for case in data["cases"]:
        if case["input"] == input and case["base"] == base and agrees(data, case, r) is None:
            return case
    return None


def cite(data: dict, case: dict) -> str:
    """A link to the line of the owner's test at the mined release."""
    prov = data["provenance"]
    path, _, line = case["at"].rpartition(":")
    return f"https://github.com/{prov['repo']}/blob/{prov['tag']}/{path}#L{line}"


def held_to(parser: str, version: str | None, input: str, base: str | None, r: Record | None, v: dict) -> dict:
    """Bug verdict ``v`` as it stands, or a hazard when the owner's own test asserts this very
    reading at this release (the verdict's clause and ``documented`` cite the test's line)."""
    case = asserted(parser, version, input, base, r)
    if case is None:
        return v
    data = mined()[_base_name(parser)]
    prov = data["provenance"]
    return dict(v, kind="hazard",
                spec=dict(v["spec"], clause=f"{parser}'s own test suite asserts this reading: {case['at']} "
                                            f"({prov['repo']} {prov['tag']}); {v['spec']['clause']}"[:500]),
                documented=cite(data, case),
                reason=f"the owner's own test ({case['at']}, {prov['repo']} at {prov['tag']}) asserts this reading of "
                       f"{input!r}{f' against {base!r}' if base is not None else ''}: it is {parser}'s contract at "
                       f"{data['release']}, a hazard where others read it otherwise; judged without it: {v.get('reason', '')}"[:2000])


@functools.lru_cache(maxsize=None)
def _designs(dirs: tuple[pathlib.Path, ...]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for d in dirs:
        path = d / "validators.toml"
        if path.exists():
            for name, rows in tomllib.loads(path.read_text(encoding="utf-8")).items():
                out.setdefault(name, []).extend(rows)
    return out


def validator_design(validator: str, version: str | None, host: str | None) -> dict | None:
    """The owner's assertion (validators.toml) that ``validator`` at ``version`` treats the
    address ``host`` as it does: a row whose network holds it, or None."""
    if not host or version is None:
        return None
    try:
        addr = ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return None
    addr = getattr(addr, "ipv4_mapped", None) or addr
    for row in _designs(tuple(DIRS)).get(_package_key(validator), []):
        if "excludes" not in row:
            continue
        net = ipaddress.ip_network(row["excludes"])
        if version in row["releases"] and addr.version == net.version and addr in net:
            return row
    return None


def covered(validator: str, version: str | None) -> list[dict]:
    """The rows saying ``validator``'s code classifies an address class at ``version`` (``covers``)."""
    if version is None:
        return []
    return [row for row in _designs(tuple(DIRS)).get(_package_key(validator), [])
            if "covers" in row and version in row["releases"]]


def cite_row(row: dict) -> str:
    path, _, line = row["at"].rpartition(":")
    return f"https://github.com/{row['repo']}/blob/{row['tag']}/{path}#L{line}"


def _package_key(validator: str) -> str:
    """The registry package's name of ``validator`` (ip for ip-url-parse), else its own."""
    base = _base_name(validator)
    try:
        found = contracts.entry(base, "validator")
    except contracts.ContractError:
        found = None
    return found.package[1] if found is not None and found.package else base


def held_validator(validator: str, version: str | None, host: str | None, v: dict) -> dict:
    """Bug verdict ``v`` on a validator as it stands, or a hazard when its owner asserts, at this
    release, the very treatment of the address's network (the clause cites the test's line)."""
    row = validator_design(validator, version, host)
    if row is None or v is None or v["kind"] != "bug":
        return v
    url = cite_row(row)
    return dict(v, kind="hazard",
                spec=dict(v["spec"], clause=f"{validator}'s own tests and source at {row['tag']} ({row['at']}): "
                                            f"{row['excludes']} is by design: {row['says']}"[:500]),
                documented=url,
                reason=f"{validator} {version} allows {host}, in {row['excludes']}, which its owner's test "
                       f"({row['at']} at {row['tag']}) asserts it does not treat as local: its contract at that release, "
                       f"a hazard where a client reaches it; judged without it: {v.get('reason', '')}"[:2000])
