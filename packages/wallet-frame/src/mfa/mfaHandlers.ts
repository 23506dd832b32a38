// The MFA frame messages (docs/wallet.md "MFA frame messages"): verify keeps the MFA token in
// the frame (never answered to the host); enrolment, unenrolment and unlinking a passkey
// enrolled in MFA spend it. The routes answer only the server's own origin (contract).
import type {
  CurrentUserResponse,
  MfaMethodType,
  MfaSmsInitRequest,
  MfaTokenResponse,
  MfaUserResponse,
  MfaVerifyRequest,
  PasskeyAuthenticationResponse,
  TotpInitResponse,
  User,
} from "../../../core/src/generated/protocol.ts";
import { ApiCallError, type Get, type Post } from "../api.ts";
import { FrameError, MFA_RETRY_CODES, mfaRetryError, toFrameError } from "../frameError.ts";
import type { TokenSession } from "../jwt.ts";
import type { Handler } from "../messages.ts";
import { enterSession } from "../requestData.ts";
import type { WalletService } from "../wallets.ts";
import type { MfaTokens } from "./mfaTokens.ts";

/** What the MFA handlers need besides the wallets: the server calls, the token store, the app id. */
export interface MfaDeps {
  post: Post;
  /** Reads the user (`/users/me`): whether a verification without a code is due. */
  get: Get;
  tokens: MfaTokens;
  /** The app of a token (`privy-app-id` when known); keys the stored MFA token. */
  appId(token: string): string;
}

const ENROLL_PATHS: Record<MfaMethodType, string> = {
  totp: "/mfa/totp/enroll",
  sms: "/mfa/passwordless_sms/enroll",
  passkey: "/mfa/passkeys/enroll",
};

function check(ok: boolean, message: string): void {
  if (!ok) throw new FrameError("invalid_input", message);
}

/** `data.method` (our client) or `data.mfaMethod` (the published client's verify). */
function requireMethod(data: Record<string, unknown>): MfaMethodType {
  const method = (data.method ?? data.mfaMethod) as MfaMethodType;
  check(Object.hasOwn(ENROLL_PATHS, method), "Unsupported MFA method");
  return method;
}

/** A TOTP or SMS code: a string of 6 digits (spec §5). */
function requireCode(value: unknown): string {
  check(typeof value === "string" && /^\d{6}$/.test(value), "Invalid MFA code");
  return value as string;
}

function requirePhone(data: Record<string, unknown>): string {
  check(typeof data.phoneNumber === "string" && data.phoneNumber.trim() !== "", "Invalid phone number");
  return data.phoneNumber as string;
}

/** `{[wire]: data[name]}` of an optional flag, `{}` when absent. */
function flag(data: Record<string, unknown>, name: string, wire: string): Record<string, boolean> {
  const value = data[name];
  check(value === undefined || typeof value === "boolean", `${name} must be a boolean`);
  return value === undefined ? {} : { [wire]: value as boolean };
}

/**
 * The frame error of a failed MFA call (contract "Frame errors"): too many tries → max
 * attempts, with the seconds until the server's lock-out ends; a wrong code on verify → `missing_or_invalid_mfa` with the screen's text; the
 * rest as every other call (no/dead token → retry, `missing_mfa_enrollment`, the server's message).
 */
function mfaFrameError(error: unknown, verifying: boolean): FrameError {
  if (error instanceof ApiCallError && error.status === 429) {
    return new FrameError(
      "mfa_verification_max_attempts_reached",
      "Max MFA verification attempts reached",
      error.retryAfterSeconds,
    );
  }
  if (verifying && error instanceof ApiCallError && error.code === "invalid_credentials") {
    return new FrameError("missing_or_invalid_mfa", "The code you entered is not valid");
  }
  return toFrameError(error, "embedded_wallet_request_error");
}

type MfaRun = (token: string, session: TokenSession, data: Record<string, unknown>) => Promise<unknown>;

/** The MFA events, and the verification a wallet event runs first when it carries a code. */
export interface MfaEvents {
  handlers: Record<string, Handler>;
  /** Verifies `data.mfaMethod` + `data.mfaCode` when present (keeping the token); else nothing. */
  verifyInline(token: string, session: TokenSession, data: Record<string, unknown>): Promise<void>;
  /**
   * POSTs `body` with the held MFA token, if any (a success uses it up; a refusal of it drops it):
   * what a release guarded like an export sends (a delegation consent).
   */
  spendToken<T>(
    token: string,
    session: TokenSession,
    path: string,
    body: Record<string, unknown>,
  ): Promise<T>;
}

export function mfaHandlers(wallets: WalletService, { post, get, tokens, appId }: MfaDeps): MfaEvents {
  /** A handler: the session entered first, failures answered as MFA frame errors. */
  const handler =
    (run: MfaRun, verifying = false): Handler =>
    async (data) => {
      try {
        const { token, session } = enterSession(wallets, data);
        return await run(token, session, data);
      } catch (error) {
        throw mfaFrameError(error, verifying);
      }
    };

  /**
   * POSTs `body` with the held MFA token (when `wanted`). A success used the token up; a
   * refusal of it drops it (the host verifies again and retries); other failures keep it.
   */
  async function spendToken<T>(
    token: string,
    session: TokenSession,
    path: string,
    body: Record<string, unknown>,
    wanted = true,
  ): Promise<T> {
    const app = appId(token);
    const held = wanted ? tokens.current(app, session) : null;
    try {
      const result = await post<T>(token, path, held ? { ...body, mfa_token: held } : body);
      if (held) tokens.forget(app, session.userId);
      return result;
    } catch (error) {
      if (held && error instanceof ApiCallError && MFA_RETRY_CODES.has(error.code ?? "")) {
        tokens.forget(app, session.userId);
      }
      throw error;
    }
  }

  /** `POST /mfa/verify`; the MFA token stays here: the host learns only that it succeeded. */
  async function verifyCode(token: string, session: TokenSession, data: Record<string, unknown>) {
    const method = requireMethod(data);
    const proof = data.mfaCode;
    if (method === "passkey") {
      check(typeof proof === "object" && proof !== null && !Array.isArray(proof), "Invalid passkey response");
    }
    const answer = await post<MfaTokenResponse>(
      token,
      "/mfa/verify",
      (method === "passkey"
        ? { method, authenticator_response: proof as PasskeyAuthenticationResponse }
        : { method, code: requireCode(proof) }) satisfies MfaVerifyRequest,
    );
    tokens.keep(appId(token), session, answer.token, answer.expires_at);
  }

  const verify = handler(async (token, session, data) => {
    if (data.mfaCode == null && data.method == null && data.mfaMethod == null) {
      // The published client asks this, with no method or code, before an export: done when a verification
      // is held or the user has no second factor; else the retry error makes it prompt the user
      // and post again with the code.
      if (tokens.current(appId(token), session)) return {};
      const { user } = await get<CurrentUserResponse>(token, "/users/me");
      if (user.mfa_methods.length === 0) return {};
      throw mfaRetryError();
    }
    await verifyCode(token, session, data);
    return {};
  }, true);

  async function verifyInline(token: string, session: TokenSession, data: Record<string, unknown>) {
    if (data.mfaCode == null) return;
    try {
      await verifyCode(token, session, data);
    } catch (error) {
      throw mfaFrameError(error, true);
    }
  }

  const initEnrollment = handler(async (token, _session, data) => {
    const method = requireMethod(data);
    if (method === "totp") {
      const { totpSecret, totpAuthUrl } = await post<TotpInitResponse>(token, "/mfa/totp/init", {});
      return { secret: totpSecret, authUrl: totpAuthUrl };
    }
    if (method === "sms") {
      const body: MfaSmsInitRequest = { action: "enroll", phoneNumber: requirePhone(data) };
      await post(token, "/mfa/passwordless_sms/init", body);
    }
    // Passkeys are linked first (host routes); enrolment only names them.
    return {};
  });

  const submitEnrollment = handler(async (token, session, data) => {
    const method = requireMethod(data);
    let body: Record<string, unknown>;
    if (method === "passkey") {
      const ids = data.credentialIds;
      check(
        Array.isArray(ids) && ids.length > 0 && ids.every((id) => typeof id === "string" && id !== ""),
        "credentialIds must be a non-empty list of credential ids",
      );
      body = { credential_ids: ids, ...flag(data, "removeForLogin", "remove_for_login") };
    } else {
      body = method === "sms" ? { phoneNumber: requirePhone(data) } : {};
      // `code` from the published client, `mfaCode` from older callers.
      body.code = requireCode(data.code ?? data.mfaCode);
    }
    const { user } = await spendToken<MfaUserResponse>(token, session, ENROLL_PATHS[method], body);
    // The server guards the user's next key release now: do not keep signing from memory.
    wallets.lock(session.userId);
    return { user };
  });

  const unenroll = handler(async (token, session, data) => {
    const body = { method: requireMethod(data), ...flag(data, "removeForLogin", "remove_for_login") };
    const { user } = await spendToken<MfaUserResponse>(token, session, "/mfa/unenroll", body);
    return { user };
  });

  const unlinkPasskey = handler(async (token, session, data) => {
    const credentialId = data.credentialId;
    check(typeof credentialId === "string" && credentialId !== "", "Invalid credential id");
    const removal = flag(data, "removeAsMfa", "remove_as_mfa");
    // Only removing it from MFA needs (and uses up) a token; the route answers the user itself.
    const user = await spendToken<User>(
      token,
      session,
      "/mfa/passkeys/unlink",
      { credential_id: credentialId, ...removal },
      removal.remove_as_mfa === true,
    );
    return { user };
  });

  return {
    handlers: {
      "privy:mfa:verify": verify,
      "privy:mfa:init-enrollment": initEnrollment,
      "privy:mfa:submit-enrollment": submitEnrollment,
      "privy:mfa:unenroll": unenroll,
      "privy:auth:unlink-passkey": unlinkPasskey,
    },
    verifyInline,
    spendToken,
  };
}
