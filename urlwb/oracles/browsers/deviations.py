"""Known deviations of the two browsers from the URL Standard: differences with a documented
cause (a bug the browser's own tracker or source names, or a change of the Standard the browser
has not shipped), in the form of ``urlwb.differential.classify.KNOWN_DEVIATIONS``. A difference tagged here is
still counted, but not reported again as a finding.

https://url.spec.whatwg.org/#url-parsing

``right`` is the side the Standard supports (the engine), ``peer`` the browser. Each predicate
matches only when undoing the one documented difference makes the two records equal, so that an
input that also differs for another reason is still reported. Measured on Debian's Chromium
156.0.8078.114 and Firefox ESR 153.8.0 over every WPT urltestdata/toascii case and 10,000
generated inputs (``survey.py`` in this folder prints the counts); the differences without a
documented cause are listed there as findings, not here.
"""

from __future__ import annotations

import re

from urlwb.differential.classify import ascii_xn_domain, caret_in_path, opaque_trailing_space, strict
from urlwb.oracles import Record

#: The components of a record by name, for "equal except ...".
_FIELDS = ("scheme", "username", "password", "host", "port", "path", "query", "fragment")


def _equal_except(right: Record, peer: Record, field: str) -> bool:
    i = _FIELDS.index(field)
    a, b = strict(right), strict(peer)
    return right.ok and peer.ok and a[:i] == b[:i] and a[i + 1:] == b[i + 1:]


# --- Chromium ----------------------------------------------------------------------------------

def _host_space_or_asterisk(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # Chromium's host canonicalizer escapes U+0020 and "*" instead of failing on the space
    # (a forbidden host code point) and keeping "*" (url/url_canon_host.cc, kHostCharLookup:
    # "' ' (SPACE) and '*' (asterisk) are still non-compliant", https://crbug.com/1416013).
    # Spaces that UTS46 maps to U+0020 (U+00A0, U+3000) end the same way ("goo%20%20goo.com").
    if right.failure and peer.ok and "%20" in (peer.host or ""):
        return True
    return (_equal_except(right, peer, "host") and "*" in (right.host or "") and
            re.sub("%2a", "*", peer.host or "", flags=re.I) == right.host)


def _path_pipe(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#path-percent-encode-set has no U+007C (|); Chromium's path
    # table (url/url_canon_path.cc, kPathCharLookup) escapes it: "doesn't comply with the URL
    # Standard as of Dec 2023. See https://crbug.com/1509295".
    return (_equal_except(right, peer, "path") and "|" in (right.path or "") and
            peer.path == right.path.replace("|", "%7C"))


def _file_localhost(right: Record, peer: Record, input: str, base: str | None) -> bool:
    # https://url.spec.whatwg.org/#file-host-state step 1.4.3: host "localhost" becomes "".
    # Chromium does it only before a Windows drive letter (url/url_canon_fileurl.cc: "According
    # to the latest URL spec, this transformation should be done regardless of the path",
    # TODO(crbug.com/41299821)).
    return (right.scheme == "file" and right.host == "" and peer.host == "localhost" and
            _equal_except(right, peer, "host"))


# --- Firefox -----------------------------------------------------------------------------------

#: The longest href Firefox ESR 153's URL constructor accepted (measured by bisection here; its
#: pref network.standard-url.max-length, "the maximum allowed length for a URL", is 1048576).
FIREFOX_MAX_HREF = 1_048_572


def _too_long(right: Record, peer: Record, input: str, base: str | None) -> bool:
    return right.ok and peer.failure and len(right.href or "") > FIREFOX_MAX_HREF


# --- both --------------------------------------------------------------------------------------

_SPACE_BEFORE_QUERY_OR_FRAGMENT = (
    "{browser} has not shipped whatwg/url#844 (2025-03, {bug}): the opaque path state "
    "percent-encodes a space before ? or #, so that an opaque path never ends in a space")


DEVIATIONS = [
    ("chromium", opaque_trailing_space,
     _SPACE_BEFORE_QUERY_OR_FRAGMENT.format(browser="Chromium 156",
                                            bug="https://issues.chromium.org/issues/400919461")),
    ("chromium", _host_space_or_asterisk,
     "Chromium escapes a space (and what UTS46 maps to one) and '*' in a special URL's host "
     "instead of failing on the space and keeping '*': https://crbug.com/1416013"),
    ("chromium", _path_pipe,
     "Chromium percent-encodes '|' in paths, which the path percent-encode set does not hold "
     "(its path table predates the Standard): https://crbug.com/1509295"),
    ("chromium", _file_localhost,
     "Chromium keeps the host 'localhost' of a file URL unless a Windows drive letter follows "
     "(file host state, step 1.4.3): https://crbug.com/41299821"),
    ("firefox", opaque_trailing_space,
     _SPACE_BEFORE_QUERY_OR_FRAGMENT.format(
         browser="Firefox ESR 153", bug="https://bugzilla.mozilla.org/show_bug.cgi?id=1951963")),
    ("firefox", _too_long,
     "Firefox rejects a URL longer than its pref network.standard-url.max-length (1 MiB by "
     "default, modules/libpref/init/StaticPrefList.yaml); the Standard sets no limit"),
    ("firefox", caret_in_path,
     "Firefox ESR 153 encodes '^' in special URLs' paths only; whatwg/url#846 (2025-03) added "
     "it to the path percent-encode set for all: https://bugzilla.mozilla.org/show_bug.cgi?id=1951702"),
    ("firefox", ascii_xn_domain,
     "Firefox ESR 153 rejects an ASCII host with an xn-- label that is not valid Punycode or "
     "fails UTS46 validity; whatwg/url#914 (2026-06) made domain to ASCII only lowercase an "
     "ASCII domain, for web compatibility"),
]
