// The shared wasm vectors (vectors.mjs) in a real Chromium page: a loopback HTTP server serves
// crates/wallet-core/pkg and this folder, Debian's /usr/bin/chromium (driven by playwright-core)
// opens page.html, and each vector's result comes back by name. Builds nothing itself.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "../../../../e2e/lib/browser.mjs";
import { PKG_DIR, requireBuild } from "./pkg.mjs";
import { vectors } from "./vectors.mjs";

requireBuild();

const HERE = fileURLToPath(new URL(".", import.meta.url));
// URL prefix → directory served under it; nothing else is reachable.
const ROOTS = { "/pkg/": PKG_DIR, "/tests/": HERE };
const TYPES = {
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".wasm": "application/wasm",
  ".html": "text/html",
};

/** The file a request path names, or null outside the served folders. */
function fileFor(urlPath) {
  for (const [prefix, dir] of Object.entries(ROOTS)) {
    if (!urlPath.startsWith(prefix)) continue;
    const file = path.resolve(dir, `.${urlPath.slice(prefix.length - 1)}`);
    return file.startsWith(dir) ? file : null;
  }
  return null;
}

const server = createServer(async (request, response) => {
  const urlPath = new URL(request.url ?? "/", "http://localhost").pathname;
  const file = urlPath === "/" ? path.join(HERE, "page.html") : fileFor(urlPath);
  try {
    if (file === null) throw new Error("outside the served folders");
    const body = await readFile(file);
    response.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    response.end(body);
  } catch {
    response.writeHead(404).end();
  }
});

let browser;
let results;
const pageErrors = [];

before(async () => {
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const page = await browser.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.stack ?? error.message));
  page.on("console", (message) => message.type() === "error" && pageErrors.push(message.text()));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => window.results !== undefined, null, { timeout: 60_000 });
  results = await page.evaluate(() => window.results);
  if (results.error) throw new Error(`the page failed: ${results.error}\n${pageErrors.join("\n")}`);
});

after(async () => {
  await browser?.close();
  server.close();
});

for (const { name } of vectors) {
  test(`chromium: ${name}`, () => {
    const result = results.vectors.find((entry) => entry.name === name);
    if (!result) throw new Error(`${name}: no result from the page`);
    if (!result.ok) throw new Error(result.error);
  });
}
