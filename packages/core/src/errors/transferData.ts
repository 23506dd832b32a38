import type { AccountTransferData } from "../generated/protocol.ts";
import { isApiError } from "./ApiError.ts";

/**
 * The transfer offer of an `account_transfer_required` refusal (spec §8: "store transfer data, go to
 * the transfer screen"), or null for any other error. Pass its `nonce` to `transferAccount`.
 */
export function transferData(error: unknown): AccountTransferData | null {
  if (!isApiError(error) || error.code !== "account_transfer_required") return null;
  const data = error.data as Partial<AccountTransferData> | undefined;
  if (!data || typeof data.nonce !== "string") return null;
  const offer: AccountTransferData = {
    nonce: data.nonce,
    account_type: String(data.account_type ?? ""),
    display_name: String(data.display_name ?? ""),
    embedded_wallet_address: data.embedded_wallet_address ?? null,
  };
  // OAuth accounts: what the provider told, sent back as `userInfo` of `/oauth/transfer`.
  if (data.oauth_user_info) offer.oauth_user_info = data.oauth_user_info;
  return offer;
}
