#!/usr/bin/env node
// Starts local services for a test run and prints ONE JSON line with their addresses, e.g.
//   {"smtpPort":40123,"mailboxUrl":"http://localhost:40124","postgresUrl":"postgres://…"}
// Runs until stdin closes (so it dies with the process that spawned it) or SIGINT/SIGTERM.
// Usage: node tools/stack/bin/services.mjs [--mailbox] [--postgres]
import { startMailbox } from "../src/mailbox.mjs";
import { startPostgres } from "../src/postgres.mjs";

const args = new Set(process.argv.slice(2));
const stops = [];
const out = {};
try {
  if (args.has("--mailbox")) {
    const mailbox = await startMailbox();
    stops.push(mailbox.stop);
    Object.assign(out, { smtpPort: mailbox.smtpPort, mailboxUrl: mailbox.url });
  }
  if (args.has("--postgres")) {
    const pg = await startPostgres();
    stops.push(pg.stop);
    out.postgresUrl = pg.url;
  }
} catch (error) {
  console.error(`services: failed to start: ${error?.stack ?? error}`);
  await Promise.allSettled(stops.map((stop) => stop()));
  process.exit(1);
}
process.stdout.write(`${JSON.stringify(out)}\n`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled(stops.map((stop) => stop()));
  process.exit(0);
}
process.stdin.on("end", shutdown);
process.stdin.on("close", shutdown);
process.stdin.resume();
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
