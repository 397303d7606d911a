#!/usr/bin/env node
// JSON-lines oracle server for url-workbench: Node's global URL and the whatwg-url reference
// implementation, in one long-lived process.
//
// Protocol (one JSON value per line, both ways):
//   first line out:  {"ready": true, "versions": {"node": ..., "node-ada": ..., "whatwg-url": ...}}
//   request:         {"parsers": ["node", "whatwg-url"], "items": [[input, base_or_null], ...]}
//   response:        {"results": {"node": [rec, ...], "whatwg-url": [rec, ...]}}
// where rec is null when the URL constructor throws TypeError (the Standard's failure), an array
// [href, protocol, username, password, hostname, port, pathname, search, hash] otherwise, or
// {"crash": "<message>"} when anything else is thrown.
"use strict";

const readline = require("readline");

let whatwg = null;
let whatwgError = null;
try {
  whatwg = require("whatwg-url");
} catch (e) {
  whatwgError = String(e && e.message ? e.message.split("\n")[0] : e);
}

const CTORS = { node: globalThis.URL };
if (whatwg) CTORS["whatwg-url"] = whatwg.URL;

function parseOne(Ctor, input, base) {
  try {
    const u = base === null ? new Ctor(input) : new Ctor(input, base);
    return [u.href, u.protocol, u.username, u.password, u.hostname, u.port, u.pathname, u.search, u.hash];
  } catch (e) {
    if (e instanceof TypeError) return null;
    return { crash: String(e && e.name) + ": " + String(e && e.message) };
  }
}

const versions = { node: process.versions.node, "node-ada": process.versions.ada || null };
if (whatwg) versions["whatwg-url"] = require("whatwg-url/package.json").version;
const hello = { ready: true, versions: versions };
if (whatwgError) hello.unavailable = { "whatwg-url": whatwgError };
process.stdout.write(JSON.stringify(hello) + "\n");

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    process.stdout.write(JSON.stringify({ error: "bad request: " + e.message }) + "\n");
    return;
  }
  const results = {};
  for (const name of req.parsers) {
    const Ctor = CTORS[name];
    if (!Ctor) {
      results[name] = { unavailable: true };
      continue;
    }
    results[name] = req.items.map(([input, base]) => parseOne(Ctor, input, base));
  }
  process.stdout.write(JSON.stringify({ results: results }) + "\n");
});
