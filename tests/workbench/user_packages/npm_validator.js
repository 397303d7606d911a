// A user's npm validator (kind "validator"): allow unless the planted package's host is a
// 127.x or 10.x address. The package is found only through NODE_PATH (NAME@VERSION).
const planted = require("urlwb-planted-host");
const rl = require("readline").createInterface({ input: process.stdin });
process.stdout.write(JSON.stringify({ hello: "urlwb-oracle/1", name: "planted-guard", kind: "validator",
  validator: "urlwb-planted-host host not 127.x/10.x", language: "JavaScript", version: planted.VERSION }) + "\n");
rl.on("line", (line) => {
  const req = JSON.parse(line);
  const host = planted.host(req.input);
  process.stdout.write(JSON.stringify({ id: req.id, allow: !/^(127|10)\./.test(host) }) + "\n");
});
