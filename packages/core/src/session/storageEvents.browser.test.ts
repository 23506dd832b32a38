// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { initialize } from "../actions/initialize.ts";
import { createClient } from "../client/createClient.ts";
import { APP_ID } from "../test/fixtures.ts";
import { storeSession, waitFor } from "../test/harness.ts";
import { type ScriptedApp, scriptApp } from "../test/scriptApp.ts";
import { type ScriptedServer, startScriptedServer } from "../test/scriptedServer.ts";
import { storageKey } from "./storageKey.ts";

// In a browser-like window: localStorage is the default storage, and `storage` events keep tabs in
// sync where BroadcastChannel is missing.
let server: ScriptedServer;
let app: ScriptedApp;

beforeEach(async () => {
  server = await startScriptedServer();
  app = scriptApp(server);
  window.localStorage.clear();
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await server.close();
});

describe("in a browser window", () => {
  it("keeps the session in window.localStorage by default", async () => {
    storeSession(window.localStorage, app.issue());
    const client = createClient({ appId: APP_ID, apiUrl: server.url });
    await initialize(client);
    expect(client.store.getState()).toMatchObject({ ready: true, authenticated: true });
    client.destroy();
  });

  it("follows a logout in another tab through the storage event when BroadcastChannel is missing", async () => {
    vi.stubGlobal("BroadcastChannel", undefined);
    storeSession(window.localStorage, app.issue());
    const client = createClient({ appId: APP_ID, apiUrl: server.url });
    await initialize(client);
    expect(client.store.getState().authenticated).toBe(true);
    // What the other tab's logout does to the shared storage, and the event this tab then receives.
    const key = storageKey(APP_ID, "token");
    const oldValue = window.localStorage.getItem(key);
    for (const item of ["token", "refresh_token", "id_token", "user"] as const) {
      window.localStorage.removeItem(storageKey(APP_ID, item));
    }
    window.dispatchEvent(new StorageEvent("storage", { key, oldValue, newValue: null }));
    await waitFor(() => !client.store.getState().authenticated, 1000);
    expect(client.store.getState().user).toBeNull();
    client.destroy();
  });

  it("ignores storage events about other keys", async () => {
    vi.stubGlobal("BroadcastChannel", undefined);
    storeSession(window.localStorage, app.issue());
    const client = createClient({ appId: APP_ID, apiUrl: server.url });
    await initialize(client);
    window.localStorage.removeItem(storageKey(APP_ID, "token"));
    window.localStorage.removeItem(storageKey(APP_ID, "refresh_token"));
    window.dispatchEvent(new StorageEvent("storage", { key: "unrelated", newValue: "x" }));
    await new Promise((r) => setTimeout(r, 50));
    expect(client.store.getState().authenticated).toBe(true);
    client.destroy();
  });
});
