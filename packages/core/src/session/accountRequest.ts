import { getAccessToken } from "../actions/getAccessToken.ts";
import { refreshSession } from "../actions/refreshSession.ts";
import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { User } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";

/** What a link, unlink, update or transfer resolves with (like the spec client). */
export interface AccountChangeResult {
  /** The user as it is now (server form); also in the store. */
  user: User;
  /** The identity token after the change, when the server issued one. */
  identityToken: string | null;
}

/** Spec §5: linking requires authentication. */
export const MUST_BE_AUTHENTICATED_MESSAGE = "User must be authenticated before linking an account.";

/** The signed-in user, or ClientError('attempted_rpc_call_before_logged_in') with the spec's message. */
export function requireUser(client: Client, message = MUST_BE_AUTHENTICATED_MESSAGE): User {
  const { authenticated, user } = client.store.getState();
  if (!authenticated || user === null) throw new ClientError("attempted_rpc_call_before_logged_in", message);
  return user;
}

/**
 * The step every link, unlink, update and transfer shares: POST `body` to `path` with the bearer
 * token, then refresh the session so the store's user and identity token are current (the spec
 * client calls refreshSession and returns `{user, identity_token}`).
 */
export async function accountRequest(
  client: Client,
  path: string,
  body: unknown,
): Promise<AccountChangeResult> {
  const token = await getAccessToken(client);
  if (token === null)
    throw new ClientError("attempted_rpc_call_before_logged_in", MUST_BE_AUTHENTICATED_MESSAGE);
  const answered = await apiRequest<User>(client, "POST", path, { body, token });
  const refreshed = await refreshSession(client);
  const user = refreshed ?? answered;
  return { user, identityToken: client.store.getState().identityToken };
}
