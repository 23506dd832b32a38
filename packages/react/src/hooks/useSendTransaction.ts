import type { TransactionRequest } from "@symbolon/core";
import { useCallback } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { loadWalletActions } from "./loadWalletActions";
import { requireClient } from "./requireClient";
import type { WalletCallOptions } from "./useSignMessage";
import { useWalletCallbacks, type WalletActionCallbacks } from "./useWalletCallbacks";

/** Fills, confirms, signs and submits a transaction; resolves with its hash (not waiting for mining). */
export function useSendTransaction(options: WalletActionCallbacks<{ hash: string }> = {}) {
  const { client } = usePrivyContext("useSendTransaction");
  const run = useWalletCallbacks(options);
  const sendTransaction = useCallback(
    (transaction: TransactionRequest, callOptions: WalletCallOptions = {}) =>
      run(async () => {
        const ready = requireClient(client, "useSendTransaction");
        return (await loadWalletActions()).sendTransaction(ready, transaction, callOptions);
      }),
    [client, run],
  );
  return { sendTransaction };
}
