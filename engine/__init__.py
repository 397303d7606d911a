"""A compact, spec-faithful implementation of the WHATWG URL Standard.

https://url.spec.whatwg.org/

Every public function either returns or raises ``Failure``, on any ``str`` or ``bytes`` input;
functions that can report validation errors take ``errors``, a list to append their names to.
"""

from .failure import Failure, VALIDATION_ERRORS
from .percent_encoding import (
    C0_CONTROL_PERCENT_ENCODE_SET,
    COMPONENT_PERCENT_ENCODE_SET,
    FORM_URLENCODED_PERCENT_ENCODE_SET,
    FRAGMENT_PERCENT_ENCODE_SET,
    PATH_PERCENT_ENCODE_SET,
    PERCENT_ENCODE_SETS,
    QUERY_PERCENT_ENCODE_SET,
    SPECIAL_QUERY_PERCENT_ENCODE_SET,
    USERINFO_PERCENT_ENCODE_SET,
    PercentEncodeSet,
    percent_decode,
    percent_decode_string,
    percent_encode,
    percent_encode_after_encoding,
    utf8_percent_encode,
)
from .encoding import LEGACY_ENCODINGS, get_encoding, get_output_encoding
from .idna import domain_to_ascii, domain_to_unicode
from .host import (
    Domain,
    EmptyHost,
    Host,
    IPv4Address,
    IPv6Address,
    OpaqueHost,
    ends_in_a_number,
    hosts_equal,
    parse_host,
    parse_ipv4,
    parse_ipv6,
    parse_opaque_host,
    serialize_host,
    serialize_ipv4,
    serialize_ipv6,
)
from .public_suffix import public_suffix, registrable_domain
from .urlencoded import form_urlencoded_parse, form_urlencoded_serialize
from .record import URLRecord, serialize_url, serialize_path, urls_equal
from .url import basic_url_parse
from .origin import url_origin, serialize_origin
from .api import URL, URLSearchParams

#: The API: the names above, not the submodules they come from (``engine.url`` and the others stay
#: importable as modules, but ``from engine import *`` gives only these).
__all__ = [name for name, value in dict(globals()).items()
           if not name.startswith("_") and not isinstance(value, type(__import__("sys")))]
