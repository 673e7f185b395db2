// Preloaded into a child server (`NODE_OPTIONS=--import=…`): records every module the process loads, ESM and
// CommonJS alike, and writes their URLs to LOADED_MODULES_FILE, one a line, when the process exits. Plain
// JavaScript, because it is loaded before the TypeScript loader is.
import { writeFileSync } from "node:fs";
import { createRequire, registerHooks } from "node:module";
import { pathToFileURL } from "node:url";

const file = process.env.LOADED_MODULES_FILE;
const loaded = new Set();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
const requireCache = createRequire(import.meta.url).cache;
process.on("exit", () => {
  // A package's own require() calls can bypass the hooks: the CommonJS cache holds those.
  for (const path of Object.keys(requireCache)) loaded.add(pathToFileURL(path).href);
  if (file) writeFileSync(file, [...loaded].join("\n"));
});
