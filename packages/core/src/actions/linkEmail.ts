import type { Client } from "../client/createClient.ts";
import type { PasswordlessLinkRequest } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest } from "../session/accountRequest.ts";
import { requireLinkable } from "../session/requireLinkable.ts";

/** Parameters of {@link linkEmail}. */
export interface LinkEmailParameters {
  /** The address the code was sent to (`sendEmailCode`). */
  email: string;
  code: string;
}

/**
 * `POST /passwordless/link`: adds an email to the signed-in user. Spec §5 checks first (signed in,
 * no email yet). `account_transfer_required` refusals carry the transfer offer (`transferData(e)`).
 */
export async function linkEmail(
  client: Client,
  parameters: LinkEmailParameters,
): Promise<AccountChangeResult> {
  requireLinkable(client, "email");
  const body: PasswordlessLinkRequest = { email: parameters.email.trim(), code: parameters.code.trim() };
  return accountRequest(client, "/passwordless/link", body);
}
