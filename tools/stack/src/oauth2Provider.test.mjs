// The GitHub-style OAuth 2.0 stand-in as an OAuth app sees it: GitHub's endpoints and answers, PKCE S256, the
// suspended account, Cancel, and the refusals GitHub documents.
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { startOauth2Provider } from "./oauth2Provider.mjs";
import { signInAt } from "./oauthLoginClient.mjs";

const CLIENT = { id: "symbolon-dev", secret: "symbolon-dev-secret" };
const REDIRECT = "http://127.0.0.1:45678/api/v1/oauth/callback";
let gh;
before(async () => {
  gh = await startOauth2Provider();
});
after(() => gh.stop());

function authorization({ challenge = true, redirectUri = REDIRECT, clientId = CLIENT.id } = {}) {
  const verifier = randomBytes(36).toString("base64url");
  const state = randomBytes(36).toString("base64url");
  const url = new URL(gh.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: "read:user user:email",
    state,
    ...(challenge && {
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    }),
  }).toString();
  return { url: url.toString(), verifier, state };
}

/** POSTs the token request as a JSON or form body, asking for JSON unless `accept` says otherwise. */
async function exchange(
  code,
  verifier,
  { json = false, accept = "application/json", secret = CLIENT.secret } = {},
) {
  const params = { client_id: CLIENT.id, client_secret: secret, code, redirect_uri: REDIRECT };
  if (verifier !== undefined) params.code_verifier = verifier;
  const res = await fetch(gh.tokenUrl, {
    method: "POST",
    headers: { accept, "content-type": json ? "application/json" : "application/x-www-form-urlencoded" },
    body: json ? JSON.stringify(params) : new URLSearchParams(params),
  });
  assert.equal(res.status, 200, "GitHub answers token requests 200, errors included");
  return accept === "application/json"
    ? res.json()
    : Object.fromEntries(new URLSearchParams(await res.text()));
}

const user = (token, path = "/user") =>
  fetch(`${gh.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

test("a full code flow with PKCE: code, token (JSON body, JSON answer), /user and /user/emails", async () => {
  const flow = authorization();
  const back = await signInAt(flow.url, { login: "octocat" });
  assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
  assert.equal(back.searchParams.get("state"), flow.state);
  const tokens = await exchange(back.searchParams.get("code"), flow.verifier, { json: true });
  assert.match(tokens.access_token, /^gho_/);
  assert.equal(tokens.token_type, "bearer");
  assert.equal(tokens.scope, "read:user user:email");

  const res = await user(tokens.access_token);
  assert.equal(res.status, 200);
  const me = await res.json();
  assert.deepEqual(
    { id: me.id, login: me.login, name: me.name, email: me.email },
    { id: 583231, login: "octocat", name: "The Octocat", email: "octocat@example.com" },
  );
  const emails = await (await user(tokens.access_token, "/user/emails")).json();
  assert.deepEqual(emails, [
    { email: "octocat@example.com", primary: true, verified: true, visibility: "public" },
  ]);
});

test("a form body gets a form-encoded answer without Accept: application/json; `token` auth works on /user", async () => {
  const flow = authorization();
  const back = await signInAt(flow.url, { login: "new-user", name: "New User" });
  const tokens = await exchange(back.searchParams.get("code"), flow.verifier, { accept: "*/*" });
  assert.equal(tokens.token_type, "bearer");
  const me = await (
    await fetch(`${gh.url}/user`, { headers: { authorization: `token ${tokens.access_token}` } })
  ).json();
  assert.equal(me.login, "new-user");
  assert.equal(me.name, "New User");
  assert.equal(me.email, "new-user@example.com");
  assert.ok(Number.isInteger(me.id) && me.id > 2_000_000, "a stable numeric id");
});

test("a wrong or missing code_verifier is bad_verification_code, and the code is spent", async () => {
  const flow = authorization();
  const back = await signInAt(flow.url);
  const code = back.searchParams.get("code");
  const wrong = await exchange(code, randomBytes(36).toString("base64url"));
  assert.equal(wrong.error, "bad_verification_code");
  assert.equal(wrong.access_token, undefined);
  const after = await exchange(code, flow.verifier);
  assert.equal(after.error, "bad_verification_code", "a code works once, even after a failed try");

  const again = authorization();
  const missing = await exchange((await signInAt(again.url)).searchParams.get("code"), "");
  assert.equal(missing.error, "bad_verification_code");
});

test("without a challenge no verifier is needed (GitHub's PKCE is optional); a plain challenge is refused", async () => {
  const flow = authorization({ challenge: false });
  const tokens = await exchange((await signInAt(flow.url)).searchParams.get("code"), undefined);
  assert.match(tokens.access_token, /^gho_/);

  const plain = new URL(authorization().url);
  plain.searchParams.set("code_challenge_method", "plain");
  const back = await signInAt(plain.toString());
  assert.equal(back.searchParams.get("error"), "invalid_request");
});

test("a wrong client secret and a wrong redirect_uri are refused with GitHub's errors", async () => {
  const flow = authorization();
  const code = (await signInAt(flow.url)).searchParams.get("code");
  assert.equal(
    (await exchange(code, flow.verifier, { secret: "nope" })).error,
    "incorrect_client_credentials",
  );
  const res = await fetch(gh.tokenUrl, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
      code,
      redirect_uri: "http://localhost:1/api/v1/oauth/callback",
      code_verifier: flow.verifier,
    }),
  });
  assert.equal((await res.json()).error, "redirect_uri_mismatch");
});

test("the suspended account signs in, then /user answers 403 'Sorry. Your account was suspended.'", async () => {
  const flow = authorization();
  const tokens = await exchange(
    (await signInAt(flow.url, { login: "suspended" })).searchParams.get("code"),
    flow.verifier,
  );
  assert.match(tokens.access_token, /^gho_/);
  for (const path of ["/user", "/user/emails"]) {
    const res = await user(tokens.access_token, path);
    assert.equal(res.status, 403, path);
    assert.equal((await res.json()).message, "Sorry. Your account was suspended.");
  }
});

test("a private email: /user has email null, /user/emails lists it", async () => {
  const flow = authorization();
  const tokens = await exchange(
    (await signInAt(flow.url, { login: "hidden-email" })).searchParams.get("code"),
    flow.verifier,
  );
  assert.equal((await (await user(tokens.access_token)).json()).email, null);
  const [email] = await (await user(tokens.access_token, "/user/emails")).json();
  assert.deepEqual(email, {
    email: "hidden@example.com",
    primary: true,
    verified: true,
    visibility: "private",
  });
});

test("Cancel sends access_denied with GitHub's description and the state", async () => {
  const flow = authorization();
  const back = await signInAt(flow.url, { deny: true });
  assert.equal(back.searchParams.get("error"), "access_denied");
  assert.equal(back.searchParams.get("error_description"), "The user has denied your application access.");
  assert.equal(back.searchParams.get("state"), flow.state);
});

test("an unknown client or a foreign redirect_uri gets a 400 page and no redirect; bad tokens get 401", async () => {
  for (const flow of [
    authorization({ clientId: "unknown" }),
    authorization({ redirectUri: "https://evil.example/api/v1/oauth/callback" }),
  ]) {
    const res = await fetch(flow.url, { redirect: "manual" });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get("location"), null);
  }
  const res = await user("gho_nope");
  assert.equal(res.status, 401);
  assert.equal((await res.json()).message, "Bad credentials");
});
