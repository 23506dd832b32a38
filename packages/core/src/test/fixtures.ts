import type { OAuthAccount, SessionResponse, User } from "../generated/protocol.ts";

/** A valid 25-character app id. */
export const APP_ID = "cltestapp0000000000000001";

function base64url(text: string): string {
  const binary = Array.from(new TextEncoder().encode(text), (b) => String.fromCharCode(b)).join("");
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A JWT-shaped token with the given claims (unsigned: the client never verifies). */
export function mintToken(claims: { exp?: number; aud?: string; sub?: string; n?: number } = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    sid: "s1",
    sub: "did:privy:user1",
    iss: "test",
    aud: APP_ID,
    iat: now,
    exp: now + 3600,
    ...claims,
  };
  return `${base64url(JSON.stringify({ alg: "ES256", typ: "JWT" }))}.${base64url(JSON.stringify(payload))}.sig`;
}

/** A user in server form. */
export function makeUser(overrides: Partial<User> = {}, email = "ada@example.com"): User {
  return {
    id: "did:privy:user1",
    created_at: 1_700_000_000,
    linked_accounts: [
      {
        type: "email",
        address: email,
        verified_at: 1_700_000_000,
        first_verified_at: 1_700_000_000,
        latest_verified_at: 1_700_000_100,
      },
    ],
    mfa_methods: [],
    has_accepted_terms: true,
    is_guest: false,
    ...overrides,
  };
}

/** A linked Google account in server form. */
export const GOOGLE_ACCOUNT: { type: "google_oauth" } & OAuthAccount = {
  type: "google_oauth",
  subject: "g-1",
  email: "ada@gmail.com",
  name: "Ada",
  username: null,
  verified_at: 1,
  first_verified_at: 1,
  latest_verified_at: 1,
};

/** A `set` session response with fresh tokens. */
export function sessionResponse(overrides: Partial<SessionResponse> = {}): SessionResponse {
  return {
    user: makeUser(),
    token: mintToken(),
    privy_access_token: null,
    refresh_token: `rt-${Math.random().toString(36).slice(2)}`,
    identity_token: mintToken({ n: 1 }),
    session_update_action: "set",
    is_new_user: false,
    ...overrides,
  };
}
