// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getAccessTokenForProvider } from "../actions/getAccessTokenForProvider.ts";
import { handleOAuthReturn } from "../actions/handleOAuthReturn.ts";
import { linkOAuth } from "../actions/linkOAuth.ts";
import { loginWithEmailCode } from "../actions/loginWithEmailCode.ts";
import { loginWithOAuth } from "../actions/loginWithOAuth.ts";
import { logout } from "../actions/logout.ts";
import { unlinkOAuth } from "../actions/unlinkOAuth.ts";
import type { Client } from "../client/createClient.ts";
import { isClientError } from "../errors/ClientError.ts";
import { IN_APP_BROWSER_MESSAGE, isOAuthError, ORIGIN_MISMATCH_MESSAGE } from "../errors/OAuthError.ts";
import type { OAuthInitRequest, OAuthTokens } from "../generated/protocol.ts";
import { storageKey } from "../session/storageKey.ts";
import { APP_ID, GOOGLE_ACCOUNT, makeUser } from "../test/fixtures.ts";
import { makeClient, useScriptedApp, waitFor } from "../test/harness.ts";
import { s256Challenge } from "./createPkce.ts";
import { pendingOAuth } from "./pendingOAuth.ts";

const scripted = useScriptedApp();
const PROVIDER_URL = "https://accounts.example/authorize";
const TOKENS: OAuthTokens = {
  provider: "google",
  access_token: "ya29.provider-token",
  access_token_expires_in_seconds: 3600,
  refresh_token: null,
  refresh_token_expires_in_seconds: null,
  scopes: ["openid", "email"],
};

/** A stand-in for the popup window: the opener only reads `closed`, sets its address and closes it. */
function fakePopup() {
  const popup = { closed: false, location: { href: "" }, close: vi.fn(() => (popup.closed = true)) };
  vi.spyOn(window, "open").mockReturnValue(popup as unknown as Window);
  return popup;
}

/** Scripts the OAuth routes: init answers the provider's URL, authenticate a session (with tokens). */
function scriptOAuth() {
  scripted.server.on("POST /api/v1/oauth/init", () => ({ json: { url: PROVIDER_URL } }));
  scripted.server.on("POST /api/v1/oauth/authenticate", () => ({
    json: scripted.app.issue({
      user: makeUser({ linked_accounts: [GOOGLE_ACCOUNT] }),
      is_new_user: true,
      oauth_tokens: TOKENS,
    }),
  }));
}

const initBody = () =>
  scripted.server.hitsOf("POST /api/v1/oauth/init")[0]?.body as OAuthInitRequest | undefined;

/** What the popup's page posts to its opener. */
function popupAnswers(data: unknown, origin = window.location.origin) {
  window.dispatchEvent(new MessageEvent("message", { data, origin }));
}

let client: Client;
beforeEach(() => {
  window.localStorage.clear();
  window.history.replaceState(null, "", "/app?tab=1");
  scriptOAuth();
  client = makeClient(scripted.server, { storage: window.localStorage });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("PKCE", () => {
  it("the challenge is S256 of the verifier (RFC 7636 appendix B vector)", async () => {
    expect(await s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });
});

describe("OAuth login in a popup", () => {
  it("sends a fresh state and the verifier's S256 challenge, opens the provider, logs in with the popup's code", async () => {
    const popup = fakePopup();
    const login = loginWithOAuth(client, { provider: "google" });
    expect(client.store.getState().oauthFlow).toMatchObject({ status: "loading", provider: "google" });
    await waitFor(() => popup.location.href === PROVIDER_URL);
    const init = initBody();
    expect(init).toMatchObject({ provider: "google", redirect_to: `${window.location.origin}/app?tab=1` });
    const pending = pendingOAuth.read(client);
    // 36 random bytes each, base64url: 48 characters.
    expect(pending?.stateCode).toHaveLength(48);
    expect(pending?.codeVerifier).toHaveLength(48);
    expect(init?.state_code).toBe(pending?.stateCode);
    expect(init?.code_challenge).toBe(await s256Challenge(pending?.codeVerifier ?? ""));

    popupAnswers({ type: "PRIVY_OAUTH_RESPONSE", stateCode: init?.state_code, authorizationCode: "code-1" });
    const result = await login;
    const auth = scripted.server.hitsOf("POST /api/v1/oauth/authenticate")[0]?.body;
    expect(auth).toEqual({
      authorization_code: "code-1",
      state_code: init?.state_code,
      code_verifier: pending?.codeVerifier,
      provider: "google",
      mode: "login-or-sign-up",
    });
    expect(result?.isNewUser).toBe(true);
    expect(client.store.getState()).toMatchObject({ authenticated: true, oauthFlow: { status: "done" } });
    // The record is used once.
    expect(pendingOAuth.read(client)).toBeNull();
  });

  it("keeps the provider's tokens in memory only, and forgets them on logout", async () => {
    const popup = fakePopup();
    const login = loginWithOAuth(client, { provider: "google", disableSignup: true });
    await waitFor(() => popup.location.href !== "");
    popupAnswers({ type: "PRIVY_OAUTH_RESPONSE", stateCode: initBody()?.state_code, authorizationCode: "c" });
    await login;
    expect(scripted.server.hitsOf("POST /api/v1/oauth/authenticate")[0]?.body).toMatchObject({
      mode: "no-signup",
    });
    expect(getAccessTokenForProvider(client, "google")).toBe("ya29.provider-token");
    expect(JSON.stringify({ ...window.localStorage })).not.toContain("ya29");
    await logout(client);
    expect(getAccessTokenForProvider(client, "google")).toBeNull();
    expect(client.store.getState().oauthTokens).toEqual({});
  });

  it("a state that is not ours is refused as phishing, with an analytics event, and nothing is posted", async () => {
    const popup = fakePopup();
    const login = loginWithOAuth(client, { provider: "google" }).catch((e: unknown) => e);
    await waitFor(() => popup.location.href !== "");
    popupAnswers({ type: "PRIVY_OAUTH_RESPONSE", stateCode: "forged-state", authorizationCode: "c" });
    const error = await login;
    expect(isClientError(error) && error.code).toBe("pkce_state_code_mismatch");
    expect((error as Error).message).toBe("Unexpected auth flow. This may be a phishing attempt.");
    await waitFor(() => scripted.server.hitsOf("POST /api/v1/analytics_events").some(isPhishingEvent));
    expect(scripted.server.hitsOf("POST /api/v1/oauth/authenticate")).toHaveLength(0);
    expect(client.store.getState().oauthFlow).toMatchObject({
      status: "error",
      error: { code: "pkce_state_code_mismatch" },
    });
  });

  it("refuses a popup message from another origin", async () => {
    const popup = fakePopup();
    const login = loginWithOAuth(client, { provider: "google" }).catch((e: unknown) => e);
    await waitFor(() => popup.location.href !== "");
    popupAnswers(
      { type: "PRIVY_OAUTH_RESPONSE", stateCode: initBody()?.state_code, authorizationCode: "c" },
      "https://evil.example",
    );
    const error = await login;
    expect(isOAuthError(error) && error.code).toBe("invalid_origin");
    expect((error as Error).message).toBe(ORIGIN_MISMATCH_MESSAGE);
    expect(scripted.server.hitsOf("POST /api/v1/oauth/authenticate")).toHaveLength(0);
    expect(popup.close).toHaveBeenCalled();
  });

  it("takes the answer from the BroadcastChannel when the opener link is severed", async () => {
    const popup = fakePopup();
    const login = loginWithOAuth(client, { provider: "google" });
    await waitFor(() => popup.location.href !== "");
    const channel = new BroadcastChannel(`privy:oauth:${APP_ID}`);
    channel.postMessage({
      type: "PRIVY_OAUTH_RESPONSE",
      stateCode: initBody()?.state_code,
      authorizationCode: "c",
    });
    channel.close();
    expect((await login)?.user.linked_accounts[0]?.type).toBe("google_oauth");
  });

  it("a popup closed without an answer fails the flow", async () => {
    const popup = fakePopup();
    const login = loginWithOAuth(client, { provider: "google" }).catch((e: unknown) => e);
    await waitFor(() => popup.location.href !== "");
    popup.closed = true;
    const error = await login;
    expect(isOAuthError(error) && error.code).toBe("oauth_popup_closed");
    expect(client.store.getState().oauthFlow.status).toBe("error");
  });

  it("the provider's access_denied is the user refusing", async () => {
    const popup = fakePopup();
    const login = loginWithOAuth(client, { provider: "github" }).catch((e: unknown) => e);
    await waitFor(() => popup.location.href !== "");
    popupAnswers({ type: "PRIVY_OAUTH_ERROR", error: "access_denied" });
    expect(isOAuthError(await login) && ((await login) as { code: string }).code).toBe("oauth_user_denied");
  });
});

const isPhishingEvent = (hit: { body: unknown }) =>
  (hit.body as { event_name?: string }).event_name === "possible_phishing_attempt";

describe("OAuth by full-page redirect", () => {
  async function redirectAway(provider = "google") {
    const result = await loginWithOAuth(client, { provider, display: "redirect" });
    expect(result).toBeNull();
    return initBody();
  }

  it("completes on the return and removes the privy_oauth_* parameters from the address", async () => {
    const init = await redirectAway();
    window.history.replaceState(
      null,
      "",
      `/app?tab=1&privy_oauth_code=code-9&privy_oauth_state=${init?.state_code}&privy_oauth_provider=google#top`,
    );
    // A new page load: a new client over the same storage.
    const returned = makeClient(scripted.server, { storage: window.localStorage });
    const outcome = await handleOAuthReturn(returned);
    expect(window.location.search).toBe("?tab=1");
    expect(window.location.hash).toBe("#top");
    expect(outcome).toMatchObject({ type: "completed", provider: "google", intent: "login" });
    expect(scripted.server.hitsOf("POST /api/v1/oauth/authenticate")[0]?.body).toMatchObject({
      authorization_code: "code-9",
      code_verifier: expect.any(String),
    });
    expect(returned.store.getState()).toMatchObject({ authenticated: true, oauthFlow: { status: "done" } });
  });

  it("a tampered state on the return is the phishing error, with the analytics event", async () => {
    await redirectAway();
    window.history.replaceState(
      null,
      "",
      "/app?privy_oauth_code=c&privy_oauth_state=tampered&privy_oauth_provider=google",
    );
    const returned = makeClient(scripted.server, { storage: window.localStorage });
    const error = await handleOAuthReturn(returned).catch((e: unknown) => e);
    expect(isClientError(error) && error.message).toBe(
      "Unexpected auth flow. This may be a phishing attempt.",
    );
    expect(window.location.search).toBe("");
    await waitFor(() => scripted.server.hitsOf("POST /api/v1/analytics_events").some(isPhishingEvent));
    expect(scripted.server.hitsOf("POST /api/v1/oauth/authenticate")).toHaveLength(0);
    expect(returned.store.getState().oauthFlow).toMatchObject({ status: "error", provider: "google" });
  });

  it("a return nobody here started is refused the same way", async () => {
    window.history.replaceState(
      null,
      "",
      "/app?privy_oauth_code=c&privy_oauth_state=s&privy_oauth_provider=google",
    );
    const error = await handleOAuthReturn(client).catch((e: unknown) => e);
    expect(isClientError(error) && error.code).toBe("pkce_state_code_mismatch");
  });

  it("no parameters: nothing to do", async () => {
    expect(await handleOAuthReturn(client)).toEqual({ type: "none" });
  });

  it("in the popup, hands the code to the opener and closes", async () => {
    const popup = fakePopup();
    const login = loginWithOAuth(client, { provider: "google" });
    await waitFor(() => popup.location.href !== "");
    const state = initBody()?.state_code;
    // The popup's page: same origin, same storage, the provider sent it back with the code.
    window.history.replaceState(
      null,
      "",
      `/app?privy_oauth_code=pc&privy_oauth_state=${state}&privy_oauth_provider=google`,
    );
    const inPopup = makeClient(scripted.server, { storage: window.localStorage });
    const close = vi.spyOn(window, "close").mockImplementation(() => {});
    expect(await handleOAuthReturn(inPopup)).toEqual({ type: "popup" });
    expect(close).toHaveBeenCalled();
    expect(window.location.search).toBe("");
    // The opener (here the same window) completes the login with it.
    expect((await login)?.isNewUser).toBe(true);
    expect(scripted.server.hitsOf("POST /api/v1/oauth/authenticate")).toHaveLength(1);
    expect(window.localStorage.getItem(storageKey(APP_ID, "oauth_response"))).toBeNull();
  });
});

describe("in-app browsers", () => {
  it("Google refuses them: the in-app-browser error, before anything is sent", async () => {
    vi.spyOn(window.navigator, "userAgent", "get").mockReturnValue(
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 300.0",
    );
    const open = vi.spyOn(window, "open");
    const error = await loginWithOAuth(client, { provider: "google" }).catch((e: unknown) => e);
    expect(isOAuthError(error) && error.code).toBe("in_app_browser");
    expect((error as Error).message).toBe(IN_APP_BROWSER_MESSAGE);
    expect(open).not.toHaveBeenCalled();
    expect(scripted.server.hitsOf("POST /api/v1/oauth/init")).toHaveLength(0);
    expect(client.store.getState().oauthFlow).toMatchObject({ status: "error", provider: "google" });
  });
});

describe("link and unlink", () => {
  it("linking needs a signed-in user", async () => {
    const error = await linkOAuth(client, { provider: "github" }).catch((e: unknown) => e);
    expect((error as Error).message).toBe("User must be authenticated before linking an account.");
  });

  it("links through /oauth/link with the bearer token, and unlinks with provider and subject", async () => {
    await loginWithEmailCode(client, { email: "ada@example.com", code: "123456" });
    const linked = makeUser({
      linked_accounts: [...makeUser().linked_accounts, { ...GOOGLE_ACCOUNT, type: "github_oauth" }],
    });
    scripted.server.on("POST /api/v1/oauth/link", () => {
      scripted.app.user = linked;
      return { json: linked };
    });
    const popup = fakePopup();
    const link = linkOAuth(client, { provider: "github" });
    await waitFor(() => popup.location.href !== "");
    popupAnswers({ type: "PRIVY_OAUTH_RESPONSE", stateCode: initBody()?.state_code, authorizationCode: "c" });
    const result = await link;
    const hit = scripted.server.hitsOf("POST /api/v1/oauth/link")[0];
    expect(hit?.headers.authorization).toMatch(/^Bearer /);
    expect(hit?.body).not.toHaveProperty("mode");
    expect(result?.wasAlreadyAuthenticated).toBe(true);
    expect(client.store.getState().user?.linked_accounts.map((a) => a.type)).toContain("github_oauth");
    // A second account of the type is refused before anything opens.
    const again = await linkOAuth(client, { provider: "github" }).catch((e: unknown) => e);
    expect((again as Error).message).toBe("User already has an account of type github_oauth linked.");

    scripted.server.on("POST /api/v1/oauth/unlink", () => ({ json: makeUser() }));
    await unlinkOAuth(client, { provider: "github", subject: "g-123" });
    expect(scripted.server.hitsOf("POST /api/v1/oauth/unlink")[0]?.body).toEqual({
      provider: "github",
      subject: "g-123",
    });
  });
});
