"""An in-process Python peer at another version, behind the oracle protocol (docs/oracle-protocol.md).

    python -m urlwb.oracles.versions.pyadapter PARSER MODULE:CLASS KIND
    python -m urlwb.oracles.versions.pyadapter NAME py:MODULE:FUNCTION url|validator

The second form runs a user's ``py:`` adapter out of the workbench's process: at a release of its
PyPI package, in that release's venv (:mod:`.installs`), and for ``urlwb oracle check
py:...``, which checks it as it checks a program. The function is called as in the workbench's
process: ``fn(input, base)`` -> a mapping of an answer's fields, ``ValueError`` a rejection
(:class:`urlwb.oracles.protocol.CallableOracle`); a validator's ``fn(input)`` -> a bool,
``ValueError`` a denial with its message (:class:`urlwb.ssrf.validator.CallableValidator`).

Run by the interpreter of the venv that holds that version (:mod:`urlwb.oracles.versions.builds`), with
the checkout on PYTHONPATH: it imports the very oracle class the workbench runs in its own
process (``urlwb.oracles.other:YarlOracle``, ``urlwb.oracles.hosts:IdnaOracle``...), so the
answers are the same code's on the other version's package. Requests are decoded as JSON (lone
surrogates kept, then made U+FFFD as :func:`urlwb.oracles.to_usv` does before every in-process
oracle); a Record or HostAnswer becomes one answer line. The hello line's ``version`` is the
oracle's own (``importlib.metadata`` in that venv). A failure has no message (the in-process
oracles keep none): ``"error": "rejected"``.
"""

from __future__ import annotations

import importlib
import json
import sys


def _answer_url(rid, rec) -> dict:
    if rec is None:
        return {"id": rid, "not_applicable": "not for this parser"}
    if rec.crash:
        return {"id": rid, "crash": rec.crash}
    if rec.failure:
        return {"id": rid, "error": "rejected"}
    return {"id": rid, "scheme": rec.scheme, "username": rec.username, "password": rec.password,
            "host": rec.host, "port": rec.port, "path": rec.path, "query": rec.query,
            "fragment": rec.fragment, "href": rec.href}


def _answer_host(rid, ans) -> dict:
    if ans is None:
        return {"id": rid, "not_applicable": "not for this oracle"}
    if ans.crash:
        return {"id": rid, "crash": ans.crash}
    if ans.failure:
        return {"id": rid, "error": "rejected"}
    return {"id": rid, "value": ans.value}


def _validator_answer(rid, fn, text) -> dict:
    try:
        got = fn(text)
    except ValueError as exc:
        return {"id": rid, "error": f"ValueError: {exc}"[:300]}
    if not isinstance(got, bool):
        return {"id": rid, "crash": f"out of schema: returned {type(got).__name__} {got!r:.80}, not a bool"}
    return {"id": rid, "allow": got}


def callable_main(name: str, target: str, kind: str) -> int:
    """A user's ``py:MODULE:FUNCTION`` behind the protocol (module docstring)."""
    from urlwb.oracles import manifests, to_usv
    from urlwb.oracles.protocol import CallableOracle, Unavailable
    module, _, function = target.partition(":")
    try:
        if kind == "validator":
            mod = importlib.import_module(module)
            fn = getattr(mod, function)
            if not callable(fn):
                raise TypeError(f"py:{target}: not callable")
            version = str(getattr(fn, "version", getattr(mod, "__version__", "?")))
            family, base = "other", False
        else:
            oracle = CallableOracle(manifests.Spec(name=name, command=[], cwd=None, callable=target))
            version, family, base = oracle.version, oracle.family, oracle.supports_base
    except (Unavailable, Exception) as exc:  # noqa: BLE001 - cannot start: said on stderr, exit before hello
        print(f"{name}: cannot start: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    hello = {"hello": "urlwb-oracle/1", "name": name, "language": "Python", "version": version,
             "family": family, "kind": kind, ("validator" if kind == "validator" else "parser"): f"py:{target}"}
    if kind != "validator":
        hello["base"] = bool(base)
    out = sys.stdout
    out.write(json.dumps(hello) + "\n")
    out.flush()
    for line in sys.stdin:
        req = None
        try:
            req = json.loads(line)
            rid = req.get("id")
            text = to_usv(req.get("input", ""))
            if kind == "validator":
                ans = _validator_answer(rid, fn, text)
            else:
                b = req.get("base")
                ans = _answer_url(rid, oracle.parse(text, None if b is None else to_usv(b)))
        except Exception as exc:  # noqa: BLE001 - undocumented: the adapter crashed on it
            ans = {"id": req.get("id") if isinstance(req, dict) else None,
                   "crash": f"{type(exc).__name__}: {exc}"[:300]}
        out.write(json.dumps(ans) + "\n")
        out.flush()
    return 0


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: python -m urlwb.oracles.versions.pyadapter PARSER MODULE:CLASS KIND\n"
              "       python -m urlwb.oracles.versions.pyadapter NAME py:MODULE:FUNCTION url|validator", file=sys.stderr)
        return 2
    parser, target, kind = argv
    if target.startswith("py:"):
        return callable_main(parser, target[3:], kind)
    module, _, cls = target.partition(":")
    from urlwb.oracles import to_usv
    try:
        factory = getattr(importlib.import_module(module), cls)
        oracle = factory({}) if kind == "url" else factory()
    except Exception as exc:  # noqa: BLE001 - cannot start: said on stderr, exit before hello
        print(f"{parser}: cannot start: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    hello = {"hello": "urlwb-oracle/1", "name": parser, "parser": f"{module}.{cls} (in a venv of its own)",
             "language": "Python", "version": oracle.version,
             "family": getattr(oracle, "family", "other") or "other", "kind": kind}
    if kind == "url":
        hello["base"] = bool(oracle.supports_base)
    else:
        hello["questions"] = list(oracle.questions)
    out = sys.stdout
    out.write(json.dumps(hello) + "\n")
    out.flush()
    for line in sys.stdin:
        req = None
        try:
            req = json.loads(line)
            rid = req.get("id")
            text = to_usv(req.get("input", ""))
            if kind == "url":
                base = req.get("base")
                rec = oracle.parse(text, None if base is None else to_usv(base))
                ans = _answer_url(rid, rec)
            else:
                ans = _answer_host(rid, oracle.answer(req.get("question"), text))
        except Exception as exc:  # noqa: BLE001 - undocumented: the oracle crashed on it
            ans = {"id": req.get("id") if isinstance(req, dict) else None,
                   "crash": f"{type(exc).__name__}: {exc}"[:300]}
        out.write(json.dumps(ans) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
