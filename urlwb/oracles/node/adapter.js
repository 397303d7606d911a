#!/usr/bin/env node
// url-workbench oracle adapter (docs/oracle-protocol.md, urlwb-oracle/1) for the URL parsers of
// Node: one process per oracle, chosen by the first argument.
//
//   node            Node's global URL (the ada bundled in Node)        family whatwg, "api" answers
//   whatwg-url      npm whatwg-url, the Standard's reference code      family whatwg, "api" answers
//   node-legacy-url Node's legacy url.parse (url.resolve with a base)  family other
//   url-parse       npm url-parse                                      family other
//
// Requests are read line by line and answered as they come; the answers of one chunk of input go
// out in one write. Lone surrogates arrive as JSON escapes and stay in the JavaScript string: the
// URL constructors convert to USVString themselves (the Standard's API does), url.parse and
// url-parse see them as they are. Rejections: the URL constructors throw TypeError ("throw a
// TypeError" in the Standard); url.parse throws URIError when the auth cannot be decoded and
// TypeError ERR_INVALID_URL on a bad host; url-parse documents no rejection. Anything else
// thrown is a crash.
"use strict";

const readline = require("readline");

function apiAnswer(u) {
  return { api: { href: u.href, protocol: u.protocol, username: u.username, password: u.password,
    hostname: u.hostname, port: u.port, pathname: u.pathname, search: u.search, hash: u.hash } };
}

// An IPv6 host in brackets, as the protocol wants it (url.parse's hostname drops them).
function bracket(host) {
  return host && host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function port(p) {
  if (p === null || p === undefined || p === "") return null;
  // A port too large for a JavaScript number is sent as the string it is.
  return /^[0-9]+$/.test(p) && Number.isSafeInteger(Number(p)) ? Number(p) : p;
}

const ORACLES = {
  node: () => ({
    parser: "Node's global URL (new URL(input, base))",
    version: `${process.versions.node} (bundled ada ${process.versions.ada || "?"})`,
    family: "whatwg",
    parse: (input, base) => apiAnswer(base === null ? new URL(input) : new URL(input, base)),
    rejects: (e) => e instanceof TypeError,
  }),
  "whatwg-url": () => {
    const { URL: WURL } = require("whatwg-url");
    return {
      parser: "whatwg-url's URL (the Standard's reference implementation)",
      version: require("whatwg-url/package.json").version,
      family: "whatwg",
      parse: (input, base) => apiAnswer(base === null ? new WURL(input) : new WURL(input, base)),
      rejects: (e) => e instanceof TypeError,
    };
  },
  "node-legacy-url": () => {
    const url = require("url");
    return {
      parser: "Node's legacy url.parse (url.resolve(base, input) first with a base)",
      version: `Node ${process.versions.node}`,
      family: "other",
      parse: (input, base) => {
        const u = url.parse(base === null ? input : url.resolve(base, input));
        // search and hash keep their "?" / "#" and are null when absent: empty and absent differ.
        return {
          scheme: u.protocol ? u.protocol.slice(0, -1) : null,
          username: u.auth === null ? null : u.auth.split(":")[0],
          password: u.auth === null || !u.auth.includes(":") ? null : u.auth.slice(u.auth.indexOf(":") + 1),
          host: u.slashes || u.hostname ? bracket(u.hostname) : null,
          port: port(u.port),
          path: u.pathname,
          query: u.search === null ? null : u.search.slice(1),
          fragment: u.hash === null ? null : u.hash.slice(1),
          href: u.href,
        };
      },
      rejects: (e) => e instanceof URIError || (e instanceof TypeError && e.code === "ERR_INVALID_URL"),
    };
  },
  "url-parse": () => {
    const URLParse = require("url-parse");
    return {
      parser: "url-parse (new URLParse(input, base or {}))",
      version: require("url-parse/package.json").version,
      family: "other",
      parse: (input, base) => {
        // {} as the location: no browser location or globals fill in a relative input.
        const u = new URLParse(input, base === null ? {} : base);
        // query and hash keep their "?" / "#" and are "" when absent. Quirk: the scheme's default
        // port is dropped ("" like no port). Versions before 0.1 (urlwb bisect reaches them) parse
        // the query into an object and have no username/password: the query is read from the
        // href, the userinfo from auth.
        const query = typeof u.query === "string" ? u.query
          : (u.href.split("#")[0].includes("?") ? "?" + u.href.split("#")[0].split("?").slice(1).join("?") : "");
        const auth = typeof u.auth === "string" ? u.auth : "";
        return {
          scheme: u.protocol ? u.protocol.slice(0, -1) : null,
          username: u.username !== undefined ? u.username : auth.split(":")[0],
          password: u.password !== undefined ? u.password : auth.split(":").slice(1).join(":"),
          host: u.slashes || u.hostname ? u.hostname : null,
          port: port(u.port),
          path: u.pathname,
          query: query ? query.slice(1) : null,
          fragment: u.hash ? u.hash.slice(1) : null,
          href: u.href,
        };
      },
      rejects: () => false,
    };
  },
};

function main() {
  const name = process.argv[2];
  if (!(name in ORACLES)) {
    process.stderr.write(`usage: node adapter.js ${Object.keys(ORACLES).join("|")}\n`);
    process.exit(2);
  }
  const oracle = ORACLES[name]();
  process.stdout.write(JSON.stringify({
    hello: "urlwb-oracle/1", name, parser: oracle.parser, language: "JavaScript",
    version: oracle.version, family: oracle.family, kind: "url", base: true,
  }) + "\n");

  let pending = [];
  let scheduled = false;
  function flush() {
    scheduled = false;
    const out = pending.join("");
    pending = [];
    process.stdout.write(out);
  }

  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", (line) => {
    const req = JSON.parse(line);
    let answer;
    try {
      answer = oracle.parse(req.input, req.base === undefined ? null : req.base);
    } catch (e) {
      const text = `${e && e.name}: ${e && e.message}`;
      answer = oracle.rejects(e) ? { error: text } : { crash: text };
    }
    answer.id = req.id;
    pending.push(JSON.stringify(answer) + "\n");
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
  rl.on("close", () => {
    if (pending.length) flush();
  });
}

main();
