import { syncCustomAuth } from "@symbolon/core";
import { useEffect, useRef } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";

/** Parameters of {@link useSyncJwtBasedAuthState}. */
export interface SyncJwtBasedAuthStateParameters {
  /** Subscribes to the host's auth changes; returns the unsubscribe function. */
  subscribe: (onChange: () => void) => () => void;
  /** The host's JWT, or undefined when signed out. */
  getExternalJwt: () => Promise<string | null | undefined>;
}

/**
 * Runs the custom token sync of spec §4 on mount and on every change the host's `subscribe`
 * reports (an empty token logs out; an unchanged one is ignored).
 */
export function useSyncJwtBasedAuthState(parameters: SyncJwtBasedAuthStateParameters): void {
  const { client } = usePrivyContext("useSyncJwtBasedAuthState");
  const latest = useRef(parameters);
  latest.current = parameters;
  useEffect(() => {
    if (!client) return;
    const sync = () =>
      void syncCustomAuth(client, {
        getCustomAccessToken: () => latest.current.getExternalJwt(),
        isLoading: false,
      }).catch(() => {});
    sync();
    return latest.current.subscribe(sync);
  }, [client]);
}
