import type { Client } from "../client/createClient.ts";
import { requestCrossAppAction } from "../crossApp/requestCrossAppAction.ts";
import { type CrossAppWalletOptions, crossAppProvider } from "./crossAppSignMessage.ts";

/**
 * Sends a transaction from the provider app's wallet: the provider's page fills, signs and
 * submits it on the active chain of this client; resolves with the hash.
 */
export async function crossAppSendTransaction(
  client: Client,
  transaction: Record<string, unknown>,
  options: CrossAppWalletOptions,
): Promise<string> {
  const chain = client.options.chains?.find((c) => c.id === client.store.getState().activeChainId);
  const { hash } = await requestCrossAppAction(client, {
    appId: crossAppProvider(client, options),
    address: options.address,
    request: {
      method: "eth_sendTransaction",
      params: [{ ...transaction, from: options.address }],
      ...(chain && {
        chain: { id: chain.id, name: chain.name, rpcUrl: chain.rpcUrl, nativeCurrency: chain.nativeCurrency },
      }),
    },
  });
  return hash ?? "";
}
