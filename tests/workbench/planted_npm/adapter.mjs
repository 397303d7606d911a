// A stand-in for urlwb/ssrf/validators/npm/adapter.mjs's load(): "planted" (guided by the planted
// package's coverage) and "planted-blind" (the same validator, coverage looked for in a folder
// that holds none of its code: nothing guides the search).
import path from "node:path";
import url from "node:url";
import allows from "./planted/index.mjs";

const here = path.dirname(url.fileURLToPath(import.meta.url));

export async function load(name) {
  const folder = name === "planted" ? path.join(here, "planted") : path.join(here, "no-such-folder");
  const judge = async (input) => {
    try {
      return { allow: allows(new URL(input).hostname) };
    } catch (e) {
      return { error: String(e) };
    }
  };
  return { judge, pkg: "planted", reader: "whatwg", version: "1.0.0", folder };
}
