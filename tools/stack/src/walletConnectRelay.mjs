// A local WalletConnect v2 relay and wallet directory, on one port.
//
// Relay (WebSocket, `ws://localhost:{port}`): the public relay's JSON-RPC as `@walletconnect/core` speaks it
// (`@walletconnect/relay-api` names the methods; the Sign client's engine uses the two session methods):
//   irn_subscribe {topic} → subscription id          irn_batchSubscribe {topics} → [ids]
//   irn_unsubscribe {topic, id} → true                irn_batchUnsubscribe {subscriptions: [{topic, id}]} → true
//   irn_publish {topic, message, ttl, tag?, prompt?, attestation?} → true
//   irn_batchPublish {messages: [publish params]} → true
//   irn_batchFetchMessages {topics} → {messages: [{topic, message, publishedAt, attestation?}], hasMore: false}
//   wc_proposeSession {pairingTopic, sessionProposal, attestation?} → true: subscribes the proposer to the pairing
//     topic and publishes the proposal there (tag 1100, 5 minutes)
//   wc_approveSession {pairingTopic, sessionTopic, sessionProposalResponse, sessionSettlementRequest} → true:
//     subscribes the approver to the session topic, publishes the response on the pairing topic (tag 1101) and the
//     settlement on the session topic (tag 1102)
// (The clients skip their own irn_subscribe for those two topics: the relay subscribes them.)
// Delivery is `irn_subscription {id: subscription id, data: {topic, message, publishedAt, tag, attestation?}}` to every
// other client subscribed to the topic (never back to the publisher); the client acknowledges with `result: true`.
// Messages are kept for their TTL, so a topic subscribed after the publish still gets them (the pairing flow relies
// on it: the settlement is published before the dApp knows the session topic); a client gets each message once it
// acknowledged it, and again after a reconnect if it did not.
// Connecting needs the `auth` query parameter: the client's relay JWT (EdDSA, `iss` = the client's did:key), checked
// with `@walletconnect/relay-auth` and not expired; `projectId` is accepted as given (no project registry here).
// JSON-RPC ids are read and written with `@walletconnect/safe-json`, as the clients do: their ids exceed 2^53.
// The relay pings every 15 s (Node clients drop a connection that is quiet for 35 s).
//
// Wallet directory (HTTP, same port): the explorer API's `GET /v3/wallets?projectId=…[&entries=N&page=P]` →
// `{listings: {id: listing}, count, total}` (listings in the directory's own order — rainbow and metamask are not
// first: ordering them first is the client's job, spec §7), `GET /v3/logo/{sm|md|lg}/{image_id}` → an SVG logo.
// No projectId → 400. CORS open (the browser reads it).
//
// Verify (HTTP, same port): the page the SDK loads in a hidden iframe before publishing a proposal or request
// (`verify.walletconnect.org/v3/attestation?projectId&origin&id&decryptedId`): it posts
// `{type: "verify_attestation", attestation}` to its parent, the attestation an ES256 JWT {id, origin, isScam: false,
// isVerified (loopback origins), exp} signed with this stand-in's P-256 key; `GET /v3/public-key` gives that key as
// the SDK reads it. Browser tests route the SDK's fixed Verify host here (else it waits 5 s per message offline).
//
// `GET /api/stats` → {connections, topics, messages, published} for tests; `WALLETCONNECT_RELAY_TRACE=1` logs requests.
import { createHash } from "node:crypto";
import http from "node:http";
import { decodeJWT, verifyJWT } from "@walletconnect/relay-auth";
import { safeJsonParse, safeJsonStringify } from "@walletconnect/safe-json";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { WebSocketServer } from "ws";

/** Public-relay limits the clients respect: a TTL between 10 s and 30 days. */
const MIN_TTL_S = 10;
const MAX_TTL_S = 30 * 24 * 60 * 60;
/** Spec of the Sign API: session proposal and settlement live 5 minutes. */
const SESSION_MESSAGE_TTL_S = 300;
const PING_INTERVAL_MS = 15_000;
const MAX_MESSAGE_BYTES = 1024 * 1024;
const TOPIC = /^[0-9a-f]{64}$/;

/** JSON-RPC error codes the relay answers with. */
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

/**
 * The wallet directory: real wallets' explorer ids, names, slugs and links (facts of the public explorer), in an
 * order that does not put rainbow and metamask first.
 */
export const WALLET_DIRECTORY = Object.freeze([
  {
    id: "4622a2b2d6af1c9844944291e5e7351a6aa24cd7b23099efac1b2fd875da31a0",
    name: "Trust Wallet",
    slug: "trust-wallet",
    homepage: "https://trustwallet.com/",
    rdns: "com.trustwallet.app",
    mobile: { native: "trust:", universal: "https://link.trustwallet.com" },
    desktop: { native: null, universal: null },
    color: "#0500FF",
  },
  {
    id: "fd20dc426fb37566d803205b19bbc1d4096b248ac04548e3cfb6b3a38bd033aa",
    name: "Coinbase Wallet",
    slug: "coinbase-wallet",
    homepage: "https://www.coinbase.com/wallet",
    rdns: "com.coinbase.wallet",
    mobile: { native: "cbwallet://", universal: "https://go.cb-w.com" },
    desktop: { native: null, universal: null },
    color: "#0052FF",
  },
  {
    id: "1ae92b26df02f0abca6304df07debccd18262fdf5fe82daa81593582dac9a369",
    name: "Rainbow",
    slug: "rainbow",
    homepage: "https://rainbow.me/",
    rdns: "me.rainbow",
    mobile: { native: "rainbow:", universal: "https://rnbwapp.com" },
    desktop: { native: null, universal: null },
    color: "#001E59",
  },
  {
    id: "ecc4036f814562b41a5268adc86270fba1365471402006302e70169465b7ac18",
    name: "Zerion",
    slug: "zerion",
    homepage: "https://zerion.io/",
    rdns: "io.zerion.wallet",
    mobile: { native: "zerion://", universal: "https://wallet.zerion.io" },
    desktop: { native: null, universal: null },
    color: "#2962EF",
  },
  {
    id: "c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96",
    name: "MetaMask",
    slug: "metamask",
    homepage: "https://metamask.io/",
    rdns: "io.metamask",
    mobile: { native: "metamask:", universal: "https://metamask.app.link" },
    desktop: { native: null, universal: null },
    color: "#F6851B",
  },
  {
    id: "18388be9ac2d02726dbac9777c96efaac06d744b2f6d580fccdd4127a6d01fd1",
    name: "Rabby Wallet",
    slug: "rabby",
    homepage: "https://rabby.io/",
    rdns: "io.rabby",
    mobile: { native: null, universal: null },
    desktop: { native: null, universal: null },
    color: "#7084FF",
  },
]);

/** The explorer's listing for `wallet`, with logos served by this stand-in at `base`. */
function listing(wallet, base) {
  const imageId = createHash("sha256").update(`logo:${wallet.slug}`).digest("hex").slice(0, 36);
  const logo = (size) => `${base}/v3/logo/${size}/${imageId}`;
  return {
    id: wallet.id,
    name: wallet.name,
    slug: wallet.slug,
    description: `${wallet.name} (listing of the local wallet directory)`,
    homepage: wallet.homepage,
    chains: ["eip155:1", "eip155:50312"],
    versions: ["2"],
    sdks: ["sign_v2"],
    app_type: "wallet",
    image_id: imageId,
    image_url: { sm: logo("sm"), md: logo("md"), lg: logo("lg") },
    app: {
      browser: null,
      ios: wallet.homepage,
      android: wallet.homepage,
      mac: null,
      windows: null,
      linux: null,
    },
    injected: wallet.rdns ? [{ injected_id: wallet.rdns, namespace: "eip155" }] : null,
    rdns: wallet.rdns,
    mobile: wallet.mobile,
    desktop: wallet.desktop,
    metadata: { shortName: wallet.name.split(" ")[0], colors: { primary: wallet.color, secondary: null } },
  };
}

/** An SVG logo: the wallet's first letter on its colour. */
function logoSvg(wallet) {
  const letter = wallet.name[0];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="24" fill="${wallet.color}"/><text x="48" y="62" font-family="sans-serif" font-size="44" font-weight="700" text-anchor="middle" fill="#fff">${letter}</text></svg>`;
}

/** Verify attestations live this long (the public service's are short-lived too). */
const ATTESTATION_TTL_S = 300;
const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/** The Verify iframe's page: hands the attestation to the SDK in the parent window. */
function attestationPage(attestation) {
  const message = JSON.stringify(JSON.stringify({ type: "verify_attestation", attestation })).replaceAll(
    "<",
    "\\u003c",
  );
  return `<!doctype html><html><head><meta charset="utf-8"><title>Verify</title></head><body><script>window.parent.postMessage(${message}, "*");</script></body></html>`;
}

/** A relay error carried to the JSON-RPC answer. */
class RpcError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const fail = (message, code = INVALID_PARAMS) => {
  throw new RpcError(code, message);
};
const isTopic = (topic) => typeof topic === "string" && TOPIC.test(topic);
const checkTopic = (topic, name = "topic") => {
  if (!isTopic(topic)) fail(`Invalid ${name}: expected 32 bytes as hex`);
  return topic;
};
const checkMessage = (message, name = "message") => {
  if (typeof message !== "string" || message.length === 0)
    fail(`Invalid ${name}: expected a non-empty string`);
  if (message.length > MAX_MESSAGE_BYTES) fail(`Invalid ${name}: too large`);
  return message;
};

/**
 * The relay JWT's issuer (the client id, a did:key) when the token is valid; throws otherwise.
 * @param {string | null} token
 */
async function clientIdOf(token) {
  if (!token) throw new Error("missing auth");
  const { payload } = decodeJWT(token);
  if (typeof payload?.iss !== "string" || !payload.iss.startsWith("did:key:z6Mk"))
    throw new Error("iss is not an ed25519 did:key");
  if (!(await verifyJWT(token))) throw new Error("bad signature");
  if (typeof payload.exp !== "number" || payload.exp * 1000 < Date.now()) throw new Error("expired");
  return payload.iss;
}

/**
 * Starts the relay and wallet directory.
 * @param {{ port?: number, host?: string, quiet?: boolean }} [options]
 * @returns {Promise<{ port: number, url: string, relayUrl: string, explorerUrl: string,
 *   stats: () => { connections: number, topics: number, messages: number, published: number },
 *   stop: () => Promise<void> }>}
 */
export async function startWalletConnectRelay({ port = 0, host = "127.0.0.1", quiet = true } = {}) {
  const say = quiet ? () => {} : (m) => console.log(`[walletconnect-relay] ${m}`);
  /** `WALLETCONNECT_RELAY_TRACE=1` prints every request (long strings cut) — for debugging a client. */
  const trace = process.env.WALLETCONNECT_RELAY_TRACE
    ? (connection, method, params) =>
        console.error(
          `[walletconnect-relay] ${connection.clientId.slice(-8)} → ${method} ${JSON.stringify(
            params,
            (_, v) =>
              typeof v === "bigint"
                ? String(v)
                : typeof v === "string" && v.length > 72
                  ? `${v.slice(0, 24)}…`
                  : v,
          )}`,
        )
    : () => {};
  /** @type {Map<string, { seq: number, topic: string, message: string, publishedAt: number, expiresAt: number, tag: number, attestation?: string, from: string }[]>} */
  const mailbox = new Map();
  /** @type {Set<Connection>} */
  const connections = new Set();
  /** client id → sequence numbers of the messages it acknowledged */
  const acknowledged = new Map();
  let seq = 0;
  let published = 0;
  let nextRpcId = Date.now() * 1000;
  const verifyKey = await generateKeyPair("ES256", { extractable: true });
  const verifyJwk = await exportJWK(verifyKey.publicKey);

  /** Drops expired messages (on every publish and subscribe; the mailbox is small). */
  const prune = () => {
    const now = Date.now();
    for (const [topic, messages] of mailbox) {
      const live = messages.filter((m) => m.expiresAt > now);
      if (live.length) mailbox.set(topic, live);
      else mailbox.delete(topic);
    }
  };
  const ackedBy = (clientId) => {
    if (!acknowledged.has(clientId)) acknowledged.set(clientId, new Set());
    return /** @type {Set<number>} */ (acknowledged.get(clientId));
  };

  class Connection {
    /** @param {import("ws").WebSocket} ws @param {string} clientId */
    constructor(ws, clientId) {
      this.ws = ws;
      this.clientId = clientId;
      /** topic → subscription id */
      this.subscriptions = new Map();
      /** irn_subscription rpc id → message sequence number, awaiting the client's ack */
      this.inFlight = new Map();
    }
    send(payload) {
      if (this.ws.readyState === this.ws.OPEN) this.ws.send(safeJsonStringify(payload));
    }
    /** Sends `message` unless this client published it, acknowledged it, or has it in flight. */
    deliver(message) {
      const id = this.subscriptions.get(message.topic);
      if (!id || message.from === this.clientId || ackedBy(this.clientId).has(message.seq)) return;
      if ([...this.inFlight.values()].includes(message.seq)) return;
      const rpcId = nextRpcId++;
      this.inFlight.set(rpcId, message.seq);
      const data = {
        topic: message.topic,
        message: message.message,
        publishedAt: message.publishedAt,
        tag: message.tag,
      };
      if (message.attestation) data.attestation = message.attestation;
      this.send({ id: rpcId, jsonrpc: "2.0", method: "irn_subscription", params: { id, data } });
    }
    subscribe(topic) {
      checkTopic(topic);
      // The client computes the same id (sha256 of topic and client id) before the relay answers.
      const id = createHash("sha256")
        .update(topic + this.clientId)
        .digest("hex");
      this.subscriptions.set(topic, id);
      return id;
    }
    /** After answering a subscribe: what was published before it. */
    flush(topic) {
      prune();
      for (const message of mailbox.get(topic) ?? []) this.deliver(message);
    }
  }

  /** Stores a message and hands it to every subscriber but its publisher. */
  const publish = (from, { topic, message, ttl, tag, attestation }) => {
    checkTopic(topic);
    checkMessage(message);
    if (!Number.isInteger(ttl) || ttl < MIN_TTL_S || ttl > MAX_TTL_S)
      fail(`Invalid ttl: expected whole seconds between ${MIN_TTL_S} and ${MAX_TTL_S}`);
    if (tag !== undefined && !Number.isInteger(tag)) fail("Invalid tag: expected an integer");
    if (attestation !== undefined && attestation !== null && typeof attestation !== "string")
      fail("Invalid attestation: expected a string");
    prune();
    const now = Date.now();
    const stored = {
      seq: ++seq,
      topic,
      message,
      publishedAt: now,
      expiresAt: now + ttl * 1000,
      tag: tag ?? 0,
      ...(attestation ? { attestation } : {}),
      from,
    };
    const list = mailbox.get(topic) ?? [];
    list.push(stored);
    mailbox.set(topic, list);
    published++;
    for (const connection of connections) connection.deliver(stored);
  };

  /** Answers one request of `connection`; throws RpcError for the client's mistakes. */
  const handle = (connection, method, params) => {
    const p = params && typeof params === "object" ? params : fail("Missing params");
    const after = [];
    let result;
    switch (method) {
      case "irn_subscribe":
        result = connection.subscribe(p.topic);
        after.push(() => connection.flush(p.topic));
        break;
      case "irn_batchSubscribe": {
        if (!Array.isArray(p.topics) || p.topics.length === 0)
          fail("Invalid topics: expected a non-empty array");
        for (const topic of p.topics) checkTopic(topic);
        result = p.topics.map((topic) => connection.subscribe(topic));
        after.push(() => {
          for (const topic of p.topics) connection.flush(topic);
        });
        break;
      }
      case "irn_unsubscribe":
        checkTopic(p.topic);
        connection.subscriptions.delete(p.topic);
        result = true;
        break;
      case "irn_batchUnsubscribe":
        if (!Array.isArray(p.subscriptions)) fail("Invalid subscriptions: expected an array");
        for (const s of p.subscriptions) checkTopic(s?.topic);
        for (const s of p.subscriptions) connection.subscriptions.delete(s.topic);
        result = true;
        break;
      case "irn_publish":
        publish(connection.clientId, p);
        result = true;
        break;
      case "irn_batchPublish":
        if (!Array.isArray(p.messages)) fail("Invalid messages: expected an array");
        for (const m of p.messages) publish(connection.clientId, m ?? {});
        result = true;
        break;
      case "irn_batchFetchMessages": {
        if (!Array.isArray(p.topics)) fail("Invalid topics: expected an array");
        for (const topic of p.topics) checkTopic(topic);
        prune();
        const acked = ackedBy(connection.clientId);
        const messages = p.topics
          .flatMap((topic) => mailbox.get(topic) ?? [])
          .filter((m) => m.from !== connection.clientId && !acked.has(m.seq));
        // Fetched counts as delivered: the client handles the batch itself.
        for (const m of messages) acked.add(m.seq);
        result = {
          messages: messages.map((m) => ({
            topic: m.topic,
            message: m.message,
            publishedAt: m.publishedAt,
            ...(m.attestation ? { attestation: m.attestation } : {}),
          })),
          hasMore: false,
        };
        break;
      }
      case "wc_proposeSession": {
        checkTopic(p.pairingTopic, "pairingTopic");
        checkMessage(p.sessionProposal, "sessionProposal");
        // The proposer does not subscribe to the pairing topic itself: the relay does it for it.
        connection.subscribe(p.pairingTopic);
        after.push(() => connection.flush(p.pairingTopic));
        publish(connection.clientId, {
          topic: p.pairingTopic,
          message: p.sessionProposal,
          ttl: SESSION_MESSAGE_TTL_S,
          tag: 1100,
          attestation: p.attestation ?? undefined,
        });
        result = true;
        break;
      }
      case "wc_approveSession": {
        checkTopic(p.pairingTopic, "pairingTopic");
        checkTopic(p.sessionTopic, "sessionTopic");
        checkMessage(p.sessionProposalResponse, "sessionProposalResponse");
        checkMessage(p.sessionSettlementRequest, "sessionSettlementRequest");
        const ttl = SESSION_MESSAGE_TTL_S;
        // Likewise the approver is subscribed to the session topic here (its client skips the subscribe).
        connection.subscribe(p.sessionTopic);
        after.push(() => connection.flush(p.sessionTopic));
        publish(connection.clientId, {
          topic: p.pairingTopic,
          message: p.sessionProposalResponse,
          ttl,
          tag: 1101,
        });
        publish(connection.clientId, {
          topic: p.sessionTopic,
          message: p.sessionSettlementRequest,
          ttl,
          tag: 1102,
        });
        result = true;
        break;
      }
      default:
        throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${method}`);
    }
    return { result, after };
  };

  const onText = (connection, text) => {
    const payload = safeJsonParse(text);
    if (!payload || typeof payload !== "object" || payload.jsonrpc !== "2.0") {
      connection.send({
        id: null,
        jsonrpc: "2.0",
        error: { code: INVALID_REQUEST, message: "Invalid request" },
      });
      return;
    }
    if (!("method" in payload)) {
      // An answer: the client's ack of an irn_subscription.
      const key = typeof payload.id === "bigint" ? Number(payload.id) : Number(payload.id);
      const delivered = connection.inFlight.get(key);
      if (delivered !== undefined) {
        connection.inFlight.delete(key);
        if (payload.result === true) ackedBy(connection.clientId).add(delivered);
      }
      return;
    }
    const { id, method, params } = payload;
    trace(connection, method, params);
    try {
      const { result, after } = handle(connection, method, params);
      connection.send({ id, jsonrpc: "2.0", result });
      for (const run of after) run();
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      connection.send({ id, jsonrpc: "2.0", error: { code: error.code, message: error.message } });
    }
  };

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
    if (req.method === "OPTIONS") {
      res.writeHead(204, { "access-control-allow-origin": "*", "access-control-allow-headers": "*" });
      return res.end();
    }
    if (req.method !== "GET") return send(405, { message: "Method not allowed" });
    if (url.pathname === "/v3/wallets") {
      if (!url.searchParams.get("projectId")) return send(400, { message: "projectId is required" });
      const entries = Math.min(Math.max(Number(url.searchParams.get("entries")) || 100, 1), 100);
      const page = Math.max(Number(url.searchParams.get("page")) || 1, 1);
      const base = `http://${req.headers.host ?? `localhost:${port}`}`;
      const slice = WALLET_DIRECTORY.slice((page - 1) * entries, page * entries);
      return send(200, {
        listings: Object.fromEntries(slice.map((w) => [w.id, listing(w, base)])),
        count: slice.length,
        total: WALLET_DIRECTORY.length,
      });
    }
    const logo = /^\/v3\/logo\/(sm|md|lg)\/([0-9a-f]+)$/.exec(url.pathname);
    if (logo) {
      const wallet = WALLET_DIRECTORY.find(
        (w) => createHash("sha256").update(`logo:${w.slug}`).digest("hex").slice(0, 36) === logo[2],
      );
      return wallet ? send(200, logoSvg(wallet), "image/svg+xml") : send(404, { message: "Not found" });
    }
    if (url.pathname === "/v3/attestation") {
      const id = url.searchParams.get("id");
      const origin = url.searchParams.get("origin") ?? "";
      if (!id || !/^[0-9a-f]{64}$/.test(id)) return send(400, { message: "id is required" });
      const attestation = await new SignJWT({
        id,
        origin,
        isScam: false,
        isVerified: LOOPBACK_ORIGIN.test(origin),
      })
        .setProtectedHeader({ alg: "ES256", typ: "JWT" })
        .setExpirationTime(Math.floor(Date.now() / 1000) + ATTESTATION_TTL_S)
        .sign(verifyKey.privateKey);
      return send(200, attestationPage(attestation), "text/html; charset=utf-8");
    }
    if (url.pathname === "/v3/public-key") {
      const { crv, kty, x, y } = verifyJwk;
      return send(200, {
        publicKey: { crv, ext: true, key_ops: ["verify"], kty, x, y },
        expiresAt: Math.floor(Date.now() / 1000) + 24 * 60 * 60,
      });
    }
    if (url.pathname === "/api/stats") return send(200, stats());
    if (url.pathname === "/hello" || url.pathname === "/")
      return send(200, "Hello World, this is a local relay.", "text/plain");
    return send(404, { message: "Not found" });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * MAX_MESSAGE_BYTES });
  server.on("upgrade", async (req, socket, head) => {
    const url = new URL(req.url ?? "/", "http://relay");
    let clientId;
    try {
      clientId = await clientIdOf(url.searchParams.get("auth"));
    } catch (error) {
      say(`refused a connection: ${error.message}`);
      socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new Connection(ws, clientId);
      connections.add(connection);
      say(`client ${clientId.slice(-8)} connected (project ${url.searchParams.get("projectId") ?? "none"})`);
      ws.on("message", (data, isBinary) => {
        if (isBinary) return;
        try {
          onText(connection, data.toString("utf8"));
        } catch (error) {
          say(`error handling a message: ${error?.stack ?? error}`);
        }
      });
      ws.on("close", () => connections.delete(connection));
      ws.on("error", () => connections.delete(connection));
    });
  });
  const pinger = setInterval(() => {
    for (const c of connections) if (c.ws.readyState === c.ws.OPEN) c.ws.ping();
  }, PING_INTERVAL_MS);
  pinger.unref();

  const stats = () => ({
    connections: connections.size,
    topics: mailbox.size,
    messages: [...mailbox.values()].reduce((n, list) => n + list.length, 0),
    published,
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const actualPort = /** @type {import("node:net").AddressInfo} */ (server.address()).port;
  const name = host === "127.0.0.1" ? "localhost" : host;
  const url = `http://${name}:${actualPort}`;
  say(`relay ws://${name}:${actualPort}, wallet directory ${url}/v3/wallets`);
  return {
    port: actualPort,
    url,
    relayUrl: `ws://${name}:${actualPort}`,
    explorerUrl: url,
    stats,
    stop: async () => {
      clearInterval(pinger);
      for (const c of connections) c.ws.terminate();
      wss.close();
      const closed = new Promise((resolve) => server.close(() => resolve(undefined)));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The SDK's fixed Verify host (its iframe and public-key lookups). */
export const WALLETCONNECT_VERIFY_HOST = "https://verify.walletconnect.org";

/**
 * Browser tests: answers the page's requests to the SDK's Verify host from the stand-in at `standInUrl` (a Playwright
 * BrowserContext or Page — anything with `route(pattern, handler)`), so the dApp side gets its attestation at once
 * instead of waiting 5 s per message for an iframe that cannot load offline. Pair with a Node wallet started with
 * `verifyUrl: standInUrl`, which then checks those attestations.
 * @param {{ route: (url: string, handler: (route: any) => Promise<void>) => Promise<void> }} context
 * @param {string} standInUrl
 */
export async function routeVerifyToStandIn(context, standInUrl) {
  await context.route(`${WALLETCONNECT_VERIFY_HOST}/**`, async (route) => {
    const { pathname, search } = new URL(route.request().url());
    const res = await fetch(`${standInUrl}${pathname}${search}`);
    await route.fulfill({
      status: res.status,
      contentType: res.headers.get("content-type") ?? "text/plain",
      body: await res.text(),
    });
  });
}
