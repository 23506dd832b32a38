// Our answers, called for real, parse under the spec vendor's published wire schemas (`@privy-io/public-api`,
// Apache-2.0, zod): the oracle of what its clients read (docs/compatibility.md). And every route the published
// route table (`@privy-io/routes`) names is either served by us (our OpenAPI document) or listed in
// docs/compatibility.md with why not, so the list cannot go stale.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { before, test } from "node:test";
import * as published from "@privy-io/public-api";
import * as routes from "@privy-io/routes";
import { browserTest } from "../lib/browser.mjs";
import { enterCode, expectSignedIn, expectSignedOut, requestCode, uniqueEmail } from "../lib/flows.mjs";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
let web;
let session;

/** Calls `/api/v1{path}` as the web app would (its origin, its headers; the session's token when signed in). */
async function call(method, path, body, { origin = web, token } = {}) {
  const response = await fetch(`${stack.urls.api}/api/v1${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      "privy-app-id": stack.appId,
      origin,
      ...(token && { authorization: `Bearer ${token}` }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/** Asserts `answer` is a 200 whose body parses under the published `schema`, naming the fields that do not. */
function conforms(answer, schema, what) {
  assert.equal(answer.status, 200, `${what}: ${JSON.stringify(answer.body)}`);
  const parsed = schema.safeParse(answer.body);
  assert.ok(parsed.success, `${what}: ${JSON.stringify(parsed.error?.issues ?? [], null, 1)}`);
}

before(async () => {
  web = new URL(stack.urls.web).origin;
  const email = uniqueEmail("conformance");
  const last = await stack.mailbox.lastId(email);
  conforms(await call("POST", "/passwordless/init", { email }), published.SuccessObject, "passwordless/init");
  const code = await stack.mailbox.waitForCode(email, { after: last });
  const login = await call("POST", "/passwordless/authenticate", { email, code });
  conforms(login, published.AuthenticatedUser, "passwordless/authenticate");
  session = login.body;
});

test("the app config parses as AppResponseSchema (allowlist_config and all)", async () => {
  conforms(await call("GET", `/apps/${stack.appId}`), published.AppResponseSchema, "apps/{id}");
});

test("session answers parse as AuthenticatedUser: login (above), refresh, guest", async () => {
  const refreshed = await call(
    "POST",
    "/sessions",
    { refresh_token: session.refresh_token },
    { token: session.token },
  );
  conforms(refreshed, published.AuthenticatedUser, "sessions (refresh)");
  session = refreshed.body;
  const credential = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  conforms(
    await call("POST", "/guest/authenticate", { guest_credential: credential }),
    published.AuthenticatedUser,
    "guest/authenticate",
  );
});

test("the user, nonces, OAuth, Farcaster and passkey challenges parse as published", async () => {
  conforms(
    await call("GET", "/users/me", undefined, { token: session.token }),
    published.UserWithIdentityToken,
    "users/me",
  );
  conforms(
    await call("POST", "/siwe/init", { address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" }),
    published.SiweNonce,
    "siwe/init",
  );
  conforms(
    await call("POST", "/oauth/init", {
      provider: "google",
      redirect_to: `${web}/`,
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      state_code: "conformance-state",
    }),
    published.OAuthInitResponse,
    "oauth/init",
  );
  conforms(
    await call("POST", "/farcaster/init", {}),
    published.FarcasterConnectInitResponse,
    "farcaster/init",
  );
  conforms(
    await call("POST", "/passkeys/authenticate/init", {}),
    published.ResponsePasskeyInitAuthenticate,
    "passkeys/authenticate/init",
  );
});

test("the authenticator-app enrolment answer parses as ResponseTotpInitMfa (the wallet origin calls it)", async () => {
  const frameOrigin = new URL(stack.urls.api).origin;
  conforms(
    await call("POST", "/mfa/totp/init", {}, { origin: frameOrigin, token: session.token }),
    published.ResponseTotpInitMfa,
    "mfa/totp/init",
  );
});

test("every published route is served or listed in docs/compatibility.md with why not", async () => {
  const document = await (await fetch(`${stack.urls.api}/api/v1/openapi.json`)).json();
  // Our paths with `{param}` → the published `:param` form, per method.
  const served = new Set();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations)) {
      served.add(`${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, ":")}`);
    }
  }
  const compatibility = await readFile(new URL("../../docs/compatibility.md", import.meta.url), "utf8");
  const missing = [];
  for (const route of Object.values(routes)) {
    if (typeof route?.path !== "string" || typeof route.method !== "string") continue;
    const key = `${route.method.toUpperCase()} ${route.path.replace(/:[A-Za-z_]+/g, ":")}`;
    if (served.has(key)) continue;
    if (!compatibility.includes(`\`${route.method.toUpperCase()} ${route.path}\``)) missing.push(key);
  }
  assert.deepEqual(missing, [], "published routes neither served nor listed in docs/compatibility.md");
});

/** The published input schema of each route our client calls, by `/api/v1` path (POST bodies). */
const REQUEST_SCHEMAS = {
  "/passwordless/init": published.InitEmailInput,
  "/passwordless/authenticate": published.AuthenticateEmailInput,
  "/passwordless_sms/init": published.PasswordlessSmsPhoneInput,
  "/passwordless_sms/authenticate": published.AuthenticatePhoneInput,
  "/guest/authenticate": published.AuthenticateGuestInput,
  "/sessions": published.RefreshTokenInput,
  "/sessions/logout": published.OptionalRefreshTokenInput,
  "/siwe/init": published.SiweInitInput,
  "/siwe/authenticate": published.AuthenticateSiweInput,
  "/oauth/init": published.OAuthInitInput,
  "/oauth/authenticate": published.AuthenticateOauthInput,
  "/custom_jwt_account/authenticate": published.AuthenticateJwtInput,
  "/farcaster/init": published.FarcasterInitInput,
  "/telegram/authenticate": published.TelegramAuthenticateInput,
};

browserTest(
  "the requests our own client sends parse under the published input schemas (guest, email login, logout)",
  async ({ page }) => {
    const sent = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.origin !== new URL(stack.urls.api).origin || request.method() !== "POST") return;
      const path = url.pathname.replace(/^\/api\/v1/, "");
      if (Object.hasOwn(REQUEST_SCHEMAS, path)) sent.push({ path, body: request.postDataJSON() });
    });
    await page.goto(stack.urls.web);
    await page.getByRole("button", { name: "Continue as guest" }).click();
    await expectSignedIn(page, "Guest");
    const email = uniqueEmail("conformance-client");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("dialog", { name: "Log in or sign up" }).waitFor();
    const code = await requestCode(page, stack, email);
    assert.equal((await enterCode(page, code)).status, 200);
    await expectSignedIn(page, email);
    await page.getByRole("button", { name: "Log out" }).click();
    await expectSignedOut(page);
    const checked = new Set();
    for (const { path, body } of sent) {
      const parsed = REQUEST_SCHEMAS[path].safeParse(body);
      assert.ok(
        parsed.success,
        `${path} ${JSON.stringify(body)}: ${JSON.stringify(parsed.error?.issues ?? [])}`,
      );
      checked.add(path);
    }
    assert.deepEqual([...checked].sort(), [
      "/guest/authenticate",
      "/passwordless/authenticate",
      "/passwordless/init",
      "/sessions/logout",
    ]);
  },
);
