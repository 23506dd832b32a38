import { requireChain } from "../chain/requireChain.ts";
import { rpcRequest } from "../chain/rpcRequest.ts";
import type { Client } from "../client/createClient.ts";
import { type CrossAppWalletOptions, crossAppProvider } from "../crossApp/crossAppProvider.ts";
import { requestCrossAppAction } from "../crossApp/requestCrossAppAction.ts";
import {
  fillTransaction,
  parseTransaction,
  type TransactionRequest,
  toRpcTransaction,
} from "../wallet/fillTransaction.ts";
import { expectAddress } from "../wallet/validateParams.ts";

/**
 * Sends a transaction from the provider app's wallet: this client fills it (nonce, gas, fees) from
 * its chain's RPC, the provider's signing page signs it fully filled (`eth_signTransaction`; the
 * page talks to no chain), and this client submits it; resolves with the hash. In
 * `@symbolon/core/wallet` (it needs viem).
 */
export async function crossAppSendTransaction(
  client: Client,
  transaction: TransactionRequest,
  options: CrossAppWalletOptions,
): Promise<string> {
  const address = expectAddress("address", options.address);
  const parsed = parseTransaction(transaction, address);
  const chain = requireChain(client, parsed.chainId);
  const filled = await fillTransaction(client, chain, { ...parsed, from: address });
  const { signature } = await requestCrossAppAction(client, {
    appId: crossAppProvider(client, options),
    address,
    request: {
      method: "eth_signTransaction",
      params: [toRpcTransaction(filled)],
      chain: { id: chain.id, name: chain.name, rpcUrl: chain.rpcUrl, nativeCurrency: chain.nativeCurrency },
    },
  });
  return rpcRequest<string>(client, chain, "eth_sendRawTransaction", [signature]);
}
