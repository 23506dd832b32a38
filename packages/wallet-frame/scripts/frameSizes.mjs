// Gzip (level 9) sizes of the built frame's assets, shared by `scripts/size.mjs` and `make bench`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** The frame's size budget: wasm + JS, gzip (84 KiB; 80 until MFA added its messages, issue 12). */
export const FRAME_BUDGET_BYTES = 84 * 1024;

export const ASSETS_DIR = fileURLToPath(new URL("../dist/assets/", import.meta.url));

/**
 * Raw and gzip sizes of every JS, wasm and CSS asset in `dist/assets`, per kind, and `wasmJsGzip`
 * (what the budget counts). Throws when the frame is not built.
 */
export function measureFrame(dir = ASSETS_DIR) {
  if (!existsSync(dir))
    throw new Error(`${dir} is missing; run \`npm run build -w packages/wallet-frame\` first`);
  const files = [];
  const kinds = { js: { raw: 0, gzip: 0 }, wasm: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 } };
  for (const name of readdirSync(dir).sort()) {
    const kind = kinds[extname(name).slice(1)];
    if (!kind) continue;
    const bytes = readFileSync(join(dir, name));
    const gzip = gzipSync(bytes, { level: 9 }).length;
    kind.raw += bytes.length;
    kind.gzip += gzip;
    files.push({ name, raw: bytes.length, gzip });
  }
  const wasmJsGzip = kinds.js.gzip + kinds.wasm.gzip;
  return { files, ...kinds, wasmJsGzip, totalGzip: wasmJsGzip + kinds.css.gzip, budget: FRAME_BUDGET_BYTES };
}
