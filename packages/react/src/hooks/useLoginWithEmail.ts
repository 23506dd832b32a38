import { type EmailFlowStatus, loginWithEmailCode, sendEmailCode } from "@symbolon/core";
import { useCallback, useMemo, useRef } from "react";
import type { PrivyErrorCodeValue } from "../errors/PrivyErrorCode";
import { toErrorCode } from "../errors/toErrorCode";
import { usePrivyContext } from "../provider/usePrivyContext";
import { type LoginCompleteParams, toLoginComplete } from "./toLoginComplete";
import { useClientState } from "./useClientState";

/** Callbacks of {@link useLoginWithEmail}. */
export interface UseLoginWithEmailOptions {
  onComplete?: (params: LoginCompleteParams) => void;
  onError?: (code: PrivyErrorCodeValue) => void;
}

/** State of the headless email flow (spec §4). */
export interface LoginWithEmailState {
  status: EmailFlowStatus;
  error?: Error;
}

/** Headless email-code login: send a code, then submit it. No modal. */
export function useLoginWithEmail(options: UseLoginWithEmailOptions = {}) {
  const { client } = usePrivyContext("useLoginWithEmail");
  const callbacks = useRef(options);
  callbacks.current = options;
  const status = useClientState("useLoginWithEmail", (state) => state.emailFlow.status, "initial");
  const error = useClientState("useLoginWithEmail", (state) => state.emailFlow.error, null);

  const fail = useCallback((cause: unknown): never => {
    callbacks.current.onError?.(toErrorCode(cause));
    throw cause;
  }, []);

  const sendCode = useCallback(
    async ({ email }: { email: string }) => {
      if (!client) throw new Error("useLoginWithEmail: the provider is not ready yet.");
      await sendEmailCode(client, { email }).catch(fail);
    },
    [client, fail],
  );

  const loginWithCode = useCallback(
    async ({ code }: { code: string }) => {
      if (!client) throw new Error("useLoginWithEmail: the provider is not ready yet.");
      const email = client.store.getState().emailFlow.email;
      const result = await loginWithEmailCode(client, { code }).catch(fail);
      callbacks.current.onComplete?.(toLoginComplete(result, email));
    },
    [client, fail],
  );

  const state = useMemo<LoginWithEmailState>(() => (error ? { status, error } : { status }), [status, error]);
  return { sendCode, loginWithCode, state };
}
