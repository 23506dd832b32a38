import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getAccessToken } from "../actions/getAccessToken.ts";
import { initialize } from "../actions/initialize.ts";
import { loginWithEmailCode } from "../actions/loginWithEmailCode.ts";
import { logout } from "../actions/logout.ts";
import { sendEmailCode } from "../actions/sendEmailCode.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import { APP_ID, mintToken } from "../test/fixtures.ts";
import { destroyClients, makeClient, storeSession, waitFor } from "../test/harness.ts";
import { type ScriptedApp, scriptApp } from "../test/scriptApp.ts";
import { type ScriptedServer, startScriptedServer } from "../test/scriptedServer.ts";
import { storageKey } from "./storageKey.ts";

let server: ScriptedServer;
let app: ScriptedApp;

beforeEach(async () => {
  server = await startScriptedServer();
  app = scriptApp(server, { refreshDelayMs: 150 });
});
afterEach(async () => {
  destroyClients();
  await server.close();
});

/** Two "tabs" of one origin: one storage, one BroadcastChannel name. */
function twoTabs() {
  const storage = createMemoryStorage();
  return {
    storage,
    a: makeClient(server, { storage, broadcast: true }),
    b: makeClient(server, { storage, broadcast: true }),
  };
}

const expired = () => mintToken({ exp: Math.floor(Date.now() / 1000) - 5 });

describe("across tabs", () => {
  it("refreshes once when two tabs need a fresh token at the same time (storage lease)", async () => {
    const { storage, a, b } = twoTabs();
    storeSession(storage, app.issue({ token: expired() }));
    const [ta, tb] = await Promise.all([getAccessToken(a), getAccessToken(b)]);
    expect(server.hitsOf("POST /api/v1/sessions")).toHaveLength(1);
    expect(ta).not.toBeNull();
    expect(tb).toBe(ta);
  });

  it("refreshes once across tabs with Web Locks when the browser has them", async () => {
    const names: string[] = [];
    let queue: Promise<unknown> = Promise.resolve();
    // A minimal exclusive LockManager: Node 20 has no navigator.locks.
    const locks = {
      request: (name: string, fn: () => Promise<unknown>) => {
        names.push(name);
        const run = queue.then(fn);
        queue = run.catch(() => {});
        return run;
      },
    };
    Object.defineProperty(globalThis, "navigator", { value: { locks }, configurable: true });
    try {
      const { storage, a, b } = twoTabs();
      storeSession(storage, app.issue({ token: expired() }));
      const [ta, tb] = await Promise.all([getAccessToken(a), getAccessToken(b)]);
      expect(server.hitsOf("POST /api/v1/sessions")).toHaveLength(1);
      expect(tb).toBe(ta);
      expect(names).toEqual([`privy:refresh:${APP_ID}`, `privy:refresh:${APP_ID}`]);
    } finally {
      Reflect.deleteProperty(globalThis, "navigator");
    }
  });

  it("takes over a refresh lease left behind by a tab that closed mid-refresh", async () => {
    const { storage, a } = twoTabs();
    storeSession(storage, app.issue({ token: expired() }));
    storage.setItem(
      storageKey(APP_ID, "refresh_lease"),
      JSON.stringify({ owner: "gone", expires: Date.now() - 1 }),
    );
    await expect(getAccessToken(a)).resolves.not.toBeNull();
    expect(storage.getItem(storageKey(APP_ID, "refresh_lease"))).toBeNull();
  });

  it("a logout in one tab logs the other out within a second", async () => {
    const { storage, a, b } = twoTabs();
    storeSession(storage, app.issue());
    await Promise.all([initialize(a), initialize(b)]);
    expect(b.store.getState().authenticated).toBe(true);
    await logout(a);
    const elapsed = await waitFor(() => !b.store.getState().authenticated, 1000);
    expect(elapsed).toBeLessThan(1000);
    expect(b.store.getState().user).toBeNull();
    await expect(getAccessToken(b)).resolves.toBeNull();
  });

  it("a login in one tab is picked up by the other", async () => {
    const { a, b } = twoTabs();
    await Promise.all([initialize(a), initialize(b)]);
    await sendEmailCode(a, { email: "ada@example.com" });
    await loginWithEmailCode(a, { code: "123456" });
    await waitFor(() => b.store.getState().authenticated, 1000);
    expect(b.store.getState().user).toEqual(app.user);
    await expect(getAccessToken(b)).resolves.toBe(await getAccessToken(a));
  });

  it("a destroyed client stops listening", async () => {
    const { storage, a, b } = twoTabs();
    storeSession(storage, app.issue());
    await Promise.all([initialize(a), initialize(b)]);
    b.destroy();
    await logout(a);
    await new Promise((r) => setTimeout(r, 100));
    expect(b.store.getState().authenticated).toBe(true);
  });
});
