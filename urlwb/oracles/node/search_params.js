#!/usr/bin/env node
// URLSearchParams peers for properties/independent.py (check_search_params_against_node):
//
//   node search_params.js node         Node's global URLSearchParams (Node's own C++/JS, not ada's)
//   node search_params.js whatwg-url   npm whatwg-url's, the Standard's reference code
//
// A request per line: {"id": n, "init": string, "ops": [[method, arg, ...], ...]}, methods as
// properties.invariants.SEARCH_PARAMS_METHODS names them (get_all for getAll; size, iter and str
// read the object). The answer, one line with the same id: "steps", one per op after the initial
// state (index 0: no op), each {"answer": the op's result or null, "pairs": [[name, value], ...],
// "string": toString(), "size": size}; or {"id": n, "error": message} when something throws.
// Lone surrogates arrive as JSON escapes and stay in the JavaScript strings (URLSearchParams
// converts to USVString itself); JSON.stringify escapes any that come back.
"use strict";

const readline = require("readline");

const impl = process.argv[2];
const URLSearchParamsImpl = impl === "whatwg-url" ? require("whatwg-url").URLSearchParams
  : impl === "node" ? globalThis.URLSearchParams : null;
if (URLSearchParamsImpl === null) {
  process.stderr.write("usage: search_params.js node|whatwg-url\n");
  process.exit(2);
}

function apply(params, op) {
  const [method, ...args] = op;
  switch (method) {
    case "append": params.append(...args); return null;
    case "delete": params.delete(...args); return null;
    case "set": params.set(...args); return null;
    case "sort": params.sort(); return null;
    case "get": return params.get(...args);
    case "get_all": return params.getAll(...args);
    case "has": return params.has(...args);
    case "size": return params.size;
    case "iter": return [...params];
    case "str": return params.toString();
    default: throw new Error(`unknown method ${method}`);
  }
}

function state(params, answer) {
  return { answer: answer === undefined ? null : answer, pairs: [...params], string: params.toString(),
    size: params.size };
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  if (!line.trim()) return;
  const request = JSON.parse(line);
  let reply;
  try {
    const params = new URLSearchParamsImpl(request.init);
    const steps = [state(params, null)];
    for (const op of request.ops) steps.push(state(params, apply(params, op)));
    reply = { id: request.id, steps };
  } catch (e) {
    reply = { id: request.id, error: String(e && e.message || e) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
