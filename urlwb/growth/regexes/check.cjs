// urlwb growth --regexes: every regex of the files named on stdin ({"files": [...]}: JavaScript,
// found by acorn: regex literals, and RegExp("...") / new RegExp("...") of a string literal), or
// the regexes given ({"regexes": [{file, line, source, flags}]}: a Python package's, found by
// Python's ast), each asked of recheck (https://makenowjust-labs.github.io/recheck/); one JSON
// line per regex: its file, line, source, flags, status and, when vulnerable, complexity and
// attack (pumps, suffix). No code of the package runs: its files are parsed, not loaded.
const fs = require("fs");
const acorn = require("acorn");
const walk = require("acorn-walk");
const { checkSync } = require("recheck");

const TIMEOUT = Number(process.env.URLWB_RECHECK_TIMEOUT || 10000);

function regexes(file) {
  const text = fs.readFileSync(file, "utf8");
  let ast = null;
  for (const sourceType of ["module", "script"]) {
    try {
      ast = acorn.parse(text, { ecmaVersion: "latest", sourceType, locations: true, allowHashBang: true,
        allowReturnOutsideFunction: true, allowImportExportEverywhere: true });
      break;
    } catch (e) { /* the other source type, or not JavaScript */ }
  }
  if (ast === null) return [];
  const found = [];
  const literal = (n) => n && n.type === "Literal" && typeof n.value === "string" ? n.value : null;
  const ctor = (node) => {
    if (node.callee.type === "Identifier" && node.callee.name === "RegExp" && literal(node.arguments[0]) !== null) {
      found.push({ line: node.loc.start.line, source: literal(node.arguments[0]), flags: literal(node.arguments[1]) || "" });
    }
  };
  walk.full(ast, (node) => {
    if (node.type === "Literal" && node.regex) {
      found.push({ line: node.loc.start.line, source: node.regex.pattern, flags: node.regex.flags });
    } else if (node.type === "NewExpression" || node.type === "CallExpression") {
      ctor(node);
    }
  });
  return found;
}

const asked = JSON.parse(fs.readFileSync(0, "utf8"));
const all = asked.regexes || (asked.files || []).flatMap((file) => regexes(file).map((r) => ({ file, ...r })));
const seen = new Set();
{
  for (const r of all) {
    const file = r.file;
    const key = r.source + "/" + r.flags;
    if (seen.has(key)) continue;
    seen.add(key);
    let d;
    try { d = checkSync(r.source, r.flags, { timeout: TIMEOUT }); }
    catch (e) { d = { status: "error", error: String(e) }; }
    const out = { file, line: r.line, source: r.source, flags: r.flags, status: d.status, checker: d.checker };
    if (d.status === "vulnerable") {
      out.complexity = d.complexity.summary;
      out.pumps = d.attack.pumps.map((p) => ({ prefix: p.prefix, pump: p.pump }));
      out.suffix = d.attack.suffix;
    }
    process.stdout.write(JSON.stringify(out) + "\n");
  }
}
