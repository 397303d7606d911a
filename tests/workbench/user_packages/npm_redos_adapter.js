// A user's npm adapter: the planted package "urlwb-planted-redos" (a data: URL reader with
// normalize-url 4.5.0's regex) behind the oracle protocol, found through NODE_PATH.
const planted = require("urlwb-planted-redos");
const rl = require("readline").createInterface({ input: process.stdin });
process.stdout.write(JSON.stringify({ hello: "urlwb-oracle/1", name: "planted-redos", parser: "urlwb-planted-redos",
  language: "JavaScript", version: planted.VERSION, family: "other", kind: "url", base: false }) + "\n");
rl.on("line", (line) => {
  const req = JSON.parse(line);
  let ans;
  try {
    const u = planted.parse(req.input);
    ans = { id: req.id, scheme: u.scheme, username: null, password: null, host: null, port: null, path: u.path,
      query: null, fragment: null, href: req.input };
  } catch (e) { ans = { id: req.id, error: String(e.message) }; }
  process.stdout.write(JSON.stringify(ans) + "\n");
});
