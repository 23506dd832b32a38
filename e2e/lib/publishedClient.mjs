// The published `@privy-io/react-auth` (Apache-2.0) as a host app uses it: e2e/published-client/app.jsx bundled
// once per installed version (npm aliases in e2e/package.json), and a static server for the pages on
// `http://127.0.0.1:<port>`: another site than our server's `http://localhost:<port>` (the stack's public URL;
// the wallet frame must run on exactly that origin, so the page takes the other loopback name). run.mjs bundles and
// serves them once for the whole run (the page's origin must be one of the app's allowed origins, so it is known
// before the stack starts); a test file run alone does the same for itself. Bundles are cached under
// node_modules/.cache/, keyed by the page's source, the installed versions and the bundler's.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const E2E_DIR = path.resolve(here, "..");
const REPO_ROOT = path.resolve(E2E_DIR, "..");
const ENTRY = path.join(E2E_DIR, "published-client/app.jsx");
const CACHE_DIR = path.join(REPO_ROOT, "node_modules/.cache/symbolon-published-client");
const require = createRequire(import.meta.url);

/**
 * The published versions under test: the npm aliases of e2e/package.json. `3.3.0` is the version the wire notes
 * were checked against; the other is the newest 3.x when it was added (bump the alias to follow npm).
 */
export const PUBLISHED_CLIENTS = [
  { alias: "react-auth-3.3", label: "the wire notes' version" },
  { alias: "react-auth-3.45", label: "the newest 3.x when pinned" },
];

/** The installed version of an alias, e.g. `3.45.0` (its package.json is not exported: found from its entry). */
export function installedVersion(alias) {
  for (let dir = path.dirname(require.resolve(alias)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    if (manifest.name === "@privy-io/react-auth") return manifest.version;
  }
  throw new Error(`${alias}: no @privy-io/react-auth package.json above its entry`);
}

/** What the bundles depend on: the page's source, each alias's version, the lock file and esbuild's version. */
async function cacheKey() {
  const hash = createHash("sha256");
  hash.update(await readFile(ENTRY));
  hash.update(await readFile(fileURLToPath(import.meta.url)));
  hash.update(await readFile(path.join(REPO_ROOT, "package-lock.json")));
  hash.update(require("esbuild/package.json").version);
  for (const { alias } of PUBLISHED_CLIENTS) hash.update(`${alias}@${installedVersion(alias)}`);
  return hash.digest("hex").slice(0, 16);
}

const html = (alias) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Host app on @privy-io/react-auth ${installedVersion(alias)}</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="./${alias}.js"></script>
  </body>
</html>
`;

/**
 * Bundles app.jsx once per published version into a cached directory (`{alias}.html` + `{alias}.js`); returns
 * the directory and what it cost (`cached` when nothing was built).
 * @returns {Promise<{ dir: string, cached: boolean, ms: number, bytes: Record<string, number> }>}
 */
export async function bundlePublishedClients() {
  const started = Date.now();
  const dir = path.join(CACHE_DIR, await cacheKey());
  const sizes = async () =>
    Object.fromEntries(
      await Promise.all(
        PUBLISHED_CLIENTS.map(async ({ alias }) => [alias, (await stat(path.join(dir, `${alias}.js`))).size]),
      ),
    );
  if (existsSync(path.join(dir, "done"))) {
    return { dir, cached: true, ms: Date.now() - started, bytes: await sizes() };
  }
  const { build } = await import("esbuild");
  const staging = `${dir}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  await Promise.all(
    PUBLISHED_CLIENTS.map(async ({ alias }) => {
      await build({
        entryPoints: [ENTRY],
        outfile: path.join(staging, `${alias}.js`),
        bundle: true,
        format: "esm",
        platform: "browser",
        target: "es2022",
        jsx: "automatic",
        minify: true,
        sourcemap: false,
        legalComments: "none",
        logLevel: "error",
        // The page imports the package by its published name, as a host app does.
        alias: { "@privy-io/react-auth": alias },
        define: { "process.env.NODE_ENV": '"production"', global: "globalThis" },
        absWorkingDir: E2E_DIR,
      });
      await writeFile(path.join(staging, `${alias}.html`), html(alias));
    }),
  );
  await writeFile(path.join(staging, "done"), new Date().toISOString());
  // Older bundles go: only the current key is kept (and another run's build in progress).
  for (const entry of await readdir(CACHE_DIR)) {
    const where = path.join(CACHE_DIR, entry);
    if (where === staging || where === dir) continue;
    const age = Date.now() - ((await stat(where).catch(() => null))?.mtimeMs ?? 0);
    if (entry.includes(".tmp-") && age < 10 * 60_000) continue;
    await rm(where, { recursive: true, force: true });
  }
  try {
    await rename(staging, dir);
  } catch (error) {
    // Another run finished the same bundles first: use theirs.
    if (!existsSync(path.join(dir, "done"))) throw error;
    await rm(staging, { recursive: true, force: true });
  }
  return { dir, cached: false, ms: Date.now() - started, bytes: await sizes() };
}

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8" };

/**
 * Serves the bundles of `bundled` (a promise of bundlePublishedClients()'s answer, so the server can listen
 * before the bundles exist) on `http://127.0.0.1:<free port>`.
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function servePublishedClients(bundled) {
  const server = createServer(async (req, res) => {
    try {
      const { dir } = await bundled;
      const name = path.basename(new URL(req.url ?? "/", "http://x").pathname);
      const type = TYPES[path.extname(name)];
      if (!type) throw Object.assign(new Error("not found"), { code: "ENOENT" });
      const body = await readFile(path.join(dir, name));
      res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
      res.end(body);
    } catch (error) {
      res.writeHead(error?.code === "ENOENT" ? 404 : 500, { "content-type": "text/plain" });
      res.end(String(error?.message ?? error));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Bundles (or takes the cached bundles) and serves them: what run.mjs and a lone test file call.
 * @returns {Promise<{ origin: string, bundled: ReturnType<typeof bundlePublishedClients>, close: () => Promise<void> }>}
 */
export async function startPublishedClients() {
  const bundled = bundlePublishedClients();
  // A failed bundle shows in the test that loads a page; not as an unhandled rejection here.
  bundled.catch(() => {});
  const served = await servePublishedClients(bundled);
  return { ...served, bundled };
}

/** The page of `alias` with its settings in the address. */
export function publishedClientUrl(origin, alias, { appId, apiUrl, chainRpc }) {
  const query = new URLSearchParams({ appId, apiUrl, chainRpc: chainRpc ?? "" });
  return `${origin}/${alias}.html?${query}`;
}
