// Bundles src/browser.ts into one IIFE script for a page init script (Playwright `addInitScript`). esbuild does it
// in well under a second, so the tests build it when they start instead of the set-up keeping a built copy.
// CLI: `node src/bundle.mjs OUT_FILE` writes it (npm run build → dist/test-wallets.iife.js).
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const entry = fileURLToPath(new URL("./browser.ts", import.meta.url));
let cached;

/** The bundle's source text (built once per process). */
export function testWalletsBundle() {
  cached ??= build({
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    write: false,
  }).then((result) => result.outputFiles[0].text);
  return cached;
}

/**
 * The init script for a page: the configuration, then the bundle.
 * @param {{ ethereum?: { privateKey: string, chainId?: number, chains?: { id: number, rpcUrl?: string }[] },
 *   solana?: { secretKey: string } }} config
 */
export async function testWalletsInitScript(config) {
  return `window.__symbolonTestWallets = ${JSON.stringify(config)};\n${await testWalletsBundle()}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = path.resolve(process.argv[2] ?? "dist/test-wallets.iife.js");
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, await testWalletsBundle());
  console.log(`wrote ${out}`);
}
