import { type CustomAuthSyncStatus, syncCustomAuth } from "@symbolon/core";
import { useEffect } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { useClientState } from "./useClientState";

/** `config.customAuth` of the provider (spec §3 app config `customAuth`). */
export interface CustomAuthConfig {
  /** Default true when `getCustomAccessToken` is given. */
  enabled?: boolean;
  /** The host's JWT, or undefined when its user is signed out. */
  getCustomAccessToken: () => Promise<string | null | undefined>;
  /** True while the host is still finding out whether its user is signed in. */
  isLoading: boolean;
}

/**
 * The custom token sync driven by the provider's `config.customAuth` (read from the context's
 * config, which the provider passes through whole): runs core's `syncCustomAuth` on mount and when
 * `isLoading` or the getter changes, and returns its state (spec §4: not-enabled, initial, loading,
 * done, error). Mount it once, near the root.
 */
export function useCustomAuth(): { status: CustomAuthSyncStatus; error: Error | null } {
  const { client, config } = usePrivyContext("useCustomAuth");
  const customAuth = (config as { customAuth?: CustomAuthConfig }).customAuth;
  const enabled = customAuth !== undefined && customAuth.enabled !== false;
  const isLoading = customAuth?.isLoading ?? false;
  const fn = customAuth?.getCustomAccessToken;
  useEffect(() => {
    if (!client || !enabled) return;
    void syncCustomAuth(client, {
      getCustomAccessToken: () => fn?.() ?? Promise.resolve(null),
      isLoading,
    }).catch(() => {});
  }, [client, enabled, isLoading, fn]);
  const status = useClientState(
    "useCustomAuth",
    (s) => s.customAuthSync.status,
    "initial" as CustomAuthSyncStatus,
  );
  const error = useClientState("useCustomAuth", (s) => s.customAuthSync.error, null);
  return { status: enabled ? status : "not-enabled", error };
}
