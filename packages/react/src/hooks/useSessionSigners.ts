import {
  delegateWallet,
  formatUser,
  type PrivyUser,
  requireDelegableWallet,
  revokeDelegatedWallets,
  type SessionSigner,
} from "@symbolon/core";
import { useCallback, useMemo } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";

/** Parameters of `addSessionSigners`. */
export interface AddSessionSignersOptions {
  /** One of the user's embedded Ethereum wallets. */
  address: string;
  /** The app's key quorums and the policies each request must pass. */
  signers: SessionSigner[];
}

/**
 * Session signers (the published client's `useSessionSigners`), without the modal:
 * `addSessionSigners({address, signers})` delegates the wallet to those signers under those policies;
 * `removeSessionSigners({address})` revokes the delegation (the server's revoke ends every delegated
 * wallet of the user; a wallet not delegated is left as it is). Both resolve with the user as it is now.
 */
export function useSessionSigners() {
  const { client } = usePrivyContext("useSessionSigners");
  const currentUser = useCallback((ready: NonNullable<typeof client>): { user: PrivyUser | null } => {
    const { user } = ready.store.getState();
    return { user: user ? formatUser(user) : null };
  }, []);
  const addSessionSigners = useCallback(
    async ({ address, signers }: AddSessionSignersOptions) => {
      const ready = requireClient(client, "useSessionSigners");
      await delegateWallet(ready, { address, chainType: "ethereum", signers });
      return currentUser(ready);
    },
    [client, currentUser],
  );
  const removeSessionSigners = useCallback(
    async ({ address }: { address: string }) => {
      const ready = requireClient(client, "useSessionSigners");
      const { authenticated, user } = ready.store.getState();
      // Signed out: core's refusal. Not the user's: refused as a delegation is. Not delegated: nothing to remove.
      const wallet = authenticated ? requireDelegableWallet(user, address, "ethereum") : null;
      if (wallet === null || wallet.delegated) await revokeDelegatedWallets(ready);
      return currentUser(ready);
    },
    [client, currentUser],
  );
  return useMemo(
    () => ({ addSessionSigners, removeSessionSigners }),
    [addSessionSigners, removeSessionSigners],
  );
}
