import type { ClientState } from "../client/createClient.ts";
import { initialEmbeddedWallet } from "../client/createClient.ts";
import type { EmbeddedChainType, EmbeddedWalletState } from "./types.ts";

/**
 * Where the user's embedded wallet on `chainType` stands (`idle` before this client touched it).
 * The same object until it changes, so it can be a `useSyncExternalStore` snapshot.
 */
export function embeddedWalletState(
  state: Pick<ClientState, "embeddedWallets">,
  chainType: EmbeddedChainType = "ethereum",
): EmbeddedWalletState {
  return (
    state.embeddedWallets.find((wallet) => wallet.chainType === chainType)?.state ?? initialEmbeddedWallet
  );
}
