import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { SmsUpdateRequest } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest, requireUser } from "../session/accountRequest.ts";
import { parsePhone } from "../utils/parsePhone.ts";

/** Parameters of {@link updatePhone}. */
export interface UpdatePhoneParameters {
  /** The new number, which got the code (`sendSmsCode`); sent in E.164. */
  newPhoneNumber: string;
  code: string;
}

/** Spec §5: the update operation without a phone linked. */
export const NO_PHONE_MESSAGE = "User does not have a phone number linked to their account.";

/**
 * `POST /passwordless_sms/update`: replaces the user's number (the old one is read from the user)
 * with `newPhoneNumber` once its code is verified. Without a phone: ClientError('invalid_input', NO_PHONE_MESSAGE).
 */
export async function updatePhone(
  client: Client,
  parameters: UpdatePhoneParameters,
): Promise<AccountChangeResult> {
  const user = requireUser(client);
  const old = user.linked_accounts.find((a) => a.type === "phone");
  if (!old) throw new ClientError("invalid_input", NO_PHONE_MESSAGE);
  const parsed = await parsePhone(parameters.newPhoneNumber);
  if (!parsed.ok) throw new ClientError("invalid_input", parsed.message);
  const body: SmsUpdateRequest = {
    old_phone_number: old.phoneNumber,
    new_phone_number: parsed.e164,
    code: parameters.code.trim(),
  };
  return accountRequest(client, "/passwordless_sms/update", body);
}
