"""https://url.spec.whatwg.org/#url-parsing

Invariants of URLs: reparse idempotence, the getters, canParse, base resolution,
the setters, and the fast path against the state machine.
"""

from __future__ import annotations

import re

import engine
from engine import Failure
from engine.fast_path import parse_fast_path
from engine.url import basic_url_parse_state_machine
from properties.invariants.common import (GETTERS, SETTERS, SPECIAL_SCHEMES, Failed,
                                         check_failure_names_its_error, fail, outcome, to_usv)
from properties.invariants.percent_encoding import expected_percent_encoding


def _reparse(href: str, where: str):
    """``URL(href)`` without a base, which must give ``href`` again."""
    try:
        again = engine.URL(href)
    except Failure as exc:
        fail(f"{where}: href {href!r} does not parse again, without a base "
              f"({exc.validation_error})")
    if again.href != href:
        fail(f"{where}: href {href!r} reparses as {again.href!r}")
    return again


def check_url_object(url, where: str) -> None:
    """Every getter agrees with the href: the href is ASCII without C0 controls or DEL, parses
    again to the same href and the same getters, and the getters fit together (protocol
    prefix, hash suffix, host = hostname[:port], port a decimal up to 65535 and never the
    scheme's default, the origin: scheme and host of a
    special non-file URL, of a blob URL's inner http(s) URL, else opaque, "null")."""
    href = url.href
    values = {name: getattr(url, name) for name in GETTERS}
    again = _reparse(href, where)
    # The getters are functions of the URL record: an equal record has the same getters (and
    # the getters of the two are compared only where the records differ, to say which).
    if again.record != url.record:
        for name in GETTERS:
            if getattr(again, name) != values[name]:
                fail(f"{where}: .{name} is {values[name]!r} but URL({href!r}).{name} is "
                      f"{getattr(again, name)!r}")
        fail(f"{where}: URL({href!r}) has another record, {again.record!r}, with the same "
              f"getters")
    if not href.isascii() or re.search("[\x00-\x1f\x7f]", href):
        fail(f"{where}: href {href!r} holds a non-ASCII code point, a C0 control or DEL, all "
              f"of which the serializer's components percent-encode")
    protocol, host, hostname, port = (values[k] for k in ("protocol", "host", "hostname", "port"))
    if not (protocol.endswith(":") and href.startswith(protocol)):
        fail(f"{where}: href {href!r} does not start with protocol {protocol!r}")
    if values["hash"] and not (values["hash"].startswith("#") and href.endswith(values["hash"])):
        fail(f"{where}: href {href!r} does not end with hash {values['hash']!r}")
    if values["search"] and not (values["search"].startswith("?") and values["search"] in href):
        fail(f"{where}: href {href!r} does not hold search {values['search']!r}")
    if host != (hostname + ":" + port if port else hostname):
        fail(f"{where}: host {host!r} is not hostname {hostname!r} and port {port!r}")
    scheme = protocol[:-1]
    if port and not (port.isascii() and port.isdigit() and str(int(port)) == port
                     and int(port) <= 65535 and SPECIAL_SCHEMES.get(scheme) != int(port)):
        fail(f"{where}: port {port!r} is not a decimal 0-65535 other than the default")
    if scheme in SPECIAL_SCHEMES and scheme != "file":
        expected_origin = f"{protocol}//{host}"
    elif scheme == "blob":  # https://url.spec.whatwg.org/#concept-url-origin ("blob")
        try:
            inner = engine.URL(values["pathname"])
        except Failure:
            inner = None
        expected_origin = (inner.origin if inner is not None and inner.protocol in
                           ("http:", "https:", "file:") else "null")
    else:  # file, and every non-special scheme: an opaque origin
        expected_origin = "null"
    if values["origin"] != expected_origin:
        fail(f"{where}: origin {values['origin']!r}, expected {expected_origin!r}")
    if host and not href[len(protocol):].startswith("//"):
        fail(f"{where}: href {href!r} has a host but no '//' after the scheme")


URL_IDEMPOTENCE_PARTS = ("reparse", "getters", "parsers")


def check_url_idempotence(input: str, base: str | None = None, *,
                          parts: tuple[str, ...] = URL_IDEMPOTENCE_PARTS) -> None:
    """https://url.spec.whatwg.org/#concept-url-serializer

    If ``input`` parses (against ``base``):
    - "reparse": its href parses again, without a base, to an equal record that serializes to
      the same href;
    - "getters": the href parses again to the same href and getters (check_url_object);
    - "parsers": the basic URL parser listening for validation errors (which turns its shortcuts
      off) gives an equal record, serialized as that href, and only the Standard's error names;
      excluding the fragment cuts the href at its first '#'; if it fails, the basic URL parser
      fails too, naming the validation error it recorded last.
    ``parts`` picks some of these (a fuzz target checks one per input, to keep executions cheap);
    by default all are checked.
    """
    where = f"URL({input!r}" + ("" if base is None else f", {base!r}") + ")"
    try:
        url = engine.URL(input, base)
    except Failure as exc:
        if "parsers" not in parts:
            return
        base_record = outcome(engine.basic_url_parse, to_usv(base)) if base is not None else None
        if isinstance(base_record, Failed):
            return
        errors: list[str] = []
        failed = outcome(engine.basic_url_parse, to_usv(input), base_record, errors=errors)
        if not isinstance(failed, Failed):
            fail(f"{where} failed ({exc.validation_error}) but basic_url_parse succeeds")
        if exc.validation_error is None:
            fail(f"{where}: a failure that names no validation error")
        check_failure_names_its_error(failed, errors, where)
        return
    if "reparse" in parts:
        href = url.href
        reparsed = outcome(engine.basic_url_parse, href)
        if isinstance(reparsed, Failed):
            fail(f"{where}.href = {href!r} does not parse again: {reparsed!r}")
        if engine.serialize_url(reparsed) != href:
            fail(f"{where}.href = {href!r} reserializes as {engine.serialize_url(reparsed)!r}")
        if reparsed != url.record:
            fail(f"{where}: the record of href {href!r} differs from the record it came from")
    if "getters" in parts:
        check_url_object(url, where)
    if "parsers" not in parts:
        return
    # The state machine step by step (listening turns off the parser's shortcuts) gives the
    # same URL record, serialized; and only names of the Standard's errors.
    base_record = None if base is None else engine.basic_url_parse(to_usv(base))
    errors: list[str] = []
    listened = outcome(engine.basic_url_parse, to_usv(input), base_record, errors=errors)
    if isinstance(listened, Failed):
        fail(f"{where} = {url.href!r}, but basic_url_parse with errors=[] failed: {listened!r}")
    serialized = engine.serialize_url(listened)
    if serialized != url.href:
        fail(f"{where}.href = {url.href!r}, but with errors=[] basic_url_parse gives "
              f"{serialized!r}")
    if listened != url.record:
        fail(f"{where}: with errors=[] the record differs: {listened!r}, {url.record!r}")
    unknown = [e for e in errors if e not in engine.VALIDATION_ERRORS]
    if unknown:
        fail(f"{where}: unknown validation error names {unknown!r}")
    cut = engine.serialize_url(url.record, exclude_fragment=True)
    if cut != url.href.split("#", 1)[0]:
        fail(f"{where}: serialize_url(exclude_fragment=True) = {cut!r}, href {url.href!r}")


def check_can_parse(input: str, base: str | None = None) -> None:
    """https://url.spec.whatwg.org/#dom-url-canparse

    ``URL.can_parse`` is true exactly when ``URL.parse`` returns a URL. (That ``URL.parse``
    returns None exactly when the constructor fails, with the same href otherwise, is the same
    code path in the engine, the API URL parser: tests/engine/test_api.py checks it on WPT's inputs.)
    """
    where = f"({input!r}" + ("" if base is None else f", {base!r}") + ")"
    can = engine.URL.can_parse(input, base)
    parsed = engine.URL.parse(input, base)
    if can is not (parsed is not None):
        fail(f"URL.can_parse{where} = {can!r}, URL.parse{where} = "
              f"{None if parsed is None else parsed.href!r}")


def check_base_resolution(input: str, base: str) -> None:
    """https://url.spec.whatwg.org/#concept-base-url

    Resolving against the base's href gives the same URL as resolving against the base string.
    (That a URL resolved against a base needs no base any more, ``URL(URL(x, base).href).href ==
    URL(x, base).href``, is check_url_idempotence's "reparse" part, with the same base.)
    """
    where = f"URL({input!r}, {base!r})"
    try:
        resolved = engine.URL(input, base)
    except Failure:
        return
    href = resolved.href
    base_href = engine.URL(base).href
    via_href = outcome(engine.URL, input, base_href)
    if isinstance(via_href, Failed) or via_href.href != href:
        shown = via_href if isinstance(via_href, Failed) else via_href.href
        fail(f"{where}.href = {href!r}, but against the base's href {base_href!r}: {shown!r}")


def check_setters(href: str, steps: list[tuple[str, str]]) -> None:
    """https://url.spec.whatwg.org/#urlutils-members

    After any sequence of setter calls on ``URL(href)`` the URL stays coherent after every step
    (check_url_object: ``URL(u.href).href == u.href`` and every getter agrees with the href),
    and each setter did what the Standard says (_check_setter_effect);
    only the href setter may fail, and then it changes nothing; setting an attribute to its own
    non-empty value changes nothing (an empty getter is excluded: "" stands for null or empty,
    e.g. the null host of "a:/", which .host = "" turns into an empty host).
    """
    try:
        url = engine.URL(href)
    except Failure:
        return
    where = f"URL({href!r})"
    check_url_object(url, where)
    for name, value in steps:
        if name not in SETTERS:
            raise ValueError(f"unknown setter {name!r}")
        where += f"; .{name} = {value!r}"
        before = url.href
        before_values = {g: getattr(url, g) for g in GETTERS}
        try:
            setattr(url, name, value)
        except Failure as exc:
            if name != "href":
                fail(f"{where}: the {name} setter raised Failure({exc.validation_error!r}); "
                      f"only the href setter may throw")
            if url.href != before:
                fail(f"{where}: the href setter failed but changed href {before!r} to "
                      f"{url.href!r}")
            continue
        check_url_object(url, where)
        _check_setter_effect(name, value, before_values, url, where)
        current = url.href
        own = getattr(url, name)
        if own:
            setattr(url, name, own)
            if url.href != current:
                fail(f"{where}: then .{name} = {own!r} (its own value) changed href "
                      f"{current!r} to {url.href!r}")


def _check_setter_effect(name: str, value: str, before: dict, url, where: str) -> None:
    """https://url.spec.whatwg.org/#urlutils-members: what each setter must have done.

    href: the URL ``value`` parses to; protocol: the old scheme or the value's, never across
    the special/non-special line; username and password: the value UTF-8 percent-encoded with
    the userinfo set, or nothing where the URL cannot have credentials; port: null for "",
    the value's leading digits as a number (null for the default port), or nothing where
    there is no such number up to 65535 or the URL cannot have a port.
    """
    value = to_usv(value)
    cannot_have_credentials = before["hostname"] == "" or before["protocol"] == "file:"
    if name == "href":
        expected = engine.URL(value).href  # the setter did not throw, so this parses
        if url.href != expected:
            fail(f"{where}: href is {url.href!r}, but URL({value!r}).href is {expected!r}")
    elif name == "protocol":
        scheme = re.sub("[\t\n\r]", "", value).split(":", 1)[0].lower() + ":"
        if url.protocol not in (before["protocol"], scheme):
            fail(f"{where}: protocol became {url.protocol!r}, neither {before['protocol']!r} "
                  f"nor {scheme!r}")
        special = {s + ":" for s in SPECIAL_SCHEMES}
        if (url.protocol in special) != (before["protocol"] in special):
            fail(f"{where}: protocol {before['protocol']!r} became {url.protocol!r}, across "
                  f"the special/non-special line")
    elif name in ("username", "password"):
        expected = before[name] if cannot_have_credentials else expected_percent_encoding(
            value, "userinfo")
        if getattr(url, name) != expected or (cannot_have_credentials and
                                              url.href != before["href"]):
            fail(f"{where}: {name} is {getattr(url, name)!r}, expected {expected!r}")
    elif name == "port":
        digits = re.match("[0-9]*", re.sub("[\t\n\r]", "", value)).group()
        scheme = before["protocol"][:-1]
        if cannot_have_credentials or (value and (not digits or int(digits) > 65535)):
            expected = before["port"]
        elif not value:
            expected = ""
        else:
            expected = "" if SPECIAL_SCHEMES.get(scheme) == int(digits) else str(int(digits))
        if url.port != expected:
            fail(f"{where}: port is {url.port!r}, expected {expected!r}")


def check_fast_path(input: str) -> None:
    """The URL parser's fast path agrees with the step-by-step state machine: where
    ``parse_fast_path`` accepts an input, the state machine gives an equal record."""
    fast = parse_fast_path(input)
    if fast is None:
        return
    try:
        slow = basic_url_parse_state_machine(input)
    except engine.Failure as exc:
        raise AssertionError(f"fast path accepted {input!r}, the state machine fails: {exc}") from None
    assert fast == slow, f"fast path {engine.serialize_url(fast)!r} != state machine {engine.serialize_url(slow)!r} for {input!r}"
    assert engine.serialize_url(fast) == engine.serialize_url(slow)
