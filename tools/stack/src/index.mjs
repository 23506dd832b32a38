// One way to run the whole local stack — mailbox, database, server, web app — for `make dev`, the e2e suite and
// the benchmarks, so all three exercise the same wiring.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startMailbox } from "./mailbox.mjs";
import { mailboxClient } from "./mailboxClient.mjs";
import { freePort } from "./ports.mjs";
import { startPostgres } from "./postgres.mjs";

export { mailboxClient } from "./mailboxClient.mjs";
export { freePort } from "./ports.mjs";

/** The repository root (tools/stack/src → ../../..). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The demo app's fixed id (25 characters, as clients require), so bookmarks and `.env` files survive restarts. */
export const DEMO_APP_ID = "symbolondemo0000000000001";
const DEMO_APP_NAME = "Symbolon Demo";
const WEB_DIR = path.join(repoRoot, "apps/web");
const VITE = path.join(repoRoot, "node_modules/vite/bin/vite.js");

/** Raised when a fixed port (dev mode) is already taken; `port` and `service` say which. */
export class PortInUseError extends Error {
  constructor(service, port) {
    super(
      `Port ${port} (${service}) is already in use. Stop whatever is using it (e.g. \`ss -ltnp 'sport = :${port}'\`) and retry.`,
    );
    this.name = "PortInUseError";
    this.service = service;
    this.port = port;
  }
}

/**
 * The server binary: `SYMBOLON_BIN`, else the debug build (`release: true` → the release build).
 * @param {{ release?: boolean }} [options]
 */
export function serverBinary({ release = false } = {}) {
  const bin =
    process.env.SYMBOLON_BIN || path.join(repoRoot, "target", release ? "release" : "debug", "symbolon");
  if (!existsSync(bin)) {
    throw new Error(
      `Server binary not found at ${bin}. Build it with \`cargo build -p symbolon-server${release ? " --release" : ""}\` (or \`make setup\`), or set SYMBOLON_BIN.`,
    );
  }
  return bin;
}

/**
 * Starts the stack.
 * @param {{
 *   mode?: 'dev' | 'test' | 'bench',
 *   database?: 'sqlite' | 'postgres',
 *   web?: 'dev' | 'preview' | false,
 *   ports?: { api?: number, web?: number, inbox?: number, smtp?: number },
 *   app?: { disablePlusEmails?: boolean, requireTerms?: boolean },
 *   rateLimits?: { emailPerWindow?: number, ipPerWindow?: number, windowS?: number },
 *   quiet?: boolean,
 *   bin?: string,
 *   dataDir?: string,
 *   webOutDir?: string,
 *   log?: string,
 *   handleSignals?: boolean,
 *   origins?: string[],
 * }} [options]
 *   `dataDir`: where the SQLite file and logs go (dev: `.dev/`; else a temp dir removed on stop).
 *   `webOutDir`: where `preview` builds the web app (default: a temp dir).
 *   `log`: the server's `SYMBOLON_LOG` filter.
 *   `origins`: the app's allowed origins when there is no web app (e.g. the load generator's).
 */
export async function startStack(options = {}) {
  const {
    mode = "dev",
    database = "sqlite",
    web = mode === "dev" ? "dev" : mode === "test" ? "preview" : false,
    ports = {},
    app = {},
    rateLimits = {},
    quiet = mode !== "dev",
    log = mode === "bench" ? "warn" : "info",
    handleSignals = true,
  } = options;
  const say = quiet ? () => {} : (m) => console.log(`[stack] ${m}`);
  const bin = options.bin ?? serverBinary({ release: mode === "bench" && !process.env.SYMBOLON_BIN });

  const temporary = !options.dataDir && mode !== "dev";
  const dataDir =
    options.dataDir ??
    (mode === "dev" ? path.join(repoRoot, ".dev") : await mkdtemp(path.join(tmpdir(), "symbolon-stack-")));
  mkdirSync(dataDir, { recursive: true });
  const logs = { server: path.join(dataDir, "server.log"), web: path.join(dataDir, "web.log") };

  // Everything started so far, stopped in reverse order; also what the watchdog kills if we die first.
  const cleanups = [];
  const groups = new Set();
  const reaper = spawn(
    process.execPath,
    [path.join(path.dirname(fileURLToPath(import.meta.url)), "reaper.mjs")],
    {
      stdio: ["pipe", "ignore", "ignore"],
    },
  );
  reaper.unref();
  reaper.stdin.unref?.();
  reaper.stdin.on("error", () => {});
  const watch = (line) => reaper.stdin.writable && reaper.stdin.write(`${line}\n`);
  if (temporary) watch(`!${dataDir}`);

  const killGroupsNow = () => {
    for (const pid of groups) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  };
  process.on("exit", killGroupsNow);

  let stopped = false;
  async function stop() {
    if (stopped) return;
    stopped = true;
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.error(`[stack] cleanup failed: ${error?.message ?? error}`);
      }
    }
    process.off("exit", killGroupsNow);
    if (signalHandler) {
      process.off("SIGINT", signalHandler);
      process.off("SIGTERM", signalHandler);
    }
    reaper.stdin.end();
    if (temporary) await rm(dataDir, { recursive: true, force: true });
  }

  let signalHandler;
  if (handleSignals) {
    signalHandler = (signal) => {
      say(`${signal}: stopping`);
      stop().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
    };
    process.once("SIGINT", signalHandler);
    process.once("SIGTERM", signalHandler);
  }

  /** Spawns a child in its own process group with output to `logFile`; the group dies with us. */
  function child(command, args, { env, cwd, logFile, name }) {
    const fd = openSync(logFile, "a");
    const proc = spawn(command, args, { env, cwd, detached: true, stdio: ["ignore", fd, fd] });
    closeSync(fd);
    groups.add(proc.pid);
    watch(`+${proc.pid}`);
    let exited = null;
    proc.on("exit", (code, signal) => {
      exited = { code, signal };
    });
    cleanups.push(async () => {
      if (exited) return;
      await terminate(proc, name);
      groups.delete(proc.pid);
      watch(`-${proc.pid}`);
    });
    return { proc, exitInfo: () => exited };
  }

  try {
    const fixed = mode === "dev";
    const want = {
      api: ports.api ?? (fixed ? 8787 : 0),
      web: ports.web ?? (fixed ? 5173 : 0),
      inbox: ports.inbox ?? (fixed ? 1080 : 0),
      smtp: ports.smtp ?? (fixed ? 1025 : 0),
    };
    // Check fixed ports up front so the message names the service instead of a bind error from deep inside.
    const services = { api: "API server", web: "web app", inbox: "mail inbox", smtp: "SMTP" };
    for (const [key, port] of Object.entries(want)) {
      if (key === "web" && !web) continue;
      if (port && !(await portIsFree(port))) throw new PortInUseError(services[key], port);
    }

    const mailbox = await startMailbox({ smtpPort: want.smtp, httpPort: want.inbox, quiet });
    cleanups.push(() => mailbox.stop());
    say(`mailbox: SMTP 127.0.0.1:${mailbox.smtpPort}, inbox ${mailbox.url}`);

    let databaseUrl;
    if (database === "postgres") {
      // Postgres' own log is noise even in dev; the server logs its database errors.
      const pg = await startPostgres({ quiet: true, durable: mode === "bench" });
      if (pg.pid) watch(`=${pg.pid}`);
      watch(`!${pg.dir}`);
      cleanups.push(() => pg.stop());
      databaseUrl = pg.url;
    } else {
      databaseUrl = `sqlite://${path.join(dataDir, "symbolon.db")}?mode=rwc`;
    }
    say(`database: ${databaseUrl}`);

    const apiPort = want.api || (await freePort());
    const webPort = web ? want.web || (await freePort()) : 0;
    const apiUrl = `http://localhost:${apiPort}`;
    // WebAuthn needs `localhost` (not 127.0.0.1); allow both so a curl from 127.0.0.1 passes CORS too.
    const webUrl = web ? `http://localhost:${webPort}` : null;
    const origins = web
      ? [webUrl, `http://127.0.0.1:${webPort}`]
      : (options.origins ?? ["http://localhost:5173"]);

    const serverEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SYMBOLON_LISTEN: `127.0.0.1:${apiPort}`,
      SYMBOLON_PUBLIC_URL: apiUrl,
      SYMBOLON_SMTP_HOST: "127.0.0.1",
      SYMBOLON_SMTP_PORT: String(mailbox.smtpPort),
      SYMBOLON_SMTP_TLS: "none",
      SYMBOLON_SMTP_FROM: "Symbolon <login@symbolon.localhost>",
      SYMBOLON_LOG: log,
      ...(rateLimits.emailPerWindow != null && {
        SYMBOLON_RATE_LIMIT_EMAIL_PER_WINDOW: String(rateLimits.emailPerWindow),
      }),
      ...(rateLimits.ipPerWindow != null && {
        SYMBOLON_RATE_LIMIT_IP_PER_WINDOW: String(rateLimits.ipPerWindow),
      }),
      ...(rateLimits.windowS != null && { SYMBOLON_RATE_LIMIT_WINDOW_S: String(rateLimits.windowS) }),
    };
    delete serverEnv.SYMBOLON_SMTP_USERNAME;
    delete serverEnv.SYMBOLON_SMTP_PASSWORD;

    const createArgs = ["apps", "create", "--id", DEMO_APP_ID, "--name", DEMO_APP_NAME];
    for (const origin of origins) createArgs.push("--origin", origin);
    if (app.disablePlusEmails) createArgs.push("--disable-plus-emails");
    if (app.requireTerms) createArgs.push("--require-terms");
    const created = spawnSync(bin, createArgs, { env: serverEnv, encoding: "utf8", timeout: 60_000 });
    if (created.status !== 0) {
      throw new Error(
        `\`symbolon ${createArgs.join(" ")}\` failed (${created.status ?? created.signal}):\n${created.stderr}${created.stdout}`,
      );
    }
    const appId = created.stdout.trim().split("\n").pop()?.trim();
    if (!appId) throw new Error(`\`symbolon apps create\` printed no app id:\n${created.stderr}`);
    say(`app: ${appId} (origins ${origins.join(", ")})`);

    const server = child(bin, ["serve"], {
      env: serverEnv,
      cwd: dataDir,
      logFile: logs.server,
      name: "server",
    });
    await waitUntil(
      `server /health on ${apiPort}`,
      async () => {
        const res = await fetch(`http://127.0.0.1:${apiPort}/health`);
        return res.ok && (await res.json()).status === "ok";
      },
      { timeoutMs: 60_000, died: server.exitInfo, log: logs.server },
    );
    say(`server: ${apiUrl} (pid ${server.proc.pid}, log ${logs.server})`);

    if (web) {
      const webEnv = {
        ...process.env,
        VITE_PRIVY_APP_ID: appId,
        VITE_PRIVY_API_URL: apiUrl,
        VITE_APP_URL: webUrl,
        VITE_CHAIN_ID: process.env.VITE_CHAIN_ID ?? "50312",
        VITE_AGENTS_API_URL: process.env.VITE_AGENTS_API_URL ?? "http://localhost:8000",
        WEB_PORT: String(webPort),
      };
      const listen = ["--host", "127.0.0.1", "--port", String(webPort), "--strictPort"];
      let webChild;
      if (web === "dev") {
        webChild = child(process.execPath, [VITE, ...listen], {
          env: webEnv,
          cwd: WEB_DIR,
          logFile: logs.web,
          name: "vite",
        });
      } else {
        const outDir = options.webOutDir ?? path.join(dataDir, "web-dist");
        const started = Date.now();
        say(`building the web app into ${outDir}`);
        const build = spawnSync(process.execPath, [VITE, "build", "--outDir", outDir, "--emptyOutDir"], {
          env: webEnv,
          cwd: WEB_DIR,
          encoding: "utf8",
          timeout: 300_000,
        });
        if (build.status !== 0)
          throw new Error(
            `vite build failed (${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`,
          );
        say(`web app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        webChild = child(process.execPath, [VITE, "preview", "--outDir", outDir, ...listen], {
          env: webEnv,
          cwd: WEB_DIR,
          logFile: logs.web,
          name: "vite preview",
        });
      }
      await waitUntil(`web app on ${webPort}`, async () => (await fetch(`http://127.0.0.1:${webPort}/`)).ok, {
        timeoutMs: 60_000,
        died: webChild.exitInfo,
        log: logs.web,
      });
      say(`web: ${webUrl}`);
    }

    const client = mailboxClient(mailbox.url);
    return {
      urls: { api: apiUrl, web: webUrl, inbox: mailbox.url },
      smtpPort: mailbox.smtpPort,
      appId,
      databaseUrl,
      origins,
      mailbox: { ...client, messages: mailbox.messages, clear: () => mailbox.messages.splice(0) },
      serverPid: server.proc.pid,
      logs,
      /** The server log so far (tests print it on failure). */
      serverLog: () => readTail(logs.server),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** SIGTERM to the group, SIGKILL after 5 s. */
async function terminate(proc, name) {
  const gone = new Promise((resolve) => proc.once("exit", resolve));
  try {
    process.kill(-proc.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    console.error(`[stack] ${name} ignored SIGTERM; killing it`);
    try {
      process.kill(-proc.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }, 5_000);
  await gone;
  clearTimeout(timer);
}

/** Polls `check` until it returns true; fails early (with the log tail) when the watched child exits. */
async function waitUntil(what, check, { timeoutMs, died, log }) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    const exit = died?.();
    if (exit) {
      throw new Error(
        `${what}: process exited (${exit.code ?? exit.signal}) before it was ready. Log ${log}:\n${readTail(log)}`,
      );
    }
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${what}: not ready after ${timeoutMs} ms (${lastError?.cause?.code ?? lastError?.message ?? "no answer"}). Log ${log}:\n${readTail(log)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The last `max` characters of a log file ('' when missing). */
export function readTail(file, max = 8_000) {
  try {
    const text = readFileSync(file, "utf8");
    return text.length > max ? `…${text.slice(-max)}` : text;
  } catch {
    return "";
  }
}

/** Whether nothing listens on `port` (checked on the IPv4 loopback and on all interfaces, as Vite might bind either). */
async function portIsFree(port) {
  for (const host of ["127.0.0.1", "0.0.0.0"]) {
    const free = await new Promise((resolve) => {
      const server = net.createServer();
      server.once("error", () => resolve(false));
      server.listen(port, host, () => server.close(() => resolve(true)));
    });
    if (!free) return false;
  }
  return true;
}
