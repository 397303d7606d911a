// A user's SSRF validator on netmask (kind "validator", docs/oracle-protocol.md): allow a URL
// unless its host, as Node's url.parse reads it, is in a loopback, private or link-local block
// by netmask's Netmask.contains (a name that is not an address is allowed, but localhost).
const { Netmask } = require("netmask");
const url = require("url");
const rl = require("readline").createInterface({ input: process.stdin });
const v = JSON.parse(require("fs").readFileSync(process.env.URLWB_PACKAGE_DIR + "/node_modules/netmask/package.json")).version;
const blocks = ["0.0.0.0/8", "10.0.0.0/8", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.168.0.0/16"].map((b) => new Netmask(b));
process.stdout.write(JSON.stringify({hello: "urlwb-oracle/1", name: "netmask-guard", kind: "validator", version: v,
  validator: "url.parse(input).hostname not in a private block by netmask", language: "JavaScript"}) + "\n");
rl.on("line", (line) => {
  const req = JSON.parse(line);
  let ans;
  try {
    const host = (url.parse(req.input).hostname || "").toLowerCase();
    let denied = host === "localhost" || host === "";
    for (const b of blocks) { try { if (b.contains(host)) denied = true; } catch (e) { /* a name, not an address */ } }
    ans = {id: req.id, allow: !denied};
  } catch (e) { ans = {id: req.id, error: String(e.message || e).slice(0, 200)}; }
  process.stdout.write(JSON.stringify(ans) + "\n");
});
