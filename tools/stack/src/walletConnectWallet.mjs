// A WalletConnect "mobile wallet" that runs in Node, for tests: the real `@walletconnect/sign-client` on the wallet
// side with a viem local account. `pair(uri)` does what scanning the QR code does; the wallet then approves the
// session proposal for its chain (eip155:50312 by default) and answers requests:
//   personal_sign [message, address] → the EIP-191 signature (message as hex bytes, or text)
//   eth_signTypedData_v4 [address, typedData JSON] → the EIP-712 signature
//   eth_chainId → the chain id as hex; eth_accounts / eth_requestAccounts → [address]
//   anything else → error 4200 (unsupported method)
// With `reject` set (option or `wallet.reject = true`), proposals are rejected (USER_REJECTED) and requests answered
// with 4001 "User rejected the request." — the EIP-1193 user rejection.
// Nothing leaves the machine: the relay is whatever `relayUrl` says (the stand-in of walletConnectRelay.mjs), storage
// is in memory, telemetry is off. Verify: without `verifyUrl` the SDK's lookups (verify.walletconnect.org) fail fast
// offline and a proposal's verification stays "UNKNOWN". A dApp whose Verify iframe was routed to the stand-in sends
// attestation JWTs, and the SDK then needs the Verify public key — offline it waits for it forever (its
// fetchAndPersistPublicKey never settles when the fetch fails) — so pass `verifyUrl` (the relay stand-in's HTTP URL) in
// that case: the wallet then trusts the stand-in's key, as a real wallet trusts Verify's, and checks attestations.
import { randomUUID } from "node:crypto";
import { SignClient } from "@walletconnect/sign-client";
import { buildApprovedNamespaces, getSdkError } from "@walletconnect/utils";
import { isHex, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** What the wallet offers in a session (`personal_sign` is what SIWE needs). */
export const WALLET_METHODS = Object.freeze([
  "personal_sign",
  "eth_signTypedData_v4",
  "eth_chainId",
  "eth_accounts",
  "eth_requestAccounts",
]);
export const WALLET_EVENTS = Object.freeze(["accountsChanged", "chainChanged"]);

/** EIP-1193 errors the wallet answers with. */
const USER_REJECTED = { code: 4001, message: "User rejected the request." };
const UNSUPPORTED = (method) => ({ code: 4200, message: `The wallet does not support ${method}.` });

/**
 * Starts the wallet and connects it to the relay.
 * @param {{ relayUrl: string, privateKey: `0x${string}`, chainId?: number, projectId?: string, reject?: boolean,
 *   name?: string, verifyUrl?: string }} options
 */
export async function startWalletConnectWallet({
  relayUrl,
  privateKey,
  chainId = 50312,
  projectId = "symbolon-local",
  reject = false,
  name = "Symbolon Node Wallet",
  verifyUrl,
}) {
  const account = privateKeyToAccount(privateKey);
  const chain = `eip155:${chainId}`;
  const client = await SignClient.init({
    projectId,
    relayUrl,
    // A prefix of its own: the SDK shares one core per prefix in a process, and a dApp may run in the same one.
    customStoragePrefix: `symbolon-node-wallet-${randomUUID()}`,
    storageOptions: { database: ":memory:" },
    telemetryEnabled: false,
    logger: process.env.WALLETCONNECT_LOG ?? "silent",
    metadata: {
      name,
      description: "A WalletConnect wallet for tests (tools/stack)",
      url: "https://symbolon.localhost",
      icons: [],
    },
  });

  if (verifyUrl) {
    // What the SDK would fetch from Verify itself, stored where it looks (`verify.storeKey`), then re-read.
    const key = await (await fetch(`${verifyUrl}/v3/public-key`)).json();
    await client.core.storage.setItem(client.core.verify.storeKey, key);
    await client.core.verify.init();
  }

  /** @type {{ method: string, params: unknown, topic: string, answer: unknown, error?: unknown }[]} */
  const requests = [];
  /** @type {Set<(event: any) => void>} */
  const proposalWaiters = new Set();
  /** @type {Set<(event: any) => void>} */
  const requestWaiters = new Set();

  const wallet = {
    address: account.address,
    chainId,
    /** While true, proposals are rejected and requests answered with 4001. */
    reject,
    /** Every request answered, oldest first. */
    requests,
    /** The Verify result of each proposal, oldest first: "VALID", "INVALID" or "UNKNOWN". */
    verifications: /** @type {string[]} */ ([]),
    client,
    /**
     * Pairs with a `wc:` URI (what scanning the QR code does) and resolves with the session once the proposal that
     * comes over the pairing was answered (approved, or rejected → `null`).
     * @param {string} uri
     * @param {{ timeoutMs?: number }} [options]
     */
    async pair(uri, { timeoutMs = 15_000 } = {}) {
      const settled = new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          proposalWaiters.delete(waiter);
          reject(new Error(`no session proposal within ${timeoutMs} ms of pairing`));
        }, timeoutMs);
        const waiter = (outcome) => {
          clearTimeout(timer);
          proposalWaiters.delete(waiter);
          if (outcome instanceof Error) reject(outcome);
          else resolve(outcome);
        };
        proposalWaiters.add(waiter);
      });
      await client.core.pairing.pair({ uri });
      return settled;
    },
    /**
     * Resolves with the next request the wallet answers (after it answered).
     * @param {{ timeoutMs?: number }} [options]
     */
    nextRequest({ timeoutMs = 15_000 } = {}) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          requestWaiters.delete(waiter);
          reject(new Error(`no WalletConnect request within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = (entry) => {
          clearTimeout(timer);
          requestWaiters.delete(waiter);
          resolve(entry);
        };
        requestWaiters.add(waiter);
      });
    },
    /** The wallet's active sessions. */
    sessions: () => client.session.getAll(),
    /** Ends every session (the dApp sees `session_delete`). */
    async disconnectAll() {
      for (const session of client.session.getAll()) {
        await client.disconnect({ topic: session.topic, reason: getSdkError("USER_DISCONNECTED") });
      }
    },
    /** Closes the relay connection. */
    async stop() {
      await client.core.relayer.transportClose().catch(() => {});
      client.core.heartbeat?.stop?.();
    },
  };

  client.on("session_proposal", async ({ id, params, verifyContext }) => {
    wallet.verifications.push(verifyContext?.verified?.validation ?? "UNKNOWN");
    const notify = (outcome) => {
      for (const waiter of [...proposalWaiters]) waiter(outcome);
    };
    try {
      if (wallet.reject) {
        await client.reject({ id, reason: getSdkError("USER_REJECTED") });
        return notify(null);
      }
      const namespaces = buildApprovedNamespaces({
        proposal: params,
        supportedNamespaces: {
          eip155: {
            chains: [chain],
            methods: [...WALLET_METHODS],
            events: [...WALLET_EVENTS],
            accounts: [`${chain}:${account.address}`],
          },
        },
      });
      const { acknowledged } = await client.approve({ id, namespaces });
      notify(await acknowledged());
    } catch (error) {
      notify(error instanceof Error ? error : new Error(String(error)));
    }
  });

  client.on("session_request", async ({ topic, id, params }) => {
    const { method, params: args } = params.request;
    const entry = { method, params: args, topic, answer: undefined, error: undefined };
    try {
      if (wallet.reject) {
        entry.error = USER_REJECTED;
      } else {
        entry.answer = await answer(method, args);
      }
    } catch (error) {
      entry.error =
        error && typeof error === "object" && "code" in error
          ? error
          : { code: -32603, message: String(error) };
    }
    const response =
      entry.error !== undefined
        ? { id, jsonrpc: "2.0", error: entry.error }
        : { id, jsonrpc: "2.0", result: entry.answer };
    // Logged before the answer leaves: the dApp may act on the answer before `respond` resolves here.
    requests.push(entry);
    await client.respond({ topic, response });
    for (const waiter of [...requestWaiters]) waiter(entry);
  });

  /** The wallet's answer to one request. */
  async function answer(method, args) {
    switch (method) {
      case "personal_sign": {
        const [message] = /** @type {[string, string]} */ (args);
        return account.signMessage({ message: isHex(message) ? { raw: message } : message });
      }
      case "eth_signTypedData_v4": {
        const [, typed] = /** @type {[string, string | object]} */ (args);
        const data = typeof typed === "string" ? JSON.parse(typed) : typed;
        const { EIP712Domain: _domain, ...types } = data.types;
        return account.signTypedData({
          domain: data.domain,
          types,
          primaryType: data.primaryType,
          message: data.message,
        });
      }
      case "eth_chainId":
        return toHex(chainId);
      case "eth_accounts":
      case "eth_requestAccounts":
        return [account.address];
      default:
        throw UNSUPPORTED(method);
    }
  }

  return wallet;
}
