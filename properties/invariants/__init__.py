"""The invariants of the URL Standard, as plain checks shared by fuzz targets and properties.

https://url.spec.whatwg.org/

Each ``check_*`` function takes any input (of its documented type), runs the engine on it and
raises ``AssertionError`` with a message naming the input, the expected and the actual value
when an invariant does not hold. ``engine.Failure`` is the Standard's "failure" and is caught
where failure is a legitimate outcome; nothing else is caught, so any other exception escaping
the engine reaches the caller (a fuzzer's crash, a property's error) as the finding it is.

One module per area of the Standard: :mod:`.percent_encoding`, :mod:`.hosts`,
:mod:`.urlencoded`, :mod:`.urls`, :mod:`.search_params` (and :mod:`.common`, their shared
vocabulary). This package re-exports every check, so ``invariants.check_ipv4`` is the same
function as ``invariants.hosts.check_ipv4``.

The oracles used here are independent of the engine: Python's ``ipaddress`` (dotted-decimal IPv4
and RFC 4291 IPv6 text), ``urllib.parse`` (percent-decoding, form quoting), and the spec's own
definitions restated literally (percent-encode sets, the forbidden code points, the IPv6
compression rule, sort order). The restatements are second definitions on purpose: a check that
read the engine's own tables could not notice them being wrong.
"""

from __future__ import annotations

from properties.invariants.common import GETTERS, SETTERS, to_usv
from properties.invariants.hosts import (HOST_IDEMPOTENCE_PARTS, check_domain_roundtrip,
                                         check_host_idempotence, check_hosts_together,
                                         check_ipv4, check_ipv4_address, check_ipv6,
                                         check_ipv6_address, check_public_suffix)
from properties.invariants.percent_encoding import (check_percent_decode,
                                                    check_percent_encode_after_encoding,
                                                    check_percent_roundtrip,
                                                    spec_percent_encode_set_contains)
from properties.invariants.search_params import (SEARCH_PARAMS_METHODS, apply_search_params_op,
                                                 check_search_params,
                                                 check_search_params_on_url,
                                                 check_search_params_state, check_search_setter,
                                                 code_unit_key)
from properties.invariants.urlencoded import (check_urlencoded_parse, check_urlencoded_roundtrip,
                                              urlencoded_parse_model, urlencoded_serialize_model)
from properties.invariants.urls import (URL_IDEMPOTENCE_PARTS, check_base_resolution,
                                        check_can_parse, check_fast_path, check_setters,
                                        check_url_idempotence, check_url_object)

__all__ = [
    "check_url_idempotence", "check_can_parse", "check_base_resolution", "check_host_idempotence",
    "HOST_IDEMPOTENCE_PARTS", "URL_IDEMPOTENCE_PARTS", "check_ipv4", "check_ipv6",
    "check_ipv4_address", "check_ipv6_address", "check_percent_roundtrip", "check_percent_decode",
    "check_percent_encode_after_encoding", "check_domain_roundtrip", "check_public_suffix",
    "check_urlencoded_parse", "check_urlencoded_roundtrip", "check_setters", "check_search_params",
    "check_search_setter", "check_search_params_on_url", "check_hosts_together",
    "check_url_object", "check_search_params_state", "check_fast_path", "apply_search_params_op",
    "SETTERS", "GETTERS", "SEARCH_PARAMS_METHODS", "spec_percent_encode_set_contains", "to_usv",
    "urlencoded_parse_model", "urlencoded_serialize_model", "code_unit_key",
]
