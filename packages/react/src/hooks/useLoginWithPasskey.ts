import { loginWithPasskey, type PasskeyLoginParameters } from "@symbolon/core";
import type { LoginActionOptions } from "./useLoginAction";
import { usePasskeyLogin } from "./usePasskeyFlow";

/** Callbacks of {@link useLoginWithPasskey} and `useSignupWithPasskey`. */
export type UsePasskeyLoginOptions = LoginActionOptions;

/**
 * Headless passkey login (spec client `useLoginWithPasskey`): `loginWithPasskey()` asks the browser
 * for one of the user's passkeys and signs in. `state` follows the spec §4 passkey flow
 * (generating-challenge → awaiting-passkey → submitting-response → done | error); a dismissed prompt
 * fails with 'Passkey request timed out or rejected by user.'
 */
export function useLoginWithPasskey(options: UsePasskeyLoginOptions = {}) {
  const { state, run } = usePasskeyLogin<PasskeyLoginParameters>(
    "useLoginWithPasskey",
    "login",
    loginWithPasskey,
    options,
  );
  return { state, loginWithPasskey: (parameters: PasskeyLoginParameters = {}) => run(parameters) };
}
