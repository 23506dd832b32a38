// Passkeys as a person meets them (issue 12): Chromium's virtual WebAuthn authenticator plays the phone or the
// laptop's fingerprint reader (CDP `WebAuthn`, only on http://localhost: the RP id is `localhost`), the login modal's
// passkey screens and the demo's Security card. Screen texts follow packages/react/src/modal/ (docs/screens.md).
import assert from "node:assert/strict";
import { openLoginModal } from "./flows.mjs";

/** A platform authenticator with user verification that says yes by itself (resident keys: discoverable login). */
const AUTHENTICATOR = {
  protocol: "ctap2",
  transport: "internal",
  hasResidentKey: true,
  hasUserVerification: true,
  isUserVerified: true,
  automaticPresenceSimulation: true,
};

/**
 * Gives `page` a virtual authenticator. A fresh one holds no credential: linking another passkey needs one
 * (the server excludes the user's passkeys, and an authenticator holding one of them refuses to make another),
 * so `swap()` replaces it with a new, empty one; `credentials()` lists what the current one holds.
 */
export async function virtualAuthenticator(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const add = async () =>
    (await cdp.send("WebAuthn.addVirtualAuthenticator", { options: AUTHENTICATOR })).authenticatorId;
  let authenticatorId = await add();
  return {
    get id() {
      return authenticatorId;
    },
    async credentials() {
      return (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials;
    },
    async swap() {
      await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
      authenticatorId = await add();
    },
    /** Puts a credential (as `credentials()` gave it) back, e.g. to log in again with an earlier passkey. */
    async restore(credential) {
      await cdp.send("WebAuthn.addCredential", { authenticatorId, credential });
    },
  };
}

/** Resolves with the status and JSON body of the next POST to `/api/v1{route}`. */
export async function apiAnswer(page, route, timeout = 20_000) {
  const response = await page.waitForResponse(
    (r) => new URL(r.url()).pathname === `/api/v1${route}` && r.request().method() === "POST",
    { timeout },
  );
  return { status: response.status(), body: await response.json() };
}

/** Opens the login modal and goes to its passkey screen ("Continue with a passkey", else behind More options). */
export async function openPasskeyScreen(page, stack) {
  const dialog = await openLoginModal(page, stack);
  const passkey = dialog.getByRole("button", { name: "Continue with a passkey" });
  const more = dialog.getByRole("button", { name: "More options" });
  await passkey.or(more).first().waitFor();
  if (!(await passkey.isVisible())) await more.click();
  await passkey.click();
  // Nothing is asked of the browser until the person picks Log in or Sign up.
  await dialog.getByRole("heading", { name: "Continue with a passkey" }).waitFor();
  return dialog;
}

/** The whole passkey sign-up from the landing page; returns `/passkeys/register`'s answer once the user is shown. */
export async function signUpWithPasskey(page, stack) {
  const dialog = await openPasskeyScreen(page, stack);
  const answer = apiAnswer(page, "/passkeys/register");
  await dialog.getByRole("button", { name: "Sign up with a passkey" }).click();
  const result = await answer;
  assert.equal(result.status, 200, JSON.stringify(result.body));
  await page.getByTestId("user-id").waitFor();
  return result;
}

/** The passkey login from the landing page; returns `/passkeys/authenticate`'s answer once the user is shown. */
export async function logInWithPasskey(page, stack) {
  const answer = apiAnswer(page, "/passkeys/authenticate");
  const dialog = await openPasskeyScreen(page, stack);
  await dialog.getByRole("button", { name: "Log in with a passkey" }).click();
  const result = await answer;
  assert.equal(result.status, 200, JSON.stringify(result.body));
  await dialog.waitFor({ state: "hidden" });
  await page.getByTestId("user-id").waitFor();
  return result;
}

/** The signed-in user's id as the page shows it. */
export async function shownUserId(page) {
  return ((await page.getByTestId("user-id").textContent()) ?? "").trim();
}

/** The Security card. */
export function securityCard(page) {
  return page.getByRole("region", { name: "Security" });
}

/** The rows of the Security card's passkey list (none: an empty list). */
export function passkeyRows(page) {
  return securityCard(page).getByRole("list", { name: "Passkeys" }).getByRole("listitem");
}

/** "Add a passkey" on the Security card with a fresh authenticator; returns `/passkeys/link`'s answer. */
export async function addPasskey(page, authenticator) {
  await authenticator.swap();
  const before = await passkeyRows(page).count();
  const answer = apiAnswer(page, "/passkeys/link");
  await securityCard(page).getByRole("button", { name: "Add a passkey" }).click();
  const result = await answer;
  assert.equal(result.status, 200, JSON.stringify(result.body));
  await page.waitForFunction(
    (n) => document.querySelectorAll('[aria-label="Passkeys"] > li').length === n,
    before + 1,
  );
  return result;
}

/** Remembers the bearer token the page sends to the API (for calls a script on the page could make). */
export function watchAccessToken(page) {
  let token = null;
  page.on("request", (request) => {
    const authorization = request.headers().authorization;
    if (authorization?.startsWith("Bearer ") && new URL(request.url()).pathname.startsWith("/api/v1/"))
      token = authorization.slice(7);
  });
  return () => token;
}

/** POSTs `body` to `/api/v1{route}` from the page with the user's token; resolves status and JSON body. */
export async function callApi(page, stack, route, body, token) {
  return page.evaluate(
    async ({ url, appId, body, token }) => {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "privy-app-id": appId,
          "content-type": "application/json",
        },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    { url: `${stack.urls.api}/api/v1${route}`, appId: stack.appId, body, token },
  );
}
