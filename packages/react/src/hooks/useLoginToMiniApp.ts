import {
  formatUser,
  initLoginToMiniApp,
  type LoginToMiniAppParameters,
  loginToMiniApp,
} from "@symbolon/core";
import { useCallback, useMemo } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";

/**
 * Sign-in inside a Farcaster Mini App (the spec client's farcaster entry): `initLoginToMiniApp()`
 * gives the nonce; the host has the Mini App SDK sign a Sign In With Farcaster message with it, then
 * `loginToMiniApp({message, signature})` signs in and resolves with the user.
 */
export function useLoginToMiniApp() {
  const { client } = usePrivyContext("useLoginToMiniApp");
  const init = useCallback(async () => {
    const { nonce } = await initLoginToMiniApp(requireClient(client, "useLoginToMiniApp"));
    return { nonce };
  }, [client]);
  const login = useCallback(
    async (parameters: LoginToMiniAppParameters) =>
      formatUser((await loginToMiniApp(requireClient(client, "useLoginToMiniApp"), parameters)).user),
    [client],
  );
  return useMemo(() => ({ initLoginToMiniApp: init, loginToMiniApp: login }), [init, login]);
}
