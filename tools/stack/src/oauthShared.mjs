// What the two OAuth stand-ins (oidcProvider.mjs, oauth2Provider.mjs) share: the fixed clients, which redirect
// URIs they accept, the sign-in page and form parsing.
import { readBody } from "./readBody.mjs";

/**
 * The clients both stand-ins know (no registration step: the stack and the server tests configure these).
 * `symbolon-dev` is the demo app's, `symbolon-dev-b` the second demo app's; tests may use either.
 */
export const OAUTH_CLIENTS = [
  { clientId: "symbolon-dev", clientSecret: "symbolon-dev-secret" },
  { clientId: "symbolon-dev-b", clientSecret: "symbolon-dev-b-secret" },
];

/** The Symbolon server's OAuth callback path; any loopback origin may carry it (server ports vary per run). */
const CALLBACK_PATH = "/api/v1/oauth/callback";
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** True for `http(s)://{localhost|127.0.0.1|[::1]}[:port]/api/v1/oauth/callback` with no query or fragment. */
export function isLoopbackCallback(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === "http:" || url.protocol === "https:") &&
    LOOPBACK_HOSTS.has(url.hostname) &&
    url.pathname === CALLBACK_PATH &&
    !url.search &&
    !url.hash &&
    !url.username &&
    !url.password
  );
}

/** Largest form or JSON body accepted. */
const MAX_BODY = 16 * 1024;

/** A form (`application/x-www-form-urlencoded`) or JSON object body as a plain object of strings. */
export async function readParams(req) {
  const text = await readBody(req, MAX_BODY);
  if (/^application\/json/i.test(req.headers["content-type"] ?? "")) {
    const parsed = text ? JSON.parse(text) : {};
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, v == null ? "" : String(v)]));
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** The fields of the sign-in form, trimmed; `login` must be 1 to 64 characters of [A-Za-z0-9._@+-]. */
export function signInFields(params) {
  const login = String(params.login ?? "").trim();
  if (!/^[A-Za-z0-9._@+-]{1,64}$/.test(login)) return null;
  const clip = (value) =>
    String(value ?? "")
      .trim()
      .slice(0, 200);
  return { login, email: clip(params.email), name: clip(params.name) };
}

export const escapeHtml = (s) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );

/**
 * The sign-in page both stand-ins show: one button per test account, a form for any other login, and Cancel.
 * Every form posts `login` (and optional `email`, `name`) to `action`; Cancel posts to `denyAction`.
 * Self-contained (no fonts, scripts or other requests).
 * @param {{ title: string, provider: string, clientId: string, action: string, denyAction: string,
 *   accounts: { login: string, email?: string|null, name?: string, note?: string }[], error?: string }} page
 */
export function signInPage({ title, provider, clientId, action, denyAction, accounts, error }) {
  const hidden = (name, value) =>
    value ? `<input type="hidden" name="${name}" value="${escapeHtml(value)}">` : "";
  const rows = accounts
    .map(
      (
        a,
      ) => `<li><form method="post" action="${escapeHtml(action)}">${hidden("login", a.login)}${hidden("email", a.email)}${hidden("name", a.name)}
<button type="submit">Sign in as <strong>${escapeHtml(a.name || a.login)}</strong></button>
<span><code>${escapeHtml(a.login)}</code> · ${escapeHtml(a.email ?? "no public email")}${a.note ? ` · ${escapeHtml(a.note)}` : ""}</span></form></li>`,
    )
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:34rem;margin:2.5rem auto;padding:0 1rem;color:#1c1c22}
h1{font-size:1.3rem;margin-bottom:.2rem}p.sub{color:#555;margin-top:0}ul{list-style:none;padding:0}
li form{display:flex;flex-wrap:wrap;align-items:center;gap:.8rem;border:1px solid #ddd;border-radius:10px;padding:.6rem .8rem;margin:.5rem 0}
li span{color:#666;font-size:.85rem}li button{white-space:nowrap}button{font:inherit;padding:.35rem .8rem;border-radius:8px;border:1px solid #888;background:#fff;cursor:pointer}
fieldset{border:1px solid #ddd;border-radius:10px;padding:.8rem}label{display:block;margin:.3rem 0}
input[type=text],input[type=email]{font:inherit;width:100%;box-sizing:border-box;padding:.3rem}
.error{color:#b00020}.cancel{margin-top:1.2rem}</style></head>
<body><h1>${escapeHtml(title)}</h1>
<p class="sub">Local stand-in for ${escapeHtml(provider)} · client <code>${escapeHtml(clientId)}</code>. No password: pick a test account.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<ul>${rows}</ul>
<form method="post" action="${escapeHtml(action)}" id="login"><fieldset><legend>Another account</legend>
<label>Login (the account's subject) <input type="text" name="login" required maxlength="64" pattern="[A-Za-z0-9._@+\\-]+"></label>
<label>Email (optional) <input type="email" name="email" maxlength="200"></label>
<label>Name (optional) <input type="text" name="name" maxlength="200"></label>
<button type="submit">Sign in</button></fieldset></form>
<form method="post" action="${escapeHtml(denyAction)}" class="cancel"><button type="submit">Cancel (deny access)</button></form>
</body></html>`;
}
