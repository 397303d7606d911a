// The resolve hook node_path_hook.mjs registers: Node's own lookup first; a bare specifier it
// cannot find is then looked up from inside each NODE_PATH folder (a parent URL there makes Node's
// node_modules walk reach that folder), in order. Anything else is Node's answer unchanged.
import path from "node:path";
import { pathToFileURL } from "node:url";

const folders = (process.env.NODE_PATH || "").split(path.delimiter).filter(Boolean);

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (err) {
    if (err?.code !== "ERR_MODULE_NOT_FOUND" || /^(\.|\/|[a-z][a-z0-9+.-]*:)/i.test(specifier)) throw err;
    for (const folder of folders) {
      const parentURL = pathToFileURL(path.join(folder, "urlwb-node-path.js")).href;
      try {
        return await next(specifier, { ...context, parentURL });
      } catch {
        // not in this folder: the next one
      }
    }
    throw err;
  }
}
