import { getAccessToken, logout } from "@symbolon/core";
import { useCallback, useMemo } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { useClientState } from "./useClientState";
import { useUser } from "./useUser";

/** What {@link usePrivy} returns. */
export interface UsePrivyReturn {
  /** False until the session was restored (always false on the server and first render). */
  ready: boolean;
  authenticated: boolean;
  user: ReturnType<typeof useUser>;
  /** Opens the login modal. */
  login: () => void;
  logout: () => Promise<void>;
  /** A valid access token, refreshed when needed, or null when signed out. */
  getAccessToken: () => Promise<string | null>;
}

/** Login state and actions, like the spec client's `usePrivy`. */
export function usePrivy(): UsePrivyReturn {
  const { client, controller } = usePrivyContext("usePrivy");
  const ready = useClientState("usePrivy", (state) => state.ready, false);
  const authenticated = useClientState("usePrivy", (state) => state.authenticated, false);
  const user = useUser("usePrivy");
  const login = useCallback(() => controller?.login(), [controller]);
  const doLogout = useCallback(async () => {
    if (client) await logout(client);
  }, [client]);
  const token = useCallback(async () => (client ? getAccessToken(client) : null), [client]);
  return useMemo(
    () => ({ ready, authenticated, user, login, logout: doLogout, getAccessToken: token }),
    [ready, authenticated, user, login, doLogout, token],
  );
}
