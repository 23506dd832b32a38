// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { APP_ID } from "./test/fixtures.ts";
import { storeSession } from "./test/harness.ts";
import { type ScriptedApp, scriptApp } from "./test/scriptApp.ts";
import { type ScriptedServer, startScriptedServer } from "./test/scriptedServer.ts";

let server: ScriptedServer;
let app: ScriptedApp;
beforeEach(async () => {
  server = await startScriptedServer();
  app = scriptApp(server);
});
afterEach(() => server.close());

const BROWSER_GLOBALS = [
  "window",
  "document",
  "localStorage",
  "sessionStorage",
  "navigator",
  "BroadcastChannel",
];

/** Replaces browser globals by getters that record any access; returns the record and an undo. */
function trapBrowserGlobals() {
  const touched: string[] = [];
  const saved = BROWSER_GLOBALS.map(
    (name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const,
  );
  for (const [name, descriptor] of saved) {
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        touched.push(name);
        return descriptor?.get ? descriptor.get.call(globalThis) : descriptor?.value;
      },
    });
  }
  const restore = () => {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else Reflect.deleteProperty(globalThis, name);
    }
  };
  return { touched, restore };
}

describe("server-side rendering", () => {
  it("runs under plain Node with no browser globals", () => {
    expect(typeof window).toBe("undefined");
    expect(typeof document).toBe("undefined");
    expect(typeof localStorage).toBe("undefined");
  });

  it("touches no browser global when imported or when a client is created", async () => {
    const trap = trapBrowserGlobals();
    try {
      vi.resetModules();
      const core = await import("./index.ts");
      core.createClient({ appId: APP_ID, apiUrl: server.url });
      expect(trap.touched).toEqual([]);
    } finally {
      trap.restore();
    }
  });

  it("initialises against a server with the default (in-memory) storage", async () => {
    const core = await import("./index.ts");
    const client = core.createClient({ appId: APP_ID, apiUrl: server.url });
    await core.initialize(client);
    expect(client.store.getState()).toMatchObject({ ready: true, authenticated: false, user: null });
    expect(client.store.getState().appConfig?.id).toBe(APP_ID);
    client.destroy();
  });

  it("can carry a session per request through a caller-provided storage", async () => {
    const core = await import("./index.ts");
    const storage = core.createMemoryStorage();
    storeSession(storage, app.issue());
    const client = core.createClient({ appId: APP_ID, apiUrl: server.url, storage });
    await core.initialize(client);
    expect(client.store.getState()).toMatchObject({ ready: true, authenticated: true, user: app.user });
    client.destroy();
  });
});
