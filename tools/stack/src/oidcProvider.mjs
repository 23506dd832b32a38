// A local OpenID provider playing Google-like providers (npm `oidc-provider`, a certified implementation): discovery
// at {issuer}/.well-known/openid-configuration, JWKS, authorization code with PKCE (S256 only, required), RS256 ID
// tokens carrying the nonce and the claims sub, email, email_verified, name, preferred_username (in the ID token
// too, as Google puts them there), userinfo. Dev shows its sign-in page; tests drive the same page over HTTP.
//
// Clients (oauthShared.mjs OAUTH_CLIENTS): `symbolon-dev` / `symbolon-dev-secret` and `symbolon-dev-b` /
// `symbolon-dev-b-secret`, client_secret_basic or client_secret_post, redirect_uri any loopback
// `http://{localhost|127.0.0.1|[::1]}:{port}/api/v1/oauth/callback`. Scopes: openid email profile.
//
// There is no single sign-on session: every authorization shows the sign-in page, so each test (and each "Continue
// with Google" by hand) picks its account.
//
// Signing in without a browser (oauthLoginClient.mjs `signInAt` does exactly this):
//   1. GET the authorization URL (the one the Symbolon server returns from /oauth/init), not following redirects:
//      303, Location {issuer}/interaction/{uid}, and Set-Cookie headers. Keep every cookie's `name=value` and send
//      them all in a Cookie header on the next requests (paths differ; sending all is fine).
//   2. (optional) GET {issuer}/interaction/{uid}: the sign-in page; its form `id="login"` posts to
//      {issuer}/interaction/{uid}/login.
//   3. POST {issuer}/interaction/{uid}/login, form fields: `login` (required, 1–64 of [A-Za-z0-9._@+-]; becomes
//      `sub` and `preferred_username`), `email`, `name`, `email_verified` ("false" to mark the email unverified;
//      default verified). Known test accounts (TEST_ACCOUNTS) fill email and name when left empty; any other login
//      defaults to {login}@example.com. Answer: 303, Location {issuer}/auth/{uid}.
//      Or POST {issuer}/interaction/{uid}/abort to deny: the flow ends with error=access_denied.
//   4. GET {issuer}/auth/{uid} with the cookies: 303, Location {redirect_uri}?code=…&state=…&iss=… (or
//      ?error=access_denied&error_description=…&state=…&iss=…). That is the callback the browser would load.
//   Then the server POSTs {issuer}/token (grant_type=authorization_code, code, redirect_uri, code_verifier, client
//   auth) and gets access_token, id_token, expires_in; GET {issuer}/me with the Bearer token is userinfo.
import { randomBytes } from "node:crypto";
import http from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { errors } from "oidc-provider";
import {
  escapeHtml,
  isLoopbackCallback,
  OAUTH_CLIENTS,
  readParams,
  signInFields,
  signInPage,
} from "./oauthShared.mjs";

/** Accounts the sign-in page offers (any other login works too). `unverified` has an unverified email. */
export const TEST_ACCOUNTS = [
  { login: "alice", email: "alice@example.com", name: "Alice Example" },
  { login: "bob", email: "bob@example.com", name: "Bob Example" },
  { login: "unverified", email: "unverified@example.com", name: "Una Verified", emailVerified: false },
];
const SCOPES = ["openid", "email", "profile"];
const INTERACTION_PATH = /^\/interaction\/([A-Za-z0-9_-]{1,64})(\/login|\/abort)?$/;
/** The provider's browser-session cookie: dropped on the way in so no SSO session survives an authorization. */
const SESSION_COOKIE = /^_session(\.legacy)?(\.sig)?$/;

/**
 * Starts the OpenID provider.
 * @param {{ port?: number, host?: string, quiet?: boolean, name?: string }} [options]
 *   `name`: who it plays on its pages (default "Google").
 * @returns {Promise<{ url: string, issuer: string, clients: typeof OAUTH_CLIENTS, accounts: typeof TEST_ACCOUNTS,
 *   stop: () => Promise<void> }>}
 */
export async function startOidcProvider({
  port = 0,
  host = "127.0.0.1",
  quiet = true,
  name = "Google",
} = {}) {
  // Bind first: the issuer carries the port.
  const server = http.createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const issuer = `http://${host === "127.0.0.1" ? "localhost" : host}:${server.address().port}`;

  /** Profiles by subject: the test accounts plus whatever was signed in with. */
  const profiles = new Map(TEST_ACCOUNTS.map((a) => [a.login, profileOf(a)]));
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = {
    ...(await exportJWK(privateKey)),
    kid: randomBytes(8).toString("hex"),
    alg: "RS256",
    use: "sig",
  };

  const provider = new Provider(issuer, {
    clients: OAUTH_CLIENTS.map(({ clientId, clientSecret }) => ({
      client_id: clientId,
      client_secret: clientSecret,
      // A placeholder: redirectUriAllowed below accepts any loopback callback instead.
      redirect_uris: ["http://localhost/api/v1/oauth/callback"],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    })),
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    scopes: SCOPES,
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "preferred_username"] },
    // Google puts the scopes' claims in the ID token too, not only in userinfo.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    // Lifetimes in seconds, like Google's (an hour for tokens); set so the library prints no notices.
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 600,
      Grant: 600,
      Session: 600,
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const profile = profiles.get(sub);
      return profile && { accountId: sub, claims: () => ({ sub, ...profile }) };
    },
    // A first-party stand-in: signing in is consent to every scope asked for.
    loadExistingGrant: async (ctx) => {
      const grantId =
        ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope(SCOPES.join(" "));
      await grant.save();
      ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId, grant.jti);
      return grant;
    },
    // No fonts or scripts from elsewhere (the library's own page imports web fonts).
    renderError: (ctx, out) => {
      ctx.type = "html";
      ctx.body = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Sign-in error</title>
<body style="font:15px system-ui;max-width:34rem;margin:2.5rem auto"><h1>Sign-in error</h1>
<p><code>${escapeHtml(out.error)}</code>: ${escapeHtml(out.error_description ?? "")}</p></body></html>`;
    },
  });
  // Every client accepts any loopback Symbolon callback: server ports change from run to run.
  provider.Client.prototype.redirectUriAllowed = (value) => isLoopbackCallback(value);
  if (!quiet) {
    provider.on("server_error", (_ctx, error) => console.error(`[oidc] ${error?.stack ?? error}`));
  }
  const callback = provider.callback();

  server.on("request", async (req, res) => {
    stripSessionCookie(req);
    const path = new URL(req.url ?? "/", issuer).pathname;
    const interaction = INTERACTION_PATH.exec(path);
    if (path === "/" && req.method === "GET") return sendHtml(res, 200, homePage(issuer, name));
    if (!interaction) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.uid !== interaction[1]) throw new errors.SessionNotFound("interaction mismatch");
      const clientId = String(details.params.client_id ?? "");
      const page = (error) =>
        signInPage({
          title: `Sign in with ${name}`,
          provider: `${name} (OpenID Connect)`,
          clientId,
          action: `/interaction/${details.uid}/login`,
          denyAction: `/interaction/${details.uid}/abort`,
          accounts: TEST_ACCOUNTS,
          error,
        });
      if (!interaction[2] && req.method === "GET") return sendHtml(res, 200, page());
      if (req.method !== "POST") return sendHtml(res, 405, "Method not allowed");
      if (interaction[2] === "/abort") {
        return await provider.interactionFinished(
          req,
          res,
          { error: "access_denied", error_description: "End-User aborted interaction" },
          { mergeWithLastSubmission: false },
        );
      }
      const params = await readParams(req);
      const fields = signInFields(params);
      if (!fields) return sendHtml(res, 400, page("Login must be 1 to 64 letters, digits or . _ @ + -"));
      const known = TEST_ACCOUNTS.find((a) => a.login === fields.login);
      profiles.set(
        fields.login,
        profileOf({
          login: fields.login,
          email: fields.email || known?.email,
          name: fields.name || known?.name,
          emailVerified: params.email_verified ? params.email_verified !== "false" : known?.emailVerified,
        }),
      );
      if (!quiet) console.log(`[oidc] ${clientId}: signed in as ${fields.login}`);
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: fields.login } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      if (res.headersSent) return;
      const expired = error instanceof errors.SessionNotFound;
      sendHtml(
        res,
        expired ? 400 : 500,
        `<!doctype html><meta charset="utf-8"><title>Sign-in error</title><p>${escapeHtml(
          expired
            ? "This sign-in has expired or belongs to another browser. Start again from the app."
            : error,
        )}</p>`,
      );
    }
  });

  return {
    url: issuer,
    issuer,
    clients: OAUTH_CLIENTS,
    accounts: TEST_ACCOUNTS,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** The claims of a profile: email defaults to {login}@example.com and counts as verified unless said otherwise. */
function profileOf({ login, email, name, emailVerified }) {
  return {
    email: email || `${login}@example.com`,
    email_verified: emailVerified ?? true,
    name: name || login,
    preferred_username: login,
  };
}

function stripSessionCookie(req) {
  const cookie = req.headers.cookie;
  if (!cookie) return;
  const kept = cookie
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part && !SESSION_COOKIE.test(part.split("=")[0]));
  if (kept.length) req.headers.cookie = kept.join("; ");
  else delete req.headers.cookie;
}

function sendHtml(res, status, body) {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(body);
}

function homePage(issuer, name) {
  const accounts = TEST_ACCOUNTS.map(
    (a) =>
      `<li><code>${escapeHtml(a.login)}</code> · ${escapeHtml(a.email)}${a.emailVerified === false ? " (unverified)" : ""}</li>`,
  ).join("");
  const clients = OAUTH_CLIENTS.map(
    (c) => `<li><code>${escapeHtml(c.clientId)}</code> / <code>${escapeHtml(c.clientSecret)}</code></li>`,
  ).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(name)} (local OpenID provider)</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:40rem;margin:2.5rem auto;padding:0 1rem}code{background:#eee;padding:0 .2em}</style></head>
<body><h1>${escapeHtml(name)} — local OpenID provider</h1>
<p>Plays ${escapeHtml(name)} for "Continue with ${escapeHtml(name)}": issuer <code>${escapeHtml(issuer)}</code>,
<a href="/.well-known/openid-configuration">discovery</a>, <a href="/jwks">JWKS</a>. Sign-in asks for no password:
pick a test account or type any login.</p>
<h2>Test accounts</h2><ul>${accounts}</ul>
<h2>Clients</h2><ul>${clients}</ul><p>Redirect URIs: any <code>http://localhost:{port}/api/v1/oauth/callback</code>.</p>
</body></html>`;
}
