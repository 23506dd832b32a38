import { useCallback } from "react";
import { useClientState } from "./useClientState";
import { type UseConnectWalletOptions, useWalletOutcome } from "./useConnectWallet";

/**
 * Connect-or-create (spec §4): a signed-out visitor either connects a wallet (no sign-in) or logs in
 * with another method (the embedded wallet is created as configured). Requires being logged out:
 * signed in, it only warns.
 */
export function useConnectOrCreateWallet(options: UseConnectWalletOptions = {}) {
  const controller = useWalletOutcome("useConnectOrCreateWallet", "connect-or-create", options);
  const authenticated = useClientState("useConnectOrCreateWallet", (s) => s.authenticated, false);
  const connectOrCreateWallet = useCallback(() => {
    if (authenticated) {
      console.warn("Symbolon: connectOrCreateWallet needs a signed-out user; log out first.");
      return;
    }
    controller?.openConnectOrCreate();
  }, [controller, authenticated]);
  return { connectOrCreateWallet };
}
