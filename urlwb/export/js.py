"""A ``node:test`` file: one test per case (``<parser>.findings.test.js``, CommonJS).

Run it where the parser is installed (``require`` finds it in ``node_modules`` or ``NODE_PATH``):
``node --test url-parse.findings.test.js``.
"""

from __future__ import annotations

import json

from urlwb.export.api import api_of, card, expected, header_lines, spelled

#: the read code of a JavaScript suite, by the name a card's ``[oracle.export]`` gives (``template``)
READ = {
    "url-parse": """\
const Url = require('url-parse');

const REJECTED = () => false;   // url-parse has no failure: it reads every string

// url-parse's reading in the normal form (strings or null; scheme and host lower-cased)
function read(text, base) {
  const u = base === null ? new Url(text, {}) : new Url(text, base);
  let host = u.hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return {
    scheme: u.protocol ? u.protocol.replace(/:$/, '').toLowerCase() : null,
    username: u.username, password: u.password, host, port: u.port,
    path: u.pathname, query: String(u.query).replace(/^\\?/, ''), fragment: u.hash.replace(/^#/, ''),
  };
}
""",
    "whatwg-url": """\
const { URL } = require('whatwg-url');

const REJECTED = (e) => e instanceof TypeError;   // the URL Standard's failure

// the URL API's reading in the normal form (strings or null; scheme and host lower-cased)
function read(text, base) {
  const u = base === null ? new URL(text) : new URL(text, base);
  let host = u.hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return {
    scheme: u.protocol.replace(/:$/, '').toLowerCase(), username: u.username, password: u.password,
    host, port: u.port, path: u.pathname, query: u.search.replace(/^\\?/, ''), fragment: u.hash.replace(/^#/, ''),
  };
}
""",
}

_TEST = """
for (const c of CASES) {
  test(c.name, () => {
    const start = performance.now();
    let got;
    try {
      got = read(c.input, c.base);
    } catch (e) {
      if (!REJECTED(e)) throw e;   // any other exception fails the test
      got = null;
    }
    const elapsed = (performance.now() - start) / 1000;
    if (c.within !== null) assert.ok(elapsed <= c.within, `answered in ${elapsed.toFixed(2)} s: more than ${c.within} s`);
    if (c.expect === 'reject') {
      assert.equal(got, null, `accepted ${JSON.stringify(c.input)}`);
    } else if (c.expect === 'components') {
      assert.notEqual(got, null, `rejected ${JSON.stringify(c.input)}`);
      const part = {};
      for (const k of Object.keys(c.expected)) part[k] = got[k];
      assert.deepEqual(part, c.expected);
    }
    // expect 'no-exception': getting here is the assertion
  });
}
"""


def file_name(parser: str) -> str:
    return f"{parser}.findings.test.js"


def render(parser: str, cases, skipped: list[str], generator: str) -> dict[str, str]:
    api = api_of(parser)
    header = "\n".join("// " + line if line else "//" for line in header_lines(parser, cases, skipped, generator))
    rows = ["{" + ", ".join([f"name: {json.dumps(c.name)}",
                             f"input: {spelled(c.input, json.dumps, lambda lit, n: f'{lit}.repeat({n})')}",
                             f"base: {json.dumps(c.base)}", f"expect: {json.dumps(c.expect)}",
                             f"expected: {json.dumps(expected(api, c))}", f"within: {json.dumps(c.within)}"]) + "}"
            for c in cases]
    text = (f"{header}\n//\n// Run: node --test {file_name(parser)}\n'use strict';\n\n"
            "const test = require('node:test');\nconst assert = require('node:assert/strict');\n"
            "const { performance } = require('node:perf_hooks');\n" + READ[card(parser)["template"]]
            + "\nconst CASES = [\n" + "".join(f"  {r},\n" for r in rows) + "];\n" + _TEST)
    return {file_name(parser): text}
