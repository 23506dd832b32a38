import type { Client } from "../client/createClient.ts";
import type { PasswordlessUnlinkRequest } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest, requireUser } from "../session/accountRequest.ts";

/**
 * `POST /passwordless/unlink`: removes the email `address` from the signed-in user. The server
 * refuses the last way in (`cannot_unlink_sole_account`) and unknown ones (`linked_account_not_found`).
 */
export async function unlinkEmail(client: Client, address: string): Promise<AccountChangeResult> {
  requireUser(client);
  const body: PasswordlessUnlinkRequest = { address: address.trim() };
  return accountRequest(client, "/passwordless/unlink", body);
}
