import type { Client } from "../client/createClient.ts";
import { defaultWalletAddress } from "../wallet/defaultWalletAddress.ts";
import type { TransactionRequest } from "../wallet/fillTransaction.ts";
import { expectAddress } from "../wallet/validateParams.ts";
import { walletRequest } from "../wallet/walletRequest.ts";
import type { WalletActionOptions } from "./signMessage.ts";

/**
 * Fills, confirms, signs (in the wallet frame) and submits a transaction; resolves with its hash
 * once the chain accepted it, without waiting for it to be mined.
 */
export async function sendTransaction(
  client: Client,
  transaction: TransactionRequest,
  options: WalletActionOptions = {},
): Promise<{ hash: string }> {
  const address = expectAddress("address", options.address ?? defaultWalletAddress(client));
  const hash = await walletRequest(
    client,
    address,
    { method: "eth_sendTransaction", params: [transaction] },
    options.uiOptions,
  );
  return { hash: hash as string };
}
