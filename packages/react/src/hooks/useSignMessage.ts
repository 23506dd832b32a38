import type { WalletUiOptions } from "@symbolon/core";
import { useCallback } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { loadWalletActions } from "./loadWalletActions";
import { requireClient } from "./requireClient";
import { useWalletCallbacks, type WalletActionCallbacks } from "./useWalletCallbacks";

/** Options of one wallet call: which wallet (default: the first embedded one) and the screen's texts. */
export interface WalletCallOptions {
  address?: string;
  uiOptions?: WalletUiOptions;
}

/** Signs a UTF-8 message (personal_sign) with the embedded wallet, after the user confirmed. */
export function useSignMessage(options: WalletActionCallbacks<{ signature: string }> = {}) {
  const { client } = usePrivyContext("useSignMessage");
  const run = useWalletCallbacks(options);
  const signMessage = useCallback(
    (input: { message: string }, callOptions: WalletCallOptions = {}) =>
      run(async () => {
        const ready = requireClient(client, "useSignMessage");
        return (await loadWalletActions()).signMessage(ready, input, callOptions);
      }),
    [client, run],
  );
  return { signMessage };
}
