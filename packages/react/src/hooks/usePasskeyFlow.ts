import {
  type Client,
  initialPasskeyFlow,
  type LoginResult,
  type PasskeyFlowIntent,
  type PasskeyFlowState,
} from "@symbolon/core";
import { useCallback, useRef } from "react";
import { toErrorCode } from "../errors/toErrorCode";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";
import { toLoginComplete } from "./toLoginComplete";
import { useClientState } from "./useClientState";
import type { LoginActionOptions } from "./useLoginAction";

/** Core's `passkeyFlow` while it runs `intent`, else the initial state (spec §4 passkey flow). */
export function usePasskeyFlowState(hookName: string, intent: PasskeyFlowIntent): PasskeyFlowState {
  const flow = useClientState(hookName, (s) => s.passkeyFlow, initialPasskeyFlow);
  return flow.intent === intent ? flow : initialPasskeyFlow;
}

/** What the passkey login and sign-up hooks share: run core's action, report through the callbacks. */
export function usePasskeyLogin<P>(
  hookName: string,
  intent: "login" | "signup",
  action: (client: Client, parameters: P) => Promise<LoginResult>,
  options: LoginActionOptions,
) {
  const { client } = usePrivyContext(hookName);
  const callbacks = useRef(options);
  callbacks.current = options;
  const state = usePasskeyFlowState(hookName, intent);
  const run = useCallback(
    async (parameters: P) => {
      try {
        const result = await action(requireClient(client, hookName), parameters);
        callbacks.current.onComplete?.(toLoginComplete(result, null, "passkey"));
        return result;
      } catch (cause) {
        callbacks.current.onError?.(toErrorCode(cause));
        throw cause;
      }
    },
    [client, hookName, action],
  );
  return { state, run };
}
