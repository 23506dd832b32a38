// Gzip (level 9) sizes of the built frame's assets, shared by `scripts/size.mjs` and `make bench`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/**
 * The frame's first-load budget: the wasm and the JS the page loads at start, gzip (84 KiB; 80 until
 * MFA added its messages, issue 12: every signed-in page loads those).
 */
export const FRAME_BUDGET_BYTES = 84 * 1024;

/**
 * The budget of the JS the frame loads only on demand (chunks it imports dynamically: delegated
 * actions' consent and its HPKE), gzip: 16 KiB.
 */
export const LAZY_BUDGET_BYTES = 16 * 1024;

export const DIST_DIR = fileURLToPath(new URL("../dist/", import.meta.url));
export const ASSETS_DIR = join(DIST_DIR, "assets");

/** Static imports of another chunk in built JS (`import … from "./x.js"`, `import "./x.js"`), not `import(…)`. */
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'`]\.\/([^"'`]+\.js)["'`]/g;

/**
 * The JS the page loads at start: the scripts and module preloads `index.html` names under `assets/`,
 * and every chunk those import statically. Other JS files are chunks loaded on demand.
 */
function initialScripts(dir, html) {
  const names = new Set();
  const queue = [
    ...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="[^"]*\/assets\/([^"/]+\.js)"/g),
  ].map((match) => match[1]);
  while (queue.length > 0) {
    const name = queue.pop();
    if (names.has(name) || !existsSync(join(dir, name))) continue;
    names.add(name);
    for (const match of readFileSync(join(dir, name), "utf8").matchAll(STATIC_IMPORT)) queue.push(match[1]);
  }
  return names;
}

/**
 * Raw and gzip sizes of every JS, wasm and CSS asset in `dist/assets`, per kind; `initialGzip` (the
 * wasm and the JS loaded at start: what the budget counts), `lazyJsGzip` (JS loaded on demand) and
 * `wasmJsGzip` (wasm and every JS file). Throws when the frame is not built.
 */
export function measureFrame(dir = ASSETS_DIR, indexHtml = join(dir, "..", "index.html")) {
  if (!existsSync(dir) || !existsSync(indexHtml))
    throw new Error(`${dir} is missing; run \`npm run build -w packages/wallet-frame\` first`);
  const initial = initialScripts(dir, readFileSync(indexHtml, "utf8"));
  const files = [];
  const kinds = { js: { raw: 0, gzip: 0 }, wasm: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 } };
  let lazyJsGzip = 0;
  for (const name of readdirSync(dir).sort()) {
    const ext = extname(name).slice(1);
    const kind = kinds[ext];
    if (!kind) continue;
    const bytes = readFileSync(join(dir, name));
    const gzip = gzipSync(bytes, { level: 9 }).length;
    kind.raw += bytes.length;
    kind.gzip += gzip;
    const lazy = ext === "js" && !initial.has(name);
    if (lazy) lazyJsGzip += gzip;
    files.push({ name, raw: bytes.length, gzip, lazy });
  }
  const wasmJsGzip = kinds.js.gzip + kinds.wasm.gzip;
  return {
    files,
    ...kinds,
    initialGzip: wasmJsGzip - lazyJsGzip,
    lazyJsGzip,
    wasmJsGzip,
    totalGzip: wasmJsGzip + kinds.css.gzip,
    budget: FRAME_BUDGET_BYTES,
    lazyBudget: LAZY_BUDGET_BYTES,
  };
}
