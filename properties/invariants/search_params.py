"""https://url.spec.whatwg.org/#interface-urlsearchparams

Invariants of ``URLSearchParams`` against a list-of-pairs model, free-standing and
attached to a URL.
"""

from __future__ import annotations

import engine
from engine import Failure
from properties.invariants.common import fail, to_usv
from properties.invariants.urlencoded import urlencoded_parse_model, urlencoded_serialize_model
from properties.invariants.urls import check_url_object


#: URLSearchParams operations understood by check_search_params: name -> accepted arities.
SEARCH_PARAMS_METHODS = {
    "append": (2,), "delete": (1, 2), "get": (1,), "get_all": (1,), "has": (1, 2),
    "set": (2,), "sort": (0,), "size": (0,), "iter": (0,), "str": (0,),
}


def code_unit_key(name: str) -> bytes:
    """Sort key: code unit order (UTF-16 code units compare as big-endian byte pairs)."""
    return to_usv(name).encode("utf-16-be")


def apply_search_params_op(params, model: list[tuple[str, str]], op: tuple):
    """Apply ``op`` to an engine URLSearchParams and to the list-of-pairs ``model`` (mutated in
    place); return (engine's answer, model's answer)."""
    method, args = op[0], tuple(to_usv(a) for a in op[1:])
    if len(args) not in SEARCH_PARAMS_METHODS[method]:
        raise ValueError(f"bad search params op {op!r}")
    if method == "append":
        params.append(*op[1:])
        model.append(args)
        return None, None
    if method == "delete":
        params.delete(*op[1:])
        model[:] = [p for p in model
                    if not (p[0] == args[0] and (len(args) == 1 or p[1] == args[1]))]
        return None, None
    if method == "set":
        params.set(*op[1:])
        index = next((i for i, p in enumerate(model) if p[0] == args[0]), None)
        if index is None:
            model.append(args)
        else:
            model[:] = [args if i == index else p for i, p in enumerate(model)
                        if p[0] != args[0] or i == index]
        return None, None
    if method == "sort":
        params.sort()
        model.sort(key=lambda p: code_unit_key(p[0]))
        return None, None
    if method == "get":
        return params.get(*op[1:]), next((v for n, v in model if n == args[0]), None)
    if method == "get_all":
        return list(params.get_all(*op[1:])), [v for n, v in model if n == args[0]]
    if method == "has":
        return params.has(*op[1:]), any(
            n == args[0] and (len(args) == 1 or v == args[1]) for n, v in model)
    if method == "size":
        return params.size, len(model)
    if method == "iter":
        return [tuple(p) for p in params], list(model)
    return str(params), urlencoded_serialize_model(model)


def check_search_params_state(params, model, where: str) -> None:
    """The object's list, size and string equal the model's."""
    listed = [tuple(p) for p in params]
    if listed != model:
        fail(f"{where}: the list is {listed!r}, the model {model!r}")
    if params.size != len(model):
        fail(f"{where}: size is {params.size!r}, the model has {len(model)} pairs")
    text, expected = str(params), urlencoded_serialize_model(model)
    if text != expected:
        fail(f"{where}: str() is {text!r}, expected {expected!r}")


def check_search_params(init: str | list[tuple[str, str]], ops: list[tuple]) -> None:
    """https://url.spec.whatwg.org/#interface-urlsearchparams

    ``URLSearchParams(init)`` (a string, a leading '?' ignored; or a sequence of pairs)
    behaves like a plain list of pairs under
    every method: append, delete (by name, or name and value), get, get_all, has, set (first
    replaced, others removed), sort (stable, by code units of the name), size, iteration and
    str(), compared with the model after every operation.
    """
    params = engine.URLSearchParams(init)
    _run_search_params_ops(params, _search_params_model(init), ops,
                           f"URLSearchParams({init!r})")


def _search_params_model(init) -> list[tuple[str, str]]:
    """The list a URLSearchParams initialized with ``init`` holds: the pairs of a string (one
    leading '?' removed), or a sequence of pairs as scalar value strings."""
    if isinstance(init, str):
        text = to_usv(init)
        return urlencoded_parse_model((text[1:] if text.startswith("?") else text).encode())
    return [(to_usv(n), to_usv(v)) for n, v in init]


def _run_search_params_ops(params, model, ops, where: str, after_change=None) -> None:
    """Apply ``ops`` to ``params`` and the model, comparing answers and state after each;
    ``after_change(where)`` runs after each operation that changes the list."""
    check_search_params_state(params, model, where)
    for op in ops:
        where += f".{op[0]}({', '.join(map(repr, op[1:]))})"
        got, expected = apply_search_params_op(params, model, op)
        if got != expected:
            fail(f"{where} returned {got!r}, expected {expected!r}")
        check_search_params_state(params, model, where)
        if after_change is not None and op[0] in ("append", "delete", "set", "sort"):
            after_change(model, where)


def check_search_setter(href: str, value: str) -> None:
    """https://url.spec.whatwg.org/#dom-url-search

    After ``url.search = value`` the URL's query object lists the pairs of ``value`` itself
    (one leading '?' removed; none for ""), whether or not ``search_params`` was taken before:
    the Standard makes the query object with the URL and the setter parses the given value,
    not the URL's query (which has tabs and newlines stripped).
    """
    try:
        url = engine.URL(href)
    except Failure:
        return
    text = to_usv(value)
    query = text[1:] if text.startswith("?") else text
    expected = urlencoded_parse_model(query.encode("utf-8"))
    for taken_first in (True, False):
        url = engine.URL(href)
        if taken_first:
            url.search_params  # noqa: B018
        url.search = value
        listed = [tuple(p) for p in url.search_params]
        if listed != expected:
            fail(f"URL({href!r}); {'url.search_params; ' if taken_first else ''}"
                  f"url.search = {value!r}: search_params lists {listed!r}, expected "
                  f"{expected!r}")


def check_search_params_on_url(base: str, init: str, taken_first: bool, ops: list[tuple]) -> None:
    """https://url.spec.whatwg.org/#dom-url-searchparams

    ``URL(base)``, its search set to ``init`` (``search_params`` taken before or after), then
    ``ops`` on ``search_params``: the list follows the model as in check_search_params, and
    after every change the URL's query is the serialized list (none when empty), the URL
    staying coherent (check_url_object).
    """
    url = engine.URL(base)
    if taken_first:
        url.search_params  # noqa: B018
    url.search = init

    def query_written_back(model, where):
        serialized = urlencoded_serialize_model(model)
        expected_search = "?" + serialized if serialized else ""
        if url.search != expected_search:
            fail(f"{where}: url.search is {url.search!r}, expected {expected_search!r}")
        check_url_object(url, where)

    _run_search_params_ops(url.search_params, _search_params_model(init), ops,
                           f"URL({base!r}) with search {init!r}: searchParams",
                           query_written_back)
