import { afterEach, beforeEach, vi } from "vitest";
import { type Client, type ClientOptions, createClient } from "../client/createClient.ts";
import type { SessionResponse } from "../generated/protocol.ts";
import { storageKey } from "../session/storageKey.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import type { KeyValueStorage } from "../storage/KeyValueStorage.ts";
import { APP_ID } from "./fixtures.ts";
import { type ScriptedApp, type ScriptOptions, scriptApp } from "./scriptApp.ts";
import { type ScriptedServer, startScriptedServer } from "./scriptedServer.ts";

/** A scripted server with its app, replaced for every test by {@link useScriptedApp}. */
export interface ScriptedTest {
  readonly server: ScriptedServer;
  readonly app: ScriptedApp;
  /** Replaces this test's server with one scripted with `options` (e.g. another app config). */
  restart(options: ScriptOptions): Promise<void>;
}

/** Stores a session in `storage` the way a previous page load would have left it. */
export function storeSession(storage: KeyValueStorage, session: SessionResponse): void {
  if (session.token) storage.setItem(storageKey(APP_ID, "token"), session.token);
  if (session.refresh_token) storage.setItem(storageKey(APP_ID, "refresh_token"), session.refresh_token);
  if (session.identity_token) storage.setItem(storageKey(APP_ID, "id_token"), session.identity_token);
  storage.setItem(storageKey(APP_ID, "user"), JSON.stringify(session.user));
}

const clients: Client[] = [];

/** A client against `server` with instant retry delays; destroyed by {@link destroyClients}. */
export function makeClient(server: ScriptedServer, options: Partial<ClientOptions> = {}): Client {
  const client = createClient({
    appId: APP_ID,
    apiUrl: server.url,
    storage: createMemoryStorage(),
    broadcast: false,
    sleep: async () => {},
    ...options,
  });
  clients.push(client);
  return client;
}

/** Destroys every client made by {@link makeClient} (closes their channels). */
export function destroyClients(): void {
  for (const client of clients.splice(0)) client.destroy();
}

/** Resolves once `check` passes, or rejects after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 1000): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return Date.now() - started;
}

/**
 * Registers per-test set-up: a fresh scripted server with the app's routes before each test; clients,
 * spies and the server torn down after. Read `server` and `app` inside tests (they change per test).
 */
export function useScriptedApp(): ScriptedTest {
  const current = {
    async restart(options: ScriptOptions) {
      await current.server.close();
      current.server = await startScriptedServer();
      current.app = scriptApp(current.server, options);
    },
  } as {
    server: ScriptedServer;
    app: ScriptedApp;
    restart(options: Parameters<typeof scriptApp>[1]): Promise<void>;
  };
  beforeEach(async () => {
    current.server = await startScriptedServer();
    current.app = scriptApp(current.server);
  });
  afterEach(async () => {
    destroyClients();
    vi.restoreAllMocks();
    await current.server.close();
  });
  return current;
}
