import { type MfaMethodType, registerMfaListener } from "@symbolon/core";
import { useEffect, useRef } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";

/** Options of {@link useRegisterMfaListener}. */
export interface UseRegisterMfaListenerOptions {
  /** A wallet operation needs verification: show your MFA UI, then `useMfa().submit(…)`. */
  onMfaRequired: (methods: MfaMethodType[]) => void;
}

/**
 * Lets the app handle MFA itself (spec client `useRegisterMfaListener`): while mounted,
 * `onMfaRequired(methods)` runs instead of the modal's verification screen.
 */
export function useRegisterMfaListener(options: UseRegisterMfaListenerOptions): void {
  const { client } = usePrivyContext("useRegisterMfaListener");
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    if (!client) return;
    return registerMfaListener(client, { onMfaRequired: (methods) => latest.current.onMfaRequired(methods) });
  }, [client]);
}
