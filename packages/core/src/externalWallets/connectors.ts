import type { Client } from "../client/createClient.ts";
import { COINBASE_SDK_ID } from "./options.ts";
import { runtimeOf, type WalletHandle } from "./runtime.ts";
import type { WalletOption } from "./types.ts";
import { WalletConnectionError } from "./WalletConnectionError.ts";

/**
 * The handle to talk to `option` through: installed wallets were found by discovery; Coinbase Wallet
 * and WalletConnect load their SDKs here, on first use (lazy chunks).
 */
export async function openHandle(
  client: Client,
  option: WalletOption,
  onPairingUri: (uri: string) => void,
): Promise<WalletHandle> {
  const runtime = runtimeOf(client);
  const found = runtime.handles.get(option.id);
  if (found) return found;
  if (option.connectorType === "wallet_connect") {
    const { connectWalletConnect } = await import("./walletConnect/index.ts");
    return { kind: "ethereum", provider: await connectWalletConnect(client, { onPairingUri }) };
  }
  if (option.id === COINBASE_SDK_ID) {
    const handle: WalletHandle = { kind: "ethereum", provider: await coinbaseProvider(client) };
    runtime.handles.set(option.id, handle);
    return handle;
  }
  throw new WalletConnectionError("generic_connect_wallet_error", `Wallet ${option.name} is not installed.`);
}

async function coinbaseProvider(client: Client) {
  const { createCoinbaseWalletSDK } = await import("@coinbase/wallet-sdk");
  const chains = client.options.chains ?? [];
  const sdk = createCoinbaseWalletSDK({
    appName: client.store.getState().appConfig?.name ?? "Symbolon",
    appChainIds:
      chains.length > 0 ? chains.map((chain) => chain.id) : [client.store.getState().activeChainId],
  });
  return sdk.getProvider() as unknown as import("viem").EIP1193Provider;
}
