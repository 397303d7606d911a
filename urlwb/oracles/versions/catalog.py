"""Which shipped oracle comes from which registry package, and which have no registry version.

A :class:`Package` names the registry (``npm``, ``pypi``, ``maven``, ``crates``, ``go``) and the
package's coordinates there; ``folder`` is the shipped adapter's folder under ``urlwb/oracles/``
(None for the in-process Python peers, whose adapter at another version is
:mod:`urlwb.oracles.versions.pyadapter`). ``NO_REGISTRY`` gives, for every shipped oracle that ships with
a runtime or a Debian package, why ``PARSER@VERSION`` cannot be asked of it.

:data:`VALIDATORS` and :data:`VALIDATORS_NO_REGISTRY` are the same for ``urlwb ssrf``'s shipped
validators (kind ``validator``, folders under ``urlwb/ssrf/validators/``) that this module's
builds serve (Maven); they are kept apart from the parsers, so that ``--parsers jvm-guava@V``
is no parser, and npm and PyPI validators are ``urlwb.ssrf.install``'s.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Package:
    parser: str
    registry: str
    #: npm/PyPI/crate name, Maven ``group:artifact``, Go module path
    package: str
    kind: str = "url"
    folder: str | None = None
    #: for the in-process Python peers: ``module:Class`` of urlwb.oracles whose answers it gives
    oracle_class: str | None = None

    @property
    def coordinates(self) -> str:
        return f"{self.registry}:{self.package}"


def _py(parser, package, cls, kind="url"):
    module = "urlwb.oracles.hosts" if kind == "host" else (
        "urlwb.oracles.whatwg" if cls in ("AdaOracle", "UpaOracle", "PyWhatwgUrlOracle") else "urlwb.oracles.other")
    return Package(parser, "pypi", package, kind, None, f"{module}:{cls}")


PACKAGES: dict[str, Package] = {p.parser: p for p in [
    Package("url-parse", "npm", "url-parse", folder="node"),
    Package("whatwg-url", "npm", "whatwg-url", folder="node"),
    _py("yarl", "yarl", "YarlOracle"),
    _py("rfc3986", "rfc3986", "Rfc3986Oracle"),
    _py("urllib3", "urllib3", "Urllib3Oracle"),
    _py("hyperlink", "hyperlink", "HyperlinkOracle"),
    _py("httptools", "httptools", "HttptoolsOracle"),
    _py("ada_url", "ada-url", "AdaOracle"),
    _py("upa_url", "upa-url", "UpaOracle"),
    _py("pywhatwgurl", "pywhatwgurl", "PyWhatwgUrlOracle"),
    _py("idna", "idna", "IdnaOracle", kind="host"),
    _py("publicsuffixlist", "publicsuffixlist", "PublicSuffixListOracle", kind="host"),
    _py("publicsuffix2", "publicsuffix2", "PublicSuffix2Oracle", kind="host"),
    _py("tldextract", "tldextract", "TldextractOracle", kind="host"),
    Package("okhttp", "maven", "com.squareup.okhttp3:okhttp", folder="java"),
    Package("apache-httpclient5", "maven", "org.apache.httpcomponents.client5:httpclient5", folder="java"),
    Package("spring-uricomponents", "maven", "org.springframework:spring-web", folder="java"),
    Package("spring-uricomponents-whatwg", "maven", "org.springframework:spring-web", folder="java"),
    Package("guava-idn", "maven", "com.google.guava:guava", kind="host", folder="java"),
    Package("rust-url", "crates", "url", folder="rust"),
    Package("rust-idna", "crates", "idna", kind="host", folder="rust"),
    Package("go-idna", "go", "golang.org/x/net", kind="host", folder="go"),
]}

#: shipped oracles without a registry version, and why
NO_REGISTRY: dict[str, str] = {
    "engine": "the workbench's own engine (its versions are git revisions: urlwb compare-rev)",
    "urllib": "ships with Python (its version is the interpreter's)",
    "ipaddress": "ships with Python (its version is the interpreter's)",
    "node": "ships with Node (its version is the runtime's)",
    "node-legacy-url": "ships with Node (its version is the runtime's)",
    "go-net-url": "ships with the Go toolchain (its version is the toolchain's)",
    "java-uri": "ships with the JDK (its version is the runtime's)",
    "java-url": "ships with the JDK (its version is the runtime's)",
    "dotnet-system-uri": "ships with Mono (its version is the runtime's, from Debian)",
    "libcurl": "comes from Debian's libcurl4-openssl-dev, not from a registry this command builds from",
    "php-parse-url": "ships with PHP (its version is the runtime's)",
    "ruby-uri-rfc3986": "ships with Ruby (its version is the runtime's)",
    "ruby-uri-rfc2396": "ships with Ruby (its version is the runtime's)",
    "perl-uri": "comes from Debian's liburi-perl, not from a registry this command builds from",
    "chromium": "a browser from Debian's packages, not from a registry",
    "firefox": "a browser from Debian's packages, not from a registry",
}

#: shipped SSRF validators built at another release here (``urlwb ssrf --validator NAME@VERSION``)
VALIDATORS: dict[str, Package] = {p.parser: p for p in [
    Package("jvm-guava", "maven", "com.google.guava:guava", kind="validator", folder="jvm"),
]}

#: shipped SSRF validators without a registry version, and why
VALIDATORS_NO_REGISTRY: dict[str, str] = {
    "go-parseip": "ships with the Go toolchain (net.ParseIP; its version is the toolchain's, and this machine has one)",
    "ipaddress": NO_REGISTRY["ipaddress"],
}
