// A real SMTP server that keeps every message it receives, with a small web inbox and a JSON API.
// Dev shows the inbox in a browser; tests read login codes from the API.
import http from "node:http";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

/**
 * Starts the mailbox.
 * @param {{ smtpPort?: number, httpPort?: number, host?: string, quiet?: boolean }} [options]
 * @returns {Promise<{ smtpPort: number, httpPort: number, url: string, messages: object[], stop: () => Promise<void> }>}
 */
export async function startMailbox({ smtpPort = 0, httpPort = 0, host = "127.0.0.1", quiet = true } = {}) {
  /** @type {{id: number, to: string[], from: string, subject: string, text: string, html: string, date: string}[]} */
  const messages = [];
  let nextId = 1;

  const smtp = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    banner: "Symbolon local mailbox",
    size: 5 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on("data", (chunk) => chunks.push(chunk));
      stream.on("end", async () => {
        try {
          const raw = new Uint8Array(Buffer.concat(chunks));
          const parsed = await PostalMime.parse(raw);
          const envelopeTo = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          messages.push({
            id: nextId++,
            to: envelopeTo,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: parsed.html ?? "",
            date: new Date().toISOString(),
          });
          if (!quiet) console.log(`[mailbox] message for ${envelopeTo.join(", ")}: ${parsed.subject ?? ""}`);
          callback();
        } catch (error) {
          callback(error);
        }
      });
    },
  });
  await new Promise((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(smtpPort, host, resolve);
  });

  const web = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://mailbox");
    const send = (status, body, type = "application/json") => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      res.end(type === "application/json" ? JSON.stringify(body) : body);
    };
    if (url.pathname === "/api/messages" && req.method === "GET") {
      const to = url.searchParams.get("to")?.toLowerCase();
      return send(200, to ? messages.filter((m) => m.to.includes(to)) : messages);
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
    web.once("error", reject);
    web.listen(httpPort, host, resolve);
  });

  const boundSmtp = smtp.server.address().port;
  const boundHttp = web.address().port;
  return {
    smtpPort: boundSmtp,
    httpPort: boundHttp,
    url: `http://${host === "127.0.0.1" ? "localhost" : host}:${boundHttp}`,
    messages,
    stop: () =>
      Promise.all([
        new Promise((resolve) => smtp.close(resolve)),
        new Promise((resolve) => {
          web.closeAllConnections?.();
          web.close(() => resolve());
        }),
      ]).then(() => undefined),
  };
}

const escapeHtml = (s) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );

/** The inbox page: newest first, refreshes itself every 2 s. Text bodies only, so no mail HTML runs here. */
function inboxPage(messages) {
  const rows = [...messages]
    .reverse()
    .map(
      (
        m,
      ) => `<article><header><strong>${escapeHtml(m.subject)}</strong><span>to ${escapeHtml(m.to.join(", "))}
      · ${escapeHtml(new Date(m.date).toLocaleTimeString())}</span></header><pre>${escapeHtml(m.text)}</pre></article>`,
    )
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="2">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Symbolon mailbox (${messages.length})</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1c1c22}
h1{font-size:1.3rem}article{border:1px solid #ddd;border-radius:10px;padding:.8rem 1rem;margin:.8rem 0}
header{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap}header span{color:#666;font-size:.85rem}
pre{white-space:pre-wrap;font:inherit;margin:.5rem 0 0}</style></head>
<body><h1>Symbolon local mailbox</h1><p>Every email the local server sends lands here. The page refreshes itself.</p>
${rows || "<p><em>No messages yet.</em></p>"}</body></html>`;
}
