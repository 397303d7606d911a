"""``urlwb verdict``: one input judged by the one judge, for a parser or a validator.

A parser (``--parsers NAMES``, or ``--headline``): :mod:`urlwb.differential.verdict_command`. A
validator of ``urlwb ssrf`` (``--oracle ip``, ``ipaddress``, ``NAME@VERSION``), spelled as ``urlwb
ssrf`` spells it: the input asked of it and of the modelled fetchers ``--parsers`` (default: the
parser it reads the host with), and judged as ``urlwb ssrf --inputs FILE --oracle NAME --parsers
FETCHERS --clients none`` judges it (:func:`urlwb.ssrf.command.model_records`): the same records,
the same verdicts (issue 34). ``--out PATH`` writes what is printed to a file as well
(:func:`urlwb.differential.verdict_command.write_out`). This module sits above both rooms (the
verdicts layer may import neither).
"""

from __future__ import annotations

import json

from urlwb import oracles
from urlwb.cliutil import add_oracle, check_output_file
from urlwb.differential import verdict_command as parsers
from urlwb.errors import UsageError
from urlwb.oracles import contracts
from urlwb.ssrf import catalog, policy
from urlwb.ssrf import command as ssrf_command


def add_arguments(p) -> None:
    parsers.add_arguments(p)
    add_oracle(p, "a validator of urlwb ssrf (NAME, NAME@VERSION), judged as ssrf --inputs judges it; "
                  "--parsers are then its modelled fetchers (default: the parser it reads the host with)",
               dest="validator")


def _is_validator(name: str) -> bool:
    base = name.partition("@")[0]
    return base in catalog.SHIPPED and name not in oracles.REGISTRY


def run(args) -> int:
    check_output_file("--out", args.out)
    if not args.validator:
        return parsers.run(args)
    if args.headline or args.input is None:
        raise UsageError("--oracle VALIDATOR takes an INPUT (and no --headline)")
    for name in args.validator:
        if not _is_validator(name):
            raise UsageError(f"--oracle {name}: not a validator of urlwb ssrf (urlwb oracle list names them)")
    parsers.write_out(args.out, [judge_validator(name, args.input, args.parser) for name in args.validator])
    return 0


def judge_validator(name: str, input: str, fetcher_spec: str | None) -> dict:
    """One validator's verdict on ``input``, printed as JSON and returned (its ``verdict`` None:
    no finding)."""
    reads = contracts.contract(name, "validator", role="validator").reads
    fetcher_names = ssrf_command.fetcher_names_of(fetcher_spec) if fetcher_spec else ([reads] if reads else [])
    validators, skipped = catalog.start(catalog.declared([name]))
    fetcher_oracles, f_skipped = oracles.load(fetcher_names)
    try:
        if name not in validators:
            raise UsageError(f"validator {name} cannot start: {skipped.get(name, '?')}")
        records = [r for r in ssrf_command.model_records(validators, fetcher_oracles, policy.parse(None, None), [input])
                   if r.get("validator") == name or r.get("parser") == name]
        allowed = validators[name].check_many([input])[0]
    finally:
        for v in validators.values():
            v.close()
        oracles.close_all(fetcher_oracles)
    verdict = records[0]["verdict"] if records else None
    said = {"validator": name, "allowed": allowed.allow, "fetchers": fetcher_names,
            "skipped": f_skipped, "validator_host": records[0].get("validator_host") if records else None,
            "verdict": verdict}
    print(json.dumps(said, ensure_ascii=False, indent=2))
    return said
