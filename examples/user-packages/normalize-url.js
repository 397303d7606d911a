// A user's adapter on normalize-url (CommonJS up to 4.x): the normalized URL as the href, its
// components as the WHATWG URL class reads that href; normalize-url's own error is a rejection.
const m = require("normalize-url"); const normalize = m.default || m;
const rl = require("readline").createInterface({ input: process.stdin });
const v = JSON.parse(require("fs").readFileSync(process.env.URLWB_PACKAGE_DIR + "/node_modules/normalize-url/package.json")).version;
process.stdout.write(JSON.stringify({hello: "urlwb-oracle/1", name: "normalize-url-mine", parser: "normalize-url", language: "JavaScript", version: v, family: "other", kind: "url", base: false}) + "\n");
rl.on("line", (line) => {
  const req = JSON.parse(line);
  let ans;
  try {
    const href = normalize(req.input);
    let u = null;
    try { u = new URL(href); } catch (e) { /* a data: URL normalize-url keeps as it is */ }
    ans = {id: req.id, scheme: u ? u.protocol.slice(0, -1) : href.split(":")[0], username: u ? u.username : null,
      password: u ? u.password : null, host: u && u.host ? u.hostname : null, port: u && u.port ? Number(u.port) : null,
      path: u ? u.pathname : href.slice(href.indexOf(":") + 1), query: u && u.search ? u.search.slice(1) : null,
      fragment: u && u.hash ? u.hash.slice(1) : null, href};
  } catch (e) { ans = {id: req.id, error: String(e.message || e).slice(0, 200)}; }
  process.stdout.write(JSON.stringify(ans) + "\n");
});
