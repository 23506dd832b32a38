import { syncCustomAuth } from "@symbolon/core";
import { useEffect, useRef } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";

/** Parameters of {@link useSubscribeToJwtAuthWithFlag}. */
export interface SubscribeToJwtAuthWithFlagParameters {
  /** False turns the sync off. Default true. */
  enabled?: boolean;
  /** Whether the host's user is signed in; a change runs the sync. */
  isAuthenticated: boolean;
  /** True while the host is still finding out. */
  isLoading: boolean;
  /** The host's JWT, or undefined when signed out. */
  getExternalJwt: () => Promise<string | null | undefined>;
}

/**
 * Follows the host's sign-in flag with the custom token sync of spec §4 (core `syncCustomAuth`):
 * runs it on mount and whenever `isAuthenticated` or `isLoading` changes.
 */
export function useSubscribeToJwtAuthWithFlag(parameters: SubscribeToJwtAuthWithFlagParameters): void {
  const { client } = usePrivyContext("useSubscribeToJwtAuthWithFlag");
  const getter = useRef(parameters.getExternalJwt);
  getter.current = parameters.getExternalJwt;
  const { enabled = true, isAuthenticated, isLoading } = parameters;
  useEffect(() => {
    if (!client || !enabled) return;
    void syncCustomAuth(client, {
      getCustomAccessToken: () => (isAuthenticated ? getter.current() : Promise.resolve(null)),
      isLoading,
    }).catch(() => {});
  }, [client, enabled, isAuthenticated, isLoading]);
}
