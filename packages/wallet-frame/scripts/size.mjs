#!/usr/bin/env node
// Prints the gzip (level 9) sizes of the built frame: JS, wasm, CSS and totals. With --max=<bytes> it
// exits 1 when wasm + JS is above it (the budget is 84 KiB = 86016 B).
import { FRAME_BUDGET_BYTES, measureFrame } from "./frameSizes.mjs";

const maxArg = process.argv.find((arg) => arg.startsWith("--max="));
const max = maxArg === undefined ? null : Number(maxArg.slice("--max=".length));
if (max !== null && !(Number.isInteger(max) && max > 0)) {
  console.error(`size: --max must be a positive number of bytes, got ${maxArg}`);
  process.exit(2);
}
let sizes;
try {
  sizes = measureFrame();
} catch (error) {
  console.error(`size: ${error.message}`);
  process.exit(2);
}
for (const { name, raw, gzip } of sizes.files) {
  console.log(`${name.padEnd(48)} raw ${String(raw).padStart(7)} B  gzip ${String(gzip).padStart(6)} B`);
}
console.log(`js   gzip ${sizes.js.gzip} B`);
console.log(`wasm gzip ${sizes.wasm.gzip} B`);
console.log(`css  gzip ${sizes.css.gzip} B`);
console.log(`wasm + js gzip ${sizes.wasmJsGzip} B (budget ${FRAME_BUDGET_BYTES} B = 84 KiB)`);
console.log(`total gzip ${sizes.totalGzip} B`);
if (max !== null && sizes.wasmJsGzip > max) {
  console.error(
    `size: wasm + js is ${sizes.wasmJsGzip} B gzip, above --max=${max} by ${sizes.wasmJsGzip - max} B`,
  );
  process.exit(1);
}
