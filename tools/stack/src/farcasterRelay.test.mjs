// The local Farcaster relay's contract: the relay API as the server's adapter speaks it, approval as a test account
// (a SIWF message signed by the custody key), and the ID-registry stand-in read by eth_call on a real anvil.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { recoverMessageAddress } from "viem";
import { parseSiweMessage } from "viem/siwe";
import { rpcClient, startChain } from "./chain.mjs";
import { custodyOf, ID_REGISTRY_ADDRESS, startFarcasterRelay, TEST_ACCOUNTS } from "./farcasterRelay.mjs";

let chain;
let relay;
before(async () => {
  chain = await startChain();
  relay = await startFarcasterRelay({ rpcUrl: chain.rpcUrl });
});
after(async () => {
  await relay?.stop();
  await chain?.stop();
});

const openChannel = (body) =>
  fetch(`${relay.url}/v1/channel`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const status = (token) =>
  fetch(`${relay.url}/v1/channel/status`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

test("the ID registry stand-in answers custodyOf(fid) by eth_call, zero for unknown fids", async () => {
  const rpc = rpcClient(chain.rpcUrl);
  for (const account of relay.accounts) {
    assert.equal(await custodyOf(rpc, account.fid), account.custody);
  }
  assert.equal(await custodyOf(rpc, 999_999), "0x0000000000000000000000000000000000000000");
  assert.equal(relay.registryAddress, ID_REGISTRY_ADDRESS);
  assert.equal(relay.accounts.length, TEST_ACCOUNTS.length);
});

test("a channel is pending (202) until approved, then completed (200) with a custody-signed SIWF message", async () => {
  const expirationTime = new Date(Date.now() + 600_000).toISOString();
  const res = await openChannel({
    siweUri: "http://localhost:5173",
    domain: "localhost:5173",
    nonce: "abcd1234efgh",
    expirationTime,
  });
  assert.equal(res.status, 201);
  const channel = await res.json();
  assert.equal(channel.nonce, "abcd1234efgh");
  const url = new URL(channel.url);
  assert.equal(url.protocol, "farcaster:");
  assert.equal(url.searchParams.get("channelToken"), channel.channelToken);
  assert.equal(url.searchParams.get("domain"), "localhost:5173");

  const pending = await status(channel.channelToken);
  assert.equal(pending.status, 202);
  assert.equal((await pending.json()).state, "pending");

  const alice = relay.accounts[0];
  const approved = await fetch(`${relay.url}/approve`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ channelToken: channel.channelToken, fid: alice.fid }),
  });
  assert.equal(approved.status, 200);

  const done = await status(channel.channelToken);
  assert.equal(done.status, 200);
  const body = await done.json();
  assert.equal(body.state, "completed");
  assert.equal(body.fid, alice.fid);
  assert.equal(body.username, alice.username);
  assert.equal(body.custody, alice.custody);
  const message = parseSiweMessage(body.message);
  assert.equal(message.domain, "localhost:5173");
  assert.equal(message.nonce, "abcd1234efgh");
  assert.equal(message.chainId, 10);
  assert.deepEqual(message.resources, [`farcaster://fid/${alice.fid}`]);
  assert.equal(message.expirationTime?.toISOString(), expirationTime);
  assert.equal(
    await recoverMessageAddress({ message: body.message, signature: body.signature }),
    alice.custody,
  );
});

test("unknown tokens are 401, bad channel requests 400, and the wallet app's authenticate completes a channel", async () => {
  assert.equal((await status()).status, 401);
  assert.equal((await status("nope")).status, 401);
  assert.equal((await openChannel({ domain: "x" })).status, 400);
  assert.equal((await openChannel({ siweUri: "http://x", domain: "x", nonce: "short" })).status, 400);

  const channel = await (await openChannel({ siweUri: "http://x", domain: "x" })).json();
  assert.match(channel.nonce, /^[A-Za-z0-9]{8,}$/);
  const res = await fetch(`${relay.url}/v1/channel/authenticate`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${channel.channelToken}` },
    body: JSON.stringify({ message: "m", signature: "0x00", fid: 7, username: "u" }),
  });
  assert.equal(res.status, 201);
  const done = await (await status(channel.channelToken)).json();
  assert.equal(done.state, "completed");
  assert.equal(done.fid, 7);
});

test("signed key requests: the app fid's custody signature is checked, then approved or revoked on the page", async () => {
  const { signTypedData } = await import("viem/accounts");
  const { SIGNED_KEY_REQUEST_DOMAIN } = await import("./farcasterRelay.mjs");
  const key = `0x${"ab".repeat(32)}`;
  const deadline = Math.floor(Date.now() / 1000) + 3600;
  const sign = (privateKey, requestFid) =>
    signTypedData({
      privateKey,
      domain: SIGNED_KEY_REQUEST_DOMAIN,
      types: {
        SignedKeyRequest: [
          { name: "requestFid", type: "uint256" },
          { name: "key", type: "bytes" },
          { name: "deadline", type: "uint256" },
        ],
      },
      primaryType: "SignedKeyRequest",
      message: { requestFid: BigInt(requestFid), key, deadline: BigInt(deadline) },
    });
  const request = (body) =>
    fetch(`${relay.url}/v2/signed-key-requests`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const app = relay.appAccount;
  // Signed by someone else than custodyOf(requestFid).
  const forged = await request({
    key,
    requestFid: app.fid,
    deadline,
    signature: await sign(relay.accounts[0].privateKey, app.fid),
  });
  assert.equal(forged.status, 400);

  const signature = await sign(app.privateKey, app.fid);
  const created = await (await request({ key, requestFid: app.fid, deadline, signature })).json();
  const { token, deeplinkUrl } = created.result.signedKeyRequest;
  assert.match(deeplinkUrl, /^farcaster:\/\/signed-key-request\?token=/);
  const poll = async () =>
    (await (await fetch(`${relay.url}/v2/signed-key-request?token=${token}`)).json()).result.signedKeyRequest;
  assert.equal((await poll()).state, "pending");
  const approve = await fetch(`${relay.url}/signer/approve`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, fid: 1001 }),
  });
  assert.equal(approve.status, 200);
  const done = await poll();
  assert.equal(done.state, "completed");
  assert.equal(done.userFid, 1001);
  assert.equal(done.key, key);

  const second = await (await request({ key, requestFid: app.fid, deadline, signature })).json();
  const revoke = await fetch(`${relay.url}/signer/revoke`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: second.result.signedKeyRequest.token }),
  });
  assert.equal((await revoke.json()).state, "revoked");
});
