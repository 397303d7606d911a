"""Two parsers, one truth: the fast parser (``engine.url``) agrees with the reference
(``engine.reference``, the Standard's basic URL parser as written) on every input.

https://url.spec.whatwg.org/#concept-basic-url-parser

Shared by ``fuzzers/fuzz_reference.py`` and ``properties/test_reference.py``. Each ``check_*``
raises ``AssertionError`` naming the input and both answers where the parsers disagree; only
``engine.Failure`` (the Standard's failure, a legitimate answer) is caught.
"""

from __future__ import annotations

import functools

import engine
import engine.reference
from engine import Failure
from properties.invariants.common import Failed  # (a Failure raised, compared by its validation error)

__all__ = ["check_parsers_agree", "check_setter_agrees", "SETTERS"]

#: The URL API's setters, each of which runs the basic URL parser (all but username and password
#: with a state override).
SETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
           "search", "hash")

FAST, REFERENCE = engine.basic_url_parse, engine.reference.basic_url_parse


def _fail(message: str) -> None:
    raise AssertionError(message)


def _fields(record: engine.URLRecord) -> tuple:
    """A URL record's components, its host with the host's kind (Domain, IPv4Address, ...)."""
    return (record.scheme, record.username, record.password, type(record.host).__name__,
            record.host, record.port, record.path, record.query, record.fragment)


def _parse(parse, input: str, base, errors: list[str] | None, encoding: str = "utf-8"):
    try:
        return parse(input, base, encoding=encoding, errors=errors)
    except Failure as exc:
        return Failed(exc.validation_error)


def _compare(where: str, fast, reference) -> None:
    """Both failed alike, or both gave equal records that both serializers serialize alike."""
    if isinstance(fast, Failed) or isinstance(reference, Failed):
        if fast != reference:
            _fail(f"{where}: the fast parser gives {_show(fast)}, the reference {_show(reference)}")
        return
    if _fields(fast) != _fields(reference):
        _fail(f"{where}: the fast parser gives the record {_fields(fast)!r}, the reference "
              f"{_fields(reference)!r}")
    hrefs = {engine.serialize_url(fast), engine.reference.serialize_url(fast),
             engine.reference.serialize_url(reference)}
    if len(hrefs) != 1:
        _fail(f"{where}: equal records, but the two URL serializers give {sorted(hrefs)!r}")


def _show(outcome) -> str:
    return repr(outcome) if isinstance(outcome, Failed) else repr(_fields(outcome))


def check_parsers_agree(input: str, base: str | None = None, encoding: str = "utf-8") -> None:
    """Given any input, with or without a base, in any encoding (a label, for the query): the
    fast parser and the reference both fail,
    naming the same validation error, or give equal records (every component, and the host's
    kind) that serialize alike; listening, they report the same validation errors in the same
    order; and the fast parser unheard (its fast path) answers as it does heard.

    With a base, the base itself must parse alike; the input is then parsed against each
    parser's own record of it."""
    where = (f"basic_url_parse({input!r}" + ("" if base is None else f", base={base!r}")
             + ("" if encoding == "utf-8" else f", encoding={encoding!r}") + ")")
    fast_base = reference_base = None
    if base is not None:
        check_parsers_agree(base)
        fast_base = _parse(FAST, base, None, None)
        if isinstance(fast_base, Failed):
            return
        reference_base = REFERENCE(base)
    fast_errors: list[str] = []
    reference_errors: list[str] = []
    fast = _parse(FAST, input, fast_base, fast_errors, encoding)
    reference = _parse(REFERENCE, input, reference_base, reference_errors, encoding)
    _compare(where, fast, reference)
    if fast_errors != reference_errors:
        _fail(f"{where}: the fast parser reports {fast_errors!r}, the reference "
              f"{reference_errors!r}")
    _compare(f"{where} (the fast parser not listening)", _parse(FAST, input, fast_base, None, encoding),
             reference)


# engine.URL and the reference's URL API, each also with its parses heard: every parse the
# constructor and the setters run reports its validation errors to a list (cleared per check).
_HEARD: dict[str, list[str]] = {"fast": [], "reference": []}


class _HeardURL(engine.URL):
    __slots__ = ()
    _basic_url_parse = staticmethod(functools.partial(FAST, errors=_HEARD["fast"]))


class _HeardReferenceURL(engine.reference.ReferenceURL):
    __slots__ = ()
    _basic_url_parse = staticmethod(functools.partial(REFERENCE, errors=_HEARD["reference"]))


def _after_setting(URL, href: str, setter: str, value: str):
    """URL(href), then its setter given value: the record and href, with the failure (of the
    constructor, or of the href setter) if any."""
    try:
        url = URL(href)
    except Failure as exc:
        return Failed(exc.validation_error)
    try:
        setattr(url, setter, value)
    except Failure as exc:
        return (Failed(exc.validation_error), _fields(url.record), url.href)
    return (_fields(url.record), url.href)


def check_setter_agrees(href: str, setter: str, value: str) -> None:
    """Given any URL and any value, ``URL(href).<setter> = value`` leaves equal records and equal
    hrefs on both parsers (``engine.URL`` and ``engine.reference.ReferenceURL``, whose setters
    run the reference with the Standard's state overrides), or fails alike; listening, the
    constructor's and the setter's parses report the same validation errors in the same
    order."""
    where = f"URL({href!r}).{setter} = {value!r}"
    fast = _after_setting(engine.URL, href, setter, value)
    reference = _after_setting(engine.reference.ReferenceURL, href, setter, value)
    if fast != reference:
        _fail(f"{where}: the fast parser gives {fast!r}, the reference {reference!r}")
    for heard in _HEARD.values():
        heard.clear()
    fast = _after_setting(_HeardURL, href, setter, value)
    reference = _after_setting(_HeardReferenceURL, href, setter, value)
    if fast != reference:
        _fail(f"{where} (listening): the fast parser gives {fast!r}, the reference {reference!r}")
    if _HEARD["fast"] != _HEARD["reference"]:
        _fail(f"{where}: the fast parser reports {_HEARD['fast']!r}, the reference "
              f"{_HEARD['reference']!r}")
