import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { PasswordlessUpdateRequest } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest, requireUser } from "../session/accountRequest.ts";

/** Parameters of {@link updateEmail}. */
export interface UpdateEmailParameters {
  /** The new address, which got the code (`sendEmailCode`). */
  newAddress: string;
  code: string;
}

/** Spec §5: the update operation without an email linked. */
export const NO_EMAIL_MESSAGE = "User does not have an email linked to their account.";

/**
 * `POST /passwordless/update`: replaces the user's email (the old one is read from the user) with
 * `newAddress` once its code is verified. Without an email: ClientError('invalid_input', NO_EMAIL_MESSAGE).
 */
export async function updateEmail(
  client: Client,
  parameters: UpdateEmailParameters,
): Promise<AccountChangeResult> {
  const user = requireUser(client);
  const old = user.linked_accounts.find((a) => a.type === "email");
  if (!old) throw new ClientError("invalid_input", NO_EMAIL_MESSAGE);
  const body: PasswordlessUpdateRequest = {
    oldAddress: old.address,
    newAddress: parameters.newAddress.trim(),
    code: parameters.code.trim(),
  };
  return accountRequest(client, "/passwordless/update", body);
}
