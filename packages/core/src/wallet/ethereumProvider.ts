import { numberToHex } from "viem";
import type { Client } from "../client/createClient.ts";
import { findEmbeddedWallet } from "./embeddedWallets.ts";
import type { EIP1193Provider, ProviderEvent } from "./types.ts";
import { expectAddress } from "./validateParams.ts";
import { walletRequest } from "./walletRequest.ts";

/** Options of {@link getEthereumProvider}. */
export interface GetEthereumProviderOptions {
  /** One of the user's embedded wallets. */
  address: string;
}

type Listener = (value: never) => void;

/**
 * An EIP-1193 provider for the embedded wallet `address` (viem's `custom(provider)`, ethers'
 * `BrowserProvider` take it). Emits `chainChanged` (hex id) when the active chain changes and
 * `accountsChanged` (`[]`) when the wallet leaves the signed-in user (logout).
 */
export function getEthereumProvider(
  client: Client,
  { address }: GetEthereumProviderOptions,
): EIP1193Provider {
  const wallet = expectAddress("address", address);
  const listeners = new Map<ProviderEvent, Set<Listener>>();
  let unsubscribe: (() => void) | null = null;

  const emit = (event: ProviderEvent, value: unknown) => {
    for (const listener of listeners.get(event) ?? []) (listener as (value: unknown) => void)(value);
  };
  const watch = () =>
    client.store.subscribe((state, previous) => {
      if (state.activeChainId !== previous.activeChainId)
        emit("chainChanged", numberToHex(state.activeChainId));
      const had = findEmbeddedWallet(previous.user, wallet) !== undefined;
      const has = findEmbeddedWallet(state.user, wallet) !== undefined;
      if (had !== has) emit("accountsChanged", has ? [wallet] : []);
    });

  return {
    request: (args) => walletRequest(client, wallet, args),
    on(event, listener) {
      let set = listeners.get(event);
      if (set === undefined) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(listener);
      // Subscribe to the store only while someone listens, so unused providers hold nothing.
      unsubscribe ??= watch();
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
      if ([...listeners.values()].every((set) => set.size === 0)) {
        unsubscribe?.();
        unsubscribe = null;
      }
    },
  };
}
