// The MFA frame messages (docs/wallet.md "MFA frame messages"): verify keeps the MFA token in
// the frame (never answered to the host); enrolment, unenrolment and unlinking a passkey
// enrolled in MFA spend it.
import type { PasskeyAuthenticationResponse } from "../../../core/src/generated/protocol.ts";
import { ApiCallError } from "../api.ts";
import { FrameError, MFA_RETRY_CODES, toFrameError } from "../frameError.ts";
import type { TokenSession } from "../jwt.ts";
import type { Handler } from "../messages.ts";
import { enterSession } from "../requestData.ts";
import type { WalletService } from "../wallets.ts";
import type { MfaApi, MfaMethodType } from "./mfaApi.ts";
import type { MfaTokens } from "./mfaTokens.ts";

/** What the MFA handlers need besides the wallets: the server calls, the token store, the app id. */
export interface MfaDeps {
  api: MfaApi;
  tokens: MfaTokens;
  /** The app of a token (`privy-app-id` when known); keys the stored MFA token. */
  appId(token: string): string;
}

const METHODS: readonly MfaMethodType[] = ["totp", "sms", "passkey"];

function invalid(message: string): FrameError {
  return new FrameError("invalid_input", message);
}

function requireMethod(data: Record<string, unknown>): MfaMethodType {
  const method = data.method;
  if (!METHODS.includes(method as MfaMethodType)) throw invalid("Unsupported MFA method");
  return method as MfaMethodType;
}

/** A TOTP or SMS code: a string of 6 digits (spec §5). */
function requireCode(value: unknown): string {
  if (typeof value !== "string" || !/^[0-9]{6}$/.test(value)) throw invalid("Invalid MFA code");
  return value;
}

/** A passkey assertion: an object (the server checks its fields). */
function requireAssertion(value: unknown): PasskeyAuthenticationResponse {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("Invalid passkey response");
  }
  return value as PasskeyAuthenticationResponse;
}

function requireText(value: unknown, message: string): string {
  if (typeof value !== "string" || value.trim() === "") throw invalid(message);
  return value;
}

function optionalFlag(data: Record<string, unknown>, name: string): boolean | undefined {
  const value = data[name];
  if (value !== undefined && typeof value !== "boolean") throw invalid(`${name} must be a boolean`);
  return value;
}

function requireCredentialIds(value: unknown): string[] {
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    !value.every((id) => typeof id === "string" && id !== "")
  ) {
    throw invalid("credentialIds must be a non-empty list of credential ids");
  }
  return value as string[];
}

/**
 * The frame error of a failed MFA call (contract "Frame errors"): too many tries → max
 * attempts; a wrong code on verify → `missing_or_invalid_mfa` with the screen's text; the
 * rest as every other call (no/dead token → retry, `missing_mfa_enrollment`, the server's message).
 */
function mfaFrameError(error: unknown, verifying: boolean): FrameError {
  if (error instanceof ApiCallError) {
    if (error.status === 429) {
      return new FrameError("mfa_verification_max_attempts_reached", "Max MFA verification attempts reached");
    }
    if (verifying && error.code === "invalid_credentials") {
      return new FrameError("missing_or_invalid_mfa", "The code you entered is not valid");
    }
  }
  return toFrameError(error, "embedded_wallet_request_error");
}

export function mfaHandlers(
  wallets: WalletService,
  { api, tokens, appId }: MfaDeps,
): Record<string, Handler> {
  /** Runs `handler`, answering its failures as MFA frame errors. */
  const guarded =
    (handler: Handler, verifying = false): Handler =>
    async (data) => {
      try {
        return await handler(data);
      } catch (error) {
        throw mfaFrameError(error, verifying);
      }
    };

  /**
   * Sends the held MFA token (when `wanted` and held) through `call`. A success used it up; a
   * refusal of the token drops it (the host verifies again and retries); other failures keep it.
   */
  async function spendToken<T>(
    token: string,
    session: TokenSession,
    wanted: boolean,
    call: (mfaToken: { mfa_token?: string }) => Promise<T>,
  ): Promise<T> {
    const app = appId(token);
    const held = wanted ? tokens.current(app, session) : null;
    try {
      const result = await call(held ? { mfa_token: held } : {});
      if (held) tokens.forget(app, session.userId);
      return result;
    } catch (error) {
      if (held && error instanceof ApiCallError && error.code !== null && MFA_RETRY_CODES.has(error.code)) {
        tokens.forget(app, session.userId);
      }
      throw error;
    }
  }

  const verify = guarded(async (data) => {
    const { token, session } = enterSession(wallets, data);
    const method = requireMethod(data);
    const body =
      method === "passkey"
        ? { method, authenticator_response: requireAssertion(data.mfaCode) }
        : { method, code: requireCode(data.mfaCode) };
    const answer = await api.verify(token, body);
    tokens.keep(appId(token), session, answer.token, answer.expires_at);
    // The token stays here: the host learns only that verification succeeded.
    return {};
  }, true);

  const initEnrollment = guarded(async (data) => {
    const { token } = enterSession(wallets, data);
    const method = requireMethod(data);
    if (method === "totp") {
      const { secret, auth_url } = await api.initTotp(token);
      return { secret, authUrl: auth_url };
    }
    if (method === "sms") {
      const phoneNumber = requireText(data.phoneNumber, "Invalid phone number");
      await api.initSms(token, { action: "enroll", phoneNumber });
    }
    // Passkeys are linked first (host routes); enrolment only names them.
    return {};
  });

  const submitEnrollment = guarded(async (data) => {
    const { token, session } = enterSession(wallets, data);
    const method = requireMethod(data);
    let send: (mfaToken: { mfa_token?: string }) => Promise<{ user: unknown }>;
    if (method === "totp") {
      const code = requireCode(data.mfaCode);
      send = (mfaToken) => api.enrollTotp(token, { code, ...mfaToken });
    } else if (method === "sms") {
      const phoneNumber = requireText(data.phoneNumber, "Invalid phone number");
      const code = requireCode(data.mfaCode);
      send = (mfaToken) => api.enrollSms(token, { phoneNumber, code, ...mfaToken });
    } else {
      const credential_ids = requireCredentialIds(data.credentialIds);
      const removeForLogin = optionalFlag(data, "removeForLogin");
      send = (mfaToken) =>
        api.enrollPasskeys(token, {
          credential_ids,
          ...(removeForLogin === undefined ? {} : { remove_for_login: removeForLogin }),
          ...mfaToken,
        });
    }
    const { user } = await spendToken(token, session, true, send);
    // The server guards the user's next key release now: do not keep signing from memory.
    wallets.lock(session.userId);
    return { user };
  });

  const unenroll = guarded(async (data) => {
    const { token, session } = enterSession(wallets, data);
    const method = requireMethod(data);
    const removeForLogin = optionalFlag(data, "removeForLogin");
    const { user } = await spendToken(token, session, true, (mfaToken) =>
      api.unenroll(token, {
        method,
        ...mfaToken,
        ...(removeForLogin === undefined ? {} : { remove_for_login: removeForLogin }),
      }),
    );
    return { user };
  });

  const unlinkPasskey = guarded(async (data) => {
    const { token, session } = enterSession(wallets, data);
    const credential_id = requireText(data.credentialId, "Invalid credential id");
    const removeAsMfa = optionalFlag(data, "removeAsMfa");
    // Only removing it from MFA needs (and uses up) a token.
    const user = await spendToken(token, session, removeAsMfa === true, (mfaToken) =>
      api.unlinkPasskey(token, {
        credential_id,
        ...(removeAsMfa === undefined ? {} : { remove_as_mfa: removeAsMfa }),
        ...mfaToken,
      }),
    );
    return { user };
  });

  const clear: Handler = () => {
    tokens.forgetAll();
    return {};
  };

  return {
    "privy:mfa:verify": verify,
    "privy:mfa:init-enrollment": initEnrollment,
    "privy:mfa:submit-enrollment": submitEnrollment,
    "privy:mfa:unenroll": unenroll,
    "privy:mfa:clear": clear,
    "privy:auth:unlink-passkey": unlinkPasskey,
    // The unprefixed names of spec §7.
    "privy:init-enrollment": initEnrollment,
    "privy:submit-enrollment": submitEnrollment,
    "privy:unenroll": unenroll,
  };
}
