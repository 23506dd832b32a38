import { useCallback, useMemo } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { loadExternalWallets } from "./loadExternalWallets";
import { useClientState } from "./useClientState";
import { type ConnectedSolanaWallet, type ConnectedWallet, useSolanaWallets, useWallets } from "./useWallets";

/**
 * The wallet the app acts with (spec client `useActiveWallet`): the one set with `setActiveWallet`,
 * else the first embedded wallet, else the most recently connected external one.
 */
export function useActiveWallet() {
  const { client } = usePrivyContext("useActiveWallet");
  const { wallets } = useWallets();
  const { wallets: solana } = useSolanaWallets();
  const activeAddress = useClientState("useActiveWallet", (s) => s.externalWallets.activeAddress, null);
  const wallet = useMemo<ConnectedWallet | ConnectedSolanaWallet | null>(() => {
    const all = [...wallets, ...solana];
    const wanted = activeAddress?.toLowerCase();
    return all.find((w) => w.address.toLowerCase() === wanted) ?? all[0] ?? null;
  }, [wallets, solana, activeAddress]);
  const setActiveWallet = useCallback(
    async (next: { address: string } | string) => {
      if (!client) return;
      (await loadExternalWallets()).setActiveWallet(client, typeof next === "string" ? next : next.address);
    },
    [client],
  );
  return { wallet, setActiveWallet };
}
