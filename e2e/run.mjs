#!/usr/bin/env node
// `npm run e2e`: starts ONE stack for the whole suite (the web app is built once), then runs every test file
// against it with `node --test`. Test files find the stack in SYMBOLON_E2E_STACK; run alone (e.g.
// `node --test tests/theme.test.mjs`) they start their own.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startStack } from "@symbolon/stack";
import { startPublishedClients } from "./lib/publishedClient.mjs";
import { stackOptions } from "./lib/stackOptions.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const started = Date.now();
// The published react-auth host pages (published-react-auth.test.mjs): bundled (or taken from the cache) while
// the stack starts; their origin is one of the app's allowed origins.
const published = await startPublishedClients();
let stack;
try {
  stack = await startStack({ ...stackOptions, origins: [published.origin] });
} catch (error) {
  console.error(`e2e: the stack did not start:\n${error?.stack ?? error}`);
  process.exit(1);
}
console.log(
  `e2e: stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s (web ${stack.urls.web}, api ${stack.urls.api})`,
);
try {
  const bundled = await published.bundled;
  const sizes = Object.entries(bundled.bytes)
    .map(([alias, bytes]) => `${alias} ${(bytes / 1024 / 1024).toFixed(1)} MiB`)
    .join(", ");
  console.log(
    `e2e: published react-auth pages ${bundled.cached ? "cached" : `bundled in ${(bundled.ms / 1000).toFixed(1)} s`} (${sizes}), on ${published.origin}`,
  );
} catch (error) {
  console.error(
    `e2e: bundling the published react-auth pages failed (their tests will fail):\n${error?.stack ?? error}`,
  );
}

const shared = {
  urls: stack.urls,
  appId: stack.appId,
  appBId: stack.appBId,
  appSecret: stack.appSecret,
  webhookSecret: stack.webhookbox.secret,
  delegation: stack.delegation,
  chain: stack.chain,
  serverPid: stack.serverPid,
  logs: stack.logs,
  publishedClientOrigin: published.origin,
};
const files = process.argv.slice(2);
const runner = spawn(
  process.execPath,
  ["--test", "--test-concurrency=1", ...(files.length ? files : ["tests/"])],
  { cwd: here, stdio: "inherit", env: { ...process.env, SYMBOLON_E2E_STACK: JSON.stringify(shared) } },
);
const code = await new Promise((resolve) => runner.on("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0))));
if (code !== 0) {
  console.error(
    `\ne2e: failures — screenshots and console logs in e2e/artifacts/. Server log tail:\n${stack.serverLog()}`,
  );
}
await stack.stop();
await published.close();
process.exit(code);
