// The spec's published server SDK (`@privy-io/node`, Apache-2.0), pointed at our server with `apiUrl`, accepts
// our tokens unchanged (docs/compatibility.md): it verifies an access token against the keys it fetches from
// `{apiUrl}/v1/apps/{app_id}/jwks.json` (ES256, iss `privy.io`, aud the app id) and reads the user from our
// identity token. Tokens of another app, tampered or expired ones are refused. With the app's secret it drives our
// `/v1` users API (docs/server-api.md): read, list, look up, create, tag and delete users. No browser: what a
// host's back end does.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { AuthenticationError, NotFoundError, PrivyClient, UnprocessableEntityError } from "@privy-io/node";
import { uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
let privy;
/** The SDK with the app's real secret (the `/v1` API). */
let admin;
let session;
let email;

/** POSTs `body` to `/api/v1{path}` as the web app would (its origin, its headers); the JSON answer, or fails. */
async function call(path, body) {
  const origin = new URL(stack.urls.web).origin;
  const response = await fetch(`${stack.urls.api}/api/v1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "privy-app-id": stack.appId, origin },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  assert.equal(response.status, 200, `${path}: ${JSON.stringify(json)}`);
  return json;
}

/** Signs `address` in by email code over HTTP. */
async function signIn(address) {
  const last = await stack.mailbox.lastId(address);
  await call("/passwordless/init", { email: address });
  const code = await stack.mailbox.waitForCode(address, { after: last });
  return call("/passwordless/authenticate", { email: address, code });
}

before(async () => {
  // The SDK needs an app secret to exist; verifying tokens never sends it.
  privy = new PrivyClient({
    appId: stack.appId,
    appSecret: "unused-by-token-checks",
    apiUrl: stack.urls.api,
  });
  admin = new PrivyClient({ appId: stack.appId, appSecret: stack.appSecret, apiUrl: stack.urls.api });
  email = uniqueEmail("sdk");
  session = await signIn(email);
});

after(() => {
  privy = undefined;
  admin = undefined;
});

test("verifyAccessToken accepts our access token: app, user, session, times", async () => {
  const verified = await privy.utils().auth().verifyAccessToken(session.token);
  assert.equal(verified.app_id, stack.appId);
  assert.equal(verified.user_id, session.user.id);
  assert.equal(verified.issuer, "privy.io");
  assert.equal(typeof verified.session_id, "string");
  assert.ok(verified.expiration > verified.issued_at);
});

test("verifyAccessToken refuses a tampered token and another app's", async () => {
  const [header, payload, signature] = session.token.split(".");
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
  const forged = [
    header,
    Buffer.from(JSON.stringify({ ...claims, sub: "did:privy:someone-else" })).toString("base64url"),
    signature,
  ].join(".");
  await assert.rejects(privy.utils().auth().verifyAccessToken(forged));
  if (stack.appBId) {
    const other = new PrivyClient({ appId: stack.appBId, appSecret: "unused", apiUrl: stack.urls.api });
    await assert.rejects(other.utils().auth().verifyAccessToken(session.token), "aud is the first app");
  }
});

test("users().get({id_token}) reads the user from our identity token", async () => {
  const user = await privy.users().get({ id_token: session.identity_token });
  assert.equal(user.id, session.user.id);
  assert.equal(user.created_at, session.user.created_at);
  assert.equal(user.is_guest, false);
  const mail = user.linked_accounts.find((account) => account.type === "email");
  assert.equal(mail?.address, email);
  assert.ok(typeof mail?.latest_verified_at === "number" && mail.latest_verified_at > 0);
});

test("a guest's identity token says guest", async () => {
  const guest = await call("/guest/authenticate", {
    guest_credential: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url"),
  });
  const user = await privy.users().get({ id_token: guest.identity_token });
  assert.equal(user.id, guest.user.id);
  assert.equal(user.is_guest, true);
});

test("with the app secret the SDK reads our users: by id, by email, page by page", async () => {
  const byId = await admin.users()._get(session.user.id);
  assert.deepEqual(byId, session.user, "the user the login answered");
  const byBareId = await admin.users()._get(session.user.id.replace("did:privy:", ""));
  assert.equal(byBareId.id, session.user.id);
  const byEmail = await admin.users().getByEmailAddress({ address: email.toUpperCase() });
  assert.equal(byEmail.id, session.user.id);
  const ids = [];
  for await (const user of admin.users().list({ limit: 2 })) ids.push(user.id);
  assert.ok(ids.includes(session.user.id), "the auto-paginating list reaches the user");
  assert.equal(new Set(ids).size, ids.length, "no user twice across pages");
});

test("a wrong secret is the SDK's AuthenticationError, a miss its NotFoundError", async () => {
  const wrong = new PrivyClient({
    appId: stack.appId,
    appSecret: `${stack.appSecret.slice(0, -4)}AAAA`,
    apiUrl: stack.urls.api,
    maxRetries: 0,
  });
  await assert.rejects(wrong.users()._get(session.user.id), (error) => {
    assert.ok(error instanceof AuthenticationError, String(error));
    assert.equal(error.error?.code, "invalid_credentials");
    return true;
  });
  await assert.rejects(admin.users().getByEmailAddress({ address: uniqueEmail("nobody") }), NotFoundError);
  await assert.rejects(admin.users().getByCustomAuthID({ custom_user_id: "nobody-here" }), NotFoundError);
});

test("the SDK creates, tags and deletes a user; the created user signs in by email as that user", async () => {
  const address = uniqueEmail("import");
  const created = await admin.users().create({
    linked_accounts: [{ type: "email", address }],
    custom_metadata: { plan: "pro" },
  });
  assert.deepEqual(created.custom_metadata, { plan: "pro" });
  await assert.rejects(
    admin.users().create({ linked_accounts: [{ type: "email", address }] }),
    UnprocessableEntityError,
    "an account belongs to one user",
  );
  const tagged = await admin
    .users()
    .setCustomMetadata(created.id, { custom_metadata: { plan: "team", seats: 3 } });
  assert.deepEqual(tagged.custom_metadata, { plan: "team", seats: 3 });

  const signedIn = await signIn(address);
  assert.equal(signedIn.user.id, created.id);
  const fromToken = await admin.users().get({ id_token: signedIn.identity_token });
  assert.deepEqual(fromToken.custom_metadata, { plan: "team", seats: 3 }, "the identity token carries it");

  await admin.users().delete(created.id);
  await assert.rejects(admin.users()._get(created.id), NotFoundError);
  await assert.rejects(admin.users().getByEmailAddress({ address }), NotFoundError);
});

test("the SDK searches users by a term and by lists, and reads the app's settings", async () => {
  const found = await admin.users().search({ searchTerm: email.toUpperCase() });
  assert.equal(found.id, session.user.id);
  const byPart = await admin.users().search({ searchTerm: email.split("@")[0] });
  assert.equal(byPart.id, session.user.id);
  const byList = await admin
    .users()
    .search({ emails: [uniqueEmail("nobody"), email], phoneNumbers: [], walletAddresses: [] });
  assert.equal(byList.id, session.user.id);
  await assert.rejects(admin.users().search({ searchTerm: uniqueEmail("nobody") }), NotFoundError);

  const settings = await admin.apps().get(stack.appId);
  assert.equal(settings.id, stack.appId);
  assert.equal(settings.email_auth, true);
  assert.ok(settings.allowed_domains.includes(new URL(stack.urls.web).origin), settings.allowed_domains);
  // The key it shows verifies our tokens in the SDK, with no JWKS fetch.
  const pinned = new PrivyClient({
    appId: stack.appId,
    appSecret: "unused",
    apiUrl: "http://127.0.0.1:9",
    jwtVerificationKey: settings.verification_key,
  });
  const verified = await pinned.utils().auth().verifyAccessToken(session.token);
  assert.equal(verified.user_id, session.user.id);
  await assert.rejects(admin.apps().get(stack.appBId ?? "cm0000000000000000000none"), NotFoundError);
});
