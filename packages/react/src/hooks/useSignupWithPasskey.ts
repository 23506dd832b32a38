import { type PasskeyLoginParameters, signupWithPasskey } from "@symbolon/core";
import type { UsePasskeyLoginOptions } from "./useLoginWithPasskey";
import { usePasskeyLogin } from "./usePasskeyFlow";

/**
 * Headless passkey sign-up (spec client `useSignupWithPasskey`): `signupWithPasskey()` has the
 * browser create a passkey and makes a new user with it. Same `state` and callbacks as
 * `useLoginWithPasskey`.
 */
export function useSignupWithPasskey(options: UsePasskeyLoginOptions = {}) {
  const { state, run } = usePasskeyLogin<PasskeyLoginParameters>(
    "useSignupWithPasskey",
    "signup",
    signupWithPasskey,
    options,
  );
  return { state, signupWithPasskey: (parameters: PasskeyLoginParameters = {}) => run(parameters) };
}
