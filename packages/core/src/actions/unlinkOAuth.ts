import type { Client } from "../client/createClient.ts";
import type { OAuthUnlinkRequest } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest, requireUser } from "../session/accountRequest.ts";

/** Parameters of {@link unlinkOAuth}. */
export interface UnlinkOAuthParameters {
  /** `google`, `github`, … (or `privy:{appId}`). */
  provider: string;
  /** The provider's id of the account (`user.google.subject`). */
  subject: string;
}

/**
 * `POST /oauth/unlink {provider, subject}`: removes a provider account from the signed-in user.
 * The server refuses the last way in (`cannot_unlink_sole_account`) and unknown ones.
 */
export async function unlinkOAuth(
  client: Client,
  parameters: UnlinkOAuthParameters,
): Promise<AccountChangeResult> {
  requireUser(client);
  const body: OAuthUnlinkRequest = { provider: parameters.provider, subject: parameters.subject };
  return accountRequest(client, "/oauth/unlink", body);
}
