import { useEffect, useRef } from "react";
import type { PrivyErrorCodeValue } from "../errors/PrivyErrorCode";
import { usePrivyContext } from "../provider/usePrivyContext";
import { type LoginCompleteParams, type LoginMethod, toLoginComplete } from "./toLoginComplete";

/** Callbacks of {@link useLogin}. */
export interface UseLoginOptions {
  /** The modal closed after a successful login. */
  onComplete?: (params: LoginCompleteParams) => void;
  /** The modal closed without a login (`exited_auth_flow`) or failed. */
  onError?: (code: PrivyErrorCodeValue) => void;
}

/** Opens the login modal and reports how it ended. */
export function useLogin(options: UseLoginOptions = {}): { login: () => void } {
  const { controller } = usePrivyContext("useLogin");
  const callbacks = useRef(options);
  callbacks.current = options;
  useEffect(
    () =>
      controller?.onOutcome((outcome) => {
        if (outcome.type === "error") callbacks.current.onError?.(outcome.code);
        else {
          // The modal knows the way in: the provider, or where the code went (an address or a number).
          const { channel, email, phoneNumber, provider } = controller.getState();
          const sms = channel === "sms";
          callbacks.current.onComplete?.(
            provider
              ? toLoginComplete(outcome.result, null, provider as LoginMethod)
              : toLoginComplete(
                  outcome.result,
                  sms ? (phoneNumber ?? null) : (email ?? null),
                  sms ? "sms" : "email",
                ),
          );
        }
      }),
    [controller],
  );
  return { login: () => controller?.login() };
}
