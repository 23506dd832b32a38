// A local plain OAuth 2.0 provider playing GitHub-style providers, with GitHub's documented endpoints and answers:
//   GET  /login/oauth/authorize     client_id, redirect_uri, state, scope, code_challenge, code_challenge_method=S256
//   POST /login/oauth/access_token  client_id, client_secret (or Basic auth), code, redirect_uri, code_verifier;
//        form or JSON body; answers JSON with `Accept: application/json`, else a form-encoded body, like GitHub.
//        Errors are HTTP 200 with {error, error_description, error_uri}, as GitHub does: bad_verification_code
//        (unknown, used or expired code — codes live 10 minutes and work once — or a code_verifier that does not
//        match the challenge), incorrect_client_credentials, redirect_uri_mismatch.
//   GET  /user         Bearer (or `token`) access token → {id, login, name, email, …}; 401 {"message":"Bad credentials"}
//   GET  /user/emails  → [{email, primary, verified, visibility}]
// PKCE: a challenge is optional at authorize (GitHub's rule) but must be S256; a code issued with one needs the
// matching code_verifier. Clients and redirect URIs as in oidcProvider.mjs (oauthShared.mjs OAUTH_CLIENTS).
//
// Test accounts (any other login works too, with a stable numeric id derived from the login):
//   octocat      id 583231, octocat@example.com
//   hidden-email id 1000002, no public email: /user has "email": null, /user/emails lists it (primary, verified)
//   suspended    id 1000003: the authorization and token exchange succeed, then GET /user answers what GitHub
//                answers for a suspended account: 403 {"message":"Sorry. Your account was suspended.",
//                "documentation_url":"https://docs.github.com/rest","status":"403"} (so does /user/emails).
//
// Signing in without a browser (oauthLoginClient.mjs `signInAt` does exactly this; no cookies are involved):
//   1. GET the authorization URL: 200, the sign-in page; its form `id="login"` posts to /login/oauth/authorize/{rid}.
//      A bad client_id or redirect_uri is a 400 page (nothing is sent to the redirect URI), like GitHub.
//   2. POST /login/oauth/authorize/{rid}, form fields `login` (required, 1–64 of [A-Za-z0-9._@+-]), `email`,
//      `name` (optional; test accounts fill them): 302, Location {redirect_uri}?code=…&state=…
//      Or POST /login/oauth/authorize/{rid}/deny: 302, Location {redirect_uri}?error=access_denied
//      &error_description=The+user+has+denied+your+application+access.&error_uri=…&state=…
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import {
  escapeHtml,
  isLoopbackCallback,
  OAUTH_CLIENTS,
  readParams,
  signInFields,
  signInPage,
} from "./oauthShared.mjs";

export const GITHUB_TEST_ACCOUNTS = [
  { login: "octocat", id: 583231, email: "octocat@example.com", name: "The Octocat" },
  {
    login: "hidden-email",
    id: 1000002,
    email: null,
    privateEmail: "hidden@example.com",
    name: "Hidden Email",
  },
  {
    login: "suspended",
    id: 1000003,
    email: "suspended@example.com",
    name: "Suspended User",
    suspended: true,
  },
];
/** Seconds an authorization code and a pending sign-in live (GitHub: codes expire after 10 minutes). */
const CODE_TTL_S = 600;
const DOCS =
  "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors";
const SUSPENDED = {
  message: "Sorry. Your account was suspended.",
  documentation_url: "https://docs.github.com/rest",
  status: "403",
};
const REQUEST_PATH = /^\/login\/oauth\/authorize\/([A-Za-z0-9_-]{1,64})(\/deny)?$/;

/**
 * Starts the OAuth 2.0 provider.
 * @param {{ port?: number, host?: string, quiet?: boolean, name?: string }} [options]
 *   `name`: who it plays on its pages (default "GitHub").
 * @returns {Promise<{ url: string, authorizeUrl: string, tokenUrl: string, userinfoUrl: string,
 *   clients: typeof OAUTH_CLIENTS, accounts: typeof GITHUB_TEST_ACCOUNTS, stop: () => Promise<void> }>}
 */
export async function startOauth2Provider({
  port = 0,
  host = "127.0.0.1",
  quiet = true,
  name = "GitHub",
} = {}) {
  /** Pending sign-ins by request id: the authorize parameters until the user signs in or cancels. */
  const pending = new Map();
  /** Issued codes → {clientId, redirectUri, challenge, user, scope, expires}. */
  const codes = new Map();
  /** Access tokens → {user, scope}. */
  const tokens = new Map();
  /** Users by login: the test accounts plus whoever signed in. */
  const users = new Map(GITHUB_TEST_ACCOUNTS.map((a) => [a.login, { ...a }]));
  const now = () => Date.now() / 1000;
  const sweep = (map) => {
    for (const [key, value] of map) if (value.expires < now()) map.delete(key);
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://oauth2");
    const json = (status, body) => {
      res.writeHead(status, {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "no-store",
      });
      res.end(JSON.stringify(body));
    };
    const html = (status, body) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      res.end(body);
    };
    const redirect = (location) => {
      res.writeHead(302, { location, "cache-control": "no-store" });
      res.end();
    };
    try {
      if (url.pathname === "/login/oauth/authorize" && req.method === "GET") {
        sweep(pending);
        const q = Object.fromEntries(url.searchParams);
        const client = OAUTH_CLIENTS.find((c) => c.clientId === q.client_id);
        if (!client) return html(400, errorPage("The client_id is not known to this provider."));
        if (!isLoopbackCallback(q.redirect_uri ?? ""))
          return html(
            400,
            errorPage("The redirect_uri MUST match the registered callback URL for this application."),
          );
        const back = (params) => redirect(withQuery(q.redirect_uri, { ...params, state: q.state }));
        if (q.code_challenge && (q.code_challenge_method ?? "plain") !== "S256")
          return back({ error: "invalid_request", error_description: "code_challenge_method must be S256." });
        if (q.code_challenge && !/^[A-Za-z0-9_-]{43}$/.test(q.code_challenge))
          return back({
            error: "invalid_request",
            error_description: "code_challenge must be a S256 challenge.",
          });
        const rid = randomBytes(16).toString("base64url");
        pending.set(rid, {
          clientId: client.clientId,
          redirectUri: q.redirect_uri,
          state: q.state,
          scope: q.scope ?? "",
          challenge: q.code_challenge || null,
          expires: now() + CODE_TTL_S,
        });
        return html(200, loginPage(name, client.clientId, rid));
      }

      const request = REQUEST_PATH.exec(url.pathname);
      if (request && req.method === "POST") {
        const ask = pending.get(request[1]);
        if (!ask || ask.expires < now())
          return html(400, errorPage("This sign-in has expired. Start again from the app."));
        if (request[2]) {
          pending.delete(request[1]);
          return redirect(
            withQuery(ask.redirectUri, {
              error: "access_denied",
              error_description: "The user has denied your application access.",
              error_uri: `${DOCS}#access-denied`,
              state: ask.state,
            }),
          );
        }
        const fields = signInFields(await readParams(req));
        if (!fields)
          return html(
            400,
            loginPage(name, ask.clientId, request[1], "Login must be 1 to 64 letters, digits or . _ @ + -"),
          );
        pending.delete(request[1]);
        const user = users.get(fields.login) ?? {
          login: fields.login,
          id: stableId(fields.login),
          email: null,
        };
        if (fields.email) user.email = fields.email;
        if (fields.name) user.name = fields.name;
        if (!user.email && !user.privateEmail) user.email = `${fields.login}@example.com`;
        users.set(user.login, user);
        const code = randomBytes(10).toString("hex");
        sweep(codes);
        codes.set(code, { ...ask, login: user.login, expires: now() + CODE_TTL_S });
        if (!quiet) console.log(`[oauth2] ${ask.clientId}: signed in as ${user.login}`);
        return redirect(withQuery(ask.redirectUri, { code, state: ask.state }));
      }

      if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
        const params = await readParams(req);
        const basic = basicAuth(req.headers.authorization);
        const clientId = basic?.id ?? params.client_id;
        const secret = basic?.secret ?? params.client_secret;
        const answer = (body) => {
          if (/application\/json/i.test(req.headers.accept ?? "")) return json(200, body);
          res.writeHead(200, { "content-type": "application/x-www-form-urlencoded; charset=utf-8" });
          res.end(new URLSearchParams(body).toString());
        };
        const fail = (error, description, anchor) =>
          answer({ error, error_description: description, error_uri: `${DOCS}#${anchor}` });
        const client = OAUTH_CLIENTS.find((c) => c.clientId === clientId);
        if (!client || !safeEqual(client.clientSecret, secret ?? ""))
          return fail(
            "incorrect_client_credentials",
            "The client_id and/or client_secret passed are incorrect.",
            "incorrect-client-credentials",
          );
        const grant = codes.get(params.code ?? "");
        // A code works once, whatever the outcome (RFC 6749 §4.1.2).
        if (grant) codes.delete(params.code);
        if (!grant || grant.expires < now() || grant.clientId !== client.clientId)
          return fail(
            "bad_verification_code",
            "The code passed is incorrect or expired.",
            "bad-verification-code",
          );
        if (params.redirect_uri && params.redirect_uri !== grant.redirectUri)
          return fail(
            "redirect_uri_mismatch",
            "The redirect_uri MUST match the registered callback URL for this application.",
            "redirect-uri-mismatch",
          );
        if (grant.challenge && !pkceMatches(grant.challenge, params.code_verifier))
          return fail(
            "bad_verification_code",
            "The code passed is incorrect or expired.",
            "bad-verification-code",
          );
        const token = `gho_${randomBytes(18).toString("base64url")}`;
        tokens.set(token, { login: grant.login, scope: grant.scope });
        return answer({ access_token: token, token_type: "bearer", scope: grant.scope });
      }

      if ((url.pathname === "/user" || url.pathname === "/user/emails") && req.method === "GET") {
        const match = /^(?:bearer|token)\s+(\S+)$/i.exec(req.headers.authorization ?? "");
        const grant = match && tokens.get(match[1]);
        if (!grant)
          return json(401, {
            message: "Bad credentials",
            documentation_url: "https://docs.github.com/rest",
            status: "401",
          });
        const user = users.get(grant.login);
        if (user.suspended) return json(403, SUSPENDED);
        if (url.pathname === "/user/emails") {
          const email = user.email ?? user.privateEmail;
          return json(200, [
            { email, primary: true, verified: true, visibility: user.email ? "public" : "private" },
          ]);
        }
        return json(200, userResource(user, `http://${req.headers.host}`));
      }

      if (url.pathname === "/" && req.method === "GET") return html(200, homePage(name));
      return json(404, {
        message: "Not Found",
        documentation_url: "https://docs.github.com/rest",
        status: "404",
      });
    } catch {
      // Unreadable bodies (too large, bad JSON) are the caller's fault.
      if (!res.headersSent) json(400, { message: "Problems parsing JSON", status: "400" });
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const base = `http://${host === "127.0.0.1" ? "localhost" : host}:${server.address().port}`;
  return {
    url: base,
    authorizeUrl: `${base}/login/oauth/authorize`,
    tokenUrl: `${base}/login/oauth/access_token`,
    userinfoUrl: `${base}/user`,
    clients: OAUTH_CLIENTS,
    accounts: GITHUB_TEST_ACCOUNTS,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** A stable id for a login that is not a test account (the same login gets the same id across restarts). */
function stableId(login) {
  return 2_000_000 + (createHash("sha256").update(login).digest().readUInt32BE(0) % 1_000_000_000);
}

function pkceMatches(challenge, verifier) {
  if (!verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  return safeEqual(challenge, createHash("sha256").update(verifier).digest("base64url"));
}

function safeEqual(a, b) {
  const x = Buffer.from(String(a));
  const y = Buffer.from(String(b));
  return x.length === y.length && timingSafeEqual(x, y);
}

function basicAuth(header) {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) return null;
  return {
    id: decodeURIComponent(decoded.slice(0, colon)),
    secret: decodeURIComponent(decoded.slice(colon + 1)),
  };
}

function withQuery(base, params) {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params))
    if (value != null && value !== "") url.searchParams.set(key, value);
  return url.toString();
}

/** GitHub's user resource (the fields a login needs, and a few more so it looks like one). */
function userResource(user, base) {
  return {
    login: user.login,
    id: user.id,
    node_id: Buffer.from(`04:User${user.id}`).toString("base64"),
    avatar_url: `${base}/avatars/${user.id}`,
    html_url: `${base}/${user.login}`,
    type: "User",
    site_admin: false,
    name: user.name ?? null,
    email: user.email ?? null,
  };
}

function loginPage(name, clientId, rid, error) {
  return signInPage({
    title: `Sign in to ${name}`,
    provider: `${name} (OAuth 2.0)`,
    clientId,
    action: `/login/oauth/authorize/${rid}`,
    denyAction: `/login/oauth/authorize/${rid}/deny`,
    accounts: GITHUB_TEST_ACCOUNTS.map((a) => ({
      login: a.login,
      email: a.email,
      name: a.name,
      note: a.suspended ? "suspended" : a.privateEmail ? `private email ${a.privateEmail}` : undefined,
    })),
    error,
  });
}

function errorPage(message) {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Sign-in error</title>
<body style="font:15px system-ui;max-width:34rem;margin:2.5rem auto"><h1>Sign-in error</h1><p>${escapeHtml(message)}</p></body></html>`;
}

function homePage(name) {
  const accounts = GITHUB_TEST_ACCOUNTS.map(
    (a) =>
      `<li><code>${escapeHtml(a.login)}</code> (id ${a.id}) · ${escapeHtml(a.email ?? `private ${a.privateEmail}`)}${a.suspended ? " · suspended" : ""}</li>`,
  ).join("");
  const clients = OAUTH_CLIENTS.map(
    (c) => `<li><code>${escapeHtml(c.clientId)}</code> / <code>${escapeHtml(c.clientSecret)}</code></li>`,
  ).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(name)} (local OAuth 2.0 provider)</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:40rem;margin:2.5rem auto;padding:0 1rem}code{background:#eee;padding:0 .2em}</style></head>
<body><h1>${escapeHtml(name)} — local OAuth 2.0 provider</h1>
<p>Plays ${escapeHtml(name)}'s OAuth app endpoints: <code>/login/oauth/authorize</code>,
<code>/login/oauth/access_token</code>, <code>/user</code>, <code>/user/emails</code>. Sign-in asks for no password.</p>
<h2>Test accounts</h2><ul>${accounts}</ul><h2>Clients</h2><ul>${clients}</ul>
<p>Redirect URIs: any <code>http://localhost:{port}/api/v1/oauth/callback</code>.</p></body></html>`;
}
