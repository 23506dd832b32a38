#!/usr/bin/env node
// Prints the gzip (level 9) sizes of the built frame: JS, wasm, CSS, what the page loads at start and
// what it loads on demand. With --max=<bytes> it exits 1 when the first load (wasm + the JS loaded at
// start) is above it (the budget is 84 KiB = 86016 B); with --max-lazy=<bytes>, when the JS loaded on
// demand is (its budget is 16 KiB = 16384 B).
import { FRAME_BUDGET_BYTES, LAZY_BUDGET_BYTES, measureFrame } from "./frameSizes.mjs";

/** The positive byte count of `--name=<bytes>`, null when absent; exits 2 when malformed. */
function limit(name) {
  const arg = process.argv.find((candidate) => candidate.startsWith(`--${name}=`));
  if (arg === undefined) return null;
  const value = Number(arg.slice(name.length + 3));
  if (!(Number.isInteger(value) && value > 0)) {
    console.error(`size: --${name} must be a positive number of bytes, got ${arg}`);
    process.exit(2);
  }
  return value;
}

const max = limit("max");
const maxLazy = limit("max-lazy");
let sizes;
try {
  sizes = measureFrame();
} catch (error) {
  console.error(`size: ${error.message}`);
  process.exit(2);
}
for (const { name, raw, gzip, lazy } of sizes.files) {
  const when = name.endsWith(".js") ? (lazy ? "on demand" : "at start") : "";
  console.log(
    `${name.padEnd(48)} raw ${String(raw).padStart(7)} B  gzip ${String(gzip).padStart(6)} B  ${when}`.trimEnd(),
  );
}
console.log(`js   gzip ${sizes.js.gzip} B`);
console.log(`wasm gzip ${sizes.wasm.gzip} B`);
console.log(`css  gzip ${sizes.css.gzip} B`);
console.log(
  `first load (wasm + js at start) gzip ${sizes.initialGzip} B (budget ${FRAME_BUDGET_BYTES} B = 84 KiB)`,
);
console.log(`js on demand gzip ${sizes.lazyJsGzip} B (budget ${LAZY_BUDGET_BYTES} B = 16 KiB)`);
console.log(`wasm + every js gzip ${sizes.wasmJsGzip} B`);
console.log(`total gzip ${sizes.totalGzip} B`);
let over = false;
if (max !== null && sizes.initialGzip > max) {
  console.error(
    `size: the first load is ${sizes.initialGzip} B gzip, above --max=${max} by ${sizes.initialGzip - max} B`,
  );
  over = true;
}
if (maxLazy !== null && sizes.lazyJsGzip > maxLazy) {
  console.error(
    `size: the js loaded on demand is ${sizes.lazyJsGzip} B gzip, above --max-lazy=${maxLazy} by ${sizes.lazyJsGzip - maxLazy} B`,
  );
  over = true;
}
if (over) process.exit(1);
