import type { Client } from "../client/createClient.ts";
import type { CustomJwtLinkRequest } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest } from "../session/accountRequest.ts";
import { requireLinkable } from "../session/requireLinkable.ts";

/** `POST /custom_jwt_account/link`: adds the host app's account (its JWT's subject) to the signed-in user. */
export async function linkCustomJwt(client: Client, token: string): Promise<AccountChangeResult> {
  requireLinkable(client, "custom_auth");
  const body: CustomJwtLinkRequest = { token };
  return accountRequest(client, "/custom_jwt_account/link", body);
}
