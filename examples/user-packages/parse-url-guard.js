// A user's SSRF validator on parse-url (kind "validator", docs/oracle-protocol.md): allow a URL
// unless the host parse-url reads (its `resource`) is a private, loopback or link-local address.
const m = require("parse-url"); const parseUrl = m.default || m;
const rl = require("readline").createInterface({ input: process.stdin });
const v = JSON.parse(require("fs").readFileSync(process.env.URLWB_PACKAGE_DIR + "/node_modules/parse-url/package.json")).version;
const denied = /^(localhost|127\.|10\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.|0\.|\[::1\]|\[?::1\]?$)/i;
process.stdout.write(JSON.stringify({hello: "urlwb-oracle/1", name: "parse-url-guard", kind: "validator", version: v,
  validator: "parse-url(input).resource not private/loopback/link-local", language: "JavaScript"}) + "\n");
rl.on("line", (line) => {
  const req = JSON.parse(line);
  let ans;
  try { const host = parseUrl(req.input).resource || ""; ans = {id: req.id, allow: !denied.test(host)}; }
  catch (e) { ans = {id: req.id, error: String(e.message || e).slice(0, 200)}; }
  process.stdout.write(JSON.stringify(ans) + "\n");
});
