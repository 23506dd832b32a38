// The MFA part of the FakeServer: the frame-only MFA routes and the key_material guard of the
// issue 12 contract (codes, messages, single-use tokens bound to user and session). The right
// code is always CODE; the real server's TOTP/SMS checks are tested by its own suite.

import { MFA_SIGNING_USES, MFA_SIGNING_WINDOW_S } from "../../../core/src/generated/protocol.ts";

export const CODE = "123456";
export const PASSKEY_ID = "cred-1";
export const TOTP_SECRET = "JBSWY3DPEHPK3PXP";
const TOKEN_TTL_S = 300;
const MAX_FAILURES = 5;
/** The server's first lock-out (MFA_LOCKOUTS_S[0]). */
const FIRST_LOCKOUT_S = 10;

type Reply = { status: number; body: unknown; headers?: Record<string, string> };
type Operation = "sign" | "export" | "recovery";

const ok = (body: unknown): Reply => ({ status: 200, body });
const fail = (status: number, code: string, message: string): Reply => ({
  status,
  body: { error: message, code },
});

export function createFakeMfa() {
  /** user → enrolled methods. */
  const methods = new Map<string, Set<string>>();
  /** token → owner; deleted on use, counted on signatures (the server's signing window). */
  const tokens = new Map<
    string,
    { sub: string; sid: string | null; expiresAt: number; issuedAt: number; signUses: number }
  >();
  const failures = new Map<string, number>();
  let protect = false;
  let issued = 0;
  let clock = () => Math.floor(Date.now() / 1000);

  const enrolled = (sub: string) => methods.get(sub) ?? new Set<string>();
  const mfaMethods = (sub: string) => [...enrolled(sub)].map((type) => ({ type, verified_at: 1 }));

  /** Whether `token` is live for this user and session (used up when `use`). */
  function valid(sub: string, sid: string | null, token: unknown, use: boolean): boolean {
    const owner = typeof token === "string" ? tokens.get(token) : undefined;
    const live = owner !== undefined && owner.sub === sub && owner.sid === sid && owner.expiresAt > clock();
    if (live && use) tokens.delete(token as string);
    return live;
  }

  /** Whether `token` may still release a key to sign (counted when `use`). */
  function signs(sub: string, sid: string | null, token: unknown, use: boolean): boolean {
    const owner = typeof token === "string" ? tokens.get(token) : undefined;
    const live =
      valid(sub, sid, token, false) &&
      owner !== undefined &&
      owner.issuedAt > clock() - MFA_SIGNING_WINDOW_S &&
      owner.signUses < MFA_SIGNING_USES;
    if (live && use) owner.signUses += 1;
    return live;
  }

  /** A token is needed once the user has a method; refused replies, or null to go on (token used). */
  function spend(sub: string, sid: string | null, token: unknown, always: boolean): Reply | null {
    if (!always && enrolled(sub).size === 0) return null;
    if (token === undefined) return fail(403, "missing_or_invalid_mfa", "MFA verification is required");
    if (!valid(sub, sid, token, true)) {
      return fail(403, "expired_or_invalid_mfa_token", "The MFA token is expired or invalid");
    }
    return null;
  }

  function checkCode(sub: string, code: unknown): Reply | null {
    if ((failures.get(sub) ?? 0) >= MAX_FAILURES) {
      return {
        ...fail(429, "too_many_requests", "Too many requests"),
        headers: { "retry-after": String(FIRST_LOCKOUT_S) },
      };
    }
    if (code === CODE) return null;
    failures.set(sub, (failures.get(sub) ?? 0) + 1);
    return fail(401, "invalid_credentials", "The code you entered is not valid");
  }

  function enroll(sub: string, method: string): void {
    const set = enrolled(sub);
    set.add(method);
    methods.set(sub, set);
  }

  /** The answer to an MFA route, or null when `path` is not one. */
  function route(
    path: string,
    sub: string,
    sid: string | null,
    body: Record<string, unknown>,
    user: (sub: string) => unknown,
  ): Reply | null {
    switch (path) {
      case "/api/v1/mfa/verify": {
        const method = body.method as string;
        if (!enrolled(sub).has(method)) {
          return fail(400, "missing_mfa_enrollment", "The user has not enrolled this MFA method");
        }
        if (method === "passkey") {
          const id = (body.authenticator_response as { id?: unknown } | undefined)?.id;
          if (id !== PASSKEY_ID) return fail(401, "invalid_credentials", "Passkey verification failed");
        } else {
          const refused = checkCode(sub, body.code);
          if (refused) return refused;
        }
        issued += 1;
        const token = `mfa-token-${issued}`;
        const expiresAt = clock() + TOKEN_TTL_S;
        tokens.set(token, { sub, sid, expiresAt, issuedAt: clock(), signUses: 0 });
        return ok({ token, expires_at: expiresAt });
      }
      case "/api/v1/mfa/totp/init":
        return ok({
          totpSecret: TOTP_SECRET,
          totpAuthUrl: `otpauth://totp/app:${sub}?secret=${TOTP_SECRET}`,
        });
      case "/api/v1/mfa/passwordless_sms/init":
        return ok({ success: true });
      case "/api/v1/mfa/totp/enroll":
      case "/api/v1/mfa/passwordless_sms/enroll":
      case "/api/v1/mfa/passkeys/enroll": {
        const refused =
          spend(sub, sid, body.mfa_token, false) ??
          (path.endsWith("passkeys/enroll") ? null : checkCode(sub, body.code));
        if (refused) return refused;
        enroll(sub, path.includes("totp") ? "totp" : path.includes("sms") ? "sms" : "passkey");
        return ok({ user: user(sub) });
      }
      case "/api/v1/mfa/unenroll": {
        const refused = spend(sub, sid, body.mfa_token, true);
        if (refused) return refused;
        enrolled(sub).delete(body.method as string);
        return ok({ user: user(sub) });
      }
      case "/api/v1/mfa/passkeys/unlink": {
        if (body.remove_as_mfa === true) {
          const refused = spend(sub, sid, body.mfa_token, true);
          if (refused) return refused;
          enrolled(sub).delete("passkey");
        } else if (enrolled(sub).has("passkey")) {
          return fail(400, "invalid_data", "Cannot unlink a passkey enrolled in MFA");
        }
        return ok(user(sub));
      }
      default:
        return null;
    }
  }

  /**
   * The key_material guard: a refusal, or whether the release is single use and a `consume`
   * to call once every other check passed.
   */
  function guard(
    sub: string,
    sid: string | null,
    operation: Operation,
    token: unknown,
  ): Reply | { singleUse: boolean; consume: () => Reply | null } {
    const hasMfa = enrolled(sub).size > 0;
    const singleUse = hasMfa && protect;
    if (!hasMfa || (operation === "sign" && !protect)) return { singleUse, consume: () => null };
    if (token === undefined) return fail(403, "missing_or_invalid_mfa", "MFA verification is required");
    const refused = () => fail(403, "expired_or_invalid_mfa_token", "The MFA token is expired or invalid");
    if (operation === "sign") {
      if (!signs(sub, sid, token, false)) return refused();
      return { singleUse, consume: () => (signs(sub, sid, token, true) ? null : refused()) };
    }
    // A verification spent on signatures does not also export or recover.
    const signed = typeof token === "string" && (tokens.get(token)?.signUses ?? 0) > 0;
    if (signed || !valid(sub, sid, token, false)) return refused();
    return { singleUse, consume: () => spend(sub, sid, token, true) };
  }

  return {
    route,
    guard,
    mfaMethods,
    enroll,
    /** Every MFA token issued and not used yet. */
    tokens,
    /** `[mfa] protect_transactions` of the app. */
    protectTransactions(on: boolean) {
      protect = on;
    },
    setClock(now: () => number) {
      clock = now;
    },
  };
}
