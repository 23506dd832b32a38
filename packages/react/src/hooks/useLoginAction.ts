import type { Client, LoginResult } from "@symbolon/core";
import { useCallback, useMemo, useRef, useState } from "react";
import type { PrivyErrorCodeValue } from "../errors/PrivyErrorCode";
import { toErrorCode } from "../errors/toErrorCode";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";
import { type LoginCompleteParams, type LoginMethod, toLoginComplete } from "./toLoginComplete";

/** Callbacks of the headless one-step login hooks (Telegram, Farcaster). */
export interface LoginActionOptions {
  onComplete?: (params: LoginCompleteParams) => void;
  onError?: (code: PrivyErrorCodeValue) => void;
}

/** Spec §4 (Telegram, OAuth flows): initial → loading → done, or error. */
export interface LoginActionState {
  status: "initial" | "loading" | "done" | "error";
  error?: Error;
}

/**
 * What the one-step login hooks share: runs core's login `action` (synchronously up to its first
 * `await`, so a popup it opens keeps the click's user activation), tracks the flow state and
 * reports the outcome through the callbacks.
 */
export function useLoginAction<P>(
  hookName: string,
  method: LoginMethod,
  action: (client: Client, parameters: P) => Promise<LoginResult>,
  options: LoginActionOptions,
) {
  const { client } = usePrivyContext(hookName);
  const callbacks = useRef(options);
  callbacks.current = options;
  const run = useRef(action);
  run.current = action;
  const [state, setState] = useState<LoginActionState>({ status: "initial" });

  const login = useCallback(
    async (parameters: P) => {
      setState({ status: "loading" });
      try {
        const result = await run.current(requireClient(client, hookName), parameters);
        setState({ status: "done" });
        callbacks.current.onComplete?.(toLoginComplete(result, null, method));
      } catch (cause) {
        const error = cause instanceof Error ? cause : new Error(String(cause));
        setState({ status: "error", error });
        callbacks.current.onError?.(toErrorCode(cause));
        throw cause;
      }
    },
    [client, hookName, method],
  );
  return useMemo(() => ({ login, state }), [login, state]);
}
