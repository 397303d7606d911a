"""What ``urlwb reach`` measures of each parser, and by which tool; and, for the parsers it cannot
measure here, the one-line reason.

A parser's own code only: the parsing module or package (never the adapter, the JSON code, the
rest of an HTTP client). For the JVM, ``classes`` are JaCoCo ``includes`` patterns and ``jars``
the classfiles they are read from (relative to ``urlwb/oracles/java/``, globbed); for Node, the
scripts whose V8 coverage counts (a path inside ``node_modules/``, or a builtin module's
``node:`` URL); for Go, the import paths instrumented (``-coverpkg``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    tool: str                     # "python", "go", "jvm", "node", "ruby"
    code: tuple[str, ...]         # modules / import paths / class patterns / scripts
    jars: tuple[str, ...] = ()
    note: str = ""


_OKHTTP = ("okhttp3.HttpUrl*", "okhttp3.internal.url.*", "okhttp3.internal.idn.*",
           "okhttp3.internal._HostnamesCommonKt*", "okhttp3.internal._HostnamesJvmKt*")
_SPRING = ("org.springframework.web.util.UriComponents*",
           "org.springframework.web.util.HierarchicalUriComponents*",
           "org.springframework.web.util.OpaqueUriComponents*",
           "org.springframework.web.util.RfcUriParser*", "org.springframework.web.util.UriUtils*")

TARGETS: dict[str, Target] = {
    "engine": Target("python", ("engine",)),
    "pywhatwgurl": Target("python", ("pywhatwgurl",)),
    "urllib": Target("python", ("urllib.parse",)),
    "rfc3986": Target("python", ("rfc3986",)),
    "yarl": Target("python", ("yarl",), note="yarl's C extension (_quoting_c) is not Python: not measured; its pure-Python fallback is not the code that runs"),
    "urllib3": Target("python", ("urllib3.util.url",)),
    "hyperlink": Target("python", ("hyperlink._url",)),
    "go-net-url": Target("go", ("net/url",)),
    "okhttp": Target("jvm", _OKHTTP, ("build/lib/okhttp-jvm-*.jar",)),
    "apache-httpclient5": Target("jvm", ("org.apache.hc.core5.net.*",), ("build/lib/httpcore5-[0-9]*.jar",),
                                 note="the adapter parses with java.net.URI first (not measurable here), then URIBuilder and URIAuthority (httpcore5, measured)"),
    "spring-uricomponents": Target("jvm", _SPRING, ("build/lib/spring-web-*.jar",)),
    "spring-uricomponents-whatwg": Target("jvm", _SPRING + ("org.springframework.web.util.WhatWgUrlParser*",),
                                          ("build/lib/spring-web-*.jar",)),
    "whatwg-url": Target("node", ("node_modules/whatwg-url/", "node_modules/tr46/",
                                  "node_modules/webidl-conversions/", "node_modules/punycode/")),
    "url-parse": Target("node", ("node_modules/url-parse/", "node_modules/querystringify/",
                                 "node_modules/requires-port/")),
    "node-legacy-url": Target("node", ("node:url",)),
    "ruby-uri-rfc3986": Target("ruby", ("/uri/",), note="every file of Ruby's uri library (the parser, Generic and the scheme classes)"),
    "ruby-uri-rfc2396": Target("ruby", ("/uri/",), note="every file of Ruby's uri library (the parser, Generic and the scheme classes)"),
    "node": Target("node", ("node:internal/url",),
                   note="new URL parses in ada (C++ inside node): V8's coverage reaches only its JavaScript side, internal/url.js"),
}

#: parser -> why it is not measured here (one line each)
UNMEASURED: dict[str, str] = {
    "ada_url": "a C++ extension: coverage.py measures Python code only",
    "upa_url": "a C++ extension: coverage.py measures Python code only",
    "httptools": "a C extension (llhttp's URL parser): coverage.py measures Python code only",
    "java-uri": "java.net.URI is loaded by the JVM before any agent's premain (the launcher uses it), so JaCoCo's agent never instruments it (the exec file of a run holds no class: measured)",
    "java-url": "java.net.URL is loaded by the JVM before any agent's premain, so JaCoCo's agent never instruments it (as java-uri)",
    "rust-url": "rustc's LLVM is 22 and the only llvm-profdata here is Debian's LLVM 14 (a profile is read by tools of its own LLVM version or newer; not tried); llvm-tools-preview is not installed in either toolchain and comes from the rustup server, which is not among this machine's registries",
    "libcurl": "a C library from Debian, built without coverage instrumentation (gcov needs libcurl rebuilt)",
    "dotnet-system-uri": "Mono's System.dll: no coverage tool for Mono's class library is packaged here",
    "php-parse-url": "parse_url is C inside PHP: pcov and Xdebug measure PHP code only",
    "perl-uri": "Devel::Cover (libdevel-cover-perl) is installable but not installed here; not done in this round",
    "chromium": "a browser's own binary: no coverage build",
    "firefox": "a browser's own binary: no coverage build",
}
