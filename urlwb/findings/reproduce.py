"""A bug's standalone reproducer in its parser's own language, and a draft upstream report.

Issue 25: each bug carries "a minimal standalone reproducer in the parser's own language (a few
lines a maintainer can paste) and a draft upstream report". The parse call of each shipped parser
is the one its adapter makes (``urlwb/oracles/*``: ``HttpUrl.get(input)`` for OkHttp,
``url.Parse`` for Go's ``net/url``, ``new URL(input)`` for Node, ``urlsplit`` for urllib...);
the language is its oracle's (``oracles.REGISTRY[...].language``). Each reproducer prints the
parser's reading (its serialization first, then the host) or lets the exception escape, so that
what it prints is what the finding's ``observed`` says. The input is written as a literal of the
language (every code point outside printable ASCII escaped), the base where there is one.

:func:`reproducer` gives (language, file name, code, how to run it) or None for a parser with no
template here (a user's adapter: its reproducer is its own); :func:`draft` the report in
Markdown, with the contract's clause, the versions, expected and observed readings, the
reproducer and the upstream report or fix when known. ``urlwb list --bugs --drafts DIR`` writes
both for every bug listed.
"""

from __future__ import annotations

import dataclasses
import json
import re

from urlwb import oracles

def _escaped(s: str, unicode_escape, specials: dict[str, str]) -> str:
    out = []
    for c in s:
        if c in specials:
            out.append(specials[c])
        elif " " <= c <= "~":
            out.append(c)
        else:
            out.append(unicode_escape(ord(c)))
    return '"' + "".join(out) + '"'


def literal(s: str, language: str) -> str:
    """``s`` as a string literal of ``language`` (printable ASCII kept, everything else escaped)."""
    if language == "Python":
        return repr(s)
    if language in ("JavaScript", "Java", "C#"):
        return json.dumps(s)          # \uXXXX (pairs for astral) and \n \t ...: valid in all three
    if language == "Go":
        return _escaped(s, lambda n: f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}", {'"': '\\"', "\\": "\\\\"})
    if language in ("Rust", "Ruby"):
        extra = {"#": "\\#"} if language == "Ruby" else {}
        return _escaped(s, lambda n: f"\\u{{{n:x}}}", {'"': '\\"', "\\": "\\\\", **extra})
    if language == "Perl":
        return _escaped(s, lambda n: f"\\x{{{n:x}}}", {'"': '\\"', "\\": "\\\\", "$": "\\$", "@": "\\@"})
    if language == "PHP":          # json_decode of a single-quoted JSON text
        return "json_decode('" + json.dumps(s).replace("\\", "\\\\").replace("'", "\\'") + "')"
    if language in ("C", "C++"):   # UTF-8 bytes, octal escapes (no greedy \x, no trigraphs)
        out = []
        for b in s.encode("utf-8", "surrogatepass"):
            c = chr(b)
            out.append("\\" + c if c in '"\\?' else c if 0x20 <= b < 0x7f else f"\\{b:03o}")
        return '"' + "".join(out) + '"'
    raise ValueError(f"no string literal for {language}")


@dataclasses.dataclass(frozen=True)
class Template:
    language: str
    file: str
    #: the code, with {input} and {base} (literals, or the language's null for base)
    code: str
    run: str
    #: the code when there is a base (None: this parser takes no base here)
    with_base: str | None = None
    #: what the reproducer needs installed
    needs: str = ""


_PY = "python3 repro.py"


def _java(statement: str, host: str, run: str = "java Repro.java", needs: str = "JDK 11+") -> Template:
    """A Java reproducer: ``statement`` makes ``u``; it and its ``host`` expression are printed."""
    return Template("Java", "Repro.java",
                    "public class Repro {{\n    public static void main(String[] args) throws Exception {{\n"
                    f"        {statement}\n        System.out.println(u);\n        System.out.println({host});\n"
                    "    }}\n}}\n", run, needs=needs)
_JS = "node repro.js"

#: the host a JavaScript validator's adapter hands it: by Node's URL, or by url.parse (the
#: "-url-parse" pairings), an IPv6 address's brackets taken off
_HOST_URL = "const host = new URL({input}).hostname.replace(/^\\[|\\]$/g, \"\");\n"
_HOST_URL_PARSE = "const host = require(\"url\").parse({input}).hostname.replace(/^\\[|\\]$/g, \"\");\n"
def _python(s: dict) -> Template:
    """``import``, ``u = parse`` (none: ``show`` prints the call itself), ``print`` each of ``show``;
    with a base: ``import_with_base`` (default ``import``) and ``parse_with_base``."""
    def code(imports: str, parse: str | None) -> str:
        return "\n".join([imports, *([f"u = {parse}"] if parse else []), *(f"print({x})" for x in s["show"])]) + "\n"
    with_base = code(s.get("import_with_base", s["import"]), s["parse_with_base"]) if "parse_with_base" in s else None
    return Template("Python", "repro.py", code(s["import"], s.get("parse")), s.get("run", _PY), with_base, s.get("needs", ""))


def _javascript(s: dict) -> Template:
    """The ``prelude`` lines, ``const u = parse``, ``console.log`` each of ``show`` (the href and
    the hostname by default)."""
    head = "".join(line + "\n" for line in s.get("prelude", ()))
    shown = "".join(f"console.log({x});\n" for x in s.get("show", ("u.href", "u.hostname")))
    with_base = f"{head}const u = {s['parse_with_base']};\n{shown}" if "parse_with_base" in s else None
    return Template("JavaScript", "repro.js", f"{head}const u = {s['parse']};\n{shown}", s.get("run", _JS), with_base,
                    s.get("needs", ""))


def _javascript_validator(s: dict) -> Template:
    """A JavaScript validator as its adapter calls it: the ``prelude`` lines, the host as the
    adapter hands it (``host``: by Node's ``url`` or by ``url-parse``), then ``check``."""
    host = {"url": _HOST_URL, "url-parse": _HOST_URL_PARSE}[s["host"]]
    head = "".join(line + "\n" for line in s.get("prelude", ()))
    return Template("JavaScript", "repro.js", head + host + s["check"] + "\n", s.get("run", _JS), needs=s.get("needs", ""))


def _java_card(s: dict) -> Template:
    return _java(s["statement"], s["host"], s.get("run", "java Repro.java"), s.get("needs", "JDK 11+"))


def _fixed(language: str, file: str, code: str, run: str, with_base: str | None = None):
    """A template of one API, whole: the card names it and says what it needs."""
    return lambda s: Template(language, file, code, s.get("run", run), with_base, s.get("needs", ""))


def _ruby_uri(s: dict) -> Template:
    """Ruby's URI, by the parser class the card names (``URI::RFC3986_Parser``)."""
    return Template("Ruby", "repro.rb", f"require \"uri\"\nu = {s['parser']}.new.parse({{input}})\nputs u.to_s\nputs u.host.inspect\n",
                    s.get("run", "ruby repro.rb"), needs=s.get("needs", ""))


#: the reproducer templates, by the name a card's ``[oracle.reproducer]`` gives (``template``), each
#: filled from the card's other keys: a small set per language
TEMPLATES: dict = {
    "python": _python,
    "javascript": _javascript,
    "javascript-validator": _javascript_validator,
    "java": _java_card,
    "go-net-url": _fixed("Go", "repro.go",
                         "package main\n\nimport (\n\t\"fmt\"\n\t\"net/url\"\n)\n\nfunc main() {{\n\tu, err := url.Parse({input})\n"
                         "\tif err != nil {{\n\t\tfmt.Println(\"error:\", err)\n\t\treturn\n\t}}\n\tfmt.Println(u.String())\n"
                         "\tfmt.Println(u.Hostname())\n}}\n", "go run repro.go",
                         "package main\n\nimport (\n\t\"fmt\"\n\t\"net/url\"\n)\n\nfunc main() {{\n"
                         "\tbase, _ := url.Parse({base})\n\tref, err := url.Parse({input})\n"
                         "\tif err != nil {{\n\t\tfmt.Println(\"error:\", err)\n\t\treturn\n\t}}\n"
                         "\tu := base.ResolveReference(ref)\n\tfmt.Println(u.String())\n\tfmt.Println(u.Hostname())\n}}\n"),
    "csharp-uri": _fixed("C#", "Repro.cs",
                         "using System;\n\nclass Repro {{\n    static void Main() {{\n"
                         "        var u = new Uri({input}, UriKind.Absolute);\n        Console.WriteLine(u.AbsoluteUri);\n"
                         "        Console.WriteLine(u.Host);\n    }}\n}}\n", "mcs Repro.cs && mono Repro.exe"),
    "rust-url": _fixed("Rust", "main.rs",
                       "// Cargo.toml: [dependencies] url = \"2\"\nfn main() {{\n    match url::Url::parse({input}) {{\n"
                       "        Ok(u) => println!(\"{{}}\\n{{:?}}\", u, u.host_str()),\n        Err(e) => println!(\"error: {{}}\", e),\n    }}\n}}\n",
                       "cargo run"),
    "ruby-uri": _ruby_uri,
    "php-parse-url": _fixed("PHP", "repro.php", "<?php\nvar_dump(parse_url({input}));\n", "php repro.php"),
    "perl-uri": _fixed("Perl", "repro.pl", "use URI;\nmy $u = URI->new({input});\nprint $u->as_string, \"\\n\";\n"
                                           "print(($u->can(\"host\") ? $u->host : \"(no host)\"), \"\\n\");\n", "perl repro.pl"),
    "c-libcurl": _fixed("C", "repro.c",
                        "#include <curl/curl.h>\n#include <stdio.h>\n\nint main(void) {{\n    CURLU *h = curl_url();\n"
                        "    CURLUcode rc = curl_url_set(h, CURLUPART_URL, {input}, CURLU_NON_SUPPORT_SCHEME);\n"
                        "    if (rc) {{ printf(\"error: %s\\n\", curl_url_strerror(rc)); return 0; }}\n"
                        "    char *url = NULL, *host = NULL;\n    curl_url_get(h, CURLUPART_URL, &url, 0);\n"
                        "    curl_url_get(h, CURLUPART_HOST, &host, 0);\n    printf(\"%s\\n%s\\n\", url, host ? host : \"(no host)\");\n"
                        "    curl_url_cleanup(h);\n    return 0;\n}}\n", "cc repro.c -lcurl && ./a.out"),
    "cpp-ada": _fixed("C++", "repro.cpp",
                      "#include \"ada.h\"\n#include <iostream>\n\nint main() {{\n"
                      "    auto u = ada::parse<ada::url_aggregator>({input});\n    if (!u) {{ std::cout << \"failure\\n\"; return 0; }}\n"
                      "    std::cout << u->get_href() << \"\\n\" << u->get_hostname() << \"\\n\";\n}}\n",
                      "c++ -std=c++20 repro.cpp ada.cpp && ./a.out"),
    "cpp-upa": _fixed("C++", "repro.cpp",
                      "#include \"upa/url.h\"\n#include <iostream>\n\nint main() {{\n    upa::url u;\n"
                      "    if (upa::success(u.parse({input}, nullptr))) std::cout << u.href() << \"\\n\" << u.hostname() << \"\\n\";\n"
                      "    else std::cout << \"failure\\n\";\n}}\n", "c++ -std=c++17 repro.cpp -lupa_url && ./a.out"),
}


def template_of(parser: str) -> Template | None:
    """The reproducer template ``parser``'s card names (a parser's or a validator's), filled
    from its card; None when its card names none."""
    card = _card(parser)
    slots = card.reproducer if card is not None else None
    return TEMPLATES[slots["template"]](slots) if slots else None


def _card(name: str):
    entry = oracles.REGISTRY.get(name)
    return entry.card if entry is not None else oracles.VALIDATOR_SPECS.get(name)


def tracker(parser: str, unknown: str) -> str:
    """Where ``parser``'s maintainers take reports, as its card says (``tracker``), else ``unknown``."""
    card = _card(parser)
    return card.tracker if card is not None and card.tracker else unknown


def with_templates() -> list[str]:
    """Every parser and validator whose card names a reproducer template."""
    names = [*oracles.REGISTRY, *oracles.VALIDATOR_SPECS]
    return [n for n in names if _card(n) is not None and _card(n).reproducer]


#: Node's URLSearchParams (urlencoded findings of the node oracle: the form parser)
SEARCH_PARAMS = Template("JavaScript", "repro.js", "const p = new URLSearchParams({input});\nconsole.log(JSON.stringify([...p]));\n",
                         _JS, needs="Node.js")


#: a long input as prefix + piece repeated + suffix, by language (growth findings)
REPEAT = {"Python": "{p} + {x} * {n} + {s}", "JavaScript": "{p} + {x}.repeat({n}) + {s}",
          "Java": "{p} + {x}.repeat({n}) + {s}", "Ruby": "{p} + {x} * {n} + {s}"}


@dataclasses.dataclass(frozen=True)
class Reproducer:
    parser: str
    language: str
    file: str
    code: str
    run: str
    needs: str


def _template(rec: dict) -> Template | None:
    base = rec["parser"].partition("@")[0]
    if base == "node" and (rec.get("rule") or "").startswith("urlencoded"):
        return SEARCH_PARAMS
    return template_of(base)


def reproducer(rec: dict) -> Reproducer | None:
    """The reproducer of finding ``rec`` (its parser's template, its input and base as literals
    of the language); None when its parser has no template (a user's adapter) or it needs a base
    the template cannot take."""
    t = _template(rec)
    if t is None:
        return None
    code = t.code
    base = rec.get("base")
    if base is not None:
        if t.with_base is None:
            return None
        code = t.with_base
    shape = rec.get("input_shape")
    if shape:   # a long input (growth): built by repetition, as the survey built it
        form = REPEAT.get(t.language)
        if form is None:
            return None
        lit = lambda x: literal(x, t.language)  # noqa: E731
        expression = form.format(p=lit(shape["prefix"]), x=lit(shape["piece"]), n=shape["count"], s=lit(shape["suffix"]))
    else:
        expression = literal(rec["input"], t.language)
    filled = code.format(input=expression, base=literal(base, t.language) if base is not None else "null")
    return Reproducer(rec["parser"], t.language, t.file, filled, t.run, t.needs)


def version_of(rec: dict) -> str:
    name, _, asked = rec["parser"].partition("@")
    return asked or rec.get("parser_version") or rec.get("version") or "(version not recorded)"


def title(rec: dict) -> str:
    name = rec["parser"].partition("@")[0]
    v = rec["verdict"]
    what = {"crash": "throws an undocumented exception", "hang": "does not return",
            "superlinear": "takes super-linear time", "unstable": "changes its answer on re-parse"}.get(
        v["cause"], f"reads the {v['cause']} otherwise than its spec")
    shown = rec["input"] if len(rec["input"]) <= 60 else rec["input"][:57] + "..."
    return f"{name} {version_of(rec)} {what} on {json.dumps(shown, ensure_ascii=False)}"


def slug(rec: dict) -> str:
    """A file-name-safe name for the finding's folder."""
    return re.sub(r"[^A-Za-z0-9@._-]+", "-", rec["signature"]).strip("-")[:100] or "finding"


def draft(rec: dict, repro: Reproducer | None = None) -> str:
    """The draft upstream report of finding ``rec`` (Markdown)."""
    repro = repro if repro is not None else reproducer(rec)
    v = rec["verdict"]
    name = rec["parser"].partition("@")[0]
    spec = {"whatwg-url": "the WHATWG URL Standard", "rfc3986": "RFC 3986", "rfc3987": "RFC 3987",
            "rfc2396": "RFC 2396", "own": f"{name}'s own documentation"}[v["spec"]["name"]]
    up = v.get("upstream")
    lines = [f"# {title(rec)}", "",
             f"- **Parser**: {name} {version_of(rec)}" + (f" ({rec['language']})" if rec.get("language") else ""),
             f"- **Input**: `{json.dumps(rec['input'], ensure_ascii=False)}`"
             + (f", base `{json.dumps(rec['base'], ensure_ascii=False)}`" if rec.get("base") is not None else ""),
             f"- **Contract**: {spec}: {v['spec']['clause']}",
             f"- **Tracker**: {tracker(name, 'unknown')}", "",
             "## Expected", "",
             f"Per {spec} ({v['spec']['clause']})"
             + (f": `{rec['expected']}`" if rec.get("expected") else "") + ".",
             "", "## Observed", "", f"`{rec.get('observed') or rec.get('summary') or '(see the reproducer)'}`", "",
             v.get("reason") or "", ""]
    if repro is not None:
        lines += ["## Reproducer", "", f"```{repro.language.lower().replace('#', 'sharp').replace('++', 'pp')}",
                  repro.code.rstrip(), "```", "", f"Run: `{repro.run}`" + (f" (needs {repro.needs})" if repro.needs else ""), ""]
    else:
        lines += ["## Reproducer", "", f"No template for {name}: `{rec.get('command') or ''}` shows it with url-workbench.", ""]
    lines += ["## Upstream", ""]
    if up:
        lines.append(f"Already known: {up['url']} ({up['state']}"
                     + (f", fixed in {up['fixed_in']}" if up.get("fixed_in") else "") + "): this draft is not to be filed again.")
    else:
        lines.append(f"No upstream report known to url-workbench (`urlwb/verdicts/upstream.toml`); search {tracker(name, 'the tracker')} before filing.")
    if rec.get("command"):
        lines += ["", f"Found with url-workbench: `{rec['command']}`."]
    return "\n".join(lines).rstrip() + "\n"
