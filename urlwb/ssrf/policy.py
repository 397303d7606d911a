"""The destinations ``urlwb ssrf`` holds a validator to: ``--deny`` categories and hosts, and an
optional ``--allow`` list.

A destination is what a fetcher's resolver made of its parser's host (:mod:`.resolvers`): an
address, a DNS name, or nothing (the fetcher rejected the URL, found no host, or its resolver
refuses the host: no connection). The categories, by address (IPv4-mapped IPv6 is already its
IPv4; an IPv4-compatible ``::a.b.c.d`` is an IPv6 address Linux does not route to IPv4, so it is
judged as that IPv6 address unless ``--deny`` names ``ipv4-compatible``, which judges it by the
IPv4 it embeds, for stacks that still tunnel it):

- ``loopback``: 127.0.0.0/8, ::1, and the unspecified 0.0.0.0 and :: (a Linux ``connect`` to
  them reaches the local host; the rest of 0.0.0.0/8 is not routed); by name: ``localhost`` and ``*.localhost`` (RFC 6761 6.3;
  /etc/hosts maps ``localhost``), the only names a category denies;
- ``private``: 10/8, 172.16/12, 192.168/16 (RFC 1918), 100.64/10 (RFC 6598), fc00::/7 (RFC 4193);
- ``link-local``: 169.254/16 (RFC 3927), fe80::/10;
- ``metadata``: the cloud metadata endpoints 169.254.169.254, fd00:ec2::254, 100.100.100.200,
  and the names ``metadata.google.internal``, ``metadata``.

Anything else in ``--deny`` is a host: a name (``internal.example``; ``*.internal.example`` for
its subdomains), an address, or a network (``192.0.2.0/24``). A name is compared lowercased,
without one trailing dot, and percent-decoding or IDNA are the parser's business, not the policy's.
With ``--allow HOSTS``, a fetcher connecting anywhere outside that list (a name not listed, any
address not listed) is also a bypass.
"""

from __future__ import annotations

import dataclasses
import ipaddress

from urlwb.errors import UsageError
from urlwb.ssrf import resolvers

CATEGORIES = ("loopback", "private", "link-local", "metadata")
#: opt-in: an IPv4-compatible IPv6 address (RFC 4291 2.5.5.1) judged by the IPv4 it embeds
COMPATIBLE = "ipv4-compatible"

_NETS = {
    "loopback": ["127.0.0.0/8", "::1/128", "0.0.0.0/32", "::/128"],
    "private": ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"],
    "link-local": ["169.254.0.0/16", "fe80::/10"],
    "metadata": ["169.254.169.254/32", "fd00:ec2::254/128", "100.100.100.200/32"],
}
NETWORKS = {c: [ipaddress.ip_network(n) for n in nets] for c, nets in _NETS.items()}
NAMES = {"loopback": ["localhost", "*.localhost"], "metadata": ["metadata.google.internal", "metadata"]}
#: one address per category the inputs spell in every way (:mod:`.inputs`)
TARGETS = {
    "loopback": ["127.0.0.1", "0.0.0.0", "::1", "::", "localhost"],
    "private": ["10.0.0.1", "192.168.0.1", "172.16.0.1", "fd00::1"],
    "link-local": ["169.254.0.1", "fe80::1"],
    "metadata": ["169.254.169.254", "fd00:ec2::254"],
}


@dataclasses.dataclass(frozen=True)
class Destination:
    """Where one fetcher connects for one input: ``host`` as its parser read it (None: it
    rejected the URL or read no host), ``reading`` what its resolver made of it (an address,
    :data:`resolvers.NAME` or :data:`resolvers.REFUSED`)."""

    host: str | None
    reading: object = None

    def show(self) -> str:
        if self.host is None:
            return "(no connection)"
        if isinstance(self.reading, str):
            return f"{self.host} ({'a DNS name' if self.reading == resolvers.NAME else 'refused'})"
        shown = str(self.reading)
        return self.host if shown == resolvers.strip_brackets(self.host) else f"{self.host} → {shown}"


def _name(host: str) -> str:
    h = host.lower()
    return h[:-1] if h.endswith(".") and len(h) > 1 else h


def _name_matches(name: str, pattern: str) -> bool:
    if pattern.startswith("*."):
        return name.endswith(pattern[1:]) and len(name) > len(pattern) - 1
    return name == pattern


@dataclasses.dataclass
class Policy:
    """What is denied (``categories``, ``hosts``: names and networks) and, optionally, the only
    destinations allowed (``allow``)."""

    categories: tuple[str, ...] = CATEGORIES
    names: tuple[str, ...] = ()
    networks: tuple = ()
    allow_names: tuple[str, ...] | None = None
    allow_networks: tuple = ()

    def denied(self, dest: Destination) -> str | None:
        """Why connecting to ``dest`` breaks the policy (a category, "deny-list" or "outside the
        allow-list"), or None."""
        if dest.host is None or dest.reading == resolvers.REFUSED:
            return None
        if isinstance(dest.reading, str):
            name = _name(resolvers.strip_brackets(dest.host))
            for cat in self.categories:
                if any(_name_matches(name, p) for p in NAMES.get(cat, [])):
                    return cat
            if any(_name_matches(name, p) for p in self.names):
                return "deny-list"
            if self.allow_names is not None and not any(_name_matches(name, p) for p in self.allow_names):
                return "outside the allow-list"
            return None
        addr = dest.reading
        judged = (resolvers.embedded_ipv4(addr) or addr) if COMPATIBLE in self.categories else addr
        for cat in ("metadata", *[c for c in CATEGORIES if c != "metadata"]):
            if cat in self.categories and any(judged in n for n in NETWORKS[cat] if n.version == judged.version):
                return cat
        if any(judged in n for n in self.networks if n.version == judged.version):
            return "deny-list"
        if self.allow_names is not None and not any(
                judged in n for n in self.allow_networks if n.version == judged.version):
            return "outside the allow-list"
        return None

    def targets(self) -> list[str]:
        """The hosts the inputs spell: each denied category's, each denied host and network's
        first address (a pattern's parent name), and a name outside the allow-list."""
        out = [t for c in self.categories for t in TARGETS.get(c, [])]
        out += [n[2:] if n.startswith("*.") else n for n in self.names]
        out += [str(net.network_address + (1 if net.num_addresses > 1 else 0)) for net in self.networks]
        if self.allow_names is not None:
            out += ["evil.example", "127.0.0.1"]
        return list(dict.fromkeys(out))

    def decoy(self) -> str:
        """An allowed host to put beside the denied one (the allow-list's first name)."""
        for n in self.allow_names or ():
            return n[2:] if n.startswith("*.") else n
        return "example.com"


def _split_hosts(value: str, flag: str) -> tuple[list[str], list]:
    names, nets = [], []
    for part in (p.strip() for p in value.split(",")):
        if not part:
            continue
        try:
            nets.append(ipaddress.ip_network(resolvers.strip_brackets(part), strict=False))
            continue
        except ValueError:
            pass
        name = _name(part)
        if not name or any(c in name for c in "/@:?#\\ ") or not name.isascii():
            raise UsageError(f"{flag}: {part!r} is not a host name, address or network")
        names.append(name)
    return names, nets


def parse(deny: str | None, allow: str | None) -> Policy:
    """A Policy from ``--deny`` (default: every category) and ``--allow``; UsageError (one line)
    for a bad entry."""
    categories, rest = [], []
    for part in (p.strip() for p in (deny if deny is not None else ",".join(CATEGORIES)).split(",")):
        if part in CATEGORIES or part == COMPATIBLE:
            categories.append(part)
        elif part:
            rest.append(part)
    names, nets = _split_hosts(",".join(rest), "--deny")
    policy = Policy(tuple(dict.fromkeys(categories)), tuple(names), tuple(nets))
    if allow is not None:
        a_names, a_nets = _split_hosts(allow, "--allow")
        if not a_names and not a_nets:
            raise UsageError("--allow: no host given")
        policy.allow_names, policy.allow_networks = tuple(a_names), tuple(a_nets)
    if not policy.categories and not policy.names and not policy.networks and policy.allow_names is None:
        raise UsageError("--deny: nothing denied")
    return policy
