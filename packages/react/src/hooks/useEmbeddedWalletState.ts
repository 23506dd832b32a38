import { type EmbeddedWalletState, embeddedWalletState } from "@symbolon/core";
import { useClientState } from "./useClientState";

const IDLE: EmbeddedWalletState = { status: "idle", error: null };

/**
 * Where the user's embedded Ethereum wallet is: `creating` while it is made on login, `connecting` /
 * `recovering` while it is unlocked, `ready`, or `error` (with the error). For "Creating your wallet…".
 */
export function useEmbeddedWalletState(): EmbeddedWalletState {
  return useClientState("useEmbeddedWalletState", (state) => embeddedWalletState(state), IDLE);
}
