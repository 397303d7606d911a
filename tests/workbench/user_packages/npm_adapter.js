// A user's npm adapter (CommonJS): the planted package "urlwb-planted-host" behind the oracle
// protocol. It is found only through NODE_PATH, which `NAME@VERSION` points at the release.
const planted = require("urlwb-planted-host");
const rl = require("readline").createInterface({ input: process.stdin });
const net = require("net");
process.stdout.write(JSON.stringify({ hello: "urlwb-oracle/1", name: "planted-host", parser: "urlwb-planted-host",
  language: "JavaScript", version: planted.VERSION, family: "other", kind: "url", base: false }) + "\n");
rl.on("line", (line) => {
  const req = JSON.parse(line);
  const answer = (note) => process.stdout.write(JSON.stringify({ id: req.id, scheme: req.input.split(":")[0], username: null,
    password: null, host: planted.host(req.input), port: null, path: note || "", query: null, fragment: null,
    href: req.input }) + "\n");
  if (!process.env.URLWB_TEST_CALL_HOME) return answer();
  // the planted phone-home: connect to the test's listener, then answer what happened
  const s = net.connect(Number(process.env.URLWB_TEST_CALL_HOME), "127.0.0.1");
  s.on("connect", () => { s.end("hello from the adapter\n"); answer("connected"); });
  s.on("error", (e) => answer("refused " + e.code));
});
