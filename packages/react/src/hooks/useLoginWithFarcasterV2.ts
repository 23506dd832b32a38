import { initLoginToMiniApp, type LoginToMiniAppParameters, loginToMiniApp } from "@symbolon/core";
import { useCallback, useMemo } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";
import { type LoginActionOptions, useLoginAction } from "./useLoginAction";

/** Callbacks of {@link useLoginWithFarcasterV2}. */
export type UseLoginWithFarcasterV2Options = LoginActionOptions;

/**
 * Headless Farcaster login over the v2 calls: `initLoginWithFarcaster()` gives the nonce to sign
 * (e.g. with the Mini App SDK's sign-in), `loginWithFarcaster({message, signature})` signs in
 * (state initial → loading → done | error, callbacks like the other login hooks).
 */
export function useLoginWithFarcasterV2(options: UseLoginWithFarcasterV2Options = {}) {
  const { client } = usePrivyContext("useLoginWithFarcasterV2");
  const { login, state } = useLoginAction<LoginToMiniAppParameters>(
    "useLoginWithFarcasterV2",
    "farcaster",
    loginToMiniApp,
    options,
  );
  const init = useCallback(async () => {
    const { nonce } = await initLoginToMiniApp(requireClient(client, "useLoginWithFarcasterV2"));
    return { nonce };
  }, [client]);
  return useMemo(
    () => ({ initLoginWithFarcaster: init, loginWithFarcaster: login, state }),
    [init, login, state],
  );
}
