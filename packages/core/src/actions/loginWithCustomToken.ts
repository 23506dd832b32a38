import type { Client } from "../client/createClient.ts";
import type { AuthMode, CustomJwtAuthenticateRequest } from "../generated/protocol.ts";
import { ignoredLogin, type LoginResult, loginWithSession } from "../session/loginWithSession.ts";

/**
 * `POST /custom_jwt_account/authenticate`: signs in with the host app's own JWT (spec §3
 * `customAuth`). Spec §5: a login while signed in (not as a guest) is ignored with a warning.
 */
export async function loginWithCustomToken(
  client: Client,
  token: string,
  mode?: AuthMode,
): Promise<LoginResult> {
  const ignored = ignoredLogin(client);
  if (ignored) return ignored;
  const body: CustomJwtAuthenticateRequest = { token };
  if (mode !== undefined) body.mode = mode;
  return loginWithSession(client, "/custom_jwt_account/authenticate", body);
}
