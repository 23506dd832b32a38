import {
  cancelMfa,
  initialMfaState,
  initMfa,
  type MfaMethodType,
  type MfaState,
  type PasskeyAuthenticationResponse,
  promptMfa,
  submitMfa,
} from "@symbolon/core";
import { useCallback, useMemo } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";
import { useClientState } from "./useClientState";

/** The signed-in user's MFA methods (`[]` when signed out). */
export function useMfaMethods(hookName: string): MfaMethodType[] {
  const user = useClientState(hookName, (s) => s.user, null);
  return useMemo(() => user?.mfa_methods.map((method) => method.type) ?? [], [user]);
}

/**
 * MFA verification (spec client `useMfa`): `mfaMethods` the user enrolled in; `init(method)` sends the
 * SMS code or runs the passkey prompt (answering the assertion to `submit`); `submit(method, code |
 * assertion)` verifies, letting a waiting wallet operation go on; `cancel()` fails it with 'Canceled MFA
 * verification.'; `promptMfa()` opens the modal's verification now. `state` is core's `mfaState`.
 */
export function useMfa(hookName = "useMfa") {
  const { client } = usePrivyContext(hookName);
  const mfaMethods = useMfaMethods(hookName);
  const state: MfaState = useClientState(hookName, (s) => s.mfaState, initialMfaState);
  const init = useCallback(
    (method: MfaMethodType) => initMfa(requireClient(client, hookName), method),
    [client, hookName],
  );
  const submit = useCallback(
    (method: MfaMethodType, mfaCode: string | PasskeyAuthenticationResponse) =>
      submitMfa(requireClient(client, hookName), method, mfaCode),
    [client, hookName],
  );
  const cancel = useCallback(() => cancelMfa(requireClient(client, hookName)), [client, hookName]);
  const prompt = useCallback(() => promptMfa(requireClient(client, hookName)), [client, hookName]);
  return useMemo(
    () => ({ mfaMethods, state, init, submit, cancel, promptMfa: prompt }),
    [mfaMethods, state, init, submit, cancel, prompt],
  );
}

/** The same calls as {@link useMfa} (spec client name for the auth-side verification). */
export function useAuthMfa() {
  return useMfa("useAuthMfa");
}
