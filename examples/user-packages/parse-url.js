const m = require("parse-url"); const parseUrl = m.default || m;
const rl = require("readline").createInterface({ input: process.stdin });
const v = JSON.parse(require("fs").readFileSync(process.env.URLWB_PACKAGE_DIR + "/node_modules/parse-url/package.json")).version;
process.stdout.write(JSON.stringify({hello: "urlwb-oracle/1", name: "parse-url-mine", parser: "parse-url", language: "JavaScript", version: v, family: "other", kind: "url", base: false}) + "\n");
rl.on("line", (line) => {
  const req = JSON.parse(line);
  let ans;
  try { const u = parseUrl(req.input); ans = {id: req.id, scheme: u.protocol || null, username: null, password: null, host: u.resource || null, port: u.port ? Number(u.port) : null, path: u.pathname || "", query: u.search || null, fragment: u.hash || null, href: u.href}; }
  catch (e) { ans = {id: req.id, error: String(e.message || e).slice(0, 200)}; }
  process.stdout.write(JSON.stringify(ans) + "\n");
});
