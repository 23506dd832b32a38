import type { Client } from "../client/createClient.ts";
import {
  DELEGATION_NEEDS_USER_MESSAGE,
  getDelegatedWallets,
  NOTHING_TO_REVOKE_MESSAGE,
} from "../delegation/delegatedWallets.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { RevokeDelegationResponse } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { requireUser } from "../session/accountRequest.ts";
import { requireAccessToken } from "../wallet/walletPreconditions.ts";
import { fetchUser } from "./fetchUser.ts";

/**
 * Revokes every delegation of the user's wallets (`POST /wallets/revoke {}`, the published client's
 * call): the app's back end can no longer sign with them. Refuses a user with no delegated wallet
 * ('User has no delegated wallets to revoke.') without calling the server; then reads the user
 * again (`delegated: false`). Resolves with the server's answer (the addresses revoked).
 */
export async function revokeDelegatedWallets(client: Client): Promise<RevokeDelegationResponse> {
  const user = requireUser(client, DELEGATION_NEEDS_USER_MESSAGE);
  if (getDelegatedWallets(user).length === 0)
    throw new ClientError("invalid_input", NOTHING_TO_REVOKE_MESSAGE);
  const token = await requireAccessToken(client);
  const revoked = await apiRequest<RevokeDelegationResponse>(client, "POST", "/wallets/revoke", {
    body: {},
    token,
  });
  await fetchUser(client);
  return revoked;
}
