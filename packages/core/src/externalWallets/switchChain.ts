import type { EIP1193Provider } from "viem";
import type { Client } from "../client/createClient.ts";
import { rpcCodeOf } from "./WalletConnectionError.ts";

/** The chain the wallet is on, as a number. */
export async function walletChainId(provider: EIP1193Provider): Promise<number> {
  return Number(await provider.request({ method: "eth_chainId" }));
}

/**
 * Spec §4 switching_to_supported_chain: asks the wallet to switch to the client's active chain; a wallet
 * that does not know the chain (4902) is asked to add it from the client's chain config first.
 */
export async function switchToChain(
  client: Client,
  provider: EIP1193Provider,
  chainId: number,
): Promise<void> {
  // Not viem's numberToHex: this module is on the initial bundle's path, viem is not.
  const hex = `0x${chainId.toString(16)}` as const;
  try {
    await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: hex }] });
  } catch (error) {
    const chain = (client.options.chains ?? []).find((c) => c.id === chainId);
    if (rpcCodeOf(error) !== 4902 || !chain) throw error;
    await provider.request({
      method: "wallet_addEthereumChain",
      params: [
        {
          chainId: hex,
          chainName: chain.name,
          nativeCurrency: chain.nativeCurrency,
          rpcUrls: [chain.rpcUrl],
          ...(chain.blockExplorerUrl ? { blockExplorerUrls: [chain.blockExplorerUrl] } : {}),
        },
      ],
    });
    // Most wallets switch on add; those that do not are asked again.
    if ((await walletChainId(provider)) !== chainId)
      await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: hex }] });
  }
}

/** Whether `chainId` is one the client may use (any chain when none is configured). */
export function isSupportedChain(client: Client, chainId: number): boolean {
  const chains = client.options.chains ?? [];
  return chains.length === 0 || chains.some((chain) => chain.id === chainId);
}
