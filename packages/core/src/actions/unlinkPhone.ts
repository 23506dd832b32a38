import type { Client } from "../client/createClient.ts";
import type { SmsUnlinkRequest } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest, requireUser } from "../session/accountRequest.ts";

/**
 * `POST /passwordless_sms/unlink`: removes the number from the signed-in user. The server refuses
 * the last way in (`cannot_unlink_sole_account`) and unknown ones (`linked_account_not_found`).
 */
export async function unlinkPhone(client: Client, phoneNumber: string): Promise<AccountChangeResult> {
  requireUser(client);
  const body: SmsUnlinkRequest = { phoneNumber: phoneNumber.trim() };
  return accountRequest(client, "/passwordless_sms/unlink", body);
}
