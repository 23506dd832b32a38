import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const BINARY = join(ROOT, "target/debug/symbolon");

/** The origin the test app allows; clients under test send it like a page served there. */
export const ORIGIN = "http://localhost:1";

/** The real server binary, an app created with its CLI, and the local SMTP mailbox. */
export interface RealStack {
  apiUrl: string;
  appId: string;
  mailboxUrl: string;
  stop(): Promise<void>;
}

/** Starts `symbolon serve` on a fresh SQLite database with a mailbox; fails loudly when the binary is missing. */
export async function startRealStack(): Promise<RealStack> {
  if (!existsSync(BINARY)) {
    throw new Error(`Server binary not found at ${BINARY}. Build it first: cargo build -p symbolon-server`);
  }
  const dir = await mkdtemp(join(tmpdir(), "symbolon-core-it-"));
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const services = spawn(process.execPath, [join(ROOT, "tools/stack/bin/services.mjs"), "--mailbox"], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    children.push(services);
    const { smtpPort, mailboxUrl } = JSON.parse(await firstLine(services)) as {
      smtpPort: number;
      mailboxUrl: string;
    };
    const port = await freePort();
    const env = {
      ...process.env,
      DATABASE_URL: `sqlite://${dir}/t.db?mode=rwc`,
      SYMBOLON_LISTEN: `127.0.0.1:${port}`,
      SYMBOLON_PUBLIC_URL: `http://127.0.0.1:${port}`,
      SYMBOLON_SMTP_HOST: "127.0.0.1",
      SYMBOLON_SMTP_PORT: String(smtpPort),
      SYMBOLON_SMTP_TLS: "none",
    };
    const created = await promisify(execFile)(BINARY, ["apps", "create", "--name", "T", "--origin", ORIGIN], {
      env,
    });
    const appId = created.stdout
      .trim()
      .split(/\s+/)
      .find((word) => word.length === 25);
    if (!appId) throw new Error(`'symbolon apps create' printed no 25-character app id: ${created.stdout}`);
    const server = spawn(BINARY, ["serve"], { env, stdio: ["ignore", "pipe", "pipe"] });
    children.push(server);
    // Keep the server's log quiet unless it fails to start, then show its tail.
    let log = "";
    const keep = (chunk: Uint8Array) => {
      log = (log + new TextDecoder().decode(chunk)).slice(-4000);
    };
    server.stdout?.on("data", keep);
    server.stderr?.on("data", keep);
    const apiUrl = `http://127.0.0.1:${port}`;
    await waitForHealth(apiUrl, server).catch((e: unknown) => {
      throw new Error(`${e instanceof Error ? e.message : String(e)}\n--- server log ---\n${log}`);
    });
    return { apiUrl, appId, mailboxUrl, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Waits for the newest 6-digit code mailed to `email`. */
export async function readCode(mailboxUrl: string, email: string, seen = 0): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`);
    const messages = (await response.json()) as Array<{ subject: string; text: string }>;
    const latest = messages.length > seen ? messages[messages.length - 1] : undefined;
    const code = latest && /\b(\d{6})\b/.exec(`${latest.subject}\n${latest.text}`)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No code mailed to ${email} within 10 s`);
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!child.stdout) return reject(new Error("no stdout"));
    const lines = createInterface({ input: child.stdout });
    lines.once("line", resolve);
    child.once("exit", (code) =>
      reject(new Error(`services exited with ${code} before printing its addresses`)),
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(apiUrl: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`'symbolon serve' exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${apiUrl}/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`'symbolon serve' did not answer GET ${apiUrl}/health within 30 s`);
}
