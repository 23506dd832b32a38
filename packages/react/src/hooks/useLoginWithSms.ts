import { type CodeFlowStatus, loginWithSmsCode, sendSmsCode } from "@symbolon/core";
import { useCallback, useMemo, useRef } from "react";
import type { PrivyErrorCodeValue } from "../errors/PrivyErrorCode";
import { toErrorCode } from "../errors/toErrorCode";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";
import { type LoginCompleteParams, toLoginComplete } from "./toLoginComplete";
import { useClientState } from "./useClientState";

/** Callbacks of {@link useLoginWithSms}. */
export interface UseLoginWithSmsOptions {
  onComplete?: (params: LoginCompleteParams) => void;
  onError?: (code: PrivyErrorCodeValue) => void;
}

/** State of the headless SMS flow (spec §4). */
export interface LoginWithSmsState {
  status: CodeFlowStatus;
  error?: Error;
}

/** Headless SMS-code login: send a code to a number, then submit it. No modal. */
export function useLoginWithSms(options: UseLoginWithSmsOptions = {}) {
  const { client } = usePrivyContext("useLoginWithSms");
  const callbacks = useRef(options);
  callbacks.current = options;
  const status = useClientState("useLoginWithSms", (state) => state.smsFlow.status, "initial");
  const error = useClientState("useLoginWithSms", (state) => state.smsFlow.error, null);

  const fail = useCallback((cause: unknown): never => {
    callbacks.current.onError?.(toErrorCode(cause));
    throw cause;
  }, []);

  const sendCode = useCallback(
    async ({ phoneNumber, defaultCountry }: { phoneNumber: string; defaultCountry?: string }) => {
      const ready = requireClient(client, "useLoginWithSms");
      const parameters = defaultCountry === undefined ? { phoneNumber } : { phoneNumber, defaultCountry };
      await sendSmsCode(ready, parameters).catch(fail);
    },
    [client, fail],
  );

  const loginWithCode = useCallback(
    async ({ code }: { code: string }) => {
      const ready = requireClient(client, "useLoginWithSms");
      const phoneNumber = ready.store.getState().smsFlow.phoneNumber;
      const result = await loginWithSmsCode(ready, { code }).catch(fail);
      callbacks.current.onComplete?.(toLoginComplete(result, phoneNumber, "sms"));
    },
    [client, fail],
  );

  const state = useMemo<LoginWithSmsState>(() => (error ? { status, error } : { status }), [status, error]);
  return { sendCode, loginWithCode, state };
}
