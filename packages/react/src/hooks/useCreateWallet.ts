import {
  type CreateWalletOptions,
  createWallet as coreCreateWallet,
  formatUser,
  type PrivyWalletAccount,
} from "@symbolon/core";
import { useCallback } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";
import { useWalletCallbacks, type WalletActionCallbacks } from "./useWalletCallbacks";

/** Creates the user's embedded wallet (or, with `createAdditional`, the next one). */
export function useCreateWallet(options: WalletActionCallbacks<{ wallet: PrivyWalletAccount }> = {}) {
  const { client } = usePrivyContext("useCreateWallet");
  const run = useWalletCallbacks(options);
  const createWallet = useCallback(
    (createOptions: CreateWalletOptions = {}) =>
      run(async () => {
        const ready = requireClient(client, "useCreateWallet");
        const created = await coreCreateWallet(ready, createOptions);
        const user = ready.store.getState().user;
        const wallet = user
          ? formatUser(user).linkedAccounts.find(
              (account): account is PrivyWalletAccount =>
                account.type === "wallet" && account.address === created.address,
            )
          : undefined;
        if (!wallet) throw new Error("The new wallet is missing from the user.");
        return { wallet };
      }).then(({ wallet }) => wallet),
    [client, run],
  );
  return { createWallet };
}
