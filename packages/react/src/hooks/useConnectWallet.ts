import type { ConnectedExternalWallet, LoginResult } from "@symbolon/core";
import { useCallback, useEffect, useRef } from "react";
import type { PrivyErrorCodeValue } from "../errors/PrivyErrorCode";
import type { WalletFlowKind } from "../provider/createModalController";
import { usePrivyContext } from "../provider/usePrivyContext";

/** Callbacks of {@link useConnectWallet} and `useConnectOrCreateWallet`. */
export interface UseConnectWalletOptions {
  /** A wallet connected (connect-or-create through another method: `wallet` null, `result` the login). */
  onSuccess?: (params: { wallet: ConnectedExternalWallet | null; result?: LoginResult | null }) => void;
  /** GENERIC_CONNECT_WALLET_ERROR, UNKNOWN_CONNECT_WALLET_ERROR, USER_EXITED_AUTH_FLOW (spec §8). */
  onError?: (code: PrivyErrorCodeValue) => void;
}

/** Reports the outcomes of the modal's `flow` wallet flows to `options`. */
export function useWalletOutcome(hookName: string, flow: WalletFlowKind, options: UseConnectWalletOptions) {
  const { controller } = usePrivyContext(hookName);
  const callbacks = useRef(options);
  callbacks.current = options;
  useEffect(
    () =>
      controller?.onWalletOutcome((outcome) => {
        if (outcome.flow !== flow) return;
        if (outcome.type === "complete")
          callbacks.current.onSuccess?.({ wallet: outcome.wallet, result: outcome.result });
        else callbacks.current.onError?.(outcome.code);
      }),
    [controller, flow],
  );
  return controller;
}

/**
 * Connects an external wallet without signing in with it (spec client `useConnectWallet`): opens the
 * modal's wallet list; the wallet then shows in `useWallets` (Solana ones in `useSolanaWallets`).
 */
export function useConnectWallet(options: UseConnectWalletOptions = {}) {
  const controller = useWalletOutcome("useConnectWallet", "connect", options);
  const connectWallet = useCallback(() => controller?.openConnectWallet(), [controller]);
  return { connectWallet };
}
