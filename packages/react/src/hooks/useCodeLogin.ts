import {
  type Client,
  type ClientState,
  type CodeFlowStatus,
  type LoginResult,
  loginWithEmailCode,
  loginWithSmsCode,
} from "@symbolon/core";
import { useCallback, useMemo, useRef } from "react";
import type { PrivyErrorCodeValue } from "../errors/PrivyErrorCode";
import { toErrorCode } from "../errors/toErrorCode";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";
import { type LoginCompleteParams, toLoginComplete } from "./toLoginComplete";
import { useClientState } from "./useClientState";

/** Callbacks of the headless code login hooks. */
export interface CodeLoginOptions {
  onComplete?: (params: LoginCompleteParams) => void;
  onError?: (code: PrivyErrorCodeValue) => void;
}

/** State of a headless code flow (spec §4). */
export interface CodeLoginState {
  status: CodeFlowStatus;
  error?: Error;
}

/** Per channel: where its flow lives in the state, its subject, its login action. */
const FLOW = {
  email: {
    read: (state: ClientState) => state.emailFlow,
    subject: (state: ClientState) => state.emailFlow.email,
    login: (client: Client, code: string): Promise<LoginResult> => loginWithEmailCode(client, { code }),
  },
  sms: {
    read: (state: ClientState) => state.smsFlow,
    subject: (state: ClientState) => state.smsFlow.phoneNumber,
    login: (client: Client, code: string): Promise<LoginResult> => loginWithSmsCode(client, { code }),
  },
} as const;

/**
 * What `useLoginWithEmail` and `useLoginWithSms` share: the flow's state from the store, `send`
 * (wrapping the channel's send action so failures reach `onError`) and `loginWithCode`.
 */
export function useCodeLogin<P>(
  hookName: string,
  channel: "email" | "sms",
  sendAction: (client: Client, parameters: P) => Promise<void>,
  options: CodeLoginOptions,
) {
  const { client } = usePrivyContext(hookName);
  const callbacks = useRef(options);
  callbacks.current = options;
  const sender = useRef(sendAction);
  sender.current = sendAction;
  const flow = FLOW[channel];
  const status = useClientState(hookName, (state) => flow.read(state).status, "initial");
  const error = useClientState(hookName, (state) => flow.read(state).error, null);

  const fail = useCallback((cause: unknown): never => {
    callbacks.current.onError?.(toErrorCode(cause));
    throw cause;
  }, []);

  const sendCode = useCallback(
    async (parameters: P) => {
      await sender.current(requireClient(client, hookName), parameters).catch(fail);
    },
    [client, fail, hookName],
  );

  const loginWithCode = useCallback(
    async ({ code }: { code: string }) => {
      const ready = requireClient(client, hookName);
      const subject = flow.subject(ready.store.getState());
      const result = await flow.login(ready, code).catch(fail);
      callbacks.current.onComplete?.(toLoginComplete(result, subject, channel));
    },
    [client, fail, hookName, flow, channel],
  );

  const state = useMemo<CodeLoginState>(() => (error ? { status, error } : { status }), [status, error]);
  return { sendCode, loginWithCode, state };
}
