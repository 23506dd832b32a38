import { type CustomAuthSyncStatus, syncCustomAuth } from "@symbolon/core";
import { useEffect } from "react";
import type { CustomAuthConfig } from "../provider/PrivyConfig";
import { usePrivyContext } from "../provider/usePrivyContext";
import { useClientState } from "./useClientState";

/**
 * The custom token sync driven by the provider's `config.customAuth` (read from the context's
 * config, which the provider passes through whole): runs core's `syncCustomAuth` on mount and when
 * `isLoading` or the getter changes, and returns its state (spec §4: not-enabled, initial, loading,
 * done, error). The provider mounts it when `config.customAuth` is set; calling it elsewhere only reads.
 */
export function useCustomAuth(): { status: CustomAuthSyncStatus; error: Error | null } {
  const { client, config } = usePrivyContext("useCustomAuth");
  const customAuth: CustomAuthConfig | undefined = config.customAuth;
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
