// The shared wasm vectors (vectors.mjs) in Node. Needs crates/wallet-core/pkg (build-wasm.sh).
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { GLUE, PKG_DIR, requireBuild, WASM } from "./pkg.mjs";
import { timeWarmPersonalSign, vectors } from "./vectors.mjs";

requireBuild();
const core = await import(pathToFileURL(PKG_DIR + GLUE).href);
await core.default({ module_or_path: readFileSync(PKG_DIR + WASM) });

for (const { name, run } of vectors) {
  test(`node: ${name}`, () => run(core));
}

test("node: a warm personalSign reuses the derived key", (t) => {
  const { coldMs, warmMs } = timeWarmPersonalSign(core);
  t.diagnostic(`personalSign: first ${coldMs.toFixed(1)} ms, warm ${warmMs.toFixed(3)} ms (200 calls)`);
  // Re-deriving (PBKDF2 with 2048 rounds + BIP-32) costs tens of ms; signing alone well under 1.
  if (warmMs >= 5) throw new Error(`warm personalSign took ${warmMs.toFixed(2)} ms, expected < 5 ms`);
});
