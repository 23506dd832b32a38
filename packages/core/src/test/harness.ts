import { afterEach, beforeEach, vi } from "vitest";
import { type Client, type ClientOptions, createClient } from "../client/createClient.ts";
import type { AppConfigResponse, SessionResponse, User } from "../generated/protocol.ts";
import { storageKey } from "../session/storageKey.ts";
import { createMemoryStorage } from "../storage/createMemoryStorage.ts";
import type { KeyValueStorage } from "../storage/KeyValueStorage.ts";
import { APP_ID, makeUser, mintToken, sessionResponse } from "./fixtures.ts";
import { type ScriptedServer, startScriptedServer } from "./scriptedServer.ts";

/** The app config the scripted server answers with. */
export function appConfig(overrides: Partial<AppConfigResponse> = {}): AppConfigResponse {
  return {
    id: APP_ID,
    name: "Test app",
    logo_url: null,
    custom_api_url: null,
    email_auth: true,
    sms_auth: false,
    wallet_auth: false,
    passkey_auth: false,
    guest_auth: false,
    disable_plus_emails: false,
    require_users_accept_terms: false,
    terms_and_conditions_url: null,
    privacy_policy_url: null,
    captcha_enabled: false,
    captcha_site_key: null,
    embedded_wallet_config: {
      ethereum: { create_on_login: "off" },
      solana: { create_on_login: "off" },
      require_user_password_on_create: false,
      user_owned_recovery_options: [],
      mode: "legacy-embedded-wallets-only",
    },
    mfa_methods: [],
    ...overrides,
  };
}

/** A small scripted server-side session: issues, rotates and checks tokens like the real server. */
export interface ScriptedApp {
  user: User;
  /** Issues a new session (what a login answers). */
  issue(overrides?: Partial<SessionResponse>): SessionResponse;
  /** The refresh token the server currently accepts. */
  currentRefreshToken: string | null;
  /** Revokes every session, as if the user signed out elsewhere. */
  revokeAll(): void;
}

/** How {@link scriptApp} sets up the app: its config, its user, and an optional refresh delay. */
export interface ScriptOptions {
  config?: Partial<AppConfigResponse>;
  user?: User;
  refreshDelayMs?: number;
}

/** A scripted server with its app, replaced for every test by {@link useScriptedApp}. */
export interface ScriptedTest {
  readonly server: ScriptedServer;
  readonly app: ScriptedApp;
  /** Replaces this test's server with one scripted with `options` (e.g. another app config). */
  restart(options: ScriptOptions): Promise<void>;
}

/** Scripts the routes of a working app on `server`; tests override single routes afterwards. */
export function scriptApp(server: ScriptedServer, options: ScriptOptions = {}): ScriptedApp {
  const accessTokens = new Set<string>();
  const app: ScriptedApp = {
    user: options.user ?? makeUser(),
    currentRefreshToken: null,
    issue(overrides = {}) {
      const response = sessionResponse({ user: app.user, ...overrides });
      if (response.token) accessTokens.add(response.token);
      app.currentRefreshToken = response.refresh_token;
      return response;
    },
    revokeAll() {
      accessTokens.clear();
      app.currentRefreshToken = null;
    },
  };
  const unauthorized = { status: 401, json: { error: "Invalid token", code: "missing_or_invalid_token" } };
  server.on(`GET /api/v1/apps/${APP_ID}`, () => ({ json: appConfig(options.config) }));
  server.on("POST /api/v1/analytics_events", () => ({ json: { success: true } }));
  server.on("GET /api/v1/users/me", (hit) => {
    const token = (hit.headers.authorization ?? "").replace(/^Bearer /, "");
    return accessTokens.has(token)
      ? { json: { user: app.user, identity_token: mintToken({ n: 2 }) } }
      : unauthorized;
  });
  server.on("POST /api/v1/sessions", (hit) => {
    const { refresh_token } = hit.body as { refresh_token: string };
    if (refresh_token !== app.currentRefreshToken) return unauthorized;
    return { json: app.issue(), delayMs: options.refreshDelayMs ?? 0 };
  });
  server.on("POST /api/v1/sessions/logout", () => {
    app.currentRefreshToken = null;
    return { json: { success: true } };
  });
  server.on("POST /api/v1/passwordless/init", () => ({ json: { success: true } }));
  server.on("POST /api/v1/passwordless/authenticate", (hit) => {
    const { code } = hit.body as { code: string };
    if (code !== "123456")
      return { status: 401, json: { error: "Invalid code", code: "invalid_credentials" } };
    return { json: app.issue({ is_new_user: true }) };
  });
  return app;
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
