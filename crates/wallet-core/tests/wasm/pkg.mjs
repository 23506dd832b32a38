// Where the wasm build lives, and a clear failure when it has not been built: these tests
// build nothing themselves (crates/wallet-core/scripts/build-wasm.sh does).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const PKG_DIR = fileURLToPath(new URL("../../pkg/", import.meta.url));
export const GLUE = "symbolon_wallet_core.js";
export const WASM = "symbolon_wallet_core_bg.wasm";

/** Throws unless the glue and the wasm are both in crates/wallet-core/pkg. */
export function requireBuild() {
  for (const file of [GLUE, WASM]) {
    if (!existsSync(PKG_DIR + file)) {
      throw new Error(
        `crates/wallet-core/pkg/${file} is missing: run crates/wallet-core/scripts/build-wasm.sh first`,
      );
    }
  }
}
