"""A JUnit 5 parameterized test and the smallest ``pom.xml`` that runs it with ``mvn test``.

``src/test/java/urlwb/findings/<Name>FindingsTest.java`` (one ``@ParameterizedTest`` over a
``@MethodSource``), and ``pom.xml`` with the parser's Maven coordinates, JUnit Jupiter and a
Surefire that runs JUnit 5 (Maven 3.8's default Surefire 2.12 does not) and a compiler plugin that knows
``release`` (its default 3.1 compiles for Java 5, which JDK 17 refuses), all from Maven Central.
The release under test is a property: ``mvn test -Dparser.version=4.12.0`` (and
``-Dparser.artifact=okhttp-jvm`` for OkHttp 5, which Maven takes as ``okhttp-jvm``).
"""

from __future__ import annotations

from urlwb.export.api import api_of, card, expected, header_lines, spelled

JUNIT = "5.10.2"
#: the JUnit Platform of that Jupiter; named (and Surefire's provider too) so that Maven resolves both
#: before the tests run (Surefire otherwise fetches them while starting the tests, offline there)
LAUNCHER = "1.10.2"
#: the plugins the shipped Java adapter pins (urlwb/oracles/java/pom.xml): already in ~/.m2 after `make oracles`
SUREFIRE = "3.6.1"
COMPILER = "3.16.0"
RESOURCES = "3.5.0"


#: The normal form of a reading from getters (Spring's UriComponents, HttpClient's URIBuilder):
#: strings or null, scheme and host lower-cased, an IPv6 host without its brackets, userinfo split
#: at its first colon, no port as null, no path as "".
_NORMAL = """
  static Map<String, String> normal(String scheme, String userInfo, String host, int port, String path, String query,
                                    String fragment) {
    Map<String, String> m = new HashMap<>();
    m.put("scheme", scheme == null ? null : scheme.toLowerCase(Locale.ROOT));
    m.put("username", userInfo == null ? null : userInfo.split(":", 2)[0]);
    m.put("password", userInfo == null || !userInfo.contains(":") ? null : userInfo.split(":", 2)[1]);
    String h = host == null ? null : host.toLowerCase(Locale.ROOT);
    m.put("host", h != null && h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h);
    m.put("port", port == -1 ? null : String.valueOf(port));
    m.put("path", path == null ? "" : path);
    m.put("query", query);
    m.put("fragment", fragment);
    return m;
  }
"""

#: the read code of a Java suite, by the name a card's ``[oracle.export]`` gives (``template``)
READ = {
    "okhttp": """\
  /** HttpUrl's reading in the normal form (strings or null; scheme and host lower-cased); null: rejected. */
  static Map<String, String> read(String text, String base) {
    okhttp3.HttpUrl u = base == null ? okhttp3.HttpUrl.parse(text) : resolve(base, text);
    if (u == null) return null;   // its documented failure
    Map<String, String> m = new HashMap<>();
    m.put("scheme", u.scheme().toLowerCase(Locale.ROOT));
    m.put("username", u.encodedUsername());
    m.put("password", u.encodedPassword());
    String host = u.host().toLowerCase(Locale.ROOT);
    m.put("host", host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host);
    m.put("port", String.valueOf(u.port()));
    m.put("path", u.encodedPath());
    m.put("query", u.encodedQuery());
    m.put("fragment", u.encodedFragment());
    return m;
  }

  static okhttp3.HttpUrl resolve(String base, String text) {
    okhttp3.HttpUrl b = okhttp3.HttpUrl.parse(base);
    return b == null ? null : b.resolve(text);
  }
""",
    "spring-uricomponents": """\
  /** UriComponents' reading in the normal form (strings or null; scheme and host lower-cased); null: rejected. */
  static Map<String, String> read(String text, String base) {
    if (base != null) throw new UnsupportedOperationException("UriComponentsBuilder takes no base URL");
    org.springframework.web.util.UriComponents u;
    try {
      u = org.springframework.web.util.UriComponentsBuilder.fromUriString(text).build();
    } catch (IllegalArgumentException e) {
      return null;   // its documented failure
    }
    return normal(u.getScheme(), u.getUserInfo(), u.getHost(), u.getPort(), u.getPath(), u.getQuery(), u.getFragment());
  }
""" + _NORMAL,
    "apache-httpclient5": """\
  /** URIBuilder's reading in the normal form (strings or null; scheme and host lower-cased); null: rejected. */
  static Map<String, String> read(String text, String base) throws Exception {
    if (base != null) throw new UnsupportedOperationException("URIBuilder takes no base URL");
    org.apache.hc.core5.net.URIBuilder u;
    java.net.URI built;
    try {
      u = new org.apache.hc.core5.net.URIBuilder(text);
      built = u.build();   // URIBuilder keeps the query as parameters: the raw query is the built URI's
    } catch (java.net.URISyntaxException e) {
      return null;   // its documented failure, from parsing or (as the differential's adapter reads it) from build()
    }
    return normal(u.getScheme(), u.getUserInfo(), u.getHost(), u.getPort(), u.getPath(), built.getRawQuery(),
                  u.getFragment());
  }
""" + _NORMAL,
}

_TEST = """
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void finding(String name, String text, String base, String expect, Map<String, String> expected, Double within)
      throws Exception {
    long start = System.nanoTime();
    Map<String, String> got = read(text, base);   // any exception fails the test
    double elapsed = (System.nanoTime() - start) / 1e9;
    if (within != null) {
      assertTrue(elapsed <= within, String.format("answered in %.2f s: more than %s s", elapsed, within));
    }
    if (expect.equals("reject")) {
      assertNull(got, "accepted " + text);
    } else if (expect.equals("components")) {
      assertNotNull(got, "rejected " + text);
      Map<String, String> part = new HashMap<>();
      for (String k : expected.keySet()) part.put(k, got.get(k));
      assertEquals(expected, part);
    }
    // expect "no-exception": getting here is the assertion
  }

  static Map<String, String> map(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
    return m;
  }
}
"""


def java_string(s: str | None) -> str:
    """A Java string literal of ``s`` (``null`` for None). Control characters are written as
    octal escapes, not ``\\uXXXX``: Java turns unicode escapes into characters before it reads a
    literal, so ``\\u000a`` would end the line inside it."""
    if s is None:
        return "null"
    out = []
    for ch in s:
        o = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch in "\n\r\t\b\f":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}[ch])
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\{o:03o}")
        elif o < 0x7F:
            out.append(ch)
        elif o > 0xFFFF:
            o -= 0x10000
            out.append(f"\\u{0xD800 + (o >> 10):04x}\\u{0xDC00 + (o & 0x3FF):04x}")
        else:
            out.append(f"\\u{o:04x}")
    return '"' + "".join(out) + '"'


def class_name(parser: str) -> str:
    return f"{card(parser)['class']}FindingsTest"


def pom(parser: str) -> str:
    group, artifact = api_of(parser).package.split(":")
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- Runs {class_name(parser)}: mvn test -Dparser.version=VERSION (written by urlwb export tests) -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>urlwb.findings</groupId>
  <artifactId>{parser}-findings</artifactId>
  <version>0</version>
  <properties>
    <parser.artifact>{artifact}</parser.artifact>
    <parser.version>{card(parser)["version"]}</parser.version>
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>{group}</groupId>
      <artifactId>${{parser.artifact}}</artifactId>
      <version>${{parser.version}}</version>
    </dependency>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>{JUNIT}</version>
      <scope>test</scope>
    </dependency>
    <dependency>
      <groupId>org.junit.platform</groupId>
      <artifactId>junit-platform-launcher</artifactId>
      <version>{LAUNCHER}</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-resources-plugin</artifactId>
        <version>{RESOURCES}</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>{COMPILER}</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>{SUREFIRE}</version>
        <dependencies>
          <dependency>
            <groupId>org.apache.maven.surefire</groupId>
            <artifactId>surefire-junit-platform</artifactId>
            <version>{SUREFIRE}</version>
          </dependency>
        </dependencies>
      </plugin>
    </plugins>
  </build>
</project>
"""


def render(parser: str, cases, skipped: list[str], generator: str) -> dict[str, str]:
    api = api_of(parser)
    header = "\n".join(" * " + line.replace("*/", "* /") if line else " *"
                       for line in header_lines(parser, cases, skipped, generator))
    rows = []
    for c in cases:
        want = expected(api, c)
        kv = ", ".join(f"{java_string(k)}, {java_string(v)}" for k, v in sorted(want.items()))
        text = spelled(c.input, java_string, lambda lit, n: f"{lit}.repeat({n})")
        rows.append(f"        Arguments.of({java_string(c.name)}, {text}, {java_string(c.base)}, "
                    f"{java_string(c.expect)}, map({kv}), {repr(c.within) if c.within else 'null'})")
    text = (f"/*\n{header}\n *\n * Run: mvn test -Dparser.version=VERSION\n */\npackage urlwb.findings;\n\n"
            "import static org.junit.jupiter.api.Assertions.*;\n\n"
            "import java.util.HashMap;\nimport java.util.Locale;\nimport java.util.Map;\nimport java.util.stream.Stream;\n"
            "import org.junit.jupiter.params.ParameterizedTest;\nimport org.junit.jupiter.params.provider.Arguments;\n"
            "import org.junit.jupiter.params.provider.MethodSource;\n\n"
            f"class {class_name(parser)} {{\n  static Stream<Arguments> cases() {{\n    return Stream.of(\n"
            + ",\n".join(rows) + ");\n  }\n\n" + READ[card(parser)["template"]] + _TEST)
    return {"pom.xml": pom(parser), f"src/test/java/urlwb/findings/{class_name(parser)}.java": text}
