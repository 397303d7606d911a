"""The judge: one finding about one parser (or validator), held to that parser's own contract.

Issue 25's rules, in the order they are applied:

1. Under any contract, a **bug**: an exception its API does not document (``crash``), no answer
   within the deadline (``hang``), super-linear time (``superlinear``), an answer that changes on
   re-parse (``unstable``).
2. A parser that declares the **URL Standard** (``whatwg-url``) is judged by the engine, which
   passes every WPT url test: a reading other than the engine's is a bug of the parser, at the
   step where they part; a hazard when the parser documents that deviation
   (``contracts.toml`` ``deviations``).
3. A parser that declares **RFC 3986, RFC 3987 or RFC 2396** is judged by
   :mod:`urlwb.verdicts.rfc3986`: for a **valid** URI reference (the RFC's grammar) its reading
   must give the RFC's components (Appendix B; §5.2 against a base; compared after §6.2's
   normalizations), otherwise a bug at the first component that differs (§3.1 scheme, §3.2.1
   userinfo, §3.2.2 host, §3.2.3 port, §3.3 path, §3.4 query, §3.5 fragment). An input that is
   **not** a URI reference leaves the reading unconstrained by the spec: a hazard at most.
   Rejecting a valid reference is a hazard (a scheme's own specification may restrict the generic
   syntax, RFC 3986 §3.1 and e.g. RFC 9110 §4.2.1 for http).
4. A parser with its **own** rules: a hazard (its documentation, when it says so, in
   ``documented``), bugs only by rule 1.
5. A **validator** that claims to validate URL syntax (``checks = "url-syntax"``) and accepts an
   input that is not a URI reference of its spec breaks its contract: a bug (Django's
   CVE-2021-32052 shape). One that only classifies a host's address is held to its own reading:
   accepting a host it reads as private is a bug; accepting one a client reads elsewhere is a
   hazard, with the validator -> client ``pairs`` where it bites.

The component comparison is lenient where the adapters' documented mappings differ from the RFC's
model (docs/oracle-protocol.md, each manifest's ``quirks``): an undefined and an empty query or fragment, an
empty and an absent userinfo, and percent-encoding choices (equal when percent-decoded) are not
counted; an opaque URI's scheme-specific part sent as its path is recognised.

``cause`` is the step where the readings part: the caller passes the differential's cause
(:func:`urlwb.differential.classify.classify`, ``cause or cls``) when it has one; otherwise the
first component that differs is the step.
"""

from __future__ import annotations

import ipaddress
import urllib.parse

from urlwb.findings.record import verdict as make_verdict
from urlwb.oracles import Record, contracts
from urlwb.verdicts import rfc3986, upstream

RFC_NAMES = {"rfc3986": "RFC 3986", "rfc3987": "RFC 3987", "rfc2396": "RFC 2396"}
COMPONENTS = ("scheme", "userinfo", "host", "port", "path", "query", "fragment")

#: the URL Standard's step for each cause (differential class ids and components)
WHATWG_CLAUSES = {
    "crash": "URL Standard: the basic URL parser returns a URL or failure, never an exception",
    "scheme": "URL Standard: basic URL parser, steps 1-3 (leading and trailing C0 control or space stripped) and scheme state",
    "whitespace": "URL Standard: basic URL parser, steps 1-3 (C0 control or space stripped; ASCII tab or newline removed)",
    "slashes": "URL Standard: special authority ignore slashes state",
    "backslash": "URL Standard: authority state (U+005C (\\) ends the authority of a special URL)",
    "userinfo": "URL Standard: authority state (the last U+0040 (@) ends the userinfo)",
    "pct-delimiter": "URL Standard: host parser, steps 4-5 (percent-decode, then forbidden domain code points)",
    "scheme-mixup": "URL Standard: opaque-host parser (a non-special URL's host)",
    "ipv4": "URL Standard: IPv4 parser (ends-in-a-number checker)",
    "ipv6": "URL Standard: IPv6 parser",
    "idna": "URL Standard: domain to ASCII",
    "host": "URL Standard: host parser",
    "port": "URL Standard: port state, step 2 (after the digits only /, ?, # or, in a special URL, \\ may follow: otherwise port-invalid, failure)",
    "path": "URL Standard: path state (single- and double-dot segments; U+005C a separator in a special URL)",
    "query": "URL Standard: query state",
    "fragment": "URL Standard: fragment state",
    "query-fragment": "URL Standard: query state and fragment state",
    "accept-reject": "URL Standard: basic URL parser (failure or a URL)",
    "path-encoding": "URL Standard: path percent-encode set (path state: UTF-8 percent-encode c using it)",
    "query-encoding": "URL Standard: query and special-query percent-encode sets (query state)",
    "fragment-encoding": "URL Standard: fragment percent-encode set (fragment state)",
    "userinfo-encoding": "URL Standard: userinfo percent-encode set (authority state)",
    "host-origin": "URL Standard: host parser",
    "unstable": "URL Standard: URL serializer (serializing and reparsing gives the same URL)",
}


#: RFC 2396's own section numbers (RFC 3987 defines its IRI rules in §2.2 over RFC 3986's)
_RFC2396_CLAUSES = {"scheme": "§3.1 scheme", "userinfo": "§3.2.2 server-based naming authority (userinfo)",
                    "host": "§3.2.2 server-based naming authority (host)", "port": "§3.2.2 server-based naming authority (port)",
                    "path": "§3.3 path", "query": "§3.4 query", "fragment": "§4.1 fragment identifier",
                    "authority": "§3.2 authority"}
#: where each spec defines a URI reference
REFERENCE_CLAUSES = {"rfc3986": "RFC 3986 §4.1 URI-reference", "rfc3987": "RFC 3987 §2.2 IRI-reference",
                     "rfc2396": "RFC 2396 §4 and Appendix A URI-reference"}


def _rfc_clause(spec: str, component: str) -> str:
    if spec == "rfc2396":
        return f"RFC 2396 {_RFC2396_CLAUSES.get(component, component)}"
    if spec == "rfc3987":
        return f"RFC 3987 §2.2 i{component} (RFC 3986 {rfc3986.CLAUSES.get(component, component)})"
    return f"RFC 3986 {rfc3986.CLAUSES.get(component, component)}"


def _pct_same(a: str | None, b: str | None) -> bool:
    """Equal after §6.2.2's percent-encoding normalization, or once fully percent-decoded (an
    adapter's getter that decodes, an encoder that encodes more than it must)."""
    a, b = a or "", b or ""
    if rfc3986.normalize_pct(a) == rfc3986.normalize_pct(b):
        return True
    return urllib.parse.unquote(a) == urllib.parse.unquote(b)


def _host_same(a: str | None, b: str | None, equivalence: bool = True) -> bool:
    """Equal hosts: case-insensitively, an IP address in any spelling; with ``equivalence``
    (RFC 3986 §6.2.2's: ``%65vil.com`` is ``evil.com``) also after percent-encoding
    normalization. Two readings compared for a hazard are compared without it: a client that
    resolves ``%65vil.com`` as written goes elsewhere than one that decodes it."""
    a, b = a or "", b or ""
    if a.lower() == b.lower():
        return True
    # percent-decoded first, then compared case-insensitively: lowercasing '%E2%93%87' before
    # decoding it gives U+24C7 on one side and the lowercased U+24E1 on the other
    if equivalence and (_pct_same(a, b) or urllib.parse.unquote(a).lower() == urllib.parse.unquote(b).lower()):
        return True
    try:
        return ipaddress.ip_address(a.strip("[]").split("%")[0]) == ipaddress.ip_address(b.strip("[]").split("%")[0])
    except ValueError:
        return False


def _without_empty_password(userinfo: str | None) -> str:
    """``user:`` and ``user``, ``:`` and none, are one userinfo here: the oracle protocol lets an
    adapter send "" for an absent password (a WHATWG parser cannot tell them apart), so an empty
    password is not counted (the module docstring's leniency), whichever side has it."""
    u = userinfo or ""
    return u[:-1] if u.endswith(":") and u.index(":") == len(u) - 1 else u


def _userinfo_same(a: str | None, b: str | None) -> bool:
    a, b = _without_empty_password(a), _without_empty_password(b)
    return a == b or _pct_same(a, b)


def _record_userinfo(r: Record) -> str | None:
    user, pw = r.username or "", r.password or ""
    if not user and not pw:
        return None
    return user + (":" + pw if r.password is not None and pw != "" else "")


def rfc_difference(spec: str, input: str, base: str | None, r: Record) -> tuple[str, str, str] | None:
    """The first component where record ``r`` differs from the RFC's reading of the valid
    ``input`` (against ``base``): (component, the RFC's, the parser's), or None when they agree."""
    expected = rfc3986.resolve(base, input) if base is not None else rfc3986.components(input)
    e = rfc3986.normalize(expected)
    scheme = (r.scheme or "").lower() or None
    port = r.port if r.port != rfc3986.DEFAULT_PORTS.get(scheme or "", -1) else None
    registry_authority = (spec == "rfc2396" and base is None
                          and rfc3986.host_kind(input, "rfc2396") == "reg-name")
    checks = [("scheme", e.scheme, scheme, lambda a, b: a == b)]
    if not registry_authority:   # RFC 2396 §3.2: a registry-based authority has no host
        checks += [("userinfo", e.userinfo, _record_userinfo(r), _userinfo_same),
                   ("host", e.host, r.host, lambda a, b: _host_same(a, b)),
                   ("port", e.port, port, lambda a, b: a == b)]
    path = rfc3986.normalize_pct(r.path or "")
    opaque_ssp = expected.authority is None and expected.query is not None and \
        _pct_same(path, (expected.path or "") + "?" + expected.query)
    if not opaque_ssp:
        exp_path = e.path
        got_path = rfc3986.remove_dot_segments(path) if e.scheme is not None else path
        # §6.2.3: an empty path with an authority is "/" (a registry-based authority too, whose
        # parser reads no host: RFC 2396's http://@ has the reg_name "@")
        if scheme in rfc3986.DEFAULT_PORTS and (r.host is not None or expected.authority is not None) \
                and got_path == "":
            got_path = "/"
        checks += [("path", exp_path, got_path, lambda a, b: _pct_same(a, b)),
                   ("query", e.query, r.query, lambda a, b: _pct_same(a, b))]
    checks += [("fragment", e.fragment, r.fragment, lambda a, b: _pct_same(a, b))]
    for component, want, got, same in checks:
        if not same(want, got):
            return component, repr(want), repr(got)
    return None


_STRICT = ("scheme", "username", "password", "host", "port", "path", "query", "fragment")


def record_difference(a: Record, b: Record, strict: bool = False) -> str | None:
    """The first component where two records part (None when they agree). ``strict``: every
    field as serialized, as two WHATWG parsers are compared (their serializations are the
    Standard's, so ``^`` and ``%5E`` or an empty and a null query differ); otherwise leniently
    (spellings that mean the same URL are not counted)."""
    if a.failure != b.failure:
        return "accept-reject"
    if a.failure:
        return None
    if strict:
        for field in _STRICT:
            if getattr(a, field) != getattr(b, field):
                return "userinfo" if field in ("username", "password") else field
        return "unstable" if a.href != b.href else None
    for component in COMPONENTS:
        if component == "userinfo":
            x, y = _record_userinfo(a), _record_userinfo(b)
            if not _userinfo_same(x, y):
                return "userinfo"
            continue
        x, y = getattr(a, component), getattr(b, component)
        if component == "scheme":
            x, y = (x or "").lower(), (y or "").lower()
        if component == "host":
            if not _host_same(x, y, equivalence=False):
                return "host"
            continue
        if component == "path" and a.host is not None and b.host is not None \
                and (a.scheme or "").lower() in rfc3986.DEFAULT_PORTS:
            x, y = x or "/", y or "/"   # §6.2.3: an empty path with an authority is "/", as classify.lenient
        if component == "port":
            dx = rfc3986.DEFAULT_PORTS.get((a.scheme or "").lower(), -1)
            x, y = (None if x == dx else x), (None if y == dx else y)
        if x != y and not (isinstance(x, str) and isinstance(y, str) and _pct_same(x, y)) \
                and not (component in ("query", "fragment") and (x or "") == (y or "")):
            return component
    return None


#: the components a differential cause (classify's ingredient or class) can move: a cause whose
#: components do not include the one that differs is not the step where the readings part
AFFECTS = {
    "slashes": {"host", "userinfo", "port"}, "backslash": {"host", "userinfo", "port"},
    "userinfo": {"userinfo", "host", "port"}, "pct-delimiter": {"host", "userinfo", "path", "query", "fragment"},
    "scheme-mixup": {"host", "userinfo", "port"}, "ipv4": {"host"}, "ipv6": {"host"},
    "idna": {"host"}, "port": {"port", "host"}, "path": {"path"},
    "query-fragment": {"query", "fragment"},
}


def _encoding_only(a: Record, b: Record, component: str) -> bool:
    """Whether two accepting records differ only in how ``component`` is percent-encoded."""
    fields = ("username", "password") if component == "userinfo" else (component,)
    for field in _STRICT:
        x, y = getattr(a, field), getattr(b, field)
        if field in fields:
            if x is None or y is None or urllib.parse.unquote(x) != urllib.parse.unquote(y):
                return False
        elif x != y:
            return False
    return True


def failure_step(input: str, base: str | None) -> str | None:
    """The validation error with which the engine's basic URL parser returns failure on
    ``input`` (against ``base``): the Standard's own name for the step (``host-missing``,
    ``port-invalid``, ``domain-to-ASCII``...); None when it does not fail."""
    import engine
    try:
        base_record = engine.basic_url_parse(base) if base is not None else None
    except engine.Failure:
        return "base-failure"
    errors: list[str] = []
    try:
        engine.basic_url_parse(input, base_record, errors=errors)
    except engine.Failure as exc:     # the engine's failure carries the validation error
        return errors[-1] if errors else (str(exc) or None)
    return None


def whatwg_step(parser_record: Record, engine_record: Record, part: str, cause: str | None) -> str:
    """The step where a WHATWG parser parts from the engine: a percent-encode set when only the
    encoding of ``part`` differs; else ``cause`` when it can move ``part``; else ``part``."""
    if part in ("path", "query", "fragment", "userinfo") and _encoding_only(parser_record, engine_record, part):
        return f"{part}-encoding"
    if cause is None or part in ("accept-reject", "unstable"):
        return cause or part
    return cause if part in AFFECTS.get(cause, {part}) else part


def judge(parser: str, input: str, base: str | None, parser_record: Record | None,
          engine_record: Record | None = None, *, cause: str | None = None,
          reparse_record: Record | None = None, superlinear: bool = False,
          contract: contracts.Contract | None = None, family: str | None = None,
          known: str | None = None) -> dict | None:
    """The verdict (urlwb.findings.record.verdict's shape) on ``parser``'s reading
    ``parser_record`` of ``input`` (against ``base``), beside the engine's ``engine_record``;
    None when there is nothing to judge (no crash, no hang, the records agree and the reading is
    the one its spec gives). ``cause``: the differential's cause when the caller has one;
    ``reparse_record``: the parser's reading of its own serialization; ``superlinear``: the caller
    measured super-linear time; ``known``: the workbench's reason for a known deviation of this
    parser (:func:`urlwb.differential.classify.known_deviation`), kept in the reason: a WHATWG
    parser's known deviation is still its bug (an older release of the Standard, a lagging
    dependency), the parser does not document it. A deviation that is the engine's (its older
    Unicode data, classify's ``_engine_unicode_version``) is no finding about the parser: callers
    do not judge it."""
    c = contract or contracts.contract(parser, family)

    def done(kind, spec, clause, why, reason, documented=None):
        return make_verdict(kind, spec, clause, why, documented=documented,
                            upstream=upstream.find(parser, input, why), reason=reason)

    rfc = c.spec in RFC_NAMES
    spec_name = c.spec
    # 1. under any contract
    if parser_record is not None and parser_record.crash:
        if parser_record.hung:
            return done("bug", spec_name, "any contract: an answer within the deadline", "hang",
                        f"{parser} gave no answer within its deadline: {parser_record.crash}")
        documented = c.documented_exception(parser_record.crash)
        if documented is not None:
            return done("hazard", spec_name, documented.clause, "crash",
                        f"{parser} raised an exception its documentation leads to: {parser_record.crash}; "
                        f"{documented.says}", documented.url)
        clause = (WHATWG_CLAUSES["crash"] if c.spec == "whatwg-url" else
                  f"{parser}'s API documentation ({c.docs}): no such exception documented" if c.docs
                  else "its API documents no such exception")
        return done("bug", spec_name, clause, "crash",
                    f"{parser} raised what its API does not document: {parser_record.crash}"
                    + (f"; its documentation says: {c.says}" if c.says else ""))
    if superlinear:
        return done("bug", spec_name, "any contract: time linear in the input", "superlinear",
                    f"{parser} takes super-linear time on inputs of this shape")
    part = (record_difference(parser_record, reparse_record, strict=True)
            if reparse_record is not None and parser_record is not None else None)
    if part is not None:
        return done("bug", spec_name, "any contract: parsing a URL's serialization gives the same URL",
                    "unstable", f"{parser}'s answer changes on re-parse of its own serialization ({part})")
    if parser_record is None:
        return None
    # the step where the readings part, when the caller gave none
    vs_engine = (record_difference(parser_record, engine_record, strict=c.spec == "whatwg-url")
                 if engine_record is not None else None)
    step = cause or vs_engine
    # where the Standard fails what the parser accepts, its validation error names the step
    failed_at = failure_step(input, base) if vs_engine == "accept-reject" and engine_record.failure else None
    if failed_at is not None and c.spec != "whatwg-url":
        step = failed_at
    # 2. the WHATWG family
    if c.spec == "whatwg-url":
        if vs_engine is None:
            return None
        step = failed_at or whatwg_step(parser_record, engine_record, vs_engine, cause)
        dev = c.deviation(step, input)
        clause = (f"URL Standard: the {failed_at} validation error, where the basic URL parser returns failure"
                  if failed_at else WHATWG_CLAUSES.get(step or "", "URL Standard: basic URL parser"))
        if dev is not None:
            return done("hazard", spec_name, clause, step or vs_engine,
                        f"{parser} documents this deviation from the URL Standard: {dev.says}", dev.url)
        return done("bug", spec_name, clause, step or vs_engine,
                    f"{parser} declares the URL Standard; the engine (which passes every WPT url "
                    f"test) reads {input!r} otherwise, parting at {step or vs_engine}"
                    + (f"; a known deviation: {known}" if known else ""))
    # 3. the RFCs
    if rfc:
        checked = rfc3986.check(input, c.spec)
        base_check = rfc3986.check(base, c.spec) if base is not None else None
        base_ok = base_check is None or base_check.valid is True
        rfc_name = RFC_NAMES[c.spec]
        if checked.valid is None or (base_check is not None and base_check.valid is None):
            if vs_engine is None and cause is None:
                return None
            return done("hazard", spec_name, f"{REFERENCE_CLAUSES[c.spec]}: not judged "
                        f"(longer than {rfc3986.MAX_GRAMMAR_INPUT} code points)", step or "unconstrained",
                        f"{input[:80]!r}... is too long for the grammar check: no claim that {parser} "
                        f"breaks {rfc_name}; it reads it otherwise than the URL Standard ({step})")
        if checked.valid and base_ok:
            if parser_record.failure:
                return done("hazard", spec_name, f"{rfc_name} §3.1 (a scheme's own specification may restrict the generic syntax)",
                            step or "accept-reject",
                            f"{parser} rejects {input!r}, a valid URI reference of {rfc_name}: the generic "
                            "syntax allows it, a scheme's own rules may not")
            diff = rfc_difference(c.spec, input, base, parser_record)
            if diff is not None:
                component, want, got = diff
                dev = c.deviation(component, input)
                if dev is not None and dev.cause != "any":
                    return done("hazard", spec_name, _rfc_clause(c.spec, component), component,
                                f"{parser} documents this reading: {dev.says}", dev.url)
                return done("bug", spec_name, _rfc_clause(c.spec, component), component,
                            f"{input!r} is a valid URI reference of {rfc_name}; its {component} is {want} "
                            f"(Appendix B{', §5.2' if base else ''}, §6.2 normalization), {parser} reads {got}")
            if vs_engine is None:
                return None
            expected = rfc3986.resolve(base, input) if base is not None else rfc3986.components(input)
            registry = c.spec == "rfc2396" and base is None and rfc3986.host_kind(input, "rfc2396") == "reg-name"
            if vs_engine == "accept-reject":
                clause = f"{REFERENCE_CLAUSES[c.spec]} (a valid reference; the URL Standard returns failure)"
            elif registry and vs_engine in ("host", "userinfo", "port"):
                clause = "RFC 2396 §3.2 authority: a registry-based authority (reg_name, which admits '@' and ':') has no host"
            elif vs_engine in ("host", "userinfo", "port") and expected.authority is None:
                clause = f"{rfc_name} §3 and §3.3 path (hier-part without \"//\": no authority)"
            elif vs_engine == "host":
                kind = rfc3986.host_kind(input, c.spec) if base is None else None
                clause = _rfc_clause(c.spec, "host") + (f" ({kind}, kept as written)" if kind else "")
            else:
                clause = _rfc_clause(c.spec, vs_engine if vs_engine in rfc3986.CLAUSES else "path")
            dev = c.deviation(step, input)
            if dev is not None and dev.cause != "any":
                clause = f"{clause}; {dev.clause}"
            return done("hazard", spec_name, clause,
                        step or vs_engine,
                        f"{parser} reads {input!r} as {rfc_name} says (a valid URI reference); the URL "
                        f"Standard reads it otherwise ({step or vs_engine}): a hazard when the two are mixed",
                        c.docs)
        if vs_engine is None and cause is None:
            return None
        where = checked.where(input) if not checked.valid else f"the base {base!r} is not a URI"
        dev = c.deviation(step, input)
        return done("hazard", spec_name, f"{REFERENCE_CLAUSES[c.spec]}: not a URI reference ({where})",
                    step or "unconstrained",
                    f"{input!r} is not a URI reference of {rfc_name} (Appendix A grammar stops at {where}): "
                    f"its reading is not constrained by the spec {parser} declares",
                    dev.url if dev else None)
    # 4. its own rules
    if vs_engine is None and cause is None:
        return None
    dev = c.deviation(step, input)
    clause = (f"{parser}'s own documentation: {dev.clause}" if dev else
              f"{parser}'s own rules ({c.docs or 'no documentation declared'})")
    return done("hazard", spec_name, clause[:500], step or "own-rules",
                f"{parser} declares no URL spec; it reads {input!r} otherwise than the URL Standard "
                f"({step})" + (f"; its documentation: {dev.says}" if dev else ""),
                dev.url if dev else None)


#: the private-use networks a validator's documentation may name (RFC 1918, RFC 4193)
_PRIVATE = [ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")]
#: where connect() takes the unspecified address on Linux (observed: urlwb.ssrf.observe.model)
_KERNEL = {ipaddress.ip_address("0.0.0.0"): ipaddress.ip_address("127.0.0.1"),
           ipaddress.ip_address("::"): ipaddress.ip_address("::1")}


def address_class(addr) -> str | None:
    """loopback, private, link-local or unspecified (contracts.REJECTS), or None (an IPv4
    private address is ``private``; see :func:`documented`)."""
    addr = getattr(addr, "ipv4_mapped", None) or addr
    if addr.is_unspecified:
        return "unspecified"
    if addr.is_loopback:
        return "loopback"
    if addr.is_link_local:
        return "link-local"
    if any(addr in n for n in _PRIVATE if n.version == addr.version):
        return "private"
    return None


def address_of(text: str | None):
    """The IP address ``text`` names (brackets and a zone id off), or None."""
    if not text:
        return None
    try:
        return ipaddress.ip_address(text.strip("[]").split("%")[0])
    except ValueError:
        return None


def _reached(pair: dict) -> list[tuple[str, object]]:
    """(how, address) of every connection a pair says its client made (direct, after a redirect)."""
    out = []
    for how, where in (("directly", pair.get("reached")), ("after a redirect", (pair.get("redirect") or {}).get("reached"))):
        if where:
            addr = address_of(where.rsplit(":", 1)[0])
            if addr is not None:
                out.append((how, addr))
    return out


def misclassified(own_host: str | None, rejects: dict | None, pairs: list[dict]) -> tuple[str, dict, str] | None:
    """Where a validator misclassified an address it read itself: its own reading ``own_host``
    is an IP address of a class its documentation says it rejects (``rejects``), and a client
    was observed to connect to that very address (the unspecified address: to where connect()
    takes it). (class, the pair, how), or None: a host the validator read otherwise than the
    client (a name, another address) is a parser differential, not this."""
    addr = address_of(own_host)
    if addr is None or not rejects:
        return None
    cls = address_class(addr)
    v4 = getattr(addr, "ipv4_mapped", None) or addr
    if cls is None or not (cls in rejects["categories"] or
                           (cls == "private" and v4.version == 4 and "private-ipv4" in rejects["categories"])):
        return None
    same = {addr, _KERNEL.get(addr, addr), getattr(addr, "ipv4_mapped", None) or addr}
    for p in pairs:
        for how, got in _reached(p):
            if got in same:
                return cls, p, how
    return None


def _hazard_reason(validator: str, input: str, own_host: str | None, c: contracts.Contract, pairs: list[dict]) -> str:
    """Why a validator's allowing is a hazard: a client reads the host otherwise, or (its own
    reading an address a client reached) the address is of a class its documentation does not
    name among those it rejects."""
    addr = address_of(own_host)
    if addr is not None and c.rejects:
        same = {addr, _KERNEL.get(addr, addr), getattr(addr, "ipv4_mapped", None) or addr}
        if any(got in same for p in pairs for _, got in _reached(p)):
            return (f"{validator} reads the host of {input!r} as {own_host}, which a client reached; its documentation "
                    f"names {', '.join(c.rejects['categories'])} among what it rejects, not this "
                    f"({address_class(addr) or 'no such class'})")
    return f"{validator} follows its contract; a client reads the host of {input!r} otherwise"


def judge_validator(validator: str, input: str, accepted: bool, *, host_private: bool | None = None,
                    pairs: list[dict] | None = None, contract: contracts.Contract | None = None,
                    cause: str | None = None, own_host: str | None = None) -> dict | None:
    """The verdict on validator ``validator`` accepting (``accepted``) ``input``; None when it
    rejected it (a validator that rejects breaks no contract here). ``host_private``: its own
    reading of the host is a private, loopback or link-local address; ``pairs``: the validator ->
    client pairs where it bites, each with what the client reached; ``own_host``: the host as the
    validator's own parser (its contract's ``reads``) reads it: an address of a class its
    documentation says it rejects (``rejects``), which a client was observed to reach, is a bug
    (:func:`misclassified`)."""
    if not accepted:
        return None
    c = contract or contracts.contract(validator, "validator", role="validator")
    spec = c.spec if c.spec in (*RFC_NAMES, "whatwg-url", "own") else "own"
    if c.checks == "url-syntax" and spec in RFC_NAMES:
        checked = rfc3986.check(input, spec)
        if checked.valid is False:
            return make_verdict(
                "bug", spec, f"{RFC_NAMES[spec]} Appendix A: not a URI ({checked.where(input)})",
                cause or "accept-invalid", documented=None,
                upstream=upstream.find(validator, input, cause or "accept-invalid"),
                reason=f"{validator} validates URLs ({c.docs}) and accepts {input!r}, which is not a "
                       f"URI reference of {RFC_NAMES[spec]} (the grammar stops at {checked.where(input)})")
    if host_private is None and pairs is None:
        return None
    hit = misclassified(own_host, c.rejects, pairs or [])
    if hit is not None:
        cls, pair, how = hit
        return make_verdict("bug", spec, f"{validator}'s own documentation ({c.rejects['url']}): "
                            f"{c.rejects['says']}"[:500], "misclassified-address",
                            upstream=upstream.find(validator, input, "misclassified-address"),
                            reason=f"{validator} reads the host of {input!r} as {own_host} (by {c.reads}), "
                                   f"a {cls} address its documentation says it rejects, and allows it; "
                                   f"{pair['client']} was observed to connect to {pair.get('reached') if how == 'directly' else pair['redirect']['reached']} {how}",
                            pairs=pairs)
    if host_private:
        return make_verdict("bug", spec, f"{validator}'s own contract: {c.says}"[:500],
                            cause or "accepts-private", upstream=upstream.find(validator, input, cause),
                            reason=f"{validator} accepts {input!r} although its own reading of the host is private")
    return make_verdict("hazard", spec, f"{validator}'s own contract: {c.says}"[:500],
                        cause or "host-differential", upstream=upstream.find(validator, input, cause),
                        reason=_hazard_reason(validator, input, own_host, c, pairs or []),
                        pairs=pairs if pairs is not None else [])
