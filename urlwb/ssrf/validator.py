"""Validators: predicates on URLs (allow or deny), as programs speaking the oracle protocol's
kind ``validator`` (``docs/oracle-protocol.md``, "Validators") under the supervisor, or as a
``py:package.module:function`` in process.

Every answer becomes a :class:`~urlwb.oracles.protocol.Verdict`, held to the schema by
:func:`urlwb.oracles.protocol.validator_answer` (which ``urlwb oracle check`` uses too). Only
``{"id", "allow": true}`` allows; ``allow: false`` and ``error`` (the validator refused the
input as it documents refusal) deny; a crash, a hang,
a death or a line out of schema is a finding of the validator (``oracle-crashed``,
``oracle-hung``, in :attr:`Validator.findings`) and denies nothing and allows nothing: the hunt
goes on with the next input.

A ``py:`` validator is called as ``fn(input) -> bool``: ``True`` allows, ``False`` denies,
``ValueError`` denies with its message as the reason (validators commonly raise on a URL they
cannot read, and the application then refuses it); any other exception, or a value that is not a
bool, is a crash on that input. An in-process callable cannot be stopped, so it has no deadline.
"""

from __future__ import annotations

from collections import Counter

from urlwb import oracles
from urlwb.oracles import manifests, protocol, supervisor
from urlwb.oracles.protocol import Verdict, validator_answer

ALLOW = Verdict(True)
DENY = Verdict(False)
#: a validator request line (the schema of requests and answers lives in urlwb.oracles.protocol)
request_line = protocol.validator_request_line


def _from_supervisor(value) -> Verdict | None:
    """The supervisor's own records (a death, a hang) as Verdicts."""
    if value is None or isinstance(value, Verdict):
        return value
    return Verdict(None, crash=value.crash, hung=value.hung)


class Validator:
    """One validator: ``name`` (with ``@version`` when not the shipped pin), ``version``,
    ``check_many(inputs) -> [Verdict or None]``, ``findings`` ((class, what, input, reason)),
    ``incidents`` (one line each) and ``counts``."""

    name: str = ""
    version: str = "?"
    describe: str = ""

    def __init__(self):
        self.findings: list[tuple[str, str, str, str]] = []
        self.incidents: list[str] = []
        self.given_up: str | None = None

    def check_many(self, inputs: list[str]) -> list[Verdict | None]:
        raise NotImplementedError

    def close(self) -> None:
        pass


class SubprocessValidator(Validator):
    """A validator program under :class:`urlwb.oracles.supervisor.Supervised`: its pipelining,
    deadlines, restarts and findings, with answers held to :func:`validator_answer`."""

    def __init__(self, spec: manifests.Spec, display: str | None = None):
        super().__init__()
        self.spec = spec
        self.name = display or spec.name
        self.sup = supervisor.Supervised(spec)
        self.findings = self.sup.findings
        self.incidents = self.sup.incidents

    def ready(self) -> None:
        self.sup.ready()
        hello = self.sup.hello
        if hello["kind"] != "validator":
            self.sup.close()
            raise oracles.Unavailable(f"its hello line says kind {hello['kind']!r}, not \"validator\"")
        self.version = hello["version"]
        self.describe = hello.get("validator") or hello.get("parser") or "?"

    @property
    def counts(self):
        return self.sup.counts

    def check_many(self, inputs):
        limit = self.spec.max_input
        payloads = [None if len(s) > limit else (s, lambda rid, s=s: request_line(rid, s)) for s in inputs]
        out = [_from_supervisor(v) for v in self.sup.run(payloads, validator_answer)]
        self.given_up = self.sup.given_up
        return out

    def close(self):
        self.sup.close()


class CallableValidator(Validator):
    """``py:package.module:function``, called as ``fn(input) -> bool`` (module docstring)."""

    def __init__(self, name: str, target: str):
        super().__init__()
        fn, module = protocol.import_callable(target)
        self._fn = fn
        self.name = name
        self.version = str(getattr(fn, "version", getattr(module, "__version__", "?")))
        self.describe = f"py:{target}"
        self.counts: Counter = Counter()

    def check_one(self, input: str) -> Verdict:
        try:
            got = self._fn(input)
        except ValueError as exc:
            return Verdict(False, failure=True, reason=f"ValueError: {exc}"[:300])
        except Exception as exc:  # noqa: BLE001 - undocumented: the validator crashed on this input
            return Verdict(None, crash=f"{type(exc).__name__}: {exc}"[:300])
        if not isinstance(got, bool):
            return Verdict(None, crash=f"out of schema: returned {type(got).__name__} {got!r:.80}, not a bool")
        return Verdict(got)

    def check_many(self, inputs):
        out = []
        for s in inputs:
            v = self.check_one(s)
            if v.crash:
                self.findings.append(("oracle-crashed", "bad answer" if v.crash.startswith("out of schema")
                                      else "raised", s, v.crash))
                self.counts["crashed"] += 1
            else:
                self.counts["rejected" if v.failure else "answered"] += 1
            out.append(v)
        return out
