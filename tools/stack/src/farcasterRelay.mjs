// A local Farcaster Auth relay (FIP-11 "Sign In With Farcaster"), speaking the public relay's HTTP API
// (https://relay.farcaster.xyz; documented with `@farcaster/auth-client`):
//   POST /v1/channel {siweUri, domain, nonce?, notBefore?, expirationTime?, requestId?}
//        → 201 {channelToken, url, nonce}
//   GET  /v1/channel/status (Authorization: Bearer <channelToken>) → 202 pending / 200 completed
//        {state, nonce, url, message, signature, authMethod, fid, username, displayName, bio, pfpUrl, custody, …}
//   POST /v1/channel/authenticate (Bearer <channelToken>) {message, signature, fid, username?, …}: the wallet app
// Instead of a Farcaster app, a page at `/` lists the open channels and approves one as a test account: the relay
// holds the test accounts' custody keys (below; public test keys, never use them elsewhere), builds the Sign In With
// Farcaster message (EIP-4361, chain id 10, resource `farcaster://fid/<fid>`) and signs it with the custody key.
// Tests approve with `POST /approve {channelToken, fid}` and read `GET /api/channels`.
//
// It also plays the Farcaster client's signer API (documented as Warpcast's): `POST /v2/signed-key-requests
// {key, requestFid, signature, deadline}` (the EIP-712 SignedKeyRequest must be signed by custodyOf(requestFid)) →
// `{result: {signedKeyRequest: {token, deeplinkUrl}}}`, and `GET /v2/signed-key-request?token=…` → its `state`
// (pending → completed with `userFid`, or revoked). The page approves or rejects them (`POST /signer/approve
// {token, fid}`, `POST /signer/revoke {token}`). The app account below (fid 1000) is the requester in dev and tests.
//
// The accounts are registered in an ID-registry stand-in on the local chain: at the address of Farcaster's real
// IdRegistry (so only the RPC URL differs from production), a 12-byte contract whose every call returns
// storage[first argument] — i.e. `custodyOf(uint256 fid) returns (address)` — with one storage slot per fid.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { decodeFunctionResult, encodeFunctionData, pad, recoverTypedDataAddress, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { rpcClient } from "./chain.mjs";
import { readBody } from "./readBody.mjs";

/** Farcaster's IdRegistry on Optimism; the stand-in sits at the same address on the local chain. */
export const ID_REGISTRY_ADDRESS = "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b";
/**
 * Runtime code of the stand-in, by hand:
 *   60 04  PUSH1 4        35 CALLDATALOAD   → the word after the 4-byte selector (the fid)
 *   54     SLOAD          → storage[fid] (the custody address, left-padded)
 *   60 00  PUSH1 0        52 MSTORE          → memory[0..32]
 *   60 20  PUSH1 32       60 00  PUSH1 0      f3 RETURN(0, 32)
 * It ignores the selector: only `custodyOf(uint256)` is ever called on it.
 */
export const ID_REGISTRY_CODE = "0x6004355460005260206000f3";
/** The one function of the registry the server reads. */
export const ID_REGISTRY_ABI = [
  {
    type: "function",
    name: "custodyOf",
    stateMutability: "view",
    inputs: [{ name: "fid", type: "uint256" }],
    outputs: [{ name: "owner", type: "address" }],
  },
];

/**
 * Test Farcaster accounts. Custody keys are anvil's public dev accounts 7–9 (mnemonic "test test … junk"):
 * test-only, known to everyone.
 */
export const TEST_ACCOUNTS = Object.freeze([
  {
    fid: 1001,
    username: "alice",
    displayName: "Alice Test",
    bio: "Test account of the local Farcaster relay",
    privateKey: "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
  },
  {
    fid: 1002,
    username: "bob",
    displayName: "Bob Test",
    bio: "Test account of the local Farcaster relay",
    privateKey: "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
  },
  {
    fid: 1003,
    username: "carol",
    displayName: "Carol Test",
    bio: "Test account of the local Farcaster relay",
    privateKey: "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
  },
]);

/**
 * The Farcaster account of the app itself, which requests signers (its custody key signs SignedKeyRequests):
 * anvil's dev account 6 — a public test key.
 */
export const APP_ACCOUNT = Object.freeze({
  fid: 1000,
  username: "symbolon-app",
  displayName: "Symbolon (local)",
  bio: "The app account that requests signers",
  privateKey: "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
});

/** The EIP-712 domain and type of a SignedKeyRequest (Farcaster's SignedKeyRequestValidator on Optimism). */
export const SIGNED_KEY_REQUEST_DOMAIN = Object.freeze({
  name: "Farcaster SignedKeyRequestValidator",
  version: "1",
  chainId: 10,
  verifyingContract: "0x00000000FC700472606ED4fA22623Acf62c60553",
});
const SIGNED_KEY_REQUEST_TYPES = {
  SignedKeyRequest: [
    { name: "requestFid", type: "uint256" },
    { name: "key", type: "bytes" },
    { name: "deadline", type: "uint256" },
  ],
};

/** Channels live this long (the client gives up after 300 s). */
const CHANNEL_TTL_MS = 60 * 60 * 1000;
const MAX_BODY = 64 * 1024;
const NONCE = /^[A-Za-z0-9]{8,}$/;

/**
 * Places the ID-registry stand-in on the chain at `rpcUrl`, registers `accounts`, and checks each with an
 * `eth_call` of `custodyOf(fid)`.
 * @param {string} rpcUrl
 * @param {{ fid: number, privateKey: string }[]} accounts
 */
export async function registerAccounts(rpcUrl, accounts) {
  const rpc = rpcClient(rpcUrl);
  await rpc("anvil_setCode", [ID_REGISTRY_ADDRESS, ID_REGISTRY_CODE]);
  for (const account of accounts) {
    const custody = privateKeyToAccount(/** @type {`0x${string}`} */ (account.privateKey)).address;
    await rpc("anvil_setStorageAt", [ID_REGISTRY_ADDRESS, pad(toHex(account.fid)), pad(custody)]);
    const got = await custodyOf(rpc, account.fid);
    if (got.toLowerCase() !== custody.toLowerCase()) {
      throw new Error(`ID registry stand-in: custodyOf(${account.fid}) gave ${got}, expected ${custody}`);
    }
  }
}

/**
 * `custodyOf(fid)` by `eth_call`, as the server reads it.
 * @param {(method: string, params?: unknown[]) => Promise<any>} rpc
 * @param {number} fid
 * @returns {Promise<string>}
 */
export async function custodyOf(rpc, fid) {
  const data = encodeFunctionData({ abi: ID_REGISTRY_ABI, functionName: "custodyOf", args: [BigInt(fid)] });
  const result = await rpc("eth_call", [{ to: ID_REGISTRY_ADDRESS, data }, "latest"]);
  return /** @type {string} */ (
    decodeFunctionResult({ abi: ID_REGISTRY_ABI, functionName: "custodyOf", data: result })
  );
}

/**
 * Starts the relay; with `rpcUrl`, first registers the test accounts on that chain.
 * @param {{ port?: number, host?: string, quiet?: boolean, rpcUrl?: string }} [options]
 * @returns {Promise<{ port: number, url: string, registryAddress: string,
 *   accounts: { fid: number, username: string, displayName: string, bio: string, custody: string, privateKey: string }[],
 *   stop: () => Promise<void> }>}
 */
export async function startFarcasterRelay({ port = 0, host = "127.0.0.1", quiet = true, rpcUrl } = {}) {
  const accounts = TEST_ACCOUNTS.map((a) => ({
    ...a,
    custody: privateKeyToAccount(/** @type {`0x${string}`} */ (a.privateKey)).address,
  }));
  const appAccount = {
    ...APP_ACCOUNT,
    custody: privateKeyToAccount(/** @type {`0x${string}`} */ (APP_ACCOUNT.privateKey)).address,
  };
  if (rpcUrl) await registerAccounts(rpcUrl, [...accounts, appAccount]);
  /** The requester's custody address, from the chain when there is one. */
  const custodyAddress = async (fid) =>
    rpcUrl
      ? await custodyOf(rpcClient(rpcUrl), fid)
      : [...accounts, appAccount].find((a) => a.fid === fid)?.custody;
  /** @type {Map<string, any>} signed key request token → request */
  const keyRequests = new Map();
  /** @type {Map<string, any>} channel token → channel */
  const channels = new Map();
  const live = (token) => {
    const channel = channels.get(token);
    if (channel && channel.expiresAt < Date.now()) channels.delete(token);
    return channels.get(token);
  };
  const say = quiet ? () => {} : (m) => console.log(`[farcaster-relay] ${m}`);

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://relay");
    const send = (status, body, type = "application/json") => {
      res.writeHead(status, {
        "content-type": type,
        "cache-control": "no-store",
        "access-control-allow-origin": "*",
      });
      res.end(type === "application/json" ? JSON.stringify(body) : body);
    };
    const fail = (status, message) => send(status, { error: message });
    let body = {};
    if (req.method === "POST") {
      try {
        const text = await readBody(req, MAX_BODY);
        body = (req.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded")
          ? Object.fromEntries(new URLSearchParams(text))
          : text
            ? JSON.parse(text)
            : {};
      } catch {
        return fail(400, "Invalid body");
      }
    }
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];

    if (url.pathname === "/v1/channel" && req.method === "POST") {
      const { siweUri, domain, notBefore, expirationTime, requestId } = body;
      if (typeof siweUri !== "string" || !URL.canParse(siweUri)) return fail(400, "siweUri must be a URL");
      if (typeof domain !== "string" || !domain) return fail(400, "domain is required");
      if (body.nonce !== undefined && !(typeof body.nonce === "string" && NONCE.test(body.nonce)))
        return fail(400, "nonce must be at least 8 alphanumeric characters");
      const nonce = body.nonce ?? randomUUID().replaceAll("-", "");
      const channelToken = randomUUID();
      const params = new URLSearchParams({ channelToken, nonce, siweUri, domain });
      for (const [k, v] of Object.entries({ notBefore, expirationTime, requestId }))
        if (v) params.set(k, String(v));
      const channel = {
        channelToken,
        nonce,
        url: `farcaster://connect?${params}`,
        signatureParams: { siweUri, domain, nonce, notBefore, expirationTime, requestId },
        state: "pending",
        createdAt: new Date().toISOString(),
        expiresAt: Date.now() + CHANNEL_TTL_MS,
      };
      channels.set(channelToken, channel);
      say(`channel opened for ${domain}: approve at ${urlOf(server, host)}/`);
      return send(201, { channelToken, url: channel.url, nonce });
    }
    if (url.pathname === "/v1/channel/status" && req.method === "GET") {
      const channel = bearer && live(bearer);
      if (!channel) return fail(401, "Unknown channel token");
      return send(channel.state === "completed" ? 200 : 202, statusBody(channel));
    }
    if (url.pathname === "/v1/channel/authenticate" && req.method === "POST") {
      const channel = bearer && live(bearer);
      if (!channel) return fail(401, "Unknown channel token");
      const { message, signature, fid, username, displayName, bio, pfpUrl } = body;
      if (typeof message !== "string" || typeof signature !== "string" || !Number.isInteger(fid))
        return fail(400, "message, signature and fid are required");
      Object.assign(channel, {
        state: "completed",
        message,
        signature,
        fid,
        username,
        displayName,
        bio,
        pfpUrl,
      });
      return send(201, statusBody(channel));
    }
    if (url.pathname === "/approve" && req.method === "POST") {
      const channel = live(String(body.channelToken ?? ""));
      if (!channel) return fail(404, "Unknown channel token");
      const account = accounts.find((a) => a.fid === Number(body.fid));
      if (!account) return fail(404, "Unknown test account");
      await complete(channel, account);
      say(`channel approved as fid ${account.fid} (${account.username})`);
      if ((req.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded")) {
        res.writeHead(303, { location: "/" });
        return res.end();
      }
      return send(200, statusBody(channel));
    }
    if (url.pathname === "/api/channels" && req.method === "GET") {
      return send(
        200,
        [...channels.values()]
          .filter((c) => live(c.channelToken))
          .map((c) => ({ ...statusBody(c), channelToken: c.channelToken })),
      );
    }
    if (url.pathname === "/v2/signed-key-requests" && req.method === "POST") {
      const { key, requestFid, signature, deadline } = body;
      const refuse = (message) => send(400, { errors: [{ message }] });
      if (typeof key !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(key))
        return refuse("key must be 32 bytes of hex");
      if (!Number.isInteger(requestFid) || !Number.isInteger(deadline))
        return refuse("requestFid and deadline");
      if (deadline * 1000 < Date.now()) return refuse("deadline has passed");
      let signer;
      try {
        signer = await recoverTypedDataAddress({
          domain: SIGNED_KEY_REQUEST_DOMAIN,
          types: SIGNED_KEY_REQUEST_TYPES,
          primaryType: "SignedKeyRequest",
          message: { requestFid: BigInt(requestFid), key, deadline: BigInt(deadline) },
          signature,
        });
      } catch {
        return refuse("invalid signature");
      }
      const custody = await custodyAddress(requestFid);
      if (!custody || custody.toLowerCase() !== signer.toLowerCase())
        return refuse("signature is not by the custody address of requestFid");
      const token = `0x${randomUUID().replaceAll("-", "")}`;
      const request = {
        token,
        deeplinkUrl: `farcaster://signed-key-request?token=${token}`,
        key: key.toLowerCase(),
        requestFid,
        state: "pending",
        createdAt: new Date().toISOString(),
      };
      keyRequests.set(token, request);
      say(`signer requested by fid ${requestFid}: approve at ${urlOf(server, host)}/`);
      return send(200, { result: { signedKeyRequest: { token, deeplinkUrl: request.deeplinkUrl } } });
    }
    if (url.pathname === "/v2/signed-key-request" && req.method === "GET") {
      const request = keyRequests.get(url.searchParams.get("token") ?? "");
      if (!request) return send(404, { errors: [{ message: "Not found" }] });
      const { createdAt: _, ...signedKeyRequest } = request;
      return send(200, { result: { signedKeyRequest } });
    }
    if ((url.pathname === "/signer/approve" || url.pathname === "/signer/revoke") && req.method === "POST") {
      const request = keyRequests.get(String(body.token ?? ""));
      if (!request) return fail(404, "Unknown signed key request");
      if (url.pathname === "/signer/revoke") Object.assign(request, { state: "revoked" });
      else {
        const account = accounts.find((a) => a.fid === Number(body.fid));
        if (!account) return fail(404, "Unknown test account");
        Object.assign(request, { state: "completed", userFid: account.fid });
      }
      if ((req.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded")) {
        res.writeHead(303, { location: "/" });
        return res.end();
      }
      return send(200, request);
    }
    if (url.pathname === "/api/signer-requests" && req.method === "GET")
      return send(200, [...keyRequests.values()]);
    if (url.pathname === "/api/accounts" && req.method === "GET") return send(200, accounts);
    if (url.pathname === "/" && req.method === "GET")
      return send(
        200,
        approvePage(
          [...channels.values()].filter((c) => live(c.channelToken)),
          accounts,
          [...keyRequests.values()],
        ),
        "text/html; charset=utf-8",
      );
    return fail(404, "Not found");
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const bound = /** @type {import("node:net").AddressInfo} */ (server.address()).port;
  return {
    port: bound,
    url: urlOf(server, host),
    registryAddress: ID_REGISTRY_ADDRESS,
    accounts,
    appAccount,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/**
 * What the Farcaster app does on approval: the SIWF message for the channel, signed by the custody key.
 * @param {any} channel
 * @param {{ fid: number, username: string, displayName: string, bio: string, privateKey: string }} account
 */
async function complete(channel, account) {
  const signer = privateKeyToAccount(/** @type {`0x${string}`} */ (account.privateKey));
  const p = channel.signatureParams;
  const message = createSiweMessage({
    domain: p.domain,
    address: signer.address,
    statement: "Farcaster Auth",
    uri: p.siweUri,
    version: "1",
    chainId: 10,
    nonce: p.nonce,
    issuedAt: new Date(),
    ...(p.expirationTime ? { expirationTime: new Date(p.expirationTime) } : {}),
    ...(p.notBefore ? { notBefore: new Date(p.notBefore) } : {}),
    ...(p.requestId ? { requestId: p.requestId } : {}),
    resources: [`farcaster://fid/${account.fid}`],
  });
  const signature = await signer.signMessage({ message });
  Object.assign(channel, {
    state: "completed",
    message,
    signature,
    fid: account.fid,
    username: account.username,
    displayName: account.displayName,
    bio: account.bio,
    pfpUrl: `https://example.invalid/pfp/${account.fid}.png`,
    custody: signer.address,
  });
}

/** The relay's status body. */
function statusBody(c) {
  const base = {
    state: c.state,
    nonce: c.nonce,
    url: c.url,
    metadata: { ip: "127.0.0.1", userAgent: "local" },
  };
  if (c.state !== "completed") return base;
  return {
    ...base,
    message: c.message,
    signature: c.signature,
    authMethod: "custody",
    fid: c.fid,
    username: c.username,
    displayName: c.displayName,
    bio: c.bio,
    pfpUrl: c.pfpUrl,
    custody: c.custody,
    signatureParams: c.signatureParams,
  };
}

function urlOf(server, host) {
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return `http://${host === "127.0.0.1" ? "localhost" : host}:${port}`;
}

const html = (s) =>
  String(s ?? "").replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch],
  );

/** The page a developer approves sign-ins on (plays the Farcaster app). */
function approvePage(channels, accounts, keyRequests) {
  const signerRows = keyRequests
    .slice()
    .reverse()
    .map((r) => {
      const buttons =
        r.state === "pending"
          ? `${accounts
              .map(
                (a) => `<form method="post" action="/signer/approve" style="display:inline">
  <input type="hidden" name="token" value="${html(r.token)}"><input type="hidden" name="fid" value="${a.fid}">
  <button type="submit">Approve as @${html(a.username)}</button></form>`,
              )
              .join(" ")} <form method="post" action="/signer/revoke" style="display:inline">
  <input type="hidden" name="token" value="${html(r.token)}"><button type="submit">Reject</button></form>`
          : `<p>${html(r.state)}${r.userFid ? ` for fid ${html(r.userFid)}` : ""}</p>`;
      return `<li><p>Signer key <code>${html(r.key)}</code> requested by fid ${html(r.requestFid)}
  <br><small>${html(r.createdAt)}</small></p>${buttons}</li>`;
    })
    .join("\n");
  const rows = channels
    .slice()
    .reverse()
    .map((c) => {
      const buttons =
        c.state === "completed"
          ? `<p>Approved as fid ${html(c.fid)} (@${html(c.username)})</p>`
          : accounts
              .map(
                (a) => `<form method="post" action="/approve" style="display:inline">
  <input type="hidden" name="channelToken" value="${html(c.channelToken)}">
  <input type="hidden" name="fid" value="${a.fid}">
  <button type="submit">Approve as @${html(a.username)} (fid ${a.fid})</button></form>`,
              )
              .join(" ");
      return `<li><p><b>${html(c.signatureParams.domain)}</b> — ${html(c.signatureParams.siweUri)}
  <br><small>nonce ${html(c.nonce)} · opened ${html(c.createdAt)}</small></p>${buttons}</li>`;
    })
    .join("\n");
  return `<!doctype html><html><head><meta charset="utf-8"><title>Local Farcaster relay</title>
<meta http-equiv="refresh" content="3"></head><body style="font-family:system-ui;max-width:48rem;margin:2rem auto">
<h1>Local Farcaster relay</h1>
<p>Sign-in requests ("Sign in with Farcaster") appear here. Approving one signs the Sign In With Farcaster message
with the test account's custody key, as the Farcaster app would.</p>
<ul>${rows || "<li>No sign-in requests yet.</li>"}</ul>
<h2>Signer requests</h2>
<ul>${signerRows || "<li>No signer requests yet.</li>"}</ul>
<h2>Test accounts</h2><ul>${accounts
    .map((a) => `<li>fid ${a.fid} @${html(a.username)} — custody ${html(a.custody)}</li>`)
    .join("")}</ul></body></html>`;
}

/**
 * What a test does in the Farcaster app: approves the newest pending channel of the relay at `relayUrl` as the test
 * account `fid`, waiting up to `timeoutMs` for a channel to appear. Returns the completed channel.
 * @param {string} relayUrl
 * @param {number} fid
 * @param {{ timeoutMs?: number }} [options]
 */
export async function approveLatestChannel(relayUrl, fid, { timeoutMs = 5_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const channels = await (await fetch(`${relayUrl}/api/channels`)).json();
    const pending = channels.filter((c) => c.state === "pending").at(-1);
    if (pending) {
      const res = await fetch(`${relayUrl}/approve`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ channelToken: pending.channelToken, fid }),
      });
      if (!res.ok) throw new Error(`approve failed: ${res.status} ${await res.text()}`);
      return res.json();
    }
    if (Date.now() > deadline)
      throw new Error(`no pending Farcaster channel on ${relayUrl} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
