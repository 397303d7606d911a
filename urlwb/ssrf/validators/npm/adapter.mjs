// npm SSRF validators behind the oracle protocol, kind "validator" (docs/oracle-protocol.md,
// "Validators"): `node adapter.mjs NAME`, NAME one of VALIDATORS below. Each is the common shape
// "read the URL's hostname, hand it to the package, deny what it flags":
//   hostname: `new URL(input).hostname` (WHATWG), or legacy `url.parse(input).hostname` for the
//             `-url-parse` variants; IPv6 brackets stripped; a URL that does not parse is "error".
//   ip:              allow = !ip.isPrivate(host); a throw (ip 2.x throws on a name) is "error".
//   private-ip:      allow = !isPrivateIp(host) (undefined for a name: allowed).
//   is-localhost-ip: allow = !(await isLocalhost(host)); a name would be resolved by DNS: never
//                    asked, answered "error" (deny); dns.lookup refuses names (IP literals pass).
// The packages are resolved from this file's folder, so a copy of it beside another release's
// node_modules (urlwb/ssrf/install.py) runs that release.
import dns from "node:dns";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import url from "node:url";

// DNS is blocked for names only: a lookup of an IP literal is answered by node itself, without a
// query, and the packages use it (is-localhost-ip's bind check: dgram's bind looks its address up),
// so replacing dns.lookup outright changed their answers (isLocalhost("0.0.0.0") true in plain node,
// false here). A name is never handed to a package (judge, below); this refusal is the second guard.
const { isIP } = await import("node:net");
const refuseNames = (original) => function lookup(host, ...rest) {
  if (isIP(host)) return original.call(this, host, ...rest);
  throw new Error("DNS refused by the urlwb adapter (a name)");
};
dns.lookup = refuseNames(dns.lookup);
dns.promises.lookup = refuseNames(dns.promises.lookup);

const here = path.dirname(url.fileURLToPath(import.meta.url));
const VALIDATORS = {
  "ip": { pkg: "ip", reader: "whatwg" },
  "ip-url-parse": { pkg: "ip", reader: "legacy" },
  "private-ip": { pkg: "private-ip", reader: "whatwg" },
  "private-ip-url-parse": { pkg: "private-ip", reader: "legacy" },
  "is-localhost-ip": { pkg: "is-localhost-ip", reader: "whatwg" },
};

const LOOKS_LIKE_IP = (h) => /^[0-9a-fA-F:.]+$/.test(h) || h.includes(":");

// The validator NAME: { judge(input) -> {allow} | {error}, pkg, reader, version, folder } where
// folder is the package's own folder (urlwb/ssrf/validators/npm/guided.mjs follows coverage there).
export async function load(name) {
  const chosen = VALIDATORS[name];
  if (!chosen) throw new Error(`usage: node adapter.mjs ${Object.keys(VALIDATORS).join("|")}`);
  const mod = await import(chosen.pkg);
  const lib = mod.default ?? mod;
  const folder = path.join(here, "node_modules", chosen.pkg);
  const version = JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8")).version;
  const net = await import("node:net");

  function hostname(input) {
    const h = chosen.reader === "whatwg" ? new URL(input).hostname : url.parse(input).hostname;
    if (h === null || h === undefined) throw new Error("no hostname");
    return h.replace(/^\[(.*)\]$/, "$1");
  }

  async function judge(input) {
    let host;
    try {
      host = hostname(input);
    } catch (e) {
      return { error: `hostname: ${e.message}` };
    }
    try {
      if (chosen.pkg === "ip") return { allow: !lib.isPrivate(host) };
      if (chosen.pkg === "private-ip") return { allow: !lib(host) };
      if (!net.isIP(host) && !LOOKS_LIKE_IP(host)) {
        return { error: "a name: is-localhost-ip would resolve it by DNS (not asked)" };
      }
      return { allow: !(await lib(host)) };
    } catch (e) {
      return { error: `${e.name}: ${e.message}` };
    }
  }
  return { judge, pkg: chosen.pkg, reader: chosen.reader, version, folder };
}

async function main() {
  const name = process.argv[2];
  let loaded;
  try {
    loaded = await load(name);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(2);
  }
  const { judge, version, pkg, reader } = loaded;

  process.stdout.write(JSON.stringify({
    hello: "urlwb-oracle/1", name: process.env.URLWB_VALIDATOR_NAME || name, kind: "validator",
    validator: `${pkg} ${reader === "whatwg" ? "(new URL(input).hostname)" : "(url.parse(input).hostname)"}`,
    parser: pkg, language: "JavaScript", version, family: "other",
  }) + "\n");

  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line) continue;
    const req = JSON.parse(line);
    const answer = await judge(req.input);
    process.stdout.write(JSON.stringify({ id: req.id, ...answer }) + "\n");
  }
}

// Run as a program (the oracle), not when guided.mjs imports it for load().
if (process.argv[1] && url.pathToFileURL(fs.realpathSync(process.argv[1])).href === import.meta.url) {
  await main();
}
