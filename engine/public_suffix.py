"""Public suffix and registrable domain.

https://url.spec.whatwg.org/#host-public-suffix

The Public Suffix List algorithm (https://github.com/publicsuffix/list/wiki/Format#formal-algorithm)
is implemented here over data/public_suffix_list.dat, the list as published (its ``VERSION`` line
is ``LIST_VERSION``), copied there by scripts/gen_public_suffix_list.py from the
``publicsuffixlist`` package, whose version its header records. Rules are converted to their
ASCII form once, on first use, since hosts reach here as ASCII domains.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import islice
from pathlib import Path

from .failure import Failure
from .host import Domain, IPv4Address, IPv6Address
from .idna import unicode_to_ascii

__all__ = ["public_suffix", "registrable_domain", "LIST_VERSION"]


_LIST = Path(__file__).with_name("data") / "public_suffix_list.dat"


def _list_version() -> str:
    """The list's ``// VERSION:`` line, among its first lines (read alone: the rules are read on
    first use)."""
    with _LIST.open(encoding="utf-8") as lines:
        for line in islice(lines, 40):
            if line.startswith("// VERSION:"):
                return line.split(":", 1)[1].strip()
    return "unknown"


@lru_cache(maxsize=1)
def _rules() -> tuple[frozenset[str], frozenset[str], int]:
    """The list's rules and exception rules (without "!"), in ASCII, lowercase, and the most
    labels any of them has."""
    rules, exceptions = set(), set()
    for line in _LIST.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        rule = line.split()[0]
        target = rules
        if rule.startswith("!"):
            rule, target = rule[1:], exceptions
        if not rule.isascii():
            try:
                rule = ".".join(
                    lb if lb == "*" else unicode_to_ascii(lb, check_hyphens=False, use_std3=False, verify_dns_length=False)
                    for lb in rule.split(".")
                )
            except Failure:  # pragma: no cover - the list holds valid IDNs only
                continue
        target.add(rule.lower())
    most_labels = max(rule.count(".") + 1 for rule in rules | exceptions)
    return frozenset(rules), frozenset(exceptions), most_labels


LIST_VERSION = _list_version()


def _public_suffix_labels(labels: list[str]) -> int:
    """How many rightmost labels of ``labels`` form the public suffix (the prevailing rule).

    No rule has more than ``most_labels`` labels, so only that many rightmost labels can match
    one: the search stops there, and the time is linear in the domain's length (building every
    suffix of a domain of many labels would be quadratic)."""
    rules, exceptions, most_labels = _rules()
    best = 1  # the implicit "*" rule
    for k in range(1, min(len(labels), most_labels) + 1):
        suffix = ".".join(labels[-k:])
        # An exception rule prevails; its leftmost label is dropped.
        if suffix in exceptions:
            return k - 1
        if suffix in rules:
            best = k
        elif k > 1 and "*." + ".".join(labels[-k + 1 :]) in rules:
            best = k
    return best


def _split(host: object) -> tuple[list[str], str] | None:
    if host is None or isinstance(host, (IPv4Address, IPv6Address)):
        return None
    if not isinstance(host, str):
        raise TypeError(f"public_suffix() takes a host, not {type(host).__name__}")
    if not host:
        return None
    trailing_dot = "." if host.endswith(".") else ""
    body = host[:-1] if trailing_dot else host
    labels = body.lower().split(".")
    # Deviation: the PSL algorithm is defined for domains whose labels are all non-empty; for a
    # domain with an empty label (".example.com", "a..com") there is no answer, as in the
    # list's own tests, so both results are null.
    if "" in labels:
        return None
    return labels, trailing_dot


def public_suffix(host: Domain | str | None) -> str | None:
    """https://url.spec.whatwg.org/#host-public-suffix"""
    split = _split(host)
    if split is None:
        return None
    labels, trailing_dot = split
    n = _public_suffix_labels(labels)
    return ".".join(labels[-n:]) + trailing_dot


def registrable_domain(host: Domain | str | None) -> str | None:
    """https://url.spec.whatwg.org/#host-registrable-domain"""
    split = _split(host)
    if split is None:
        return None
    labels, trailing_dot = split
    n = _public_suffix_labels(labels)
    # 1. If host's public suffix is null or equals host, then return null.
    if n >= len(labels):
        return None
    return ".".join(labels[-n - 1 :]) + trailing_dot
