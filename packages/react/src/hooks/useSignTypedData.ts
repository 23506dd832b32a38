import type { TypedData } from "@symbolon/core";
import { useCallback } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { loadWalletActions } from "./loadWalletActions";
import { requireClient } from "./requireClient";
import type { WalletCallOptions } from "./useSignMessage";
import { useWalletCallbacks, type WalletActionCallbacks } from "./useWalletCallbacks";

/** Signs EIP-712 typed data (eth_signTypedData_v4) with the embedded wallet, after the user confirmed. */
export function useSignTypedData(options: WalletActionCallbacks<{ signature: string }> = {}) {
  const { client } = usePrivyContext("useSignTypedData");
  const run = useWalletCallbacks(options);
  const signTypedData = useCallback(
    (typedData: TypedData, callOptions: WalletCallOptions = {}) =>
      run(async () => {
        const ready = requireClient(client, "useSignTypedData");
        return (await loadWalletActions()).signTypedData(ready, typedData, callOptions);
      }),
    [client, run],
  );
  return { signTypedData };
}
