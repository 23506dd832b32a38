import { describe, expect, it } from "vitest";
import { isClientError } from "../errors/ClientError.ts";
import { storageKey } from "../session/storageKey.ts";
import { tokenStore } from "../session/tokenStore.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import { APP_ID, mintToken } from "../test/fixtures.ts";
import { makeClient, storeSession, useScriptedApp } from "../test/harness.ts";
import { getAccessToken } from "./getAccessToken.ts";
import { refreshSession } from "./refreshSession.ts";

const now = () => Math.floor(Date.now() / 1000);
const scripted = useScriptedApp();

/** A client whose storage holds a session with an access token expiring at `exp`. */
function signedInClient(exp: number, claims: { aud?: string } = {}) {
  const storage = createMemoryStorage();
  const session = scripted.app.issue({ token: mintToken({ exp, ...claims }) });
  storeSession(storage, session);
  return { client: makeClient(scripted.server, { storage }), storage, session };
}

describe("getAccessToken", () => {
  it("returns an active token without calling the server", async () => {
    const { client, session } = signedInClient(now() + 600);
    await expect(getAccessToken(client)).resolves.toBe(session.token);
    expect(scripted.server.hitsOf("POST /api/v1/sessions")).toHaveLength(0);
  });

  it("refreshes a token within 30 s of expiry and rotates the refresh token", async () => {
    const { client, session, storage } = signedInClient(now() + 20);
    const token = await getAccessToken(client);
    const [hit] = scripted.server.hitsOf("POST /api/v1/sessions");
    expect(hit?.body).toEqual({ refresh_token: session.refresh_token });
    expect(hit?.headers.authorization).toBe(`Bearer ${session.token}`);
    expect(token).not.toBe(session.token);
    expect(token).toBe(storage.getItem(storageKey(APP_ID, "token")));
    expect(storage.getItem(storageKey(APP_ID, "refresh_token"))).toBe(scripted.app.currentRefreshToken);
    expect(scripted.app.currentRefreshToken).not.toBe(session.refresh_token);
    expect(client.store.getState().authenticated).toBe(true);
  });

  it("shares one refresh between concurrent callers of one tab", async () => {
    const { client } = signedInClient(now() - 10);
    const tokens = await Promise.all([
      getAccessToken(client),
      getAccessToken(client),
      getAccessToken(client),
    ]);
    expect(new Set(tokens).size).toBe(1);
    expect(scripted.server.hitsOf("POST /api/v1/sessions")).toHaveLength(1);
  });

  it("logs the user out when the token belongs to another app", async () => {
    const { client, storage } = signedInClient(now() + 600, { aud: "someotherapp0000000000000" });
    await expect(getAccessToken(client)).resolves.toBeNull();
    expect(scripted.server.hitsOf("POST /api/v1/sessions/logout")).toHaveLength(1);
    expect(storage.getItem(storageKey(APP_ID, "token"))).toBeNull();
    expect(client.store.getState().authenticated).toBe(false);
  });

  it("destroys local state when there are no refresh credentials", async () => {
    const storage = createMemoryStorage();
    storage.setItem(storageKey(APP_ID, "token"), mintToken());
    const client = makeClient(scripted.server, { storage });
    await expect(getAccessToken(client)).resolves.toBeNull();
    expect(storage.getItem(storageKey(APP_ID, "token"))).toBeNull();
    expect(scripted.server.hits).toHaveLength(0);
  });

  it("returns null when nobody ever signed in, without calling the server", async () => {
    await expect(getAccessToken(makeClient(scripted.server))).resolves.toBeNull();
    expect(scripted.server.hits).toHaveLength(0);
  });

  it("clears local state when the refresh token is refused (missing_or_invalid_token)", async () => {
    const { client, storage } = signedInClient(now() - 10);
    scripted.app.currentRefreshToken = "revoked-elsewhere";
    await expect(getAccessToken(client)).resolves.toBeNull();
    expect(storage.getItem(storageKey(APP_ID, "refresh_token"))).toBeNull();
    expect(storage.getItem(storageKey(APP_ID, "user"))).toBeNull();
    expect(client.store.getState().user).toBeNull();
  });

  it("keeps the session when the refresh fails for network reasons", async () => {
    const { client, storage, session } = signedInClient(now() - 10);
    scripted.server.on("POST /api/v1/sessions", () => ({ drop: true }));
    const e = await getAccessToken(client).catch((err: unknown) => err);
    expect(isClientError(e) && e.code).toBe("network_error");
    expect(storage.getItem(storageKey(APP_ID, "refresh_token"))).toBe(session.refresh_token);
  });
});

describe("session_update_action", () => {
  it("'clear' destroys local state and clears the user", async () => {
    const { client, storage } = signedInClient(now() - 10);
    scripted.server.on("POST /api/v1/sessions", () => ({
      json: scripted.app.issue({ session_update_action: "clear" }),
    }));
    await expect(getAccessToken(client)).resolves.toBeNull();
    expect(storage.getItem(storageKey(APP_ID, "token"))).toBeNull();
    expect(client.store.getState()).toMatchObject({ authenticated: false, user: null });
  });

  it("'ignore' stores only the access and identity tokens", async () => {
    const { client, session } = signedInClient(now() - 10);
    const fresh = scripted.app.issue({ session_update_action: "ignore" });
    scripted.server.on("POST /api/v1/sessions", () => ({ json: fresh }));
    await expect(getAccessToken(client)).resolves.toBe(fresh.token);
    expect(tokenStore.read(client)).toEqual({
      token: fresh.token,
      refreshToken: session.refresh_token,
      identityToken: fresh.identity_token,
    });
  });

  it("'set' stores every token", async () => {
    const { client } = signedInClient(now() - 10);
    const fresh = scripted.app.issue();
    scripted.server.on("POST /api/v1/sessions", () => ({ json: fresh }));
    await getAccessToken(client);
    expect(tokenStore.read(client)).toEqual({
      token: fresh.token,
      refreshToken: fresh.refresh_token,
      identityToken: fresh.identity_token,
    });
    expect(client.store.getState().identityToken).toBe(fresh.identity_token);
  });
});

describe("refreshSession", () => {
  it("rotates an active session on demand and resolves with the user", async () => {
    const { client, session } = signedInClient(now() + 600);
    await expect(refreshSession(client)).resolves.toEqual(scripted.app.user);
    expect(scripted.server.hitsOf("POST /api/v1/sessions")).toHaveLength(1);
    expect(tokenStore.read(client).refreshToken).not.toBe(session.refresh_token);
  });
});
