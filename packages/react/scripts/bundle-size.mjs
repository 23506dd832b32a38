#!/usr/bin/env node
import { fileURLToPath } from "node:url";
// Bundles a tiny host app that uses @symbolon/react the way apps do, and reports gzip sizes:
// initial = entry chunk + everything it imports statically; total = every chunk (the lazy modal too).
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const HOST = `
import { createRoot } from 'react-dom/client';
import { PrivyProvider, usePrivy } from '@symbolon/react';
function Button() {
  const { ready, login } = usePrivy();
  return <button disabled={!ready} onClick={login}>Log in</button>;
}
createRoot(document.getElementById('root')).render(
  <PrivyProvider appId="abcdefghijklmnopqrstuvwxy" apiUrl="http://localhost:8787"><Button /></PrivyProvider>,
);
`;

/** Budget for what a host page downloads before anyone clicks "Log in" (gzip). */
export const INITIAL_BUDGET_GZIP_BYTES = 35 * 1024;

/** Builds the host entry and returns `{ initialGzipBytes, totalGzipBytes, chunks }`. */
export async function measureBundle() {
  const result = await build({
    stdin: { contents: HOST, loader: "tsx", resolveDir: fileURLToPath(new URL(".", import.meta.url)) },
    bundle: true,
    splitting: true,
    format: "esm",
    minify: true,
    metafile: true,
    write: false,
    outdir: "out",
    jsx: "automatic",
    external: ["react", "react-dom", "react/*", "react-dom/*"],
    logLevel: "silent",
  });
  const gzip = new Map(result.outputFiles.map((file) => [file.path, gzipSync(file.contents).length]));
  const outputs = result.metafile.outputs;
  const sizeOf = (name) => [...gzip].find(([path]) => path.endsWith(`/${name}`))?.[1] ?? 0;
  const entry = Object.keys(outputs).find((name) => outputs[name].entryPoint === "<stdin>");
  const chunks = Object.entries(outputs)
    .filter(([name]) => name.endsWith(".js"))
    .map(([name, output]) => ({
      file: name,
      entry: name === entry,
      bytes: output.bytes,
      gzipBytes: sizeOf(name.slice(name.lastIndexOf("/") + 1)),
    }));
  // Walk static imports only: dynamic ones (the modal) load later.
  const initial = new Set();
  const visit = (name) => {
    if (initial.has(name) || !outputs[name]) return;
    initial.add(name);
    for (const dep of outputs[name].imports) if (dep.kind === "import-statement") visit(dep.path);
  };
  visit(entry);
  const sum = (list) => list.reduce((total, chunk) => total + chunk.gzipBytes, 0);
  return {
    initialGzipBytes: sum(chunks.filter((chunk) => initial.has(chunk.file))),
    totalGzipBytes: sum(chunks),
    chunks: chunks.map((chunk) => ({ ...chunk, initial: initial.has(chunk.file) })),
  };
}

/** Bytes as KiB with one decimal. */
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The report printed by the command line: initial, every lazy chunk, total (all gzip). */
export function formatReport(size) {
  const lazy = size.chunks.filter((chunk) => !chunk.initial).sort((a, b) => b.gzipBytes - a.gzipBytes);
  const width = Math.max(0, ...lazy.map((chunk) => chunk.file.length));
  return [
    `initial  ${kib(size.initialGzipBytes)} gzip (${size.initialGzipBytes} B; budget ${kib(INITIAL_BUDGET_GZIP_BYTES)})`,
    "lazy chunks (gzip):",
    ...lazy.map(
      (chunk) => `  ${chunk.file.padEnd(width)}  ${kib(chunk.gzipBytes).padStart(9)}  (${chunk.gzipBytes} B)`,
    ),
    `total    ${kib(size.totalGzipBytes)} gzip (${size.totalGzipBytes} B)`,
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const size = await measureBundle();
  if (process.argv.includes("--json")) console.log(JSON.stringify(size, null, 2));
  else console.log(formatReport(size));
  if (size.initialGzipBytes > INITIAL_BUDGET_GZIP_BYTES) {
    console.error(
      `initial bundle over budget: ${size.initialGzipBytes} B > ${INITIAL_BUDGET_GZIP_BYTES} B gzip`,
    );
    process.exitCode = 1;
  }
}
