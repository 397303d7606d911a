"""Causes, not records (issue 34, part 4): findings grouped by what is wrong, each with its witnesses.

A record is one input that shows a finding; many records show one cause, repeated over spellings
and releases (41 SSRF bug records were 3 causes). A cause's key is

- the **package** (the parser's or validator's name without ``@VERSION``), its releases kept as
  the range the records span;
- **what** went wrong: the verdict's kind and cause (``misclassified-address``, ``path``,
  ``superlinear``...);
- **where**: for a validator that misclassified an address it read itself, the form of its own
  reading (``ipv4-mapped``: ``[::ffff:a00:1]`` and ``[::ffff:a9fe:1]`` are one flaw; ``ipv6``;
  ``ipv4``); for a parser, the step (the verdict's cause) is the where.

Within a cause, the witnesses are kept one per **spelling family**, the shortest of each: for an
address, its class (private, link-local...) and how the input writes the host (its shape: digits ``9``, hex after ``0x`` ``x``, a
bracketed IPv6 literal ``[v6]``, with the slashes after the scheme); for a parser, the ingredient
the differential found (the rule's part after ``/``). Nothing is deleted: every record stays where
it is, and :class:`Cause` counts them.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import re

from urlwb.oracles import contracts

#: the address classes a validator's documentation may name (urlwb.oracles.contracts.REJECTS)
_PRIVATE = [ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")]


@dataclasses.dataclass
class Cause:
    package: str
    kind: str
    what: str
    where: str
    #: every record of this cause (catalog.Listed), in the order found
    records: list = dataclasses.field(default_factory=list)
    #: spelling family -> the shortest record of it
    witnesses: dict = dataclasses.field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.package, self.kind, self.what, self.where)

    @property
    def releases(self) -> list[str]:
        return sorted({r for r in (release(i.record) for i in self.records) if r})

    @property
    def shortest(self):
        return min(self.witnesses.values(), key=lambda i: (len(i.record["input"]), i.record["input"]))

    def title(self) -> str:
        where = f" ({self.where})" if self.where and self.where != self.what else ""
        return f"{self.package}: {self.what}{where}"


def package(rec: dict) -> str:
    """The registry package (``contracts.toml``'s ``package``: ``npm:ip`` for both ``ip`` and
    ``ip-url-parse``, which read the host with two parsers and classify it with one function),
    else the shipped name without ``@VERSION``."""
    name = (rec.get("validator") or rec.get("parser_base") or rec.get("parser") or "?").partition("@")[0]
    try:
        found = contracts.entry(name)
    except contracts.ContractError:
        found = None
    return f"{found.package[0]}:{found.package[1]}" if found is not None and found.package else name


def release(rec: dict) -> str | None:
    for name in (rec.get("validator"), rec.get("parser")):
        if name and "@" in name:
            return name.partition("@")[2]
    return rec.get("validator_version") or rec.get("parser_version")


def address_where(host: str | None) -> str | None:
    """``CLASS FORM`` of a host that is an IP address (``private ipv4-mapped``, ``link-local
    ipv4``, ``loopback ipv6``), or None for a name."""
    if not host:
        return None
    try:
        addr = ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return None
    form = "ipv4"
    if addr.version == 6:
        mapped = addr.ipv4_mapped
        form = "ipv4-mapped" if mapped is not None else "ipv6"
        addr = mapped or addr
    cls = ("unspecified" if addr.is_unspecified else "loopback" if addr.is_loopback else
           "link-local" if addr.is_link_local else
           "private" if any(addr in n for n in _PRIVATE if n.version == addr.version) else "other")
    return f"{cls} {form}"


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def host_spelling(input: str) -> str:
    """How ``input`` writes its host: the slashes after the scheme, then the host's shape (hex
    numbers ``x``, decimal ``9``, a bracketed literal's hex groups ``h``)."""
    m = _SCHEME.match(input)
    rest = input[m.end():] if m else input
    slashes = len(rest) - len(rest.lstrip("/\\"))
    host = re.split(r"[/?#]", rest.lstrip("/\\"), maxsplit=1)[0].rpartition("@")[2]
    if host.startswith("["):
        shape = "[" + re.sub(r"[0-9a-fA-F]+", "h", host[1:].split("]")[0]) + "]"
    else:
        shape = re.sub(r"0[xX][0-9a-fA-F]*", "x", host.rsplit(":", 1)[0] if host.count(":") == 1 else host)
        shape = re.sub(r"\d+", "9", shape)
        shape = re.sub(r"[^\W\d_]+", "a", shape)
    return f"{'/' * slashes or '(none)'} {shape}"


def where_of(rec: dict) -> str:
    """A validator's: the form of the address it read (``ipv4-mapped``: one flaw whether the
    mapped address is 10.0.0.1 or 169.254.0.1); a parser's: its step."""
    v = rec["verdict"]
    if rec.get("validator"):
        where = address_where(rec.get("validator_host"))
        return where.split(" ", 1)[1] if where else v["cause"]
    return v["cause"]


def family_of(rec: dict) -> str:
    """The spelling family of a record within its cause: for a validator the address class it
    read and how the input writes the host; for a parser the differential's ingredient."""
    if rec.get("validator"):
        where = address_where(rec.get("validator_host"))
        return (f"{where.split(' ', 1)[0]} " if where else "") + host_spelling(rec["input"])
    rule = rec.get("rule") or ""
    return rule.partition("/")[2] or rule or "-"


def group(items) -> list[Cause]:
    """The causes of ``items`` (catalog.Listed), most records first; each record in one cause."""
    causes: dict[tuple, Cause] = {}
    for i in items:
        rec = i.record
        v = rec["verdict"]
        key = (package(rec), v["kind"], v["cause"], where_of(rec))
        c = causes.get(key)
        if c is None:
            c = causes[key] = Cause(*key)
        c.records.append(i)
        fam = family_of(rec)
        old = c.witnesses.get(fam)
        if old is None or (len(rec["input"]), rec["input"]) < (len(old.record["input"]), old.record["input"]):
            c.witnesses[fam] = i
    return sorted(causes.values(), key=lambda c: (-len(c.records), c.key))
