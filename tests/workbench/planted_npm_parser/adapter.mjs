// A user's npm adapter as the README describes one (docs/oracle-protocol.md): the planted
// parser of lib/parse.mjs behind the protocol, "api" answers, no base.
import readline from "node:readline";
import { parse } from "./lib/parse.mjs";

process.stdout.write(JSON.stringify({ hello: "urlwb-oracle/1", name: "planted-npm", parser: "lib/parse.mjs",
  language: "JavaScript", version: "planted-1", family: "other", kind: "url", base: false }) + "\n");
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const { id, input } = JSON.parse(line);
  let answer;
  try {
    answer = { id, api: parse(input) };
  } catch (e) {
    answer = { id, error: String(e) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
