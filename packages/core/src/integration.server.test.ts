import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchUser } from "./actions/fetchUser.ts";
import { getAccessToken } from "./actions/getAccessToken.ts";
import { initialize } from "./actions/initialize.ts";
import { loginWithEmailCode } from "./actions/loginWithEmailCode.ts";
import { logout } from "./actions/logout.ts";
import { refreshSession } from "./actions/refreshSession.ts";
import { sendEmailCode } from "./actions/sendEmailCode.ts";
import { type Client, createClient } from "./client/createClient.ts";
import { isApiError } from "./errors/ApiError.ts";
import { decodeJwtPayload } from "./session/decodeJwtPayload.ts";
import { tokenStore } from "./session/tokenStore.ts";
import { createMemoryStorage } from "./storage/createMemoryStorage.ts";
import type { KeyValueStorage } from "./storage/KeyValueStorage.ts";
import { ORIGIN, type RealStack, startRealStack } from "./test/realStack.ts";

// Against the real server binary (target/debug/symbolon), the real SMTP mailbox and SQLite.
let stack: RealStack;
const storage: KeyValueStorage = createMemoryStorage();
const clients: Client[] = [];
const email = `ada.${Date.now()}@example.com`;

/** The app's allowed origin: the calls come from a page there, as in a browser (which sets Origin itself). */
const fetchFromPage: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set("origin", ORIGIN);
  return fetch(input, { ...init, headers });
};

function newTab(tabStorage: KeyValueStorage = storage): Client {
  const client = createClient({
    appId: stack.appId,
    apiUrl: stack.apiUrl,
    storage: tabStorage,
    fetch: fetchFromPage,
  });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  stack = await startRealStack();
}, 90_000);
afterAll(async () => {
  for (const client of clients) client.destroy();
  await stack?.stop();
});

describe("email login against the real server", { timeout: 30_000 }, () => {
  it("initialises signed out with the app config", async () => {
    const client = newTab();
    await initialize(client);
    expect(client.store.getState()).toMatchObject({ ready: true, authenticated: false, error: null });
    expect(client.store.getState().appConfig?.id).toBe(stack.appId);
  });

  it("refuses a wrong code with invalid_credentials, then signs in with the mailed code", async () => {
    const client = newTab();
    await initialize(client);
    await sendEmailCode(client, { email });
    const code = await stack.readCode(email);
    const wrong = code === "000000" ? "111111" : "000000";
    const e = await loginWithEmailCode(client, { code: wrong }).catch((err: unknown) => err);
    expect(isApiError(e) && e.code).toBe("invalid_credentials");
    expect(client.store.getState().emailFlow).toMatchObject({ status: "error", email });
    const result = await loginWithEmailCode(client, { code: ` ${code} ` });
    expect(result.isNewUser).toBe(true);
    expect(result.user.linked_accounts).toContainEqual(
      expect.objectContaining({ type: "email", address: email }),
    );
    expect(client.store.getState()).toMatchObject({ authenticated: true, emailFlow: { status: "done" } });
  });

  it("gives an access token for this app, which the server accepts", async () => {
    const client = newTab();
    const token = await getAccessToken(client);
    expect(token).not.toBeNull();
    expect(decodeJwtPayload(token ?? "")?.aud).toBe(stack.appId);
    const user = await fetchUser(client);
    expect(user?.linked_accounts).toContainEqual(expect.objectContaining({ address: email }));
  });

  it("rotates the refresh token on refresh and keeps the user signed in", async () => {
    const client = newTab();
    const before = tokenStore.read(client);
    const user = await refreshSession(client);
    const after = tokenStore.read(client);
    expect(user).not.toBeNull();
    expect(after.refreshToken).not.toBeNull();
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.token).not.toBeNull();
    await expect(fetchUser(client)).resolves.toMatchObject({ id: user?.id });
  });

  it("is still signed in after a reload", async () => {
    const client = newTab();
    await initialize(client);
    expect(client.store.getState()).toMatchObject({ ready: true, authenticated: true });
    expect(client.store.getState().user?.linked_accounts).toContainEqual(
      expect.objectContaining({ address: email }),
    );
  });

  it("logs out, and the server no longer honours the old refresh token", async () => {
    const client = newTab();
    await initialize(client);
    const { token, refreshToken } = tokenStore.read(client);
    await logout(client);
    expect(client.store.getState()).toMatchObject({ authenticated: false, user: null });
    await expect(getAccessToken(client)).resolves.toBeNull();

    // A tab that still holds the old tokens is refused on its next refresh and signs out.
    const stale = createMemoryStorage();
    stale.setItem(`privy:token:${stack.appId}`, token ?? "");
    stale.setItem(`privy:refresh_token:${stack.appId}`, refreshToken ?? "");
    const other = newTab(stale);
    await expect(refreshSession(other)).resolves.toBeNull();
    expect(tokenStore.read(other).refreshToken).toBeNull();
  });
});
