import { type Client, type EIP1193Provider, getEmbeddedWallets } from "@symbolon/core";
import { useMemo } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { loadWalletActions } from "./loadWalletActions";
import { useClientState } from "./useClientState";

/** An embedded wallet of the user, shaped like the spec client's connected wallet. */
export interface ConnectedWallet {
  address: string;
  /** CAIP-2 id of the active chain. */
  chainId: `eip155:${number}`;
  walletClientType: "privy";
  connectorType: "embedded";
  walletIndex: number;
  imported: false;
  /** An EIP-1193 provider for this wallet (for viem's `custom()`, ethers' `BrowserProvider`). */
  getEthereumProvider(): Promise<EIP1193Provider>;
  /** Switches to a configured chain; others fail with 4902. */
  switchChain(chainId: number | `0x${string}`): Promise<void>;
}

const BUSY = new Set(["loading-frame", "creating", "connecting", "recovering"]);

/** The user's embedded wallets (first first); `ready` once the session and the wallet settled. */
export function useWallets(): { ready: boolean; wallets: ConnectedWallet[] } {
  const { client } = usePrivyContext("useWallets");
  const ready = useClientState("useWallets", (state) => state.ready, false);
  const status = useClientState("useWallets", (state) => state.embeddedWallet.status, "idle");
  const user = useClientState("useWallets", (state) => state.user, null);
  const activeChainId = useClientState("useWallets", (state) => state.activeChainId, 1);
  const wallets = useMemo(
    () =>
      client
        ? getEmbeddedWallets(user).map((account) =>
            toConnectedWallet(client, account.address, account.wallet_index ?? 0, activeChainId),
          )
        : [],
    [client, user, activeChainId],
  );
  return useMemo(() => ({ ready: ready && !BUSY.has(status), wallets }), [ready, status, wallets]);
}

function toConnectedWallet(
  client: Client,
  address: string,
  walletIndex: number,
  chainId: number,
): ConnectedWallet {
  const provider = async () => (await loadWalletActions()).getEthereumProvider(client, { address });
  return {
    address,
    chainId: `eip155:${chainId}`,
    walletClientType: "privy",
    connectorType: "embedded",
    walletIndex,
    imported: false,
    getEthereumProvider: provider,
    async switchChain(target) {
      const hex = typeof target === "number" ? `0x${target.toString(16)}` : target;
      await (await provider()).request({ method: "wallet_switchEthereumChain", params: [{ chainId: hex }] });
    },
  };
}
