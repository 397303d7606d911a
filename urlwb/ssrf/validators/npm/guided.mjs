// Coverage-guided search for inputs an npm validator allows, guided by V8's block coverage of
// the validator's own package (the JavaScript counterpart of urlwb/ssrf/guided.py, which runs
// Python validators under atheris; Jazzer.js cannot run on this machine's glibc).
//
//   node guided.mjs ADAPTER NAME OUT.jsonl CORPUS_DIR SECONDS|Nx [SEED] [DICT]
//
// ADAPTER is an adapter.mjs (the shipped one, or its copy beside another release's node_modules:
// urlwb/ssrf/install.py), whose load(NAME) gives the validator and its package folder. The loop is
// a small greybox fuzzer: start from every file of CORPUS_DIR (the systematic inputs of
// urlwb/ssrf/inputs.py), mutate one (a byte or a code point inserted, replaced or removed, a
// dictionary token inserted, a splice with another input), run the validator, then take V8's
// precise coverage (inspector, Profiler.takePreciseCoverage with detailed blocks, which also
// resets the counts) of the scripts under the package folder; an input whose coverage holds a
// block range no earlier input's did (V8 lists the blocks that did not run: a new one means the
// input went past a branch) is kept. Invariant sought broken: none is checked here. Every mutant the
// validator allows whose coverage was new, and every allowed mutant holding a digit (the
// addresses' spellings), up to 3,000, is appended to OUT as {"input": ...} (the seeds are not:
// urlwb ssrf asks them anyway); urlwb ssrf asks every fetcher where each would connect. The last line of stdout is the statistics, as JSON.
import fs from "node:fs";
import path from "node:path";
import { Session } from "node:inspector/promises";

const [adapter, name, outPath, corpusDir, secondsText, seedText, dictPath] = process.argv.slice(2);
if (!adapter || !name || !outPath || !corpusDir || !secondsText) {
  process.stderr.write("usage: node guided.mjs ADAPTER NAME OUT.jsonl CORPUS_DIR SECONDS [SEED] [DICT]\n");
  process.exit(2);
}
const { load } = await import(path.resolve(adapter));
const { judge, folder, pkg, version } = await load(name);
const root = (fs.existsSync(folder) ? fs.realpathSync(folder) : path.resolve(folder)) + path.sep;

// a deterministic generator (mulberry32), so that a seed gives the same run on an idle machine
let state = (Number(seedText) || 1) >>> 0;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (xs) => xs[Math.floor(random() * xs.length)];

// libFuzzer's dictionary format: one "quoted" entry a line, \\ \" \xNN escapes
const tokens = ["0", "00", "0x", "0X", ".", "..", ":", "::", "[", "]", "%2e", "%30", "::ffff:", "@",
                "127", "255", "4294967295", "0177", "10", "169.254", "/", "\\", "\t", "。", "０"];
if (dictPath && fs.existsSync(dictPath)) {
  for (const line of fs.readFileSync(dictPath, "utf8").split("\n")) {
    const m = line.trim().match(/^[^#"]*"(.*)"\s*$/);
    if (m) tokens.push(m[1].replace(/\\x([0-9a-fA-F]{2})|\\(.)/g, (_, h, c) => (h ? String.fromCharCode(parseInt(h, 16)) : c)));
  }
}
const ALPHABET = "0123456789abcdefxX.:[]%@/\\ \t-+~_";

function mutate(text, corpus) {
  const cps = Array.from(text);
  const at = () => Math.floor(random() * (cps.length + 1));
  for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
    const r = random();
    if (r < 0.25) cps.splice(at(), 0, pick(ALPHABET));
    else if (r < 0.45 && cps.length) cps[Math.floor(random() * cps.length)] = pick(ALPHABET);
    else if (r < 0.6 && cps.length) cps.splice(Math.floor(random() * cps.length), 1);
    else if (r < 0.85) cps.splice(at(), 0, ...Array.from(pick(tokens)));
    else {
      const other = Array.from(pick(corpus));
      const i = at(), j = Math.floor(random() * (other.length + 1));
      cps.splice(i, cps.length - i, ...other.slice(j));
    }
  }
  return cps.slice(0, 256).join("");
}

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
const seen = new Set();

async function newBlocks() {
  const { result } = await session.post("Profiler.takePreciseCoverage");
  let fresh = 0;
  for (const script of result) {
    if (!script.url.startsWith("file://")) continue;
    const file = decodeURIComponent(new URL(script.url).pathname);
    if (!file.startsWith(root)) continue;
    // V8 reports a function's range and, inside it, the blocks that did not run (count 0)
    // where they differ from it: a block range not seen before, run or not, is a new shape of
    // the execution (the input went past a branch no earlier input passed)
    for (const fn of script.functions) {
      for (const r of fn.ranges) {
        const key = `${file}:${r.startOffset}:${r.endOffset}:${r.count > 0 ? 1 : 0}`;
        if (!seen.has(key)) { seen.add(key); fresh++; }
      }
    }
  }
  return fresh;
}

const corpus = fs.readdirSync(corpusDir).filter((f) => !f.startsWith("."))
  .map((f) => fs.readFileSync(path.join(corpusDir, f), "utf8"));
if (!corpus.length) corpus.push("http://127.0.0.1/");
const out = fs.openSync(outPath, "a");
const written = new Set();
let execs = 0, kept = 0, allowed = 0;
const LIMIT = 3000;

async function run(input, keep) {   // keep: a mutant (the seeds are asked by urlwb ssrf anyway)
  let verdict;
  try {
    verdict = await judge(input);
  } catch (e) {
    verdict = { error: String(e) };
  }
  execs++;
  const fresh = await newBlocks();
  if (fresh && keep) { corpus.push(input); kept++; }
  if (verdict.allow === true && keep) {
    allowed++;
    if ((fresh || /[0-9]/.test(input)) && !written.has(input) && written.size < LIMIT) {
      written.add(input);
      fs.writeSync(out, JSON.stringify({ input }) + "\n");
    }
  }
}

for (const input of corpus.slice()) await run(input, false);
const loaded = seen.size;
// SECONDS, or Nx: N mutants whatever the load (as Go's -fuzztime=Nx), for a test that must repeat
const budget = secondsText.endsWith("x") ? Number(secondsText.slice(0, -1)) : Infinity;
const deadline = secondsText.endsWith("x") ? Infinity : Date.now() + Number(secondsText) * 1000;
for (let n = 0; n < budget && Date.now() < deadline; n++) {
  await run(mutate(pick(corpus), corpus), true);
}
fs.closeSync(out);
process.stdout.write(JSON.stringify({ validator: name, pkg, version, execs, kept, allowed,
  written: written.size, blocks_seeds: loaded, blocks: seen.size }) + "\n");
