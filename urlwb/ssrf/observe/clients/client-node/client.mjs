// Node's fetch (undici) behind urlwb ssrf's client protocol (urlwb/ssrf/observe/clients.py): a
// hello line {"client":"node-fetch","version"}; then for each line on stdin (a JSON string: the
// URL) one JSON line: {"ok":true,"status"} or {"ok":false,"error":CLASS,"message","cause"}.
// fetch's defaults (redirect "follow", at most 20), a 3 s AbortSignal.timeout.
import { createInterface } from "node:readline";

const out = (o) => process.stdout.write(JSON.stringify(o) + "\n");
out({ client: "node-fetch", version: process.version });
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
const queue = [];
let busy = false;

async function fetchOne(url) {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(3000) });
    await r.arrayBuffer();
    return { ok: true, status: r.status };
  } catch (e) {
    const c = e && e.cause;
    return {
      ok: false, error: (e && e.name) || typeof e, message: String((e && e.message) || e).slice(0, 300),
      ...(c ? { cause: `${c.name || typeof c}${c.code ? " " + c.code : ""}: ${String(c.message || c).slice(0, 200)}` } : {}),
    };
  }
}

async function drain() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const line = queue.shift();
    let url;
    try { url = JSON.parse(line); } catch { out({ ok: false, error: "bad-request", message: "not a JSON string" }); continue; }
    out(await fetchOne(url));
  }
  busy = false;
}

rl.on("line", (line) => { queue.push(line); drain(); });
