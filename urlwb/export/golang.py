"""A Go table test, a fuzz target, and its corpus in Go's own format.

``findings_test.go`` (package ``findings``): ``TestFindings`` runs the table; ``FuzzParse`` holds
every input its fuzzer gives to the contract (the table's expectation for an input of the table;
for any other, what the contract says without an expected value: ``net/url``'s accepted
bracketed host is an IPv6 address, RFC 3986 §3.2.2), and ``testdata/fuzz/FuzzParse/<sha>`` holds each case's input in
the corpus format ``go test`` replays (``go test fuzz v1`` and a ``string("...")`` line:
https://go.dev/doc/security/fuzz/#corpus-file-format), so that ``go test -fuzz=FuzzParse`` starts
from the findings. ``go.mod`` names no dependency: ``net/url`` ships with the toolchain, and the
release under test is the toolchain (``GOTOOLCHAIN=go1.25.1 go test ./...``).
"""

from __future__ import annotations

import hashlib

from urlwb.export.api import api_of, card, expected, header_lines, spelled

#: the read code of a Go suite, by the name a card's ``[oracle.export]`` gives (``template``)
READ = {
    "go-net-url": """\
// read is url.Parse's reading in the normal form (scheme and host lower-cased); ok false: rejected.
func read(text string, base *string) (map[string]opt, bool) {
	var u *url.URL
	var err error
	if base == nil {
		u, err = url.Parse(text)
	} else {
		var b *url.URL
		if b, err = url.Parse(*base); err == nil {
			u, err = b.Parse(text)
		}
	}
	if err != nil {
		return nil, false // its documented failure
	}
	m := map[string]opt{
		"scheme": some(strings.ToLower(u.Scheme)), "username": none, "password": none,
		"host": some(strings.ToLower(u.Hostname())), "port": some(u.Port()), "path": some(u.EscapedPath()),
		"query": none, "fragment": some(u.EscapedFragment()),
	}
	if u.Scheme == "" {
		m["scheme"] = none
	}
	if u.User != nil {
		m["username"] = some(u.User.Username())
		if p, ok := u.User.Password(); ok {
			m["password"] = some(p)
		}
	}
	if u.RawQuery != "" || u.ForceQuery {
		m["query"] = some(u.RawQuery)
	}
	return m, true
}
""",
}

_TEST = """
// opt is a component: absent, or a string
type opt struct {
	ok bool
	v  string
}

var none = opt{}

func some(v string) opt { return opt{true, v} }

func (o opt) String() string {
	if !o.ok {
		return "absent"
	}
	return strconv.Quote(o.v)
}

type finding struct {
	name, input string
	base        *string
	expect      string // reject, components or no-exception
	expected    map[string]opt
	within      time.Duration // 0: no time asserted
}

func check(t *testing.T, c finding) {
	t.Helper()
	start := time.Now()
	got, ok := read(c.input, c.base) // a panic fails the test
	elapsed := time.Since(start)
	if c.within > 0 && elapsed > c.within {
		t.Errorf("answered in %v: more than %v", elapsed, c.within)
	}
	switch c.expect {
	case "reject":
		if ok {
			t.Errorf("accepted %q, read as %v", c.input, got)
		}
	case "components":
		if !ok {
			t.Fatalf("rejected %q", c.input)
		}
		for k, want := range c.expected {
			if got[k] != want {
				t.Errorf("%s: got %v, want %v", k, got[k], want)
			}
		}
	}
	// "no-exception": getting here is the assertion
}

func TestFindings(t *testing.T) {
	for _, c := range findings {
		t.Run(c.name, func(t *testing.T) { check(t, c) })
	}
}

// FuzzParse replays testdata/fuzz/FuzzParse (the findings' inputs) under go test, and starts
// go test -fuzz=FuzzParse from them: an input of the table is held to its expectation, any
// other to no panic.
func FuzzParse(f *testing.F) {
	byInput := map[string]finding{}
	for _, c := range findings {
		if c.base == nil {
			byInput[c.input] = c
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		if c, ok := byInput[s]; ok {
			check(t, c)
			return
		}
		property(t, s)
	})
}
"""

#: what FuzzParse holds every other input to: the parser's contract where it needs no expected value
#: (by the same template name)
PROPERTY = {
    "go-net-url": """
// property is RFC 3986 §3.2.2 (with RFC 6874's zone): a host in brackets that Parse accepts is an
// IPv6 address (Parse takes no IPvFuture); and Parse does not panic.
func property(t *testing.T, s string) {
	u, err := url.Parse(s)
	if err != nil || !strings.HasPrefix(u.Host, "[") {
		return
	}
	if a, err := netip.ParseAddr(u.Hostname()); err != nil || !a.Is6() {
		t.Errorf("accepted %q with host %q: no IPv6 address in its brackets (RFC 3986 §3.2.2)", s, u.Host)
	}
}
""",
}


def go_string(s: str) -> str:
    """A Go interpreted string literal of ``s`` (what ``strconv.Quote`` gives for ASCII; every
    other code point as ``\\u``/``\\U``, so that the file is ASCII). A lone surrogate, which no
    Go string holds, is written as U+FFFD, as the oracles get it (urlwb.oracles.to_usv)."""
    out = []
    for ch in s:
        o = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch in "\n\r\t":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch])
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\x{o:02x}")
        elif o < 0x7F:
            out.append(ch)
        elif 0xD800 <= o <= 0xDFFF:
            out.append("\\ufffd")
        elif o > 0xFFFF:
            out.append(f"\\U{o:08x}")
        else:
            out.append(f"\\u{o:04x}")
    return '"' + "".join(out) + '"'


def _opt(v: str | None) -> str:
    return "none" if v is None else f"some({go_string(v)})"


def corpus_file(text: str) -> tuple[str, str]:
    """(name, content) of one input in Go's fuzz corpus format; the name is the SHA-256 of the
    content's first 16 hex digits, as ``go test -fuzz`` names what it finds."""
    content = f"go test fuzz v1\nstring({go_string(text)})\n"
    return hashlib.sha256(content.encode()).hexdigest()[:16], content


def render(parser: str, cases, skipped: list[str], generator: str) -> dict[str, str]:
    api = api_of(parser)
    template = card(parser)["template"]
    header = "\n".join("// " + line if line else "//" for line in header_lines(parser, cases, skipped, generator))
    rows = []
    for c in cases:
        want = expected(api, c)
        exp = ", ".join(f"{go_string(k)}: {_opt(v)}" for k, v in sorted(want.items()))
        base = "nil" if c.base is None else f"ptr({go_string(c.base)})"
        within = f"{int(c.within * 1000)} * time.Millisecond" if c.within else "0"
        text = spelled(c.input, go_string, lambda lit, n: f"strings.Repeat({lit}, {n})")
        rows.append(f"\t{{{go_string(c.name)}, {text}, {base}, {go_string(c.expect)}, "
                    f"map[string]opt{{{exp}}}, {within}}},")
    text = (f"{header}\n//\n// Run: go test ./...   (the release: GOTOOLCHAIN=go1.X.Y go test ./...)\n"
            "package findings\n\nimport (\n\t\"net/netip\"\n\t\"net/url\"\n\t\"strconv\"\n\t\"strings\"\n\t\"testing\"\n\t\"time\"\n)\n\n"
            "func ptr(s string) *string { return &s }\n\nvar findings = []finding{\n" + "\n".join(rows) + "\n}\n\n"
            + READ[template] + _TEST + PROPERTY[template])
    files = {"go.mod": "module urlwb.example/findings\n\ngo 1.21\n", "findings_test.go": text}
    for c in cases:
        if c.base is None:
            name, content = corpus_file(c.input)
            files[f"testdata/fuzz/FuzzParse/{name}"] = content
    return files
