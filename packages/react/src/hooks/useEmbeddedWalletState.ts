import type { ClientState } from "@symbolon/core";
import { useClientState } from "./useClientState";

const IDLE: ClientState["embeddedWallet"] = { status: "idle", error: null };

/**
 * Where the user's embedded wallet is: `creating` while it is made on login, `connecting` /
 * `recovering` while it is unlocked, `ready`, or `error` (with the error). For "Creating your wallet…".
 */
export function useEmbeddedWalletState(): ClientState["embeddedWallet"] {
  return useClientState("useEmbeddedWalletState", (state) => state.embeddedWallet, IDLE);
}
