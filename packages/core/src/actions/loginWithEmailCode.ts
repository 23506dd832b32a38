import type { Client } from "../client/createClient.ts";
import { asSymbolonError } from "../errors/asSymbolonError.ts";
import { ClientError } from "../errors/ClientError.ts";
import type {
  AuthMode,
  PasswordlessAuthenticateRequest,
  SessionResponse,
  User,
} from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { afterLogin } from "../session/afterLogin.ts";
import { applySessionResponse } from "../session/applySessionResponse.ts";

/** Parameters of {@link loginWithEmailCode}. */
export interface LoginWithEmailCodeParameters {
  /** The emailed code; surrounding whitespace is trimmed (spec §5). */
  code: string;
  /** Default: the email of the flow in progress. */
  email?: string;
  mode?: AuthMode;
}

/** What a login resolved with. */
export interface LoginResult {
  user: User;
  isNewUser: boolean;
  /** True when the call was ignored because a (non-guest) user was already signed in. */
  wasAlreadyAuthenticated: boolean;
}

/**
 * `POST /passwordless/authenticate`: signs in with the emailed code. Moves the flow to
 * `submitting-code`, then (after creating the embedded wallet when `createOnLogin` asks for it) `done`, or `error` (keeping the email, so it can be called again) and rethrows.
 * Spec §5: a login while signed in (not as a guest) is ignored with a warning.
 */
export async function loginWithEmailCode(
  client: Client,
  parameters: LoginWithEmailCodeParameters,
): Promise<LoginResult> {
  const { authenticated, user: current, emailFlow } = client.store.getState();
  if (authenticated && current !== null && !current.is_guest) {
    console.warn("Symbolon: a user is already signed in; log out before logging in again.");
    return { user: current, isNewUser: false, wasAlreadyAuthenticated: true };
  }
  const email = (parameters.email ?? emailFlow.email)?.trim() ?? null;
  if (!email) {
    const error = new ClientError("invalid_input", "No auth flow in progress.");
    client.store.setState({ emailFlow: { status: "error", email: null, error } });
    throw error;
  }
  client.store.setState({ emailFlow: { status: "submitting-code", email, error: null } });
  const body: PasswordlessAuthenticateRequest = { email, code: parameters.code.trim() };
  if (parameters.mode !== undefined) body.mode = parameters.mode;
  try {
    const response = await apiRequest<SessionResponse>(client, "POST", "/passwordless/authenticate", {
      body,
    });
    const session = applySessionResponse(client, response);
    if (session === null) throw new ClientError("invalid_input", "Authentication failed - no user returned");
    // Creates the embedded wallet on login when configured; failing that, the user is logged out.
    const user = await afterLogin(client, session);
    client.store.setState({ emailFlow: { status: "done", email, error: null } });
    return { user, isNewUser: response.is_new_user, wasAlreadyAuthenticated: false };
  } catch (e) {
    client.store.setState({ emailFlow: { status: "error", email, error: asSymbolonError(e) } });
    throw e;
  }
}
