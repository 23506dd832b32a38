import { describe, expect, it } from "vitest";
import type { ClientState } from "../client/createClient.ts";
import { isClientError } from "../errors/ClientError.ts";
import { storageKey } from "../session/storageKey.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import { APP_ID, makeUser, mintToken } from "../test/fixtures.ts";
import { makeClient, storeSession, useScriptedApp } from "../test/harness.ts";
import { initialize } from "./initialize.ts";

const scripted = useScriptedApp();

describe("initialize", () => {
  it("becomes ready with no user when nobody is signed in, and loads the app config", async () => {
    const client = makeClient(scripted.server, { clientId: "host-client" });
    expect(client.store.getState().ready).toBe(false);
    await initialize(client);
    expect(client.store.getState()).toMatchObject({
      ready: true,
      authenticated: false,
      user: null,
      error: null,
    });
    expect(client.store.getState().appConfig?.name).toBe("Test app");
    expect(scripted.server.hitsOf("GET /api/v1/users/me")).toHaveLength(0);
  });

  it("reports sdk_initialize to analytics", async () => {
    await initialize(makeClient(scripted.server, { clientId: "host-client" }));
    await expect.poll(() => scripted.server.hitsOf("POST /api/v1/analytics_events").length).toBe(1);
    expect(scripted.server.hitsOf("POST /api/v1/analytics_events")[0]?.body).toEqual({
      event_name: "sdk_initialize",
      client_id: "host-client",
      payload: null,
    });
  });

  it("ignores analytics failures", async () => {
    scripted.server.on("POST /api/v1/analytics_events", () => ({ status: 500, text: "down" }));
    const client = makeClient(scripted.server);
    await initialize(client);
    expect(client.store.getState()).toMatchObject({ ready: true, error: null });
    await expect.poll(() => scripted.server.hitsOf("POST /api/v1/analytics_events").length).toBe(1);
    expect(client.store.getState().error).toBeNull();
  });

  it("restores a stored session and is ready only once the user was fetched", async () => {
    const storage = createMemoryStorage();
    storeSession(storage, scripted.app.issue());
    scripted.app.user = makeUser({}, "fresh@example.com");
    const client = makeClient(scripted.server, { storage });
    const seenReady: ClientState[] = [];
    client.store.subscribe((s, prev) => {
      if (s.ready && !prev.ready) seenReady.push(s);
    });
    await initialize(client);
    expect(seenReady).toHaveLength(1);
    expect(seenReady[0]?.authenticated).toBe(true);
    expect(seenReady[0]?.user?.linked_accounts[0]).toMatchObject({ address: "fresh@example.com" });
    expect(JSON.parse(storage.getItem(storageKey(APP_ID, "user")) ?? "null")).toEqual(scripted.app.user);
  });

  it("refreshes an expired stored token before fetching the user", async () => {
    const storage = createMemoryStorage();
    storeSession(
      storage,
      scripted.app.issue({ token: mintToken({ exp: Math.floor(Date.now() / 1000) - 60 }) }),
    );
    const client = makeClient(scripted.server, { storage });
    await initialize(client);
    expect(scripted.server.hitsOf("POST /api/v1/sessions")).toHaveLength(1);
    expect(client.store.getState()).toMatchObject({ ready: true, authenticated: true });
  });

  it("ends ready, keeping the cached user and recording the error, when the server is unreachable", async () => {
    const storage = createMemoryStorage();
    storeSession(storage, scripted.app.issue());
    await scripted.server.close();
    const client = makeClient(scripted.server, { storage });
    await initialize(client);
    const state = client.store.getState();
    expect(state.ready).toBe(true);
    expect(state.user?.id).toBe(scripted.app.user.id);
    expect(isClientError(state.error) && state.error.code).toBe("network_error");
  });

  it("ends ready with no user when the stored session was revoked", async () => {
    const storage = createMemoryStorage();
    storeSession(storage, scripted.app.issue());
    scripted.app.revokeAll();
    const client = makeClient(scripted.server, { storage });
    await initialize(client);
    expect(client.store.getState()).toMatchObject({ ready: true, authenticated: false, user: null });
    expect(storage.getItem(storageKey(APP_ID, "user"))).toBeNull();
  });

  it("logs out a stored user who has not accepted required terms", async () => {
    await scripted.restart({
      config: { require_users_accept_terms: true },
      user: makeUser({ has_accepted_terms: false }),
    });
    const storage = createMemoryStorage();
    storeSession(storage, scripted.app.issue());
    const client = makeClient(scripted.server, { storage });
    await initialize(client);
    expect(client.store.getState()).toMatchObject({ ready: true, authenticated: false, user: null });
    expect(scripted.server.hitsOf("POST /api/v1/sessions/logout")).toHaveLength(1);
  });

  it("keeps a stored user who accepted required terms", async () => {
    await scripted.restart({ config: { require_users_accept_terms: true } });
    const storage = createMemoryStorage();
    storeSession(storage, scripted.app.issue());
    const client = makeClient(scripted.server, { storage });
    await initialize(client);
    expect(client.store.getState()).toMatchObject({ ready: true, authenticated: true });
  });

  it("runs once however often it is called", async () => {
    const client = makeClient(scripted.server);
    await Promise.all([initialize(client), initialize(client)]);
    await initialize(client);
    expect(scripted.server.hitsOf(`GET /api/v1/apps/${APP_ID}`)).toHaveLength(1);
  });
});
