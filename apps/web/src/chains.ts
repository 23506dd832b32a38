import type { SupportedChain } from "@symbolon/react";

/** Public RPC endpoint of Somnia Testnet. */
export const SOMNIA_TESTNET_RPC_URL = "https://dream-rpc.somnia.network";
const EXPLORER_URL = "https://shannon-explorer.somnia.network";

/** Somnia Testnet (chain 50312), the app's only chain (spec §9); `rpcUrl` overrides the public RPC. */
export function somniaTestnet(rpcUrl: string = SOMNIA_TESTNET_RPC_URL) {
  return {
    id: 50312,
    name: "Somnia Testnet",
    nativeCurrency: { name: "Somnia Testnet Token", symbol: "STT", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    blockExplorers: {
      default: { name: "Shannon Explorer", url: EXPLORER_URL, apiUrl: `${EXPLORER_URL}/api` },
    },
    testnet: true,
  } as const satisfies SupportedChain & { testnet: boolean };
}

/** The configured chain with id `chainId`, else the spec §5 error. */
export function supportedChain<C extends SupportedChain>(chainId: string | number, chains: readonly C[]): C {
  const chain = chains.find((candidate) => String(candidate.id) === String(chainId));
  if (!chain) {
    throw new Error(
      `Chain ID ${chainId} is not supported. It must be added to the config.supportedChains property of the PrivyProvider.`,
    );
  }
  return chain;
}
