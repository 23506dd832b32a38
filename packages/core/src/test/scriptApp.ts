import type { AppConfigResponse, SessionResponse, User } from "../generated/protocol.ts";
import { APP_ID, makeUser, mintToken, sessionResponse } from "./fixtures.ts";
import type { ScriptedServer } from "./scriptedServer.ts";

/** The only code the scripted app accepts. */
export const GOOD_CODE = "123456";

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
    custom_jwt_auth: false,
    google_oauth: false,
    apple_oauth: false,
    twitter_oauth: false,
    discord_oauth: false,
    github_oauth: false,
    linkedin_oauth: false,
    spotify_oauth: false,
    instagram_oauth: false,
    tiktok_oauth: false,
    line_oauth: false,
    twitch_oauth: false,
    custom_oauth_providers: [],
    login_methods_and_order: { primary: ["email"], overflow: [] },
    disable_plus_emails: false,
    require_users_accept_terms: false,
    terms_and_conditions_url: null,
    privacy_policy_url: null,
    captcha_enabled: false,
    allowlist_config: { error_title: null, error_detail: null, cta_text: null, cta_link: null },
    embedded_wallet_config: {
      create_on_login: "off",
      ethereum: { create_on_login: "off" },
      solana: { create_on_login: "off" },
      require_user_password_on_create: false,
      user_owned_recovery_options: [],
      mode: "legacy-embedded-wallets-only",
    },
    mfa_methods: [],
    mfa_protect_transactions: false,
    telegram_auth_config: null,
    icon_url: null,
    theme: "light",
    accent_color: null,
    show_wallet_login_first: false,
    allowed_domains: [],
    allowed_native_app_ids: [],
    allowed_native_app_url_schemes: [],
    farcaster_auth: false,
    passkeys_for_signup_enabled: false,
    telegram_auth: false,
    solana_wallet_auth: false,
    allowlist_enabled: false,
    enforce_wallet_uis: false,
    legacy_wallet_ui_config: false,
    fiat_on_ramp_enabled: false,
    twitter_oauth_on_mobile_enabled: false,
    verification_key: "",
    max_linked_wallets_per_user: null,
    farcaster_link_wallets_enabled: false,
    whatsapp_enabled: false,
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
    const { code, email } = hit.body as { code: string; email: string };
    if (code !== GOOD_CODE)
      return { status: 401, json: { error: "Invalid code", code: "invalid_credentials" } };
    // Like the real server: the user is the one whose address got the code, stored trimmed and lower-cased.
    app.user = {
      ...app.user,
      linked_accounts: makeUser({}, String(email).trim().toLowerCase()).linked_accounts,
    };
    return { json: app.issue({ is_new_user: true }) };
  });
  const account = (type: "phone" | "email", value: string) =>
    type === "phone"
      ? ({ type, phoneNumber: value, verified_at: 1, first_verified_at: 1, latest_verified_at: 1 } as const)
      : ({ type, address: value, verified_at: 1, first_verified_at: 1, latest_verified_at: 1 } as const);
  const badCode = { status: 401, json: { error: "Invalid code", code: "invalid_credentials" } };
  server.on("POST /api/v1/passwordless_sms/init", () => ({ json: { success: true } }));
  server.on("POST /api/v1/passwordless_sms/authenticate", (hit) => {
    const { code, phoneNumber } = hit.body as { code: string; phoneNumber: string };
    if (code !== GOOD_CODE) return badCode;
    app.user = { ...app.user, is_guest: false, linked_accounts: [account("phone", phoneNumber)] };
    return { json: app.issue({ is_new_user: true }) };
  });
  server.on("POST /api/v1/guest/authenticate", () => {
    app.user = { ...app.user, is_guest: true, linked_accounts: [] };
    return { json: app.issue({ is_new_user: true }) };
  });
  server.on("POST /api/v1/custom_jwt_account/authenticate", (hit) => {
    const { token } = hit.body as { token: string };
    app.user = {
      ...app.user,
      is_guest: false,
      linked_accounts: [
        {
          type: "custom_auth",
          custom_user_id: token,
          verified_at: 1,
          first_verified_at: 1,
          latest_verified_at: 1,
        },
      ],
    };
    return { json: app.issue() };
  });
  // Link and unlink answer the user as it is after the change; the last account cannot be unlinked.
  const link = (type: "phone" | "email", field: string) => (hit: { body: unknown }) => {
    const body = hit.body as Record<string, string>;
    if (body.code !== GOOD_CODE) return badCode;
    app.user = {
      ...app.user,
      linked_accounts: [...app.user.linked_accounts, account(type, String(body[field]))],
    };
    return { json: app.user };
  };
  const unlink = (type: "phone" | "email", field: string) => (hit: { body: unknown }) => {
    const value = (hit.body as Record<string, string>)[field];
    if (app.user.linked_accounts.length <= 1)
      return {
        status: 400,
        json: { error: "Cannot unlink the only account of a user.", code: "cannot_unlink_sole_account" },
      };
    app.user = {
      ...app.user,
      linked_accounts: app.user.linked_accounts.filter(
        (a) =>
          !(
            a.type === type &&
            (a.type === "phone" ? a.phoneNumber : a.type === "email" ? a.address : "") === value
          ),
      ),
    };
    return { json: app.user };
  };
  server.on("POST /api/v1/passwordless/link", link("email", "email"));
  server.on("POST /api/v1/passwordless_sms/link", link("phone", "phoneNumber"));
  server.on("POST /api/v1/passwordless/unlink", unlink("email", "address"));
  server.on("POST /api/v1/passwordless_sms/unlink", unlink("phone", "phoneNumber"));
  return app;
}

/** The state code the client sent to the last `/oauth/init`. */
export function oauthStateCodeOf(server: ScriptedServer): string {
  const body = server.hitsOf("POST /api/v1/oauth/init").at(-1)?.body as { state_code?: string } | undefined;
  return body?.state_code ?? "";
}
