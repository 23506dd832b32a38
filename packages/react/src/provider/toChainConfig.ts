import type { ChainConfig } from "@symbolon/core";
import type { SupportedChain } from "./PrivyConfig";

/** A viem-shaped chain of the config as core's ChainConfig; the RPC is `rpcUrls.default.http[0]`. */
export function toChainConfig(chain: SupportedChain): ChainConfig {
  const rpcUrl = chain.rpcUrls?.default?.http[0];
  if (!rpcUrl) {
    throw new Error(`Chain ${chain.id} (${chain.name}) needs an RPC URL in rpcUrls.default.http[0].`);
  }
  const explorer = chain.blockExplorers?.default?.url;
  return {
    id: chain.id,
    name: chain.name,
    rpcUrl,
    nativeCurrency: chain.nativeCurrency ?? { name: "Ether", symbol: "ETH", decimals: 18 },
    ...(explorer ? { blockExplorerUrl: explorer } : {}),
  };
}
