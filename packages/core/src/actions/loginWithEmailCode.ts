import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { AuthMode, PasswordlessAuthenticateRequest } from "../generated/protocol.ts";
import { runCodeStep, setCodeFlow } from "../session/codeFlow.ts";
import { ignoredLogin, type LoginResult, loginWithSession } from "../session/loginWithSession.ts";

export type { LoginResult } from "../session/loginWithSession.ts";

/** Parameters of {@link loginWithEmailCode}. */
export interface LoginWithEmailCodeParameters {
  /** The emailed code; surrounding whitespace is trimmed (spec §5). */
  code: string;
  /** Default: the email of the flow in progress. */
  email?: string;
  mode?: AuthMode;
}

/**
 * `POST /passwordless/authenticate`: signs in with the emailed code. Moves the flow to
 * `submitting-code`, then (after creating the embedded wallet when `createOnLogin` asks for it)
 * `done`, or `error` (keeping the email, so it can be called again) and rethrows.
 * Spec §5: a login while signed in (not as a guest) is ignored with a warning.
 */
export async function loginWithEmailCode(
  client: Client,
  parameters: LoginWithEmailCodeParameters,
): Promise<LoginResult> {
  const ignored = ignoredLogin(client);
  if (ignored) return ignored;
  const email = (parameters.email ?? client.store.getState().emailFlow.email)?.trim() ?? null;
  if (!email) {
    const error = new ClientError("invalid_input", "No auth flow in progress.");
    setCodeFlow(client, "email", "error", null, error);
    throw error;
  }
  const body: PasswordlessAuthenticateRequest = { email, code: parameters.code.trim() };
  if (parameters.mode !== undefined) body.mode = parameters.mode;
  return runCodeStep(client, "email", email, "submitting-code", "done", () =>
    loginWithSession(client, "/passwordless/authenticate", body),
  );
}
