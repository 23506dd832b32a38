#!/usr/bin/env node
// `make bench`: server load (release builds, SQLite and embedded Postgres) and client bundle size.
// Writes bench/results/latest.json and prints a table. Not part of `make test`.
//
// Options: --suites server,wallet   --db sqlite,postgres   --connections 32   --duration 10   --login-connections 8   --no-build   --debug
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startStack } from "@symbolon/stack";
import { unlimited } from "./rateLimits.mjs";
import { benchWallet } from "./wallet.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = parseArgs({
  options: {
    suites: { type: "string", default: "server,wallet" },
    db: { type: "string", default: "sqlite,postgres" },
    connections: { type: "string", default: "32" },
    duration: { type: "string", default: "10" },
    "login-connections": { type: "string", default: "8" },
    "no-build": { type: "boolean", default: false },
    // Debug binaries, no build: checks the bench itself quickly; its numbers mean nothing.
    debug: { type: "boolean", default: false },
  },
});
const ORIGIN = "http://localhost:5173";
const PROFILE = opts.debug ? "debug" : "release";

function machine() {
  const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.+)$/m)?.[1] ?? "unknown";
  const memKb = Number(readFileSync("/proc/meminfo", "utf8").match(/^MemTotal:\s+(\d+)/m)?.[1] ?? 0);
  return {
    nproc: os.availableParallelism(),
    cpu,
    memoryGiB: +(memKb / 1024 / 1024).toFixed(1),
    kernel: os.release(),
    // Other work on the machine skews the numbers; record how busy it was when the bench started.
    loadAverage1m: +os.loadavg()[0].toFixed(2),
    node: process.version,
  };
}

/** Resident memory of a process in MiB (VmRSS from /proc). */
function rssMiB(pid) {
  const kb = Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+)/m)?.[1] ?? Number.NaN);
  return +(kb / 1024).toFixed(1);
}

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s on Linux)
}

/** Runs the load generator; samples the server's RSS and CPU while it runs. */
async function loadgen(stack, args) {
  const bin = path.join(root, "target", PROFILE, "loadgen");
  const argv = [
    "--api",
    stack.urls.api,
    "--mailbox",
    stack.urls.inbox,
    "--smsbox",
    stack.urls.smsInbox,
    "--app-id",
    stack.appId,
    "--origin",
    ORIGIN,
    ...args,
  ];
  const cpuBefore = cpuSeconds(stack.serverPid);
  let peakRss = rssMiB(stack.serverPid);
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMiB(stack.serverPid));
  }, 200);
  const child = spawn(bin, argv, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  const code = await new Promise((resolve) => child.on("exit", resolve));
  clearInterval(sampler);
  const lastLine = out.trim().split("\n").pop() ?? "";
  if (code !== 0 || !lastLine.startsWith("{")) throw new Error(`loadgen ${args[0]} failed (exit ${code})`);
  const report = JSON.parse(lastLine);
  const cpu = cpuSeconds(stack.serverPid) - cpuBefore;
  return { ...report, serverPeakRssMiB: peakRss, serverCpuSeconds: +cpu.toFixed(2) };
}

/** A bench stack on `database`; `webhookEndpoint: false` leaves the demo app without a webhook endpoint. */
function benchStack(database, webhookEndpoint = true) {
  return startStack({
    mode: "bench",
    database,
    web: false,
    bin: path.join(root, "target", PROFILE, "symbolon"),
    origins: [ORIGIN],
    // Rate limits would cap logins, which is not what this measures.
    rateLimits: unlimited,
    webhookEndpoint,
  });
}

/** The logins again on a stack whose app has no webhook endpoint: the cost of events, as a ratio in one run. */
async function loginsWithoutWebhooks(database) {
  console.log(`\n== ${database}, no webhook endpoint ==`);
  const stack = await benchStack(database, false);
  try {
    await new Promise((r) => setTimeout(r, 1500));
    const run = (scenario) =>
      loadgen(stack, [scenario, "--connections", opts["login-connections"], "--duration", opts.duration]);
    return { emailLogin: await run("email-login"), smsLogin: await run("sms-login") };
  } finally {
    await stack.stop();
  }
}

async function benchDatabase(database) {
  console.log(`\n== server on ${database} ==`);
  const stack = await benchStack(database);
  try {
    await new Promise((r) => setTimeout(r, 1500));
    const idleRssMiB = rssMiB(stack.serverPid);
    const refresh = await loadgen(stack, [
      "refresh",
      "--connections",
      opts.connections,
      "--duration",
      opts.duration,
    ]);
    const login = await loadgen(stack, [
      "email-login",
      "--connections",
      opts["login-connections"],
      "--duration",
      opts.duration,
    ]);
    const smsLogin = await loadgen(stack, [
      "sms-login",
      "--connections",
      opts["login-connections"],
      "--duration",
      opts.duration,
    ]);
    // A host back end's side: 10,000 users imported in batches of 100, then the user list walked.
    const importUsers = await loadgen(stack, [
      "import",
      "--users",
      "10000",
      "--connections",
      "2",
      "--secret",
      stack.appSecret,
    ]);
    const listUsers = await loadgen(stack, [
      "list-users",
      "--connections",
      opts["login-connections"],
      "--duration",
      opts.duration,
      "--secret",
      stack.appSecret,
    ]);
    await stack.stop();
    const withoutWebhooks = await loginsWithoutWebhooks(database);
    return {
      database,
      idleRssMiB,
      refresh,
      emailLogin: login,
      smsLogin,
      importUsers,
      listUsers,
      withoutWebhooks,
    };
  } finally {
    await stack.stop();
  }
}

function bundleSize() {
  const script = path.join(root, "packages/react/scripts/bundle-size.mjs");
  if (!existsSync(script)) return { error: "packages/react/scripts/bundle-size.mjs not found" };
  const run = spawnSync(process.execPath, [script, "--json"], {
    cwd: path.join(root, "packages/react"),
    encoding: "utf8",
  });
  // The script prints one JSON document (possibly pretty-printed) after any log lines.
  const json = run.stdout.slice(run.stdout.indexOf("{"));
  if (run.status !== 0 || !json)
    return { error: `bundle-size exited ${run.status}: ${run.stderr.slice(-500)}` };
  let parsed;
  try {
    parsed = JSON.parse(json);
  } catch {
    return { error: `bundle-size printed no JSON: ${run.stdout.slice(0, 300)}` };
  }
  const { initialGzipBytes, totalGzipBytes, chunks } = parsed;
  return {
    initialGzipBytes,
    totalGzipBytes,
    chunks,
    initialGzipKiB: +(initialGzipBytes / 1024).toFixed(1),
    totalGzipKiB: +(totalGzipBytes / 1024).toFixed(1),
  };
}

if (!opts["no-build"] && !opts.debug) {
  console.log("== cargo build --release -p symbolon-server -p symbolon-loadgen ==");
  const build = spawnSync(
    "cargo",
    ["build", "--release", "-p", "symbolon-server", "-p", "symbolon-loadgen"],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
  if (build.status !== 0) process.exit(1);
}

/** Which code was measured: the commit, whether the tree had changes, and when the binary was built. */
function build() {
  const git = (...args) => spawnSync("git", args, { cwd: root, encoding: "utf8" }).stdout.trim();
  const bin = path.join(root, "target", PROFILE, "symbolon");
  return {
    commit: git("rev-parse", "--short", "HEAD"),
    serverChanges: git("status", "--porcelain", "crates/server", "crates/protocol") !== "",
    binaryBuiltAt: existsSync(bin) ? statSync(bin).mtime.toISOString() : null,
    profile: PROFILE,
  };
}

const results = {
  date: new Date().toISOString(),
  machine: machine(),
  build: build(),
  settings: opts,
  server: [],
  client: null,
  wallet: null,
};
const suites = new Set(opts.suites.split(",").map((s) => s.trim()));
for (const database of !suites.has("server")
  ? []
  : opts.db
      .split(",")
      .map((d) => d.trim())
      .filter(Boolean)) {
  try {
    results.server.push(await benchDatabase(database));
  } catch (error) {
    console.error(`bench on ${database} failed: ${error?.stack ?? error}`);
    results.server.push({ database, error: String(error?.message ?? error) });
  }
}
results.client = bundleSize();
if (suites.has("wallet")) {
  console.log("\n== wallet in Chromium ==");
  try {
    results.wallet = await benchWallet({
      bin: path.join(root, "target", PROFILE, "symbolon"),
      // A host back end signing with the delegated wallet: each request's authorization signature checked by
      // the signer, within the demo policy.
      walletApi: async (stack, walletId) => {
        const run = (method) =>
          loadgen(stack, [
            "wallet-rpc",
            "--connections",
            opts["login-connections"],
            "--duration",
            opts.duration,
            "--secret",
            stack.appSecret,
            "--wallet",
            walletId,
            "--key",
            stack.delegation.authorizationPrivateKey,
            "--method",
            method,
          ]);
        return {
          personalSign: await run("personal_sign"),
          signTransaction: await run("eth_signTransaction"),
        };
      },
    });
  } catch (error) {
    console.error(`wallet bench failed: ${error?.stack ?? error}`);
    results.wallet = { error: String(error?.message ?? error) };
  }
}

mkdirSync(path.join(root, "bench/results"), { recursive: true });
writeFileSync(path.join(root, "bench/results/latest.json"), `${JSON.stringify(results, null, 2)}\n`);

const f = (n, d = 1) => (typeof n === "number" ? n.toFixed(d) : "–");
console.log(`\n${results.date}  ${results.machine.nproc} × ${results.machine.cpu}`);
console.log(
  "database  scenario      conns   ok/s     p50 ms  p99 ms  errors  RSS idle→peak MiB  server CPU s  loadgen CPU s",
);
for (const s of results.server) {
  if (s.error) {
    console.log(`${s.database.padEnd(9)} FAILED: ${s.error}`);
    continue;
  }
  for (const r of [s.refresh, s.emailLogin, s.smsLogin, s.importUsers, s.listUsers]) {
    console.log(
      `${s.database.padEnd(9)} ${r.scenario.padEnd(13)} ${String(r.connections).padStart(5)} ${f(r.per_second, 0).padStart(7)} ${f(r.p50_ms, 2).padStart(8)} ${f(r.p99_ms, 2).padStart(7)} ${String(r.errors).padStart(7)}  ${`${f(s.idleRssMiB)}→${f(r.serverPeakRssMiB)}`.padStart(17)} ${f(r.serverCpuSeconds, 1).padStart(12)} ${f(r.loadgen_cpu_seconds, 1).padStart(14)}`,
    );
  }
}
for (const s of results.server.filter((s) => s.withoutWebhooks)) {
  const ratio = (a, b) => (a.per_second / b.per_second).toFixed(2);
  console.log(
    `${s.database}: logins with a webhook endpoint / without: email ${ratio(s.emailLogin, s.withoutWebhooks.emailLogin)}× (${f(s.withoutWebhooks.emailLogin.per_second, 0)}/s without), SMS ${ratio(s.smsLogin, s.withoutWebhooks.smsLogin)}× (${f(s.withoutWebhooks.smsLogin.per_second, 0)}/s without)`,
  );
}
for (const s of results.server.filter((s) => s.importUsers)) {
  console.log(
    `${s.database}: import ${s.importUsers.items} users in ${f(s.importUsers.seconds)} s = ${f(s.importUsers.items_per_second, 0)} users/s (batches of 100, p99 ${f(s.importUsers.p99_ms)} ms per batch); user list page of 100: p99 ${f(s.listUsers.p99_ms, 2)} ms at ${s.listUsers.connections} connections`,
  );
}
const c = results.client;
console.log(
  c.error
    ? `client bundle: ${c.error}`
    : `client bundle: initial ${c.initialGzipKiB} KiB gzip, total ${c.totalGzipKiB} KiB gzip; lazy chunks: ${c.chunks
        .filter((chunk) => !chunk.initial)
        .sort((a, b) => b.gzipBytes - a.gzipBytes)
        .map(
          (chunk) =>
            `${path.basename(chunk.file).replace(/-[A-Z0-9]+\.js$/, "")} ${(chunk.gzipBytes / 1024).toFixed(1)}`,
        )
        .join(", ")} KiB`,
);
const w = results.wallet;
if (w?.error) console.log(`wallet: FAILED: ${w.error}`);
else if (w) {
  console.log(
    `wallet creation (login answer → address shown): p50 ${f(w.creation.p50)} ms, p95 ${f(w.creation.p95)} ms (n=${w.creation.n}; target p95 ≤ ${w.targets.creationP95Ms})`,
  );
  console.log(
    `personal_sign round trip, warm: p50 ${f(w.sign.p50, 2)} ms, p95 ${f(w.sign.p95, 2)} ms (n=${w.sign.n}; target p95 ≤ ${w.targets.signP95Ms})`,
  );
  for (const r of w.walletApi ? [w.walletApi.personalSign, w.walletApi.signTransaction] : []) {
    console.log(
      `wallet API ${r.scenario} (${r === w.walletApi.personalSign ? "personal_sign" : "eth_signTransaction"}, SQLite): ${f(r.per_second, 0)}/s, p50 ${f(r.p50_ms, 2)} ms, p99 ${f(r.p99_ms, 2)} ms, ${r.errors} errors at ${r.connections} connections (server CPU ${f(r.serverCpuSeconds, 1)} s)`,
    );
  }
  console.log(
    `wallet frame: first load (wasm ${w.frame.wasm.gzip} B + JS at start) ${w.frame.initialGzip} B gzip (budget ${w.targets.frameGzipBytes} B); JS on demand ${w.frame.lazyJsGzip} B; CSS ${w.frame.css.gzip} B`,
  );
}
console.log("results: bench/results/latest.json");
const failed = results.server.some((s) => s.error) || Boolean(results.wallet?.error);
process.exit(failed ? 1 : 0);
