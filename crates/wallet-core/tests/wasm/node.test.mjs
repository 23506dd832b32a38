// The shared wasm vectors (vectors.mjs) in Node. Needs crates/wallet-core/pkg (build-wasm.sh).
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { GLUE, PKG_DIR, requireBuild, WASM } from "./pkg.mjs";
import { vectors } from "./vectors.mjs";

requireBuild();
const core = await import(pathToFileURL(PKG_DIR + GLUE).href);
await core.default({ module_or_path: readFileSync(PKG_DIR + WASM) });

for (const { name, run } of vectors) {
  test(`node: ${name}`, () => run(core));
}
