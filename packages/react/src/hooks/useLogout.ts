import { logout as coreLogout } from "@symbolon/core";
import { useCallback, useRef } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";

/** Options of {@link useLogout}. */
export interface UseLogoutOptions {
  onSuccess?: () => void;
}

/** Logs out and calls `onSuccess` afterwards. */
export function useLogout(options: UseLogoutOptions = {}): { logout: () => Promise<void> } {
  const { client } = usePrivyContext("useLogout");
  const callbacks = useRef(options);
  callbacks.current = options;
  const logout = useCallback(async () => {
    if (!client) return;
    await coreLogout(client);
    callbacks.current.onSuccess?.();
  }, [client]);
  return { logout };
}
