#!/usr/bin/env node
// A WalletConnect wallet in the terminal, for `make dev`: pairs with the `wc:` URI the app's WalletConnect screen
// shows (copy it from the QR screen), approves the session and answers signing requests until Ctrl-C.
// Usage: node tools/stack/bin/walletconnect-wallet.mjs 'wc:…' [--relay ws://localhost:1086] [--key 0x…] [--reject]
//   --relay  the local relay (default ws://localhost:1086, the dev port; SYMBOLON_DEV_PORT_OFFSET is added)
//   --key    the account's private key (default: anvil's dev account 1, a public test key)
//   --reject reject the proposal and every request (4001), to see the app's failure screens
import { parseArgs } from "node:util";
import { startWalletConnectWallet } from "../src/walletConnectWallet.mjs";

/** anvil's dev account 1 (mnemonic "test test … junk"): public, test-only. */
const DEFAULT_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const offset = Number(process.env.SYMBOLON_DEV_PORT_OFFSET ?? 0);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    relay: { type: "string", default: `ws://localhost:${1086 + offset}` },
    key: { type: "string", default: DEFAULT_KEY },
    reject: { type: "boolean", default: false },
  },
});
const [uri] = positionals;
if (!uri?.startsWith("wc:")) {
  console.error(
    "usage: walletconnect-wallet.mjs 'wc:…' [--relay ws://localhost:1086] [--key 0x…] [--reject]",
  );
  process.exit(2);
}

const wallet = await startWalletConnectWallet({
  relayUrl: values.relay,
  privateKey: /** @type {`0x${string}`} */ (values.key),
  reject: values.reject,
});
console.log(`wallet ${wallet.address} on ${values.relay}${values.reject ? " (rejecting everything)" : ""}`);
const session = await wallet.pair(uri);
console.log(
  session
    ? `session approved for ${session.peer.metadata.name} (${session.peer.metadata.url})`
    : "proposal rejected",
);
for (;;) {
  const request = await wallet.nextRequest({ timeoutMs: 24 * 60 * 60 * 1000 });
  const outcome = request.error ? `error ${JSON.stringify(request.error)}` : JSON.stringify(request.answer);
  console.log(`${request.method} ${JSON.stringify(request.params)} → ${outcome}`);
}
