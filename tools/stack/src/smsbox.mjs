// A local SMS gateway speaking Twilio's Messages API: the server sends login codes to it exactly as it would to
// Twilio, and it keeps every message, with a small web inbox and a JSON API. Dev shows the inbox in a browser;
// tests read codes from the API.
import { randomBytes } from "node:crypto";
import http from "node:http";
import { readBody } from "./readBody.mjs";

/** Messages kept at most; the oldest go first. */
const CAP = 1000;
/** Largest request body accepted (Twilio's own limit on a message body is 1,600 characters). */
const MAX_BODY = 64 * 1024;
const MESSAGES_PATH = /^\/2010-04-01\/Accounts\/([A-Za-z0-9]+)\/Messages\.json$/;
const E164 = /^\+\d{1,15}$/;

/**
 * Starts the SMS catcher.
 * @param {{ port?: number, host?: string, quiet?: boolean }} [options]
 * @returns {Promise<{ port: number, url: string, messages: object[], stop: () => Promise<void> }>}
 */
export async function startSmsbox({ port = 0, host = "127.0.0.1", quiet = true } = {}) {
  /** @type {{id: number, sid: string, accountSid: string, to: string, from: string, body: string, receivedAt: string}[]} */
  const messages = [];
  let nextId = 1;
  /** Like a Twilio account, each account SID has one auth token: the first one it is used with. */
  const tokens = new Map();

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://smsbox");
    const send = (status, body, type = "application/json") => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      res.end(type === "application/json" ? JSON.stringify(body) : body);
    };
    const gateway = MESSAGES_PATH.exec(url.pathname);
    if (gateway && req.method === "POST") {
      const accountSid = gateway[1];
      if (!authorized(req.headers.authorization, accountSid, tokens))
        return send(401, twilioError(20003, "Authenticate", 401));
      let form;
      try {
        form = new URLSearchParams(await readBody(req, MAX_BODY));
      } catch {
        return send(413, twilioError(20001, "Request body too large", 413));
      }
      const to = form.get("To") ?? "";
      const from = form.get("From") ?? "";
      const service = form.get("MessagingServiceSid") ?? "";
      const body = form.get("Body") ?? "";
      if (!to) return send(400, twilioError(21604, "A 'To' phone number is required.", 400));
      if (!E164.test(to))
        return send(400, twilioError(21211, `The 'To' number ${to} is not a valid phone number.`, 400));
      if (!from && !service)
        return send(400, twilioError(21603, "A 'From' or 'MessagingServiceSid' parameter is required.", 400));
      if (!body) return send(400, twilioError(21602, "Message body is required.", 400));
      const message = {
        id: nextId++,
        sid: `SM${randomBytes(16).toString("hex")}`,
        accountSid,
        to,
        from: from || service,
        body,
        receivedAt: new Date().toISOString(),
      };
      messages.push(message);
      if (messages.length > CAP) messages.splice(0, messages.length - CAP);
      if (!quiet) console.log(`[smsbox] SMS to ${to}: ${body}`);
      return send(201, messageResource(message, service));
    }
    if (url.pathname === "/api/messages" && req.method === "GET") {
      // A raw `+` in a query string decodes to a space: `?to=+1201…` typed by hand still matches.
      const to = url.searchParams.get("to")?.trim().replace(/^(\d)/, "+$1");
      const list = to ? messages.filter((m) => m.to === to) : messages;
      return send(
        200,
        [...list].reverse().map(({ id, to, from, body, receivedAt }) => ({ id, to, from, body, receivedAt })),
      );
    }
    if (url.pathname === "/api/messages" && req.method === "DELETE") {
      messages.length = 0;
      return send(200, { success: true });
    }
    if (url.pathname === "/" && req.method === "GET")
      return send(200, inboxPage(messages), "text/html; charset=utf-8");
    return send(404, { error: "Not found", code: "not_found" });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });

  const bound = server.address().port;
  return {
    port: bound,
    url: `http://${host === "127.0.0.1" ? "localhost" : host}:${bound}`,
    messages,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/**
 * Basic auth must be present, its user must be the account in the path and its token non-empty. Any token
 * passes the first time an account is used; after that the account keeps it, so a wrong token is refused.
 */
function authorized(header, accountSid, tokens) {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!match) return false;
  let decoded;
  try {
    decoded = new TextDecoder().decode(Uint8Array.from(atob(match[1]), (c) => c.charCodeAt(0)));
  } catch {
    return false;
  }
  const colon = decoded.indexOf(":");
  const token = decoded.slice(colon + 1);
  if (colon <= 0 || decoded.slice(0, colon) !== accountSid || !token) return false;
  if (!tokens.has(accountSid)) tokens.set(accountSid, token);
  return tokens.get(accountSid) === token;
}

/** Twilio's error body. */
function twilioError(code, message, status) {
  return { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status };
}

/** Twilio's message resource, as `POST …/Messages.json` answers it. */
function messageResource(m, service) {
  const date = new Date(m.receivedAt).toUTCString().replace("GMT", "+0000");
  return {
    account_sid: m.accountSid,
    api_version: "2010-04-01",
    body: m.body,
    date_created: date,
    date_sent: null,
    date_updated: date,
    direction: "outbound-api",
    error_code: null,
    error_message: null,
    from: service ? null : m.from,
    messaging_service_sid: service || null,
    num_media: "0",
    num_segments: String(Math.max(1, Math.ceil(m.body.length / 160))),
    price: null,
    price_unit: "USD",
    sid: m.sid,
    status: "queued",
    subresource_uris: { media: `/2010-04-01/Accounts/${m.accountSid}/Messages/${m.sid}/Media.json` },
    to: m.to,
    uri: `/2010-04-01/Accounts/${m.accountSid}/Messages/${m.sid}.json`,
  };
}

const escapeHtml = (s) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );

/** The inbox page: newest first, refreshes itself every 2 s. */
function inboxPage(messages) {
  const rows = [...messages]
    .reverse()
    .map(
      (m) => `<article><header><strong>to ${escapeHtml(m.to)}</strong><span>from ${escapeHtml(m.from)}
      · ${escapeHtml(new Date(m.receivedAt).toLocaleTimeString())}</span></header><pre>${escapeHtml(m.body)}</pre></article>`,
    )
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="2">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Symbolon SMS inbox (${messages.length})</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1c1c22}
h1{font-size:1.3rem}article{border:1px solid #ddd;border-radius:10px;padding:.8rem 1rem;margin:.8rem 0}
header{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap}header span{color:#666;font-size:.85rem}
pre{white-space:pre-wrap;font:inherit;margin:.5rem 0 0}</style></head>
<body><h1>Symbolon local SMS inbox</h1><p>Every SMS the local server sends lands here (a stand-in for Twilio's
Messages API). The page refreshes itself.</p>
${rows || "<p><em>No messages yet.</em></p>"}</body></html>`;
}
