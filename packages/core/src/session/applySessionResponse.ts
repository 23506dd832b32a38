import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import type { SessionResponse, User } from "../generated/protocol.ts";
import { clearLocalState } from "./clearLocalState.ts";
import { forgetGuestCredential } from "./guestCredential.ts";
import { tokenStore } from "./tokenStore.ts";

/**
 * Applies a login or refresh answer per its `session_update_action` (spec §4): `set` stores every
 * token, `clear` destroys local state, `ignore` stores only the access tokens and the identity token.
 * Returns the signed-in user, or null when the session was cleared.
 */
export function applySessionResponse(client: Client, response: SessionResponse): User | null {
  const action = response.session_update_action;
  if (action === "clear") {
    clearLocalState(client);
    return null;
  }
  tokenStore.write(client, {
    token: response.token ?? undefined,
    privy_access_token: response.privy_access_token ?? undefined,
    id_token: response.identity_token ?? undefined,
    ...(action === "set" ? { refresh_token: response.refresh_token ?? undefined } : {}),
  });
  tokenStore.writeUser(client, response.user);
  // A guest who signed in with a real method is no guest any more: the server removed the
  // credential as a way in, and it must not linger in the host page's storage either.
  if (!response.user.is_guest) forgetGuestCredential(client);
  client.store.setState({
    authenticated: true,
    user: response.user,
    identityToken: response.identity_token ?? tokenStore.read(client).identityToken,
  });
  internals(client).channel?.post({ type: "sync" });
  return response.user;
}
