#!/usr/bin/env python3
"""Coverage-guided search for bypasses of a Python validator, under atheris (libFuzzer).

Invariant sought broken: the validator allows the input, and an in-process fetcher (urllib,
urllib3, yarl, the engine, ...) connects to a destination the policy denies. Only the
validator's own package is instrumented (``atheris.instrument_imports(include=[package])``), so
coverage steers toward the validator's branches; the fetchers and the policy are plain Python.
A bypass does not stop the run: each new one is appended to the output file as a JSON line
``{"input": ...}``, and ``urlwb ssrf`` then asks every validator and fetcher about it. The seeds
are the systematic inputs (:mod:`.inputs`), one file each.

    python -m urlwb.ssrf.guided TARGET OUT.jsonl CORPUS_DIR --fetchers a,b --deny LIST -- LIBFUZZER_ARGS

``TARGET`` is ``validators`` or ``ipaddress`` (the shipped PyPI/stdlib validators, the former from
``$URLWB_VALIDATOR_SITE`` or the shipped ``build/site``) or ``package.module:function``.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import pathlib
import sys

import atheris

SHIPPED_SITE = pathlib.Path(__file__).resolve().parent / "validators" / "pypi" / "build" / "site"


def load_target(target: str):
    """(predicate, package instrumented) for ``target``; imported under instrumentation."""
    if target == "validators":
        sys.path.insert(0, os.environ.get("URLWB_VALIDATOR_SITE") or str(SHIPPED_SITE))
        with atheris.instrument_imports(include=["validators"]):
            import validators
        params = inspect.signature(validators.url).parameters
        kw = {"private": False} if "private" in params else {"public": True} if "public" in params else {}
        return (lambda s: bool(validators.url(s, **kw))), "validators"
    if target == "ipaddress":
        with atheris.instrument_imports(include=["ipaddress"]):
            import ipaddress
        import urllib.parse

        def judge(s):
            host = urllib.parse.urlsplit(s).hostname
            if host is None:
                return False
            try:
                return ipaddress.ip_address(host).is_global
            except ValueError:
                return True
        return judge, "ipaddress"
    module, _, fn = target.partition(":")
    top = module.split(".")[0]
    with atheris.instrument_imports(include=[top]):
        mod = importlib.import_module(module)
    return getattr(mod, fn), top


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ours, _, libfuzzer = (argv[: argv.index("--")], None, argv[argv.index("--") + 1:]) if "--" in argv else (argv, None, [])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("target")
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("corpus", type=pathlib.Path)
    ap.add_argument("--fetchers", required=True)
    ap.add_argument("--deny", default=None)
    ap.add_argument("--allow", default=None)
    args = ap.parse_args(ours)
    judge, _ = load_target(args.target)
    from urlwb import oracles
    from urlwb.ssrf import fetchers, policy
    pol = policy.parse(args.deny, args.allow)
    loaded, _ = oracles.load(args.fetchers.split(","))
    seen: set[str] = set()
    out = open(args.out, "a", encoding="utf-8")

    def test_one_input(data: bytes) -> None:
        s = oracles.to_usv(data.decode("utf-8", "replace"))
        try:
            allowed = judge(s) is True
        except Exception:  # noqa: BLE001 - a validator's exception denies (the hunt reports crashes)
            return
        if not allowed or s in seen:
            return
        for name, oracle in loaded.items():
            if pol.denied(fetchers.destination(name, oracle.parse(s))):
                seen.add(s)
                out.write(json.dumps({"input": s, "fetcher": name}) + "\n")
                out.flush()
                return

    atheris.Setup([sys.argv[0], str(args.corpus), *libfuzzer], test_one_input)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main())
