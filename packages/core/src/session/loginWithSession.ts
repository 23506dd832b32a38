import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { OAuthTokens, SessionResponse, User } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { afterLogin } from "./afterLogin.ts";
import { applySessionResponse } from "./applySessionResponse.ts";

/** What a login resolved with. */
export interface LoginResult {
  user: User;
  isNewUser: boolean;
  /** True when the call was ignored because a (non-guest) user was already signed in. */
  wasAlreadyAuthenticated: boolean;
  /** OAuth logins: the provider's tokens, when the server returned them (spec §3 `oauth_tokens`). */
  oauthTokens?: OAuthTokens;
}

/**
 * Spec §5: a login while signed in is ignored with a warning; guests may log in. Returns the result
 * to answer with when the login must be ignored, else null.
 */
export function ignoredLogin(client: Client): LoginResult | null {
  const { authenticated, user } = client.store.getState();
  if (!authenticated || user === null || user.is_guest) return null;
  console.warn("Symbolon: a user is already signed in; log out before logging in again.");
  return { user, isNewUser: false, wasAlreadyAuthenticated: true };
}

/**
 * The last step every login method shares: POST the proof to `path`, store the session it answers,
 * then run the after-login steps (embedded wallet creation; failing that, the user is logged out).
 */
export async function loginWithSession(
  client: Client,
  path: string,
  body: unknown,
  options: { prefix?: string } = {},
): Promise<LoginResult> {
  const response = await apiRequest<SessionResponse>(client, "POST", path, { body, ...options });
  const session = applySessionResponse(client, response);
  if (session === null) throw new ClientError("invalid_input", "Authentication failed - no user returned");
  const user = await afterLogin(client, session);
  const result: LoginResult = { user, isNewUser: response.is_new_user, wasAlreadyAuthenticated: false };
  if (response.oauth_tokens) result.oauthTokens = response.oauth_tokens;
  return result;
}
