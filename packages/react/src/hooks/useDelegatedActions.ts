import {
  type ChainType,
  type Client,
  ClientError,
  delegateWallet as coreDelegateWallet,
  DELEGATION_NEEDS_USER_MESSAGE,
  getDelegatedWallets,
  getDelegationTerms,
  NOTHING_TO_REVOKE_MESSAGE,
  requireDelegableWallet,
  revokeDelegatedWallets,
} from "@symbolon/core";
import { useCallback, useMemo } from "react";
import { openDelegationScreen } from "../modal/flows/createDelegationFlow";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";

/** Parameters of `delegateWallet` (the published client's). */
export interface DelegateWalletOptions {
  /** One of the user's embedded wallets. */
  address: string;
  /** Its chain (`ethereum`; Solana is refused for now). */
  chainType: ChainType;
}

/** Whether the modal asks the user first (consent or revoke screen); default true. */
export interface DelegationUiOptions {
  showDelegationUIs?: boolean;
}

/** The signed-in user, for the checks made before a screen opens (core's refusal when signed out). */
function signedInUser(client: Client) {
  const { authenticated, user } = client.store.getState();
  if (!authenticated || user === null) {
    throw new ClientError("attempted_rpc_call_before_logged_in", DELEGATION_NEEDS_USER_MESSAGE);
  }
  return user;
}

/**
 * Delegated actions (the published client's `useDelegatedActions`): `delegateWallet({address,
 * chainType})` lets the app's back end sign with that embedded wallet within the app's policies,
 * after the user allowed it on the consent screen (which lists the signers and their rules);
 * `revokeWallets()` ends every delegation after the revoke screen. With `showDelegationUIs: false`
 * they act at once, as {@link useHeadlessDelegatedActions} does. The same refusals as core's come
 * before any screen opens; a wallet already delegated resolves at once. Closing a screen rejects.
 */
export function useDelegatedActions() {
  const { client, controller } = usePrivyContext("useDelegatedActions");
  const delegateWallet = useCallback(
    async ({ address, chainType, showDelegationUIs = true }: DelegateWalletOptions & DelegationUiOptions) => {
      const ready = requireClient(client, "useDelegatedActions");
      if (!showDelegationUIs) return coreDelegateWallet(ready, { address, chainType });
      const wallet = requireDelegableWallet(signedInUser(ready), address, chainType);
      if (wallet.delegated) return;
      if (!controller) throw new Error("useDelegatedActions: the provider is not ready yet.");
      await openDelegationScreen(controller.core, {
        flow: "delegation",
        screen: "delegation-consent",
        address: wallet.address,
        terms: () => getDelegationTerms(ready, { address: wallet.address }),
        allow: () => coreDelegateWallet(ready, { address: wallet.address, chainType }),
      });
    },
    [client, controller],
  );
  const revokeWallets = useCallback(
    async ({ showDelegationUIs = true }: DelegationUiOptions = {}) => {
      const ready = requireClient(client, "useDelegatedActions");
      if (!showDelegationUIs) {
        await revokeDelegatedWallets(ready);
        return;
      }
      const wallets = getDelegatedWallets(signedInUser(ready));
      if (wallets.length === 0) throw new ClientError("invalid_input", NOTHING_TO_REVOKE_MESSAGE);
      if (!controller) throw new Error("useDelegatedActions: the provider is not ready yet.");
      await openDelegationScreen(controller.core, {
        flow: "delegation",
        screen: "delegation-revoke",
        wallets: wallets.map((wallet) => wallet.address),
        revoke: async () => {
          await revokeDelegatedWallets(ready);
        },
      });
    },
    [client, controller],
  );
  return useMemo(() => ({ delegateWallet, revokeWallets }), [delegateWallet, revokeWallets]);
}

/**
 * Delegated actions without the modal (the published client's `useHeadlessDelegatedActions`):
 * `delegateWallet({address, chainType})` and `revokeWallets()` act at once; the app asks the user
 * in its own words first.
 */
export function useHeadlessDelegatedActions() {
  const { client } = usePrivyContext("useHeadlessDelegatedActions");
  const delegateWallet = useCallback(
    ({ address, chainType }: DelegateWalletOptions) =>
      coreDelegateWallet(requireClient(client, "useHeadlessDelegatedActions"), { address, chainType }),
    [client],
  );
  const revokeWallets = useCallback(async () => {
    await revokeDelegatedWallets(requireClient(client, "useHeadlessDelegatedActions"));
  }, [client]);
  return useMemo(() => ({ delegateWallet, revokeWallets }), [delegateWallet, revokeWallets]);
}
