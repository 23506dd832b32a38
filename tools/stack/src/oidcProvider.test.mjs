// The OpenID provider stand-in as a relying party sees it: discovery, a full code flow with PKCE and nonce, the
// ID token checked against the JWKS, userinfo, and the refusals (wrong verifier, foreign redirect URI, cancel).
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { signInAt } from "./oauthLoginClient.mjs";
import { startOidcProvider } from "./oidcProvider.mjs";

const CLIENT = { id: "symbolon-dev", secret: "symbolon-dev-secret" };
const REDIRECT = "http://localhost:45678/api/v1/oauth/callback";
let op;
let discovery;
before(async () => {
  op = await startOidcProvider();
  discovery = await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json();
});
after(() => op.stop());

/** A fresh PKCE pair, state and nonce, and the authorization URL carrying them. */
function authorization({ redirectUri = REDIRECT, method = "S256" } = {}) {
  const verifier = randomBytes(36).toString("base64url");
  const state = randomBytes(36).toString("base64url");
  const nonce = randomBytes(16).toString("base64url");
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: CLIENT.id,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "openid email profile",
    state,
    nonce,
    code_challenge: method === "S256" ? createHash("sha256").update(verifier).digest("base64url") : verifier,
    code_challenge_method: method,
  }).toString();
  return { url: url.toString(), verifier, state, nonce };
}

function exchange(code, verifier, { auth = "basic" } = {}) {
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  const headers = { "content-type": "application/x-www-form-urlencoded" };
  if (auth === "basic") headers.authorization = `Basic ${btoa(`${CLIENT.id}:${CLIENT.secret}`)}`;
  else {
    form.set("client_id", CLIENT.id);
    form.set("client_secret", CLIENT.secret);
  }
  return fetch(discovery.token_endpoint, { method: "POST", headers, body: form });
}

test("discovery names the issuer, the endpoints, S256 and the claims", () => {
  assert.equal(discovery.issuer, op.issuer);
  assert.match(op.issuer, /^http:\/\/localhost:\d+$/);
  for (const key of ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri"])
    assert.ok(discovery[key]?.startsWith(op.issuer), key);
  assert.deepEqual(discovery.code_challenge_methods_supported, ["S256"]);
  for (const claim of ["sub", "email", "email_verified", "name", "preferred_username"])
    assert.ok(discovery.claims_supported.includes(claim), claim);
});

test("a full code flow: sign in as a test account, ID token with nonce and claims, userinfo", async () => {
  const flow = authorization();
  const back = await signInAt(flow.url, { login: "alice" });
  assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
  assert.equal(back.searchParams.get("state"), flow.state);
  assert.equal(back.searchParams.get("iss"), op.issuer);
  const code = back.searchParams.get("code");
  assert.ok(code);

  const res = await exchange(code, flow.verifier);
  assert.equal(res.status, 200);
  const tokens = await res.json();
  assert.equal(tokens.token_type, "Bearer");
  const { payload, protectedHeader } = await jwtVerify(
    tokens.id_token,
    createRemoteJWKSet(new URL(discovery.jwks_uri)),
    {
      issuer: op.issuer,
      audience: CLIENT.id,
    },
  );
  assert.equal(protectedHeader.alg, "RS256");
  assert.equal(payload.nonce, flow.nonce);
  assert.deepEqual(
    { sub: payload.sub, email: payload.email, email_verified: payload.email_verified, name: payload.name },
    { sub: "alice", email: "alice@example.com", email_verified: true, name: "Alice Example" },
  );
  assert.equal(payload.preferred_username, "alice");

  const info = await (
    await fetch(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${tokens.access_token}` } })
  ).json();
  assert.deepEqual(info, {
    sub: "alice",
    email: "alice@example.com",
    email_verified: true,
    name: "Alice Example",
    preferred_username: "alice",
  });

  const again = await exchange(code, flow.verifier);
  assert.equal(again.status, 400, "a code works once");
  assert.equal((await again.json()).error, "invalid_grant");
});

test("any login with a typed email and name, an unverified email, client_secret_post", async () => {
  const flow = authorization();
  const back = await signInAt(flow.url, {
    login: "zed-42",
    email: "Zed@Example.org",
    name: "Zed",
    emailVerified: false,
  });
  const res = await exchange(back.searchParams.get("code"), flow.verifier, { auth: "post" });
  assert.equal(res.status, 200);
  const { id_token } = await res.json();
  const { payload } = await jwtVerify(id_token, createRemoteJWKSet(new URL(discovery.jwks_uri)), {
    issuer: op.issuer,
  });
  assert.equal(payload.sub, "zed-42");
  assert.equal(payload.email, "Zed@Example.org");
  assert.equal(payload.email_verified, false);
  assert.equal(payload.name, "Zed");
});

test("every authorization asks again: a second sign-in in the same jar can pick another account", async () => {
  // signInAt keeps one jar per call; the provider also drops its own session cookie, checked here by hand.
  const first = authorization();
  const res = await fetch(first.url, {
    redirect: "manual",
    headers: { cookie: "_session=stale; _session.sig=x" },
  });
  assert.equal(res.status, 303);
  assert.match(res.headers.get("location"), /\/interaction\//);
  const bob = authorization();
  const back = await signInAt(bob.url, { login: "bob" });
  const tokens = await (await exchange(back.searchParams.get("code"), bob.verifier)).json();
  const { payload } = await jwtVerify(tokens.id_token, createRemoteJWKSet(new URL(discovery.jwks_uri)));
  assert.equal(payload.sub, "bob");
});

test("a wrong code_verifier is refused with invalid_grant", async () => {
  const flow = authorization();
  const back = await signInAt(flow.url);
  const res = await exchange(back.searchParams.get("code"), randomBytes(36).toString("base64url"));
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.error, "invalid_grant");
  assert.match(body.error_description, /PKCE|code_verifier|grant/i);
});

test("PKCE is required and must be S256", async () => {
  const plain = authorization({ method: "plain" });
  const back = await signInAt(plain.url);
  assert.equal(back.searchParams.get("error"), "invalid_request");
  const url = new URL(authorization().url);
  url.searchParams.delete("code_challenge");
  url.searchParams.delete("code_challenge_method");
  assert.equal((await signInAt(url.toString())).searchParams.get("error"), "invalid_request");
});

test("a redirect URI that is not a loopback Symbolon callback gets an error page, not a redirect", async () => {
  for (const uri of [
    "https://evil.example/api/v1/oauth/callback",
    "http://localhost:45678/elsewhere",
    "http://localhost:45678/api/v1/oauth/callback?x=1",
  ]) {
    const res = await fetch(authorization({ redirectUri: uri }).url, { redirect: "manual" });
    assert.equal(res.status, 400, uri);
    const page = await res.text();
    assert.match(page, /redirect_uri/);
    assert.ok(!/<link|@import|fonts\./.test(page), "no external resources");
  }
});

test("Cancel ends the flow with access_denied and the state", async () => {
  const flow = authorization();
  const back = await signInAt(flow.url, { deny: true });
  assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
  assert.equal(back.searchParams.get("error"), "access_denied");
  assert.equal(back.searchParams.get("state"), flow.state);
  assert.equal(back.searchParams.get("code"), null);
});

test("the sign-in page lists the test accounts and loads nothing from elsewhere", async () => {
  const start = await fetch(authorization().url, { redirect: "manual" });
  const cookie = start.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const res = await fetch(new URL(start.headers.get("location"), op.issuer), { headers: { cookie } });
  assert.equal(res.status, 200);
  const page = await res.text();
  for (const login of ["alice", "bob", "unverified"]) assert.ok(page.includes(`value="${login}"`), login);
  assert.ok(!/<link|<script|@import|https?:\/\/(?!localhost)/.test(page.replace(/<code>[^<]*<\/code>/g, "")));
});
