import {
  type AppConfigResponse,
  type ConsentedSigner,
  DELEGATION_HPKE_SUITE,
  type DelegationTerms,
  type SessionResponse,
  type User,
} from "../generated/protocol.ts";
import { APP_ID, makeUser, mintToken, sessionResponse } from "./fixtures.ts";
import type { Hit, ScriptedServer } from "./scriptedServer.ts";

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
  /** The signers the delegated-actions terms name (default: {@link DELEGATION_SIGNER}). */
  delegationSigners: ConsentedSigner[];
}

/** The signer the scripted app's delegation terms name: one key quorum under one policy of two rules. */
export const DELEGATION_SIGNER: ConsentedSigner = {
  signer_id: "quorum-1",
  display_name: "Test App back end",
  public_keys: ["MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE"],
  threshold: 1,
  aggregations: [],
  policies: [
    {
      id: "policy-1",
      version: "1.0",
      name: "Shop only, at most 1 ETH",
      chain_type: "ethereum",
      created_at: 0,
      owner_id: null,
      rules: [
        {
          id: "rule-1",
          name: "pay the shop",
          method: "eth_sendTransaction",
          action: "ALLOW",
          conditions: [
            {
              field_source: "ethereum_transaction",
              field: "to",
              operator: "eq",
              value: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
            },
          ],
        },
        {
          id: "rule-2",
          name: "at most 1 ETH",
          method: "*",
          action: "DENY",
          conditions: [
            {
              field_source: "ethereum_transaction",
              field: "value",
              operator: "gt",
              value: "1000000000000000000",
            },
          ],
        },
      ],
    },
  ],
};

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
    delegationSigners: [DELEGATION_SIGNER],
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
  // Delegated actions: the terms, a sealed consent (the fake wallet frame posts one; nothing is
  // opened here) marks the wallet delegated, and the revoke unmarks them all.
  const authorized = (hit: Hit) =>
    accessTokens.has(String(hit.headers.authorization ?? "").replace(/^Bearer /, ""));
  const setDelegated = (delegated: (address: string) => boolean | null) => {
    const changed: string[] = [];
    app.user = {
      ...app.user,
      linked_accounts: app.user.linked_accounts.map((account) => {
        if (account.type !== "wallet" || account.connector_type !== "embedded") return account;
        const next = delegated(account.address);
        if (next === null || next === account.delegated) return account;
        changed.push(account.address);
        return { ...account, delegated: next };
      }),
    };
    return changed;
  };
  let consents = 0;
  // The page's terms (its consent screen) and the wallet frame's (what it seals): the same answer.
  const terms = (hit: Hit) => {
    if (!authorized(hit)) return unauthorized;
    consents += 1;
    const { address } = (hit.body ?? {}) as { address?: string };
    const answer: DelegationTerms = {
      signer_public_key: btoa(String.fromCharCode(4, ...new Array<number>(64).fill(1))),
      hpke_suite: DELEGATION_HPKE_SUITE,
      consent_id: `consent-${consents}`,
      wallet_id: address ? `wallet-${address.toLowerCase()}` : null,
      signers: app.delegationSigners,
    };
    return { json: answer };
  };
  server.on("POST /api/v1/delegated_actions/terms", terms);
  server.on("POST /api/v1/embedded_wallets/delegation/terms", terms);
  server.on("POST /api/v1/delegated_actions", (hit) => {
    if (!authorized(hit)) return unauthorized;
    const address = String((hit.body as { address?: unknown }).address ?? "").toLowerCase();
    if (setDelegated((a) => (a.toLowerCase() === address ? true : null)).length === 0)
      return { status: 404, json: { error: "Linked account not found", code: "linked_account_not_found" } };
    return {
      json: { address, delegated: true, signer_ids: app.delegationSigners.map((signer) => signer.signer_id) },
    };
  });
  server.on("POST /api/v1/wallets/revoke", (hit) => {
    if (!authorized(hit)) return unauthorized;
    const revoked = setDelegated(() => false);
    if (revoked.length === 0)
      return {
        status: 403,
        json: { error: "User has no delegated wallets to revoke.", code: "user_has_not_delegated_wallet" },
      };
    return { json: { success: true, revoked } };
  });
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
