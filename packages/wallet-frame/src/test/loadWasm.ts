// Loads the REAL wasm build (crates/wallet-core/scripts/build-wasm.sh) once per test file.
import { readFileSync } from "node:fs";
import { initWalletCore } from "../walletCore.ts";

const wasmPath = new URL("../../../../crates/wallet-core/pkg/symbolon_wallet_core_bg.wasm", import.meta.url);

export async function loadWasm(): Promise<void> {
  await initWalletCore({ module_or_path: readFileSync(wasmPath) });
}
