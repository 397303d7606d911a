// NODE_PATH for ES modules too: a user's adapter at a release of its npm package
// (urlwb.oracles.versions.installs). Node's ES module resolution does not read NODE_PATH
// (https://nodejs.org/api/esm.html#no-node_path); this registers a resolve hook
// (https://nodejs.org/api/module.html#customization-hooks) that, when Node's own lookup of a bare
// specifier fails, looks it up in each NODE_PATH folder, as require() does. Loaded with
// NODE_OPTIONS=--import=<this file's URL>.
import { register } from "node:module";

register("./node_path_resolve.mjs", import.meta.url);
