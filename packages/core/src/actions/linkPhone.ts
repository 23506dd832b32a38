import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { SmsLinkRequest } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest } from "../session/accountRequest.ts";
import { requireLinkable } from "../session/requireLinkable.ts";
import { parsePhone } from "../utils/parsePhone.ts";

/** Parameters of {@link linkPhone}. */
export interface LinkPhoneParameters {
  /** The number the code was sent to (`sendSmsCode`); sent in E.164. */
  phoneNumber: string;
  code: string;
}

/**
 * `POST /passwordless_sms/link`: adds a phone number to the signed-in user. Spec §5 checks first
 * (signed in, no phone yet). `account_transfer_required` refusals carry the transfer offer.
 */
export async function linkPhone(
  client: Client,
  parameters: LinkPhoneParameters,
): Promise<AccountChangeResult> {
  requireLinkable(client, "phone");
  const parsed = await parsePhone(parameters.phoneNumber);
  if (!parsed.ok) throw new ClientError("invalid_input", parsed.message);
  const body: SmsLinkRequest = { phoneNumber: parsed.e164, code: parameters.code.trim() };
  return accountRequest(client, "/passwordless_sms/link", body);
}
