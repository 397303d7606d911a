// V8 block coverage for `urlwb hunt` on a JavaScript oracle: preloaded into the oracle's own Node
// process (NODE_OPTIONS="--require .../cover.cjs"), whatever the adapter is (the shipped
// urlwb/oracles/node/adapter.js, a copy of it beside another release in the versions cache, or a
// user's program speaking docs/oracle-protocol.md). Nothing of the adapter changes: each answer
// line it writes (a JSON object with an "id") gets one more member, "_cov", the number of block
// ranges of the covered scripts that no earlier answer's execution showed with that count's
// bucket (a range that ran, or one V8 lists as not run inside a function that did: a branch
// taken or passed by; a loop that turned more often), taken with
// Profiler.takePreciseCoverage (which also resets the counts), as urlwb/ssrf/validators/npm/
// guided.mjs does for validators. The in-thread inspector session answers synchronously, so the
// figure is that of the request the line answers when requests are sent one at a time
// (urlwb/hunt/js_fuzz.py does). The hello line gets "_cov_total" after the load's coverage.
//
// URLWB_COVER_ROOTS: the folders (or files) whose scripts count, separated by the path
// delimiter; this file never counts.
"use strict";

const inspector = require("node:inspector");
const path = require("node:path");
const fs = require("node:fs");
const url = require("node:url");

const roots = (process.env.URLWB_COVER_ROOTS || process.cwd()).split(path.delimiter).filter(Boolean)
  .map((r) => { try { return fs.realpathSync(r); } catch { return path.resolve(r); } });
const self = __filename;
const session = new inspector.Session();
session.connect();
session.post("Profiler.enable");
session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
const seen = new Set();

function covered(file) {
  if (file === self) return false;
  return roots.some((r) => file === r || file.startsWith(r + path.sep));
}

// libFuzzer's counter buckets: a range run 0, 1, 2, 3, 4-7, 8-15, 16-31, 32-127 or 128+ times
// in one request is a different shape of the execution (a loop one more turn around)
function bucket(n) {
  if (n < 4) return n;
  return n < 8 ? 4 : n < 16 ? 5 : n < 32 ? 6 : n < 128 ? 7 : 8;
}

function fresh() {
  let result = null;
  session.post("Profiler.takePreciseCoverage", (err, res) => { if (!err) result = res.result; });
  if (result === null) return 0;
  let n = 0;
  for (const script of result) {
    let file = script.url;
    if (file.startsWith("file://")) file = url.fileURLToPath(file);
    else if (!file.startsWith("/")) continue;
    if (!covered(file)) continue;
    for (const fn of script.functions) {
      for (const r of fn.ranges) {
        const key = `${file}:${r.startOffset}:${r.endOffset}:${bucket(r.count)}`;
        if (!seen.has(key)) { seen.add(key); n++; }
      }
    }
  }
  return n;
}

const write = process.stdout.write.bind(process.stdout);
process.stdout.write = function (chunk, ...rest) {
  const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
  if (!text.endsWith("\n")) return write(chunk, ...rest);
  const n = fresh();
  const lines = text.slice(0, -1).split("\n");
  const last = lines.length - 1;
  try {
    const obj = JSON.parse(lines[last]);
    if (obj && typeof obj === "object") {
      if ("hello" in obj) obj._cov_total = seen.size; else obj._cov = n;
      lines[last] = JSON.stringify(obj);
    }
  } catch { /* not an answer line: written as it is */ }
  return write(lines.join("\n") + "\n", ...rest);
};
