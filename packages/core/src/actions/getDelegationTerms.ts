import type { Client } from "../client/createClient.ts";
import { DELEGATION_NEEDS_USER_MESSAGE, type SessionSigner } from "../delegation/delegatedWallets.ts";
import type { DelegationTerms, DelegationTermsRequest } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { requireUser } from "../session/accountRequest.ts";
import { requireAccessToken } from "../wallet/walletPreconditions.ts";

/** Parameters of {@link getDelegationTerms}. */
export interface GetDelegationTermsParameters {
  /** The wallet the terms are for (its id in the wallet API comes back as `wallet_id`). */
  address?: string;
  /** The signers to ask for; absent: the app's default delegation. */
  signers?: SessionSigner[];
}

/**
 * What delegating a wallet would let whom do (`POST /delegated_actions/terms`): the app's signers,
 * their keys and their policies, whole (what the consent screen shows), the signer's HPKE key and a
 * fresh consent id. The wallet frame asks for the same terms itself before it seals a consent.
 */
export async function getDelegationTerms(
  client: Client,
  { address, signers }: GetDelegationTermsParameters = {},
): Promise<DelegationTerms> {
  requireUser(client, DELEGATION_NEEDS_USER_MESSAGE);
  const token = await requireAccessToken(client);
  const body: DelegationTermsRequest = {
    ...(address === undefined ? {} : { address }),
    ...(signers === undefined
      ? {}
      : {
          signers: signers.map(({ signerId, policyIds }) => ({ signer_id: signerId, policy_ids: policyIds })),
        }),
  };
  return apiRequest<DelegationTerms>(client, "POST", "/delegated_actions/terms", { body, token });
}
