#!/usr/bin/env node
// `make dev`: the whole stack on fixed ports, kept running until Ctrl-C. The SQLite database lives in .dev/ and
// survives restarts, so a signed-in browser stays signed in.
import { describeRateLimits, PortInUseError, startStack } from "../src/index.mjs";
import { underMake, watchMakeParent } from "../src/watchMakeParent.mjs";

// SYMBOLON_DEV_PORT_OFFSET moves every fixed port by that much (a second stack next to the first);
// SYMBOLON_DEV_DATA_DIR replaces .dev/.
const DEV_PORTS = {
  api: 8787,
  web: 5173,
  webB: 5174,
  inbox: 1080,
  smtp: 1025,
  sms: 1081,
  hostAuth: 1082,
  oidc: 1083,
  oauth2: 1084,
  farcaster: 1085,
  walletConnect: 1086,
  webhooks: 1087,
  signer: 8790,
  chain: 8545,
};
const offset = Number(process.env.SYMBOLON_DEV_PORT_OFFSET ?? 0);
if (!Number.isInteger(offset) || offset < 0 || offset > 50_000) {
  console.error(`\n✖ SYMBOLON_DEV_PORT_OFFSET must be a whole number from 0 to 50000.\n`);
  process.exit(1);
}

// SYMBOLON_TEST_WALLET=1 installs the test wallets (tools/test-wallets) in the dev web app: "Continue with a
// wallet" then lists "Symbolon Test Wallet" (anvil's dev account 2) and "Symbolon Test Solana Wallet".
const testWallet = process.env.SYMBOLON_TEST_WALLET === "1";

const started = Date.now();
let stack;
try {
  stack = await startStack({
    mode: "dev",
    quietStop: underMake(),
    database: process.env.SYMBOLON_DEV_DATABASE === "postgres" ? "postgres" : "sqlite",
    web: "dev",
    ports: Object.fromEntries(Object.entries(DEV_PORTS).map(([name, port]) => [name, port + offset])),
    ...(process.env.SYMBOLON_DEV_DATA_DIR && { dataDir: process.env.SYMBOLON_DEV_DATA_DIR }),
    testWallet,
  });
} catch (error) {
  if (error instanceof PortInUseError) {
    console.error(`\n✖ ${error.message}\n`);
  } else {
    console.error(`\n✖ The stack did not start:\n${error?.stack ?? error}\n`);
  }
  process.exit(1);
}

const rows = [
  ["Web app", stack.urls.web],
  ...(stack.urls.webB ? [["Web app B", `${stack.urls.webB} (logs in with the first app: cross-app)`]] : []),
  ["API", `${stack.urls.api}/api/v1`],
  ["Mail inbox", stack.urls.inbox],
  ["SMS inbox", stack.urls.smsInbox],
  ["Webhooks", `${stack.urls.webhooks} (every event of the demo app, verified with @privy-io/node)`],
  ["Signer", `${stack.urls.signer} (delegated wallets; only the API server calls it)`],
  ["Host auth", `${stack.urls.hostAuth} (custom-auth stand-in)`],
  ["Google", `${stack.urls.oidc} (local OpenID provider)`],
  ["GitHub", `${stack.urls.oauth2} (local OAuth 2.0 provider)`],
  ...(stack.urls.farcasterRelay
    ? [["Farcaster relay", `${stack.urls.farcasterRelay} (approve Farcaster sign-ins here)`]]
    : []),
  ...(stack.urls.walletConnectRelay
    ? [["WalletConnect relay", `${stack.urls.walletConnectRelay} (and its wallet directory)`]]
    : []),
  // The funder is anvil's dev account 0 (10,000 ETH): import its key into a wallet to move test funds by hand.
  ...(stack.chain
    ? [
        ["Chain RPC", `${stack.chain.rpcUrl} (chain id ${stack.chain.chainId})`],
        ["Funder", stack.chain.funder.address],
      ]
    : []),
  ...(testWallet
    ? [["Test wallets", "in the web app (anvil's account 2, a Solana key): window.symbolonTestWallet"]]
    : []),
  ["Rate limits", describeRateLimits(stack.rateLimits)],
  ["App id", stack.appId],
  ...(stack.appBId ? [["App B id", stack.appBId]] : []),
  ["Server log", stack.logs.server],
  ["Web log", stack.logs.web],
  ...(stack.chain ? [["Chain log", stack.logs.chain]] : []),
];
const labelWidth = Math.max(...rows.map(([k]) => k.length)) + 2;
// The box fits an 80-column terminal: a long value goes on under its label.
const INNER_WIDTH = 76;
const body = [
  `Symbolon is running (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  "",
  ...rows.flatMap(([k, v]) =>
    wrap(v, INNER_WIDTH - labelWidth).map(
      (line, i) => (i === 0 ? `${k}:`.padEnd(labelWidth) : " ".repeat(labelWidth)) + line,
    ),
  ),
  "",
  "Log in on the web app; the code arrives in the mail (or SMS) inbox. Google and GitHub sign in without a password: pick a test account on their page.",
  "Press Ctrl-C to stop",
];
const lines = body.flatMap((text) => (text.length > INNER_WIDTH ? wrap(text, INNER_WIDTH) : [text]));
const width = Math.max(...lines.map((text) => text.length));
console.log(
  [
    "",
    `┌${"─".repeat(width + 2)}┐`,
    ...lines.map((text) => `│ ${text.padEnd(width)} │`),
    `└${"─".repeat(width + 2)}┘`,
    "",
  ].join("\n"),
);

// startStack stops everything on SIGINT/SIGTERM; keep the process alive until then.
setInterval(() => {}, 1 << 30);
// Under `make dev`, a signal sent to make alone does not reach us: stop when make is stopping.
watchMakeParent((reason) => {
  console.log(`[stack] ${reason}`);
  process.kill(process.pid, "SIGINT");
});

/** `text` in lines of at most `width` characters: broken at spaces, a longer word (a path) cut. */
function wrap(text, width) {
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line === "" ? word : `${line} ${word}`;
    if (next.length <= width) {
      line = next;
      continue;
    }
    if (line !== "") lines.push(line);
    line = word;
    while (line.length > width) {
      lines.push(line.slice(0, width));
      line = line.slice(width);
    }
  }
  if (line !== "") lines.push(line);
  return lines.length > 0 ? lines : [""];
}
