// The local WalletConnect relay's contract: the relay JSON-RPC spoken by hand (auth, subscribe, delivery, acks, the
// mailbox), then the real Sign client on both sides (a dApp here, the Node wallet of walletConnectWallet.mjs) pairing
// through it and a personal_sign round trip, and the wallet directory.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { generateKeyPair, signJWT } from "@walletconnect/relay-auth";
import { SignClient } from "@walletconnect/sign-client";
import { verifyP256Jwt } from "@walletconnect/utils";
import { verifyMessage } from "viem";
import WebSocket from "ws";
import { startWalletConnectRelay, WALLET_DIRECTORY } from "./walletConnectRelay.mjs";
import { startWalletConnectWallet } from "./walletConnectWallet.mjs";

const WALLET_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"; // anvil dev account 1

let relay;
before(async () => {
  relay = await startWalletConnectRelay();
});
after(async () => {
  await relay?.stop();
});

const topic = () => randomBytes(32).toString("hex");

/**
 * A relay client by hand: a did:key JWT like the SDK's, JSON-RPC requests, and the deliveries it received.
 * @param {{ auth?: string | null, ack?: boolean, keyPair?: ReturnType<typeof generateKeyPair> }} [options]
 */
async function rawClient({ auth, ack = true, keyPair = generateKeyPair() } = {}) {
  const jwt =
    auth === undefined
      ? await signJWT(randomBytes(32).toString("hex"), relay.relayUrl, 86400, keyPair)
      : auth;
  const query = new URLSearchParams({ projectId: "test", ua: "wc-2/test", ...(jwt ? { auth: jwt } : {}) });
  const ws = new WebSocket(`${relay.relayUrl}/?${query}`);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once("error", reject);
  });
  const pending = new Map();
  const deliveries = [];
  const waiters = [];
  let id = 1;
  ws.on("message", (data) => {
    const payload = JSON.parse(data.toString());
    if (payload.method === "irn_subscription") {
      deliveries.push(payload.params);
      if (ack) ws.send(JSON.stringify({ id: payload.id, jsonrpc: "2.0", result: true }));
      for (const waiter of waiters.splice(0)) waiter();
      return;
    }
    pending.get(payload.id)?.(payload);
    pending.delete(payload.id);
  });
  const iss = JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString()).iss;
  return {
    clientId: iss,
    keyPair,
    deliveries,
    /** Sends a request; resolves with the whole answer ({result} or {error}). */
    call(method, params) {
      const requestId = id++;
      ws.send(JSON.stringify({ id: requestId, jsonrpc: "2.0", method, params }));
      return new Promise((resolve) => pending.set(requestId, resolve));
    },
    /** Waits until `count` deliveries arrived (or fails after a second). */
    async received(count) {
      const deadline = Date.now() + 1000;
      while (deliveries.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} deliveries, got ${deliveries.length}`);
        await new Promise((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return deliveries;
    },
    close: () => ws.close(),
  };
}

test("a connection needs a valid relay JWT (did:key issuer, good signature, not expired)", async () => {
  await assert.rejects(rawClient({ auth: null }), /HTTP 401/);
  const good = await signJWT("sub", relay.relayUrl, 86400, generateKeyPair());
  const [header, payload, signature] = good.split(".");
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url")), sub: "x" }));
  await assert.rejects(
    rawClient({ auth: `${header}.${forged.toString("base64url")}.${signature}` }),
    /HTTP 401/,
  );
  const expired = await signJWT(
    "sub",
    relay.relayUrl,
    60,
    generateKeyPair(),
    Math.floor(Date.now() / 1000) - 3600,
  );
  await assert.rejects(rawClient({ auth: expired }), /HTTP 401/);
  (await rawClient()).close();
});

test("publish reaches the other subscribers (not the publisher) as irn_subscription, with the subscription id", async () => {
  const [a, b] = [await rawClient(), await rawClient()];
  const t = topic();
  const subA = await a.call("irn_subscribe", { topic: t });
  const subB = await b.call("irn_subscribe", { topic: t });
  // The id the SDK computes itself: sha256(topic + client id).
  assert.equal(
    subB.result,
    createHash("sha256")
      .update(t + b.clientId)
      .digest("hex"),
  );
  assert.notEqual(subA.result, subB.result);

  const published = await a.call("irn_publish", {
    topic: t,
    message: "aGVsbG8=",
    ttl: 300,
    tag: 1108,
    prompt: true,
  });
  assert.deepEqual(published.result, true);
  const [delivery] = await b.received(1);
  assert.equal(delivery.id, subB.result);
  assert.equal(delivery.data.topic, t);
  assert.equal(delivery.data.message, "aGVsbG8=");
  assert.equal(delivery.data.tag, 1108);
  assert.ok(Math.abs(delivery.data.publishedAt - Date.now()) < 5000);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(a.deliveries.length, 0, "no echo to the publisher");
  a.close();
  b.close();
});

test("messages published before a subscription wait in the mailbox; unacknowledged ones come again", async () => {
  const [publisher, late, forgetful] = [
    await rawClient(),
    await rawClient(),
    await rawClient({ ack: false }),
  ];
  const t = topic();
  await publisher.call("irn_publish", { topic: t, message: "Zmlyc3Q=", ttl: 300, tag: 1100 });
  await publisher.call("irn_publish", { topic: t, message: "c2Vjb25k", ttl: 300, tag: 1102 });
  await late.call("irn_subscribe", { topic: t });
  assert.deepEqual(
    (await late.received(2)).map((d) => d.data.message),
    ["Zmlyc3Q=", "c2Vjb25k"],
  );
  // Acknowledged: a second subscribe does not repeat them.
  await late.call("irn_subscribe", { topic: t });
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(late.deliveries.length, 2);

  // Never acknowledged: the same client (same key) gets them again on its next connection.
  await forgetful.call("irn_subscribe", { topic: t });
  await forgetful.received(2);
  forgetful.close();
  const again = await rawClient({ keyPair: forgetful.keyPair });
  await again.call("irn_subscribe", { topic: t });
  assert.deepEqual(
    (await again.received(2)).map((d) => d.data.message),
    ["Zmlyc3Q=", "c2Vjb25k"],
  );
  again.close();
  const fetched = await late.call("irn_batchFetchMessages", { topics: [t] });
  assert.deepEqual(fetched.result, { messages: [], hasMore: false });
  const stats = await (await fetch(`${relay.url}/api/stats`)).json();
  assert.ok(stats.messages >= 2);
  for (const c of [publisher, late]) c.close();
});

test("the session methods: wc_proposeSession and wc_approveSession subscribe their caller and publish", async () => {
  const [dapp, wallet] = [await rawClient(), await rawClient()];
  const [pairingTopic, sessionTopic] = [topic(), topic()];
  assert.equal(
    (await dapp.call("wc_proposeSession", { pairingTopic, sessionProposal: "cHJvcG9zYWw=", ttl: 300 }))
      .result,
    true,
  );
  await wallet.call("irn_subscribe", { topic: pairingTopic });
  const [proposal] = await wallet.received(1);
  assert.equal(proposal.data.tag, 1100);
  assert.equal(
    (
      await wallet.call("wc_approveSession", {
        pairingTopic,
        sessionTopic,
        sessionProposalResponse: "cmVzcG9uc2U=",
        sessionSettlementRequest: "c2V0dGxl",
      })
    ).result,
    true,
  );
  // The dApp was subscribed to the pairing topic by its proposal: the response comes without a subscribe.
  const [response] = await dapp.received(1);
  assert.deepEqual([response.data.topic, response.data.tag], [pairingTopic, 1101]);
  // The settlement waits for the dApp to subscribe to the session topic; the wallet was subscribed by approving.
  await dapp.call("irn_subscribe", { topic: sessionTopic });
  const [, settle] = await dapp.received(2);
  assert.deepEqual(
    [settle.data.topic, settle.data.tag, settle.data.message],
    [sessionTopic, 1102, "c2V0dGxl"],
  );
  await dapp.call("irn_publish", { topic: sessionTopic, message: "YWNr", ttl: 300, tag: 1103 });
  const [settleAck] = await wallet.received(2).then((d) => d.slice(1));
  assert.equal(settleAck.data.tag, 1103);
  dapp.close();
  wallet.close();
});

test("bad requests get JSON-RPC errors, never a dropped socket", async () => {
  const client = await rawClient();
  assert.equal((await client.call("irn_subscribe", { topic: "nothex" })).error.code, -32602);
  assert.equal(
    (await client.call("irn_publish", { topic: topic(), message: "eA==", ttl: 5 })).error.code,
    -32602,
  );
  assert.equal(
    (await client.call("irn_publish", { topic: topic(), message: "", ttl: 300 })).error.code,
    -32602,
  );
  assert.equal((await client.call("irn_nope", {})).error.code, -32601);
  assert.equal((await client.call("irn_subscribe", { topic: topic() })).result.length, 64);
  client.close();
});

test("the real Sign client on both sides pairs through the relay and a personal_sign round-trips", async () => {
  const wallet = await startWalletConnectWallet({ relayUrl: relay.relayUrl, privateKey: WALLET_KEY });
  const dapp = await SignClient.init({
    projectId: "symbolon-test",
    relayUrl: relay.relayUrl,
    customStoragePrefix: "relay-test-dapp",
    telemetryEnabled: false,
    logger: "silent",
    metadata: { name: "Relay test dApp", description: "", url: "http://localhost", icons: [] },
  });
  try {
    const { uri, approval } = await dapp.connect({
      optionalNamespaces: {
        eip155: {
          chains: ["eip155:50312"],
          methods: ["personal_sign", "eth_chainId"],
          events: ["accountsChanged"],
        },
      },
    });
    assert.match(uri, /^wc:[0-9a-f]{64}@2\?/);
    const [walletSession, session] = await Promise.all([wallet.pair(uri), approval()]);
    assert.equal(walletSession.topic, session.topic);
    assert.deepEqual(session.namespaces.eip155.accounts, [`eip155:50312:${wallet.address}`]);

    const request = (method, params) =>
      dapp.request({ topic: session.topic, chainId: "eip155:50312", request: { method, params } });
    const signature = await request("personal_sign", ["0x68656c6c6f", wallet.address]);
    assert.equal(await verifyMessage({ address: wallet.address, message: "hello", signature }), true);
    assert.equal(await request("eth_chainId", []), "0xc488");

    wallet.reject = true;
    await assert.rejects(
      request("personal_sign", ["0x68656c6c6f", wallet.address]),
      (error) => error.code === 4001,
    );
  } finally {
    await dapp.core.relayer.transportClose().catch(() => {});
    dapp.core.heartbeat.stop();
    await wallet.stop();
  }
});

test("the wallet directory: /v3/wallets needs a projectId, lists in its own order with rainbow and metamask, pages", async () => {
  assert.equal((await fetch(`${relay.url}/v3/wallets`)).status, 400);
  const res = await fetch(`${relay.url}/v3/wallets?projectId=test`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  const body = await res.json();
  const listings = Object.values(body.listings);
  assert.equal(body.total, WALLET_DIRECTORY.length);
  assert.deepEqual(
    listings.map((l) => l.slug),
    WALLET_DIRECTORY.map((w) => w.slug),
  );
  const slugs = listings.map((l) => l.slug);
  assert.ok(slugs.includes("rainbow") && slugs.includes("metamask"));
  // Not first: putting them first is the client's job (spec §7), so a client test can see it do so.
  assert.notDeepEqual(slugs.slice(0, 2).sort(), ["metamask", "rainbow"]);
  const metamask = listings.find((l) => l.slug === "metamask");
  assert.equal(metamask.id, "c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96");
  assert.equal(metamask.rdns, "io.metamask");
  assert.equal(metamask.mobile.native, "metamask:");
  const logo = await fetch(metamask.image_url.md);
  assert.equal(logo.headers.get("content-type"), "image/svg+xml");
  assert.match(await logo.text(), /^<svg /);

  const page2 = await (await fetch(`${relay.url}/v3/wallets?projectId=test&entries=2&page=2`)).json();
  assert.deepEqual(
    Object.values(page2.listings).map((l) => l.slug),
    WALLET_DIRECTORY.slice(2, 4).map((w) => w.slug),
  );
  assert.equal(page2.count, 2);
});

test("services.mjs --walletconnect prints the relay and directory URLs and stops them when stdin closes", async () => {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "../bin/services.mjs");
  const services = spawn(process.execPath, [script, "--walletconnect"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => services.once("exit", resolve));
  try {
    const line = await Promise.race([
      new Promise((resolve) => createInterface({ input: services.stdout }).once("line", resolve)),
      exited.then((code) => assert.fail(`services.mjs exited (${code}) before printing`)),
    ]);
    const { walletConnectRelayUrl, walletExplorerUrl } = JSON.parse(line);
    assert.match(walletConnectRelayUrl, /^ws:\/\/localhost:\d+$/);
    assert.equal((await fetch(`${walletExplorerUrl}/v3/wallets?projectId=x`)).status, 200);
    services.stdin.end();
    assert.equal(await exited, 0);
    await assert.rejects(fetch(`${walletExplorerUrl}/v3/wallets?projectId=x`), "gone with services.mjs");
  } finally {
    services.kill();
  }
});

test("Verify: the attestation page posts a JWT for the message id, signed with the key /v3/public-key gives", async () => {
  const id = randomBytes(32).toString("hex");
  const page = await fetch(
    `${relay.url}/v3/attestation?projectId=x&origin=http://localhost:5173&id=${id}&decryptedId=y`,
  );
  assert.match(page.headers.get("content-type"), /^text\/html/);
  const html = await page.text();
  const posted = JSON.parse(JSON.parse(/postMessage\((".*"), "\*"\)/.exec(html)[1]));
  assert.equal(posted.type, "verify_attestation");
  const { publicKey, expiresAt } = await (await fetch(`${relay.url}/v3/public-key`)).json();
  assert.ok(expiresAt * 1000 > Date.now());
  // The SDK's own check (what a wallet does with the attestation).
  const claims = verifyP256Jwt(posted.attestation, publicKey);
  assert.equal(claims.id, id);
  assert.equal(claims.origin, "http://localhost:5173");
  assert.equal(claims.isVerified, true);
  assert.equal(claims.isScam, false);
  const foreign = await fetch(`${relay.url}/v3/attestation?origin=https://evil.example&id=${id}`);
  const foreignClaims = verifyP256Jwt(
    JSON.parse(JSON.parse(/postMessage\((".*"), "\*"\)/.exec(await foreign.text())[1])).attestation,
    publicKey,
  );
  assert.equal(foreignClaims.isVerified, false);
  assert.equal((await fetch(`${relay.url}/v3/attestation?id=nothex`)).status, 400);
});
