import {
  type CrossAppAccountParameters,
  crossAppSignMessage,
  crossAppSignTypedData,
  linkCrossAppAccount,
  loginWithCrossAppAccount,
  type TransactionRequest,
  type TypedData,
} from "@symbolon/core";
import { useMemo } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { loadWalletActions } from "./loadWalletActions";
import { requireClient } from "./requireClient";

const HOOK = "useCrossAppAccounts";

/** Which cross-app wallet signs: one of the user's cross-app accounts' addresses. */
export interface CrossAppSignOptions {
  address: string;
}

/**
 * Cross-app accounts (spec client `useCrossAppAccounts`): log in or link with the user's account
 * of another app (provider `privy:{appId}`, the provider app's consent page in a popup), and sign
 * or send with that app's wallet — each request opens the provider's signing page in a popup;
 * closing it rejects ('User rejected request'), no answer in 120 s is 'Request timeout'.
 */
export function useCrossAppAccounts() {
  const { client } = usePrivyContext(HOOK);
  return useMemo(
    () => ({
      loginWithCrossAppAccount: (parameters: CrossAppAccountParameters) =>
        loginWithCrossAppAccount(requireClient(client, HOOK), parameters),
      linkCrossAppAccount: (parameters: CrossAppAccountParameters) =>
        linkCrossAppAccount(requireClient(client, HOOK), parameters),
      signMessage: (message: string, { address }: CrossAppSignOptions) =>
        crossAppSignMessage(requireClient(client, HOOK), message, { address }),
      signTypedData: (typedData: TypedData, { address }: CrossAppSignOptions) =>
        crossAppSignTypedData(requireClient(client, HOOK), typedData, { address }),
      // Filling the transaction needs viem: loaded on first use.
      sendTransaction: async (transaction: TransactionRequest, { address }: CrossAppSignOptions) => {
        const ready = requireClient(client, HOOK);
        const { crossAppSendTransaction } = await loadWalletActions();
        return crossAppSendTransaction(ready, transaction, { address });
      },
    }),
    [client],
  );
}
