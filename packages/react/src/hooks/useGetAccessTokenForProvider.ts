import { getAccessTokenForProvider } from "@symbolon/core";
import { useCallback } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";

/**
 * The provider access token of the last OAuth login with a provider (in memory only), or null
 * when there is none, it expired, or the user logged out: `getAccessTokenForProvider("google")`.
 */
export function useGetAccessTokenForProvider() {
  const { client } = usePrivyContext("useGetAccessTokenForProvider");
  const get = useCallback(
    async (provider: string): Promise<string | null> =>
      client ? getAccessTokenForProvider(client, provider) : null,
    [client],
  );
  return { getAccessTokenForProvider: get };
}
