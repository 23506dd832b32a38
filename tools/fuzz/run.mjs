#!/usr/bin/env node
// The `fuzz` test phase: a property-based run of schemathesis over the server's own OpenAPI
// document (`GET /api/v1/openapi.json`) against the real debug binary.
//
// Starts `target/debug/symbolon` on a free loopback port with a temporary SQLite database, key
// directory and SMTP capture, seeds one app with an allowed origin, then runs schemathesis
// (installed by scripts/setup.sh into .dev/fuzz-venv) unauthenticated over every operation with a
// fixed seed and a bounded number of cases per operation; then once more with the access token of
// a real email login (every operation but logout, which would end that session); then over the `/v1` API with an app
// secret made by `symbolon apps secret create`. Checks: no 5xx, and every response's
// status, content type and body match the document. Rate limits are raised so 429s do not hide
// other answers. Prints, last, "fuzz: N cases, N failures" (scripts/test.sh reads it): about
// 5,300 cases in about 45 s on 2 cores with the defaults.
//
// Usage: node tools/fuzz/run.mjs   (FUZZ_MAX_EXAMPLES, FUZZ_SEED and SYMBOLON_BIN override defaults)
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startHostAuth } from "../stack/src/hostAuth.mjs";
import { startMailbox } from "../stack/src/mailbox.mjs";
import { mailboxClient } from "../stack/src/mailboxClient.mjs";
import { freePort } from "../stack/src/ports.mjs";
import { startSmsbox } from "../stack/src/smsbox.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = process.env.SYMBOLON_BIN || path.join(root, "target/debug/symbolon");
const schemathesis = path.join(root, ".dev/fuzz-venv/bin/schemathesis");
const maxExamples = process.env.FUZZ_MAX_EXAMPLES || "100";
const seed = process.env.FUZZ_SEED || "20261124";
const ORIGIN = "http://localhost:5173";
const CHECKS = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
];

for (const [what, file] of [
  ["server binary (cargo build -p symbolon-server)", bin],
  ["schemathesis (scripts/setup.sh)", schemathesis],
]) {
  if (!fs.existsSync(file)) {
    console.error(`fuzz: ${what} not found at ${file}`);
    process.exit(1);
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "symbolon-fuzz-"));
const mailbox = await startMailbox();
// Every login method on, so the fuzzer reaches past "method not enabled": SMS to the local catcher, guest
// accounts, custom auth against the host-auth stand-in.
const smsbox = await startSmsbox();
const hostAuth = await startHostAuth();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  DATABASE_URL: `sqlite://${path.join(dir, "fuzz.db")}?mode=rwc`,
  SYMBOLON_LISTEN: `127.0.0.1:${port}`,
  // The app's origin is also the server's own, so one `Origin` passes both the host routes' and
  // the wallet frame routes' origin checks and the fuzzer reaches the handlers behind them.
  SYMBOLON_PUBLIC_URL: ORIGIN,
  SYMBOLON_KEY_DIR: dir,
  // The cross-app signing page has no app in its path: without the built page it would answer 503.
  SYMBOLON_CROSS_APP_PAGE_DIR: path.join(root, "packages/cross-app-page/dist"),
  SYMBOLON_SMTP_HOST: "127.0.0.1",
  SYMBOLON_SMTP_PORT: String(mailbox.smtpPort),
  SYMBOLON_SMTP_TLS: "none",
  SYMBOLON_SMTP_FROM: "Symbolon <login@symbolon.localhost>",
  SYMBOLON_SMS_API_URL: smsbox.url.replace("localhost", "127.0.0.1"),
  SYMBOLON_SMS_ACCOUNT_SID: "ACfuzz",
  SYMBOLON_SMS_AUTH_TOKEN: "fuzz-token",
  SYMBOLON_SMS_FROM: "+12015550100",
  SYMBOLON_LOG: process.env.SYMBOLON_LOG || "warn",
  // Every case comes from one address: limits high enough that 429s do not hide other answers.
  SYMBOLON_RATE_LIMIT_EMAIL_PER_WINDOW: "100000",
  SYMBOLON_RATE_LIMIT_IP_PER_WINDOW: "100000",
  SYMBOLON_RATE_LIMIT_SMS_IP_PER_WINDOW: "100000",
  SYMBOLON_RATE_LIMIT_RESEND_COOLDOWN_S: "0",
  SYMBOLON_RATE_LIMIT_IP_AUTHENTICATE_PER_WINDOW: "100000",
  SYMBOLON_RATE_LIMIT_CODE_FAILURES_PER_HOUR: "100000",
  SYMBOLON_RATE_LIMIT_CODE_FAILURES_PER_ADDRESS: "100000",
};
delete env.SYMBOLON_SMTP_USERNAME;
delete env.SYMBOLON_SMTP_PASSWORD;

let server;
let status = 1;
try {
  const settings = path.join(dir, "app-settings.toml");
  fs.writeFileSync(
    settings,
    [
      "guest_accounts = true",
      "[login_methods]",
      'primary = ["email", "sms"]',
      "[custom_auth]",
      `jwks_url = ${JSON.stringify(hostAuth.jwksUrl)}`,
      `issuer = ${JSON.stringify(hostAuth.issuer)}`,
      `audience = ${JSON.stringify(hostAuth.audience)}`,
      "",
    ].join("\n"),
  );
  const createArgs = ["apps", "create", "--name", "Fuzz", "--origin", ORIGIN, "--settings", settings];
  const created = spawnSync(bin, createArgs, {
    env,
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
  });
  const appId = created.stdout?.trim().split("\n").pop()?.trim();
  if (created.status !== 0 || !appId) {
    throw new Error(`symbolon apps create failed (${created.status}):\n${created.stderr}${created.stdout}`);
  }

  const logFile = path.join(dir, "server.log");
  const log = fs.openSync(logFile, "w");
  server = spawn(bin, ["serve"], { env, cwd: dir, stdio: ["ignore", log, log] });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode != null) throw new Error(`server exited:\n${fs.readFileSync(logFile, "utf8")}`);
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error("server did not answer /health within 60 s");
    await new Promise((r) => setTimeout(r, 100));
  }

  const headers = { "privy-app-id": appId, origin: ORIGIN, "content-type": "application/json" };
  const token = await login(headers, mailboxClient(mailbox.url));
  // A host back end's app secret, for the `/v1` API.
  const secret = spawnSync(bin, ["apps", "secret", "create", "--app", appId], {
    env,
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
  });
  const appSecret = secret.stdout?.trim();
  if (secret.status !== 0 || !appSecret) {
    throw new Error(`symbolon apps secret create failed (${secret.status}):\n${secret.stderr}`);
  }
  let cases = 0;
  let failures = 0;
  status = 0;
  for (const [name, extra] of [
    ["unauthenticated", []],
    [
      "authenticated",
      // `/v1` takes the app secret, not a user's token: the unauthenticated pass already shows a token
      // there is refused, and the app-secret pass fuzzes it.
      [
        "--header",
        `Authorization: Bearer ${token}`,
        "--exclude-path",
        "/api/v1/sessions/logout",
        "--exclude-path-regex",
        "^/v1/",
      ],
    ],
    ["app secret (/v1)", ["--auth", `${appId}:${appSecret}`, "--include-path-regex", "^/v1/"]],
  ]) {
    console.log(`\n==> fuzz pass: ${name}`);
    // Not spawnSync: the mail and SMS catchers run in this process and must keep answering the server.
    const run = await new Promise((resolve) => {
      const child = spawn(schemathesis, [...schemathesisArgs(appId), ...extra], {
        cwd: dir, // its `.schemathesis/` cache goes to the temporary directory
        stdio: ["ignore", "pipe", "inherit"],
      });
      let stdout = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
      });
      child.on("close", (code) => resolve({ status: code, stdout }));
    });
    process.stdout.write(run.stdout ?? "");
    const counts = summary(run.stdout ?? "");
    cases += counts.cases;
    if (run.status !== 0) {
      status = run.status ?? 1;
      failures += Math.max(counts.failures, 1);
    }
  }
  if (status !== 0) console.log(`\nserver log tail:\n${fs.readFileSync(logFile, "utf8").slice(-4000)}`);
  console.log(`fuzz: ${cases} cases, ${failures} failures`);
} catch (error) {
  console.error(`fuzz: ${error?.message ?? error}`);
  status = 1;
} finally {
  server?.kill("SIGTERM");
  await mailbox.stop();
  await smsbox.stop();
  await hostAuth.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(status);

/** schemathesis's arguments, without authentication. */
function schemathesisArgs(appId) {
  return [
    "run",
    `${base}/api/v1/openapi.json`,
    "--checks",
    CHECKS.join(","),
    "--max-examples",
    maxExamples,
    "--seed",
    seed,
    // One worker: with two threads, Hypothesis parses lambda sources (`ast.parse`) side by side, and
    // CPython before 3.11.8 / 3.12.1 keeps the AST recursion depth in shared state (gh-106905): a
    // "SystemError: AST constructor recursion depth mismatch" then fails the run with no finding.
    "--workers",
    "1",
    "--no-shrink",
    "--request-timeout",
    "10",
    "--header",
    `privy-app-id: ${appId}`,
    "--header",
    `Origin: ${ORIGIN}`,
    "--report",
    "ndjson",
    "--report-dir",
    dir,
  ];
}

/** An access token from a real email-code login. */
async function login(headers, mail) {
  const email = "fuzz@example.com";
  const post = async (route, body) => {
    const res = await fetch(`${base}/api/v1/${route}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`login: ${route} answered ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  await post("passwordless/init", { email });
  const code = await mail.waitForCode(email);
  const session = await post("passwordless/authenticate", { email, code });
  return session.token;
}

/** Test cases and failures from schemathesis's summary ("Test cases: 812 generated, 812 passed"). */
function summary(out) {
  const clean = out.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, "g"), "");
  const lines = clean.split("\n");
  const at = lines.findIndex((l) => /^\s*Test cases:/.test(l));
  const line = at < 0 ? "" : `${lines[at]} ${lines[at + 1] ?? ""}`;
  const num = (re) => Number(line.match(re)?.[1] ?? 0);
  return { cases: num(/(\d+) generated/), failures: num(/(\d+) unique failures?/) };
}
