"""Invariants of the URL Standard that take the parser under test as an argument.

https://url.spec.whatwg.org/#url-parsing

Each function takes ``parse`` and returns a check, ``check(input, base=None)``, that raises
:class:`InvariantFailed` (an ``AssertionError``, so pytest shows it as a failed assertion) naming
the input and what went wrong, and returns None otherwise. ``parse`` is called as
``parse(input)``, or ``parse(input, base)`` when a base is given; it returns the parsed URL: its
serialization as a string, or an object with an ``href`` (WHATWG-style), else ``str()`` of it. A
rejected input is one for which it raises one of ``rejects`` (default ``ValueError``, which
:class:`engine.Failure`, ``urllib``'s and most parsers' errors are) or returns None; any other
exception is a crash, and fails every invariant.

The strategies hold lone surrogates (a JavaScript string can, and the Standard's input is a
USVString: WebIDL turns each into U+FFFD). A parser that takes only scalar values (one that
encodes its input as UTF-8 first, as most Python bindings do) is checked with ``usv=True``: each
input goes through :func:`to_usv` before either parser sees it.

- :func:`never_crashes`: the parser returns or rejects, whatever the input;
- :func:`reparse_idempotent`: a URL's serialization parses again, without a base, to the same
  serialization (the URL Standard's serializer and parser round-trip; RFC 3986 §6 normalizations
  are idempotent too);
- :func:`agrees_with_standard`: accepts and rejects what the URL Standard does, with the same
  serialization (the Standard as the workbench's engine reads it: it passes every WPT url test).
  For a parser that claims the URL Standard; others differ by design.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["InvariantFailed", "Check", "never_crashes", "reparse_idempotent", "agrees_with_standard",
           "standard_parse", "to_usv"]

#: what every invariant returns: check(input, base=None)
Check = Callable[..., None]


class InvariantFailed(AssertionError):
    """An invariant does not hold for one input; the message names the input and what differs."""


def to_usv(text: str) -> str:
    """``text`` as WebIDL converts it to a USVString: a surrogate pair is its code point, a lone
    surrogate U+FFFD."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _href(result: Any) -> str:
    if isinstance(result, str):
        return result
    href = getattr(result, "href", None)
    return href if isinstance(href, str) else str(result)


def _call(parse: Callable[..., Any], input: str, base: str | None,
          rejects: tuple[type[BaseException], ...], where: str) -> str | None:
    """The serialization ``parse`` gives, or None when it rejects the input."""
    try:
        result = parse(input) if base is None else parse(input, base)
    except rejects:
        return None
    except Exception as exc:  # noqa: BLE001 - anything else is the crash being checked for
        raise InvariantFailed(f"{where}: raised {type(exc).__name__}: {exc} "
                              f"(not one of the rejections {[r.__name__ for r in rejects]})") from exc
    return None if result is None else _href(result)


def _where(input: str, base: str | None) -> str:
    return f"parse({input!r}" + ("" if base is None else f", {base!r}") + ")"


def never_crashes(parse: Callable[..., Any], *,
                  rejects: tuple[type[BaseException], ...] = (ValueError,), usv: bool = False) -> Check:
    """The check that ``parse`` returns a URL or rejects the input, never raises anything else."""
    def check(input: str, base: str | None = None) -> None:
        if usv:
            input, base = to_usv(input), None if base is None else to_usv(base)
        _call(parse, input, base, rejects, _where(input, base))
    return check


def reparse_idempotent(parse: Callable[..., Any], *,
                       rejects: tuple[type[BaseException], ...] = (ValueError,), usv: bool = False) -> Check:
    """The check that, where ``parse`` accepts ``input``, its serialization parses again (without
    a base) to the same serialization (https://url.spec.whatwg.org/#concept-url-serializer)."""
    def check(input: str, base: str | None = None) -> None:
        if usv:
            input, base = to_usv(input), None if base is None else to_usv(base)
        where = _where(input, base)
        href = _call(parse, input, base, rejects, where)
        if href is None:
            return
        again = _call(parse, href, None, rejects, f"{where} = {href!r}; parse({href!r})")
        if again is None:
            raise InvariantFailed(f"{where} = {href!r}, which it rejects when parsed again")
        if again != href:
            raise InvariantFailed(f"{where} = {href!r}, but parse({href!r}) = {again!r}")
    return check


def standard_parse(input: str, base: str | None = None) -> str:
    """The URL Standard's reading (the workbench's engine): the href, or ``ValueError``
    (:class:`engine.Failure`) for failure."""
    import engine

    return engine.URL(input, base).href


def agrees_with_standard(parse: Callable[..., Any], *,
                         rejects: tuple[type[BaseException], ...] = (ValueError,), usv: bool = False) -> Check:
    """The check that ``parse`` accepts what the URL Standard accepts, with the same href, and
    rejects what it rejects."""
    def check(input: str, base: str | None = None) -> None:
        if usv:
            input, base = to_usv(input), None if base is None else to_usv(base)
        where = _where(input, base)
        mine = _call(parse, input, base, rejects, where)
        theirs = _call(standard_parse, input, base, (ValueError,), "the Standard")
        if mine != theirs:
            said = "failure" if theirs is None else repr(theirs)
            got = "a rejection" if mine is None else repr(mine)
            raise InvariantFailed(f"{where} gives {got}; the URL Standard gives {said}")
    return check
