import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { AuthMode, SmsAuthenticateRequest } from "../generated/protocol.ts";
import { runCodeStep, setCodeFlow } from "../session/codeFlow.ts";
import { ignoredLogin, type LoginResult, loginWithSession } from "../session/loginWithSession.ts";

/** Parameters of {@link loginWithSmsCode}. */
export interface LoginWithSmsCodeParameters {
  /** The texted code; surrounding whitespace is trimmed (spec §5). */
  code: string;
  /** Default: the number of the flow in progress. */
  phoneNumber?: string;
  mode?: AuthMode;
}

/**
 * `POST /passwordless_sms/authenticate`: signs in with the texted code. Moves the SMS flow to
 * `submitting-code`, then `done`, or `error` (keeping the number) and rethrows. Spec §5: a login
 * while signed in (not as a guest) is ignored with a warning.
 */
export async function loginWithSmsCode(
  client: Client,
  parameters: LoginWithSmsCodeParameters,
): Promise<LoginResult> {
  const ignored = ignoredLogin(client);
  if (ignored) return ignored;
  const phoneNumber = (parameters.phoneNumber ?? client.store.getState().smsFlow.phoneNumber)?.trim() ?? null;
  if (!phoneNumber) {
    const error = new ClientError("invalid_input", "No auth flow in progress.");
    setCodeFlow(client, "sms", "error", null, error);
    throw error;
  }
  const body: SmsAuthenticateRequest = { phoneNumber, code: parameters.code.trim() };
  if (parameters.mode !== undefined) body.mode = parameters.mode;
  return runCodeStep(client, "sms", phoneNumber, "submitting-code", "done", () =>
    loginWithSession(client, "/passwordless_sms/authenticate", body),
  );
}
