import type { Client } from "../client/createClient.ts";
import { asSymbolonError } from "../errors/asSymbolonError.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { AuthMode, SmsAuthenticateRequest } from "../generated/protocol.ts";
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
    client.store.setState({ smsFlow: { status: "error", phoneNumber: null, error } });
    throw error;
  }
  client.store.setState({ smsFlow: { status: "submitting-code", phoneNumber, error: null } });
  const body: SmsAuthenticateRequest = { phoneNumber, code: parameters.code.trim() };
  if (parameters.mode !== undefined) body.mode = parameters.mode;
  try {
    const result = await loginWithSession(client, "/passwordless_sms/authenticate", body);
    client.store.setState({ smsFlow: { status: "done", phoneNumber, error: null } });
    return result;
  } catch (e) {
    client.store.setState({ smsFlow: { status: "error", phoneNumber, error: asSymbolonError(e) } });
    throw e;
  }
}
