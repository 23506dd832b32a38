// Child processes of the stack: each in its own process group with its output in a log file, stopped in reverse
// start order, and killed by a watchdog (reaper.mjs) if we die without stopping them. Shared by startStack and
// startChain so both clean up the same way.
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REAPER = path.join(path.dirname(fileURLToPath(import.meta.url)), "reaper.mjs");

/**
 * A set of children and clean-ups with one watchdog.
 * @returns {{
 *   child: (command: string, args: string[], options: { env?: NodeJS.ProcessEnv, cwd?: string, logFile: string, name: string }) =>
 *     { proc: import("node:child_process").ChildProcess, exitInfo: () => ({ code: number | null, signal: string | null } | null) },
 *   onStop: (cleanup: () => unknown) => void,
 *   watch: (line: string) => void,
 *   stop: () => Promise<void>,
 * }}
 *   `watch` sends the reaper a raw line ("=<pid>" a process sharing our group, "!<dir>" a temp dir to delete).
 */
export function createSupervisor() {
  const cleanups = [];
  const groups = new Set();
  const reaper = spawn(process.execPath, [REAPER], { stdio: ["pipe", "ignore", "ignore"] });
  reaper.unref();
  reaper.stdin.unref?.();
  reaper.stdin.on("error", () => {});
  const watch = (line) => reaper.stdin.writable && reaper.stdin.write(`${line}\n`);

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
      if (!exited) await terminate(proc, name);
      groups.delete(proc.pid);
      watch(`-${proc.pid}`);
    });
    return { proc, exitInfo: () => exited };
  }

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
    reaper.stdin.end();
  }

  return { child, onStop: (cleanup) => cleanups.push(cleanup), watch, stop };
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

/**
 * Polls `check` until it returns true; fails early (with the log tail) when the watched child exits.
 * @param {string} what
 * @param {() => Promise<boolean>} check
 * @param {{ timeoutMs: number, died?: () => unknown, log: string, intervalMs?: number }} options
 */
export async function waitUntil(what, check, { timeoutMs, died, log, intervalMs = 100 }) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    const exit = /** @type {any} */ (died?.());
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
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
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
