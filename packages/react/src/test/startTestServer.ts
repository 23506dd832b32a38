import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { AppConfigResponse, SessionResponse, User } from "@symbolon/core";

/** A 25-character app id for tests. */
export const TEST_APP_ID = "cm0testapp0000000000000ab";
/** The code the test server accepts. */
export const GOOD_CODE = "123456";

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  appName?: string;
  disablePlusEmails?: boolean;
}

/** A real HTTP server speaking the email-login part of the wire protocol, scripted for tests. */
export interface TestServer {
  url: string;
  /** Addresses that were sent a code, in order. */
  sentTo: string[];
  /** Codes submitted to /passwordless/authenticate, in order. */
  submitted: string[];
  close(): Promise<void>;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function fakeJwt(claims: Record<string, unknown>): string {
  // The client only reads `exp`/`aud`; it never verifies the signature.
  return `${base64url({ alg: "ES256", typ: "JWT" })}.${base64url(claims)}.c2ln`;
}

function userFor(email: string): User {
  const now = Math.floor(Date.now() / 1000);
  return {
    id: "did:privy:test-user",
    created_at: now,
    linked_accounts: [
      { type: "email", address: email, verified_at: now, first_verified_at: now, latest_verified_at: now },
    ],
    mfa_methods: [],
    has_accepted_terms: false,
    is_guest: false,
  };
}

/** Starts the server on 127.0.0.1 with a random port. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const sentTo: string[] = [];
  const submitted: string[] = [];
  let signedIn: User | null = null;
  const config: AppConfigResponse = {
    id: TEST_APP_ID,
    name: options.appName ?? "Test App",
    logo_url: null,
    custom_api_url: null,
    email_auth: true,
    sms_auth: false,
    wallet_auth: false,
    passkey_auth: false,
    guest_auth: false,
    disable_plus_emails: options.disablePlusEmails ?? false,
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
  };

  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : {};
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(json));
    };
    const route = `${req.method} ${(req.url ?? "").split("?")[0]}`;
    if (route === `GET /api/v1/apps/${TEST_APP_ID}`) return send(200, config);
    if (route === "POST /api/v1/passwordless/init") {
      sentTo.push(body.email);
      return send(200, { success: true });
    }
    if (route === "POST /api/v1/passwordless/authenticate") {
      submitted.push(body.code);
      if (body.code !== GOOD_CODE) return send(422, { error: "Invalid code", code: "invalid_credentials" });
      // Like the real server: addresses are stored trimmed and lower-cased.
      signedIn = userFor(String(body.email).trim().toLowerCase());
      const now = Math.floor(Date.now() / 1000);
      const session: SessionResponse = {
        user: signedIn,
        token: fakeJwt({ sid: "s1", sub: signedIn.id, aud: TEST_APP_ID, iat: now, exp: now + 3600 }),
        refresh_token: "refresh-1",
        identity_token: fakeJwt({ sub: signedIn.id, aud: TEST_APP_ID, iat: now, exp: now + 36000 }),
        session_update_action: "set",
        is_new_user: true,
      };
      return send(200, session);
    }
    if (route === "GET /api/v1/users/me") {
      if (!signedIn) return send(401, { error: "Not signed in", code: "missing_or_invalid_token" });
      return send(200, { user: signedIn, identity_token: null });
    }
    if (route === "POST /api/v1/sessions/logout") {
      signedIn = null;
      return send(200, { success: true });
    }
    if (route === "POST /api/v1/analytics_events") return send(200, { success: true });
    return send(404, { error: `no route ${route}`, code: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sentTo,
    submitted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
