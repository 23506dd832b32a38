import type {
  AccountChangeResult,
  Client,
  formatUser,
  LoginResult,
  SiweFlowStatus,
  SiweParameters,
} from "@symbolon/core";
import { useCallback, useMemo, useRef, useState } from "react";
import type { PrivyErrorCodeValue } from "../errors/PrivyErrorCode";
import { toErrorCode } from "../errors/toErrorCode";
import { usePrivyContext } from "../provider/usePrivyContext";
import { loadExternalWallets } from "./loadExternalWallets";
import { requireClient } from "./requireClient";
import type { LoginCompleteParams } from "./toLoginComplete";
import { useClientState } from "./useClientState";

/** Spec §4 SIWE flow state of the headless wallet hooks. */
export interface SignInWithWalletState {
  status: SiweFlowStatus;
  error?: Error;
}

/** What the app's own wallet signed: the message of `generate…Message` and its signature. */
export interface SignedWalletMessage {
  message: string;
  /** SIWE: the hex `personal_sign` signature; SIWS: base64 of the ed25519 signature. */
  signature: string;
  /** SIWE: the chain the message names (read from it when left out). */
  chainId?: number;
  walletClientType?: string;
  connectorType?: string;
  /** Login only. */
  mode?: "login-or-sign-up" | "no-signup";
}

/** Callbacks of the login hooks (`useLoginWithSiwe`, `useLoginWithSiws`). */
export interface UseLoginWithWalletOptions {
  onComplete?: (params: LoginCompleteParams) => void;
  onError?: (code: PrivyErrorCodeValue) => void;
}

/** Callbacks of the link hooks (`useLinkWithSiwe`, `useLinkWithSiws`). */
export interface UseLinkWithWalletOptions {
  onSuccess?: (user: ReturnType<typeof formatUser>) => void;
  onError?: (code: PrivyErrorCodeValue) => void;
}

type Chain = "ethereum" | "solana";
type Intent = "login" | "link";

/**
 * What the four headless SIWE/SIWS hooks share: `generateMessage` (init → nonce → the message for this
 * page), `submit` (the app's own wallet signed it: log in or link), and the flow state — the core's
 * SIWE slice once submitting, with generating-message / awaiting-signature tracked here before.
 */
export function useSignInWithWallet<R extends LoginResult | AccountChangeResult>(
  hookName: string,
  chain: Chain,
  intent: Intent,
  onResult: (result: R) => void,
  onError: ((code: PrivyErrorCodeValue) => void) | undefined,
) {
  const { client } = usePrivyContext(hookName);
  const flow = useClientState(hookName, (s) => s.externalWallets.siwe, null);
  const [local, setLocal] = useState<SignInWithWalletState | null>(null);
  const callbacks = useRef({ onResult, onError });
  callbacks.current = { onResult, onError };

  const generateMessage = useCallback(
    async (parameters: { address: string; chainId?: number }) => {
      const ready = requireClient(client, hookName);
      setLocal({ status: "generating-message" });
      try {
        const actions = await loadExternalWallets();
        const message =
          chain === "ethereum"
            ? await actions.generateSiweMessage(ready, parameters)
            : await actions.generateSiwsMessage(ready, { address: parameters.address });
        setLocal({ status: "awaiting-signature" });
        return message;
      } catch (cause) {
        const error = cause instanceof Error ? cause : new Error(String(cause));
        setLocal({ status: "error", error });
        callbacks.current.onError?.(toErrorCode(cause));
        throw cause;
      }
    },
    [client, hookName, chain],
  );

  const submit = useCallback(
    async (signed: SignedWalletMessage): Promise<R> => {
      const ready: Client = requireClient(client, hookName);
      setLocal(null);
      try {
        const result = (await run(ready, chain, intent, signed)) as R;
        callbacks.current.onResult(result);
        return result;
      } catch (cause) {
        callbacks.current.onError?.(toErrorCode(cause));
        throw cause;
      }
    },
    [client, hookName, chain, intent],
  );

  const state = useMemo<SignInWithWalletState>(() => {
    if (local) return local;
    if (!flow || flow.chainType !== chain) return { status: "initial" };
    return flow.error ? { status: flow.status, error: flow.error } : { status: flow.status };
  }, [local, flow, chain]);
  return { generateMessage, submit, state };
}

async function run(client: Client, chain: Chain, intent: Intent, signed: SignedWalletMessage) {
  const actions = await loadExternalWallets();
  const params: SiweParameters = { ...signed };
  if (chain === "ethereum")
    return intent === "login" ? actions.loginWithSiwe(client, params) : actions.linkWithSiwe(client, params);
  return intent === "login" ? actions.loginWithSiws(client, params) : actions.linkWithSiws(client, params);
}
