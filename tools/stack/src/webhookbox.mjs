// A local webhook catcher: endpoints created in the dev stack point here, and every webhook they receive is
// verified with the vendor SDK (Svix signatures) and kept, with a small web page and a JSON API. Dev shows the page
// in a browser; tests read events from the API and force error answers to exercise retries.
import http from "node:http";
import { PrivyClient } from "@privy-io/node";
import { Webhook } from "svix";
import { readBody } from "./readBody.mjs";

/** Webhooks kept at most; the oldest go first. */
const CAP = 1000;
/** Largest webhook body accepted. */
const MAX_BODY = 1024 * 1024;
const HOOKS_PATH = /^\/hooks(?:\/.*)?$/;
const NO_SECRET = "no signing secret registered";

/**
 * @typedef {{ id: number, svixId: string | null, timestamp: string | null, signature: string | null, raw: string,
 *   receivedAt: string, path: string,
 *   type: string | null, verified: boolean, error: string | null, body: unknown, duplicate?: true, answered: number }}
 *   WebhookEvent
 */

/**
 * Starts the webhook catcher.
 * @param {{ port?: number, host?: string, quiet?: boolean }} [options]
 * @returns {Promise<{ port: number, url: string, events: WebhookEvent[], addSecret: (secret: string) => void,
 *   respondWith: (status: number, times?: number) => void, stop: () => Promise<void> }>}
 */
export async function startWebhookbox({ port = 0, host = "127.0.0.1", quiet = true } = {}) {
  /** @type {WebhookEvent[]} */
  const events = [];
  let nextId = 1;
  /** Signing secrets (`whsec_…`) of the endpoints that point here; each webhook is tried against all of them. */
  const secrets = new Set();
  /** Svix ids seen so far (kept beyond the cap, so a late redelivery is still flagged). */
  const seen = new Set();
  /** Forced answers for the next webhooks, one entry per webhook. */
  const forced = [];
  const webhooks = webhookVerifier();

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://webhookbox");
    const send = (status, body, type = "application/json") => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      res.end(type === "application/json" ? JSON.stringify(body) : body);
    };
    if (HOOKS_PATH.test(url.pathname) && req.method === "POST") {
      let raw;
      try {
        raw = await readBody(req, MAX_BODY);
      } catch {
        return send(413, { error: "Request body too large", code: "body_too_large" });
      }
      const headers = {
        "svix-id": header(req, "svix-id"),
        "svix-timestamp": header(req, "svix-timestamp"),
        "svix-signature": header(req, "svix-signature"),
      };
      const { verified, error } = verify(webhooks, secrets, raw, headers);
      const body = parseJson(raw);
      const answered = forced.length > 0 ? forced.shift() : 204;
      const svixId = headers["svix-id"] ?? null;
      /** @type {WebhookEvent} */
      const event = {
        id: nextId++,
        svixId,
        timestamp: headers["svix-timestamp"] ?? null,
        signature: headers["svix-signature"] ?? null,
        // The bytes as received: a back end verifies these, not a re-serialised body.
        raw,
        receivedAt: new Date().toISOString(),
        path: url.pathname,
        type: body && typeof body === "object" && typeof body.type === "string" ? body.type : null,
        verified,
        error,
        body,
        ...(svixId !== null && seen.has(svixId) && { duplicate: true }),
        answered,
      };
      if (svixId !== null) seen.add(svixId);
      events.push(event);
      if (events.length > CAP) events.splice(0, events.length - CAP);
      if (!quiet)
        console.log(
          `[webhookbox] ${event.type ?? "(no type)"} ${verified ? "verified" : `NOT verified (${error})`}` +
            `${event.duplicate ? " duplicate" : ""}${answered === 204 ? "" : ` answered ${answered}`}`,
        );
      res.writeHead(answered, { "cache-control": "no-store" });
      return res.end();
    }
    if (url.pathname === "/api/events" && req.method === "GET") {
      const type = url.searchParams.get("type");
      return send(200, type ? events.filter((e) => e.type === type) : events);
    }
    if (url.pathname === "/api/events" && req.method === "DELETE") {
      events.length = 0;
      seen.clear();
      return send(200, { success: true });
    }
    if (url.pathname === "/" && req.method === "GET")
      return send(200, eventsPage(events, baseUrl), "text/html; charset=utf-8");
    return send(404, { error: "Not found", code: "not_found" });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });

  const bound = server.address().port;
  const baseUrl = `http://${host === "127.0.0.1" ? "localhost" : host}:${bound}`;
  return {
    port: bound,
    url: baseUrl,
    events,
    addSecret: (secret) => {
      if (typeof secret !== "string" || !secret)
        throw new TypeError("addSecret needs a signing secret (whsec_…)");
      secrets.add(secret);
    },
    respondWith: (status, times = 1) => {
      if (!Number.isInteger(status) || status < 200 || status > 599)
        throw new RangeError(`respondWith needs an HTTP status, got ${status}`);
      for (let i = 0; i < times; i++) forced.push(status);
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** A request header as one string, or undefined. */
function header(req, name) {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * Tries every registered secret with the SDK's verify (signature, then timestamp tolerance).
 * @returns {{ verified: boolean, error: string | null }}
 */
function verify(webhooks, secrets, payload, headers) {
  let error = NO_SECRET;
  for (const signing_secret of secrets) {
    try {
      webhooks.verify({ payload, headers, signing_secret });
      return { verified: true, error: null };
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
  }
  return { verified: false, error };
}

/**
 * The published SDK's verifier (`webhooks().verify`); verification is HMAC only, the app id and secret are never used.
 * The SDK refuses to start in a browser-like process (the stack runs inside the client's jsdom tests too): there the
 * catcher checks with `svix`, the library the SDK's verifier calls, and says so in each record's error on failure.
 * @returns {{ verify: (input: { payload: string, headers: Record<string, string>, signing_secret: string }) => unknown }}
 */
function webhookVerifier() {
  try {
    return new PrivyClient({ appId: "webhookbox", appSecret: "unused" }).webhooks();
  } catch {
    return {
      verify: ({ payload, headers, signing_secret }) => {
        try {
          return new Webhook(signing_secret).verify(payload, headers);
        } catch (error) {
          throw new Error(`(svix) ${error instanceof Error ? error.message : error}`);
        }
      },
    };
  }
}

/** The body parsed as JSON, or the raw string when it is not JSON. */
function parseJson(raw) {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

const escapeHtml = (s) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );

/** One webhook on the page. */
function eventCard(e) {
  const status = e.verified
    ? `<span class="ok">✓ verified</span>`
    : `<span class="bad">✗ not verified: ${escapeHtml(e.error)}</span>`;
  const body = typeof e.body === "string" ? e.body : JSON.stringify(e.body, null, 2);
  return `<article><header><strong>${escapeHtml(e.type ?? "(no type)")}</strong><span>
      ${escapeHtml(new Date(e.receivedAt).toLocaleTimeString())} · ${escapeHtml(e.svixId ?? "(no svix-id)")}
      · ${escapeHtml(e.path)} · answered ${escapeHtml(e.answered)}${e.duplicate ? " · duplicate" : ""}</span></header>
      <p>${status}</p><pre>${escapeHtml(body)}</pre></article>`;
}

/** The events page: newest first, refreshes itself every 2 s. */
function eventsPage(events, baseUrl) {
  const rows = [...events].reverse().map(eventCard).join("\n");
  const empty = `<p><em>No webhooks yet.</em> Add an endpoint with
<code>symbolon webhooks endpoint create --app &lt;app id&gt; --url ${escapeHtml(baseUrl)}/hooks</code>.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="2">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Webhooks (${events.length})</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1c1c22}
h1{font-size:1.3rem}article{border:1px solid #ddd;border-radius:10px;padding:.8rem 1rem;margin:.8rem 0}
header{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap}header span{color:#666;font-size:.85rem}
p{margin:.4rem 0}.ok{color:#17803d;font-weight:600}.bad{color:#b42318;font-weight:600}
pre{white-space:pre-wrap;font:13px/1.4 ui-monospace,monospace;background:#f6f6f8;padding:.6rem;border-radius:6px;
margin:.5rem 0 0;overflow-x:auto}</style></head>
<body><h1>Symbolon local webhooks</h1><p>Every webhook sent to <code>${escapeHtml(baseUrl)}/hooks</code> lands here,
checked against the signing secrets the dev stack registered. The page refreshes itself.</p>
${rows || empty}</body></html>`;
}
