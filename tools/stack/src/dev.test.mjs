// `make dev` stops everything it started when its own process gets SIGINT or SIGTERM: the entry point
// on its own, and under make (which forwards SIGTERM but only waits on SIGINT). The ports are free after.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { portIsFree } from "./ports.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const DEV_PORTS = [8787, 5173, 5174, 1080, 1025, 1081, 1082, 1083, 1084, 1085, 1086, 1087, 8545];

/** A port offset whose dev ports are all free now. */
async function freeOffset() {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const offset = 20_000 + Math.floor(Math.random() * 20_000);
    const free = await Promise.all(DEV_PORTS.map((port) => portIsFree(port + offset)));
    if (free.every(Boolean)) return offset;
  }
  throw new Error("no free port range for a second dev stack");
}

/** Starts `command args` as `make dev` would run it, waits for the banner, signals it, waits for its exit. */
async function startAndSignal(command, args, signal, { group = false } = {}) {
  const offset = await freeOffset();
  const dataDir = await mkdtemp(path.join(tmpdir(), "symbolon-dev-test-"));
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, SYMBOLON_DEV_PORT_OFFSET: String(offset), SYMBOLON_DEV_DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, to signal it as a terminal's Ctrl-C does (every process of the job).
    detached: group,
  });
  let output = "";
  const exited = new Promise((resolve) => child.on("exit", (code, sig) => resolve({ code, signal: sig })));
  try {
    await new Promise((resolve, reject) => {
      const onData = (chunk) => {
        output += chunk;
        if (output.includes("Press Ctrl-C to stop")) resolve();
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      exited.then(() => reject(new Error(`exited before it was up:\n${output}`)));
    });
    const ports = DEV_PORTS.map((port) => port + offset);
    assert.equal((await Promise.all(ports.map(portIsFree))).some(Boolean), false, "every dev port is in use");
    if (group) process.kill(-child.pid, signal);
    else child.kill(signal);
    const how = await exited;
    // A terminal's Ctrl-C reaches every process of the job: make may end at once while the stack is
    // still stopping, so give the stop a few seconds.
    let free = await Promise.all(ports.map(portIsFree));
    for (let waited = 0; group && !free.every(Boolean) && waited < 10_000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      free = await Promise.all(ports.map(portIsFree));
    }
    return { how, busy: ports.filter((_, i) => !free[i]), output };
  } finally {
    if (group) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group is gone already.
      }
    } else child.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  }
}

const DEV = ["tools/stack/bin/dev.mjs"];

for (const signal of ["SIGINT", "SIGTERM"]) {
  test(`the dev entry point stops the whole stack on ${signal}`, { timeout: 120_000 }, async () => {
    const { how, busy, output } = await startAndSignal(process.execPath, DEV, signal);
    assert.equal(how.code, signal === "SIGINT" ? 130 : 143);
    // The banner fits an 80-column terminal.
    const banner = output.split("\n").filter((line) => /^[│┌└]/.test(line));
    assert.ok(banner.length > 10, output);
    for (const line of banner) assert.ok([...line].length <= 80, `${[...line].length} columns: ${line}`);
    assert.deepEqual(busy, [], "ports still in use after the stop");
  });
}

// `-o setup`: the set-up is not this test's subject (and may take minutes on a fresh machine).
test("`make dev` stops the whole stack when make alone gets SIGINT", { timeout: 180_000 }, async () => {
  const { how, busy, output } = await startAndSignal(
    "make",
    ["--no-print-directory", "-o", "setup", "dev"],
    "SIGINT",
  );
  assert.notEqual(how.code, 0, `make exited ${JSON.stringify(how)}\n${output}`);
  assert.deepEqual(busy, [], "ports still in use after the stop");
});

test("Ctrl-C on `make dev` stops the stack cleanly and make reports no error", {
  timeout: 180_000,
}, async () => {
  const { how, busy, output } = await startAndSignal(
    "make",
    ["--no-print-directory", "-o", "setup", "dev"],
    "SIGINT",
    { group: true },
  );
  // Make itself may end by the same SIGINT (as a terminal's job does); what matters is that the stack
  // stopped cleanly and make printed no "*** … Error 130".
  assert.ok(how.code === 0 || how.signal === "SIGINT", `make ended ${JSON.stringify(how)}\n${output}`);
  assert.doesNotMatch(output, /\*\*\*.*Error \d+/, "make printed an error");
  assert.match(output, /SIGINT: stopping/);
  assert.deepEqual(busy, [], "ports still in use after the stop");
});
