#!/usr/bin/env node
// Gzip (level 9) sizes of the built frame: JS, wasm, CSS and totals. With --max=<bytes> it
// exits 1 when wasm + JS is above the budget (80 KiB = 81920 B), for `make bench`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const assets = fileURLToPath(new URL("../dist/assets/", import.meta.url));
if (!existsSync(assets)) {
  console.error(`size: ${assets} is missing; run \`npm run build -w packages/wallet-frame\` first`);
  process.exit(2);
}
const maxArg = process.argv.find((arg) => arg.startsWith("--max="));
const max = maxArg === undefined ? null : Number(maxArg.slice("--max=".length));
if (max !== null && !(Number.isInteger(max) && max > 0)) {
  console.error(`size: --max must be a positive number of bytes, got ${maxArg}`);
  process.exit(2);
}

const sizes = { ".js": { raw: 0, gzip: 0 }, ".wasm": { raw: 0, gzip: 0 }, ".css": { raw: 0, gzip: 0 } };
for (const name of readdirSync(assets).sort()) {
  const kind = sizes[extname(name)];
  if (!kind) continue;
  const bytes = readFileSync(join(assets, name));
  const gzip = gzipSync(bytes, { level: 9 }).length;
  kind.raw += bytes.length;
  kind.gzip += gzip;
  console.log(
    `${name.padEnd(48)} raw ${String(bytes.length).padStart(7)} B  gzip ${String(gzip).padStart(6)} B`,
  );
}
const shipped = sizes[".js"].gzip + sizes[".wasm"].gzip;
console.log(`js   gzip ${sizes[".js"].gzip} B`);
console.log(`wasm gzip ${sizes[".wasm"].gzip} B`);
console.log(`css  gzip ${sizes[".css"].gzip} B`);
console.log(`wasm + js gzip ${shipped} B (budget 81920 B = 80 KiB)`);
console.log(`total gzip ${shipped + sizes[".css"].gzip} B`);
if (max !== null && shipped > max) {
  console.error(`size: wasm + js is ${shipped} B gzip, above --max=${max} by ${shipped - max} B`);
  process.exit(1);
}
